"""QuerySets for the standings rows: the few query shapes the pages, API and tasks use."""

from __future__ import annotations

import datetime
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

if TYPE_CHECKING:
    from .models import SessionStanding, SessionStandingsState  # noqa: F401


class StandingsStateQuerySet(models.QuerySet["SessionStandingsState"]):
    def mark_stale(self, session_id: int) -> None:
        """Say a session's standings are out of date: one cheap UPDATE (an INSERT the first time).

        Runs in the caller's transaction, so a rolled-back write marks nothing.
        """
        now = timezone.now()
        changes = {"stale": True, "dirty": F("dirty") + 1, "requested_at": now}
        if self.filter(session_id=session_id).update(**changes):
            return
        self.bulk_create(
            [self.model(session_id=session_id, stale=True, dirty=1, requested_at=now)],
            ignore_conflicts=True,
        )

    def claim(self, session_id: int, ttl: timedelta) -> bool:
        """Take the right to queue a refresh: True for one caller until a refresh starts.

        A claim older than ``ttl`` is taken over: its message was lost (a broker that restarted
        empty, a worker killed while holding it), so a new refresh must be queued.
        """
        now = timezone.now()
        free = Q(pending_since__isnull=True) | Q(pending_since__lt=now - ttl)
        return bool(self.filter(free, session_id=session_id).update(pending_since=now))

    def release(self, session_id: int) -> None:
        """A refresh is starting (or could not be queued): the next write may queue again."""
        self.filter(session_id=session_id).update(pending_since=None)

    def needing_refresh(self, ttl: timedelta) -> StandingsStateQuerySet:
        """Stale sessions no live claim covers: the sweeper queues these."""
        cutoff = timezone.now() - ttl
        return self.filter(stale=True).filter(
            Q(pending_since__isnull=True) | Q(pending_since__lt=cutoff)
        )


def _ties() -> Coalesce:
    """A standing's ended matches that were tied (equal totals: no winner, RULES 8.3, 7.3)."""
    from .models import RubberResult

    ties = (
        RubberResult.objects.filter(
            session_id=OuterRef("session_id"),
            player_id=OuterRef("player_id"),
            provisional=False,
            net=0,
        )
        .order_by()
        .values("player_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(ties), 0)


class SessionStandingQuerySet(models.QuerySet["SessionStanding"]):
    def for_session(self, session_id: int) -> SessionStandingQuerySet:
        return (
            self.filter(session_id=session_id)
            .annotate(tied=_ties())
            .select_related("player")
            .order_by("rank", "player__name", "player_id")
        )

    def in_period(
        self, club_id: int, start: datetime.date | None, end: datetime.date | None
    ) -> SessionStandingQuerySet:
        rows = self.filter(club_id=club_id)
        if start is not None:
            rows = rows.filter(date__gte=start)
        if end is not None:
            rows = rows.filter(date__lte=end)
        return rows

    def leaderboard(self) -> models.QuerySet[Any]:
        """One row per player: sessions played, rubbers, won, hundreds and money, best first.

        Only sessions where the player finished a rubber count as played.
        """
        return (
            self.values("player_id", "player__name")
            .annotate(
                sessions=Count("id", filter=Q(rubbers__gt=0)),
                total_rubbers=Coalesce(Sum("rubbers"), 0),
                total_won=Coalesce(Sum("won"), 0),
                total_tied=Coalesce(Sum(_ties()), 0),
                total_hundreds=Coalesce(Sum("hundreds"), 0),
                total_net=Coalesce(Sum("net"), 0),
                total_money=Sum("money"),
            )
            .filter(sessions__gt=0)
            .order_by("-total_hundreds", "-total_net", "player__name", "player_id")
        )
