"""QuerySets for the standings rows: the few query shapes the pages, API and tasks use."""

from __future__ import annotations

import datetime
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import connection, models
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from clubs.models import TableSeat

if TYPE_CHECKING:
    from .models import SessionStanding  # noqa: F401


# The refresh's two statements on the state rows, PostgreSQL only (elsewhere: the ORM, in a few
# more queries). Releasing returns the change counts in the same statement; stamping locks the
# rows, skips those a later computation has stored, and says which are stale, all at once.
# ``{table}`` and ``{key}`` are the state model's table and primary key column (quoted),
# ``{resets}`` sets its ``reset_when_computed`` columns to NULL.
_RELEASE_CLAIMS = """
    UPDATE {table} SET pending_since = NULL
    WHERE {key} = ANY(%s::bigint[])
    RETURNING {key}, dirty
"""
_MARK_COMPUTED = """
    UPDATE {table} AS state
    SET computed_dirty = seen.dirty, computed_at = %s, stale = state.dirty <> seen.dirty{resets}
    FROM unnest(%s::bigint[], %s::bigint[]) AS seen (key, dirty)
    WHERE state.{key} = seen.key AND state.computed_dirty <= seen.dirty
    RETURNING state.{key}, state.stale
"""


class RefreshStateQuerySet(models.QuerySet[Any]):
    """The refresh bookkeeping of rows derived from the deals, one state row per object they
    are derived for, keyed by that object's id (the state's primary key): a session's standings
    (``SessionStandingsState``), a club's ratings (``ClubRatingsState``). One mechanism for
    both: mark stale, claim the right to queue, release when the work starts, stamp when it is
    stored (docs/standings.md, docs/ratings.md)."""

    def _sql(self, template: str) -> str:
        quote = connection.ops.quote_name
        meta = self.model._meta
        resets = "".join(
            f", {quote(meta.get_field(name).column)} = NULL" for name in self._resets()
        )
        return template.format(table=quote(meta.db_table), key=quote(meta.pk.column), resets=resets)

    def _resets(self) -> tuple[str, ...]:
        return tuple(self.model.reset_when_computed)

    def mark_stale(self, key: int) -> None:
        """Say an object's derived rows are out of date: one cheap UPDATE (an INSERT the first
        time).

        Runs in the caller's transaction, so a rolled-back write marks nothing.
        """
        now = timezone.now()
        changes = {"stale": True, "dirty": F("dirty") + 1, "requested_at": now}
        if self.filter(pk=key).update(**changes):
            return
        self.bulk_create(
            [self.model(pk=key, stale=True, dirty=1, requested_at=now)],
            ignore_conflicts=True,
        )

    def claim(self, key: int, ttl: timedelta) -> bool:
        """Take the right to queue a refresh: True for one caller until a refresh starts.

        A claim older than ``ttl`` is taken over: its message was lost (a broker that restarted
        empty, a worker killed while holding it), so a new refresh must be queued.
        """
        now = timezone.now()
        free = Q(pending_since__isnull=True) | Q(pending_since__lt=now - ttl)
        return bool(self.filter(free, pk=key).update(pending_since=now))

    def release(self, key: int) -> None:
        """A refresh is starting (or could not be queued): the next write may queue again."""
        self.filter(pk=key).update(pending_since=None)

    def release_claims(self, keys: list[int]) -> dict[int, int]:
        """Refreshes of these objects are starting: give back their claims and return each
        one's change count (``dirty``) as it is at that moment (one statement on PostgreSQL)."""
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(self._sql(_RELEASE_CLAIMS), [keys])
                return dict(cursor.fetchall())
        self.filter(pk__in=keys, pending_since__isnull=False).update(pending_since=None)
        return dict(self.filter(pk__in=keys).values_list("pk", "dirty"))

    def mark_computed(self, seen: dict[int, int], at: datetime.datetime) -> dict[int, bool]:
        """Lock and stamp the state rows of freshly computed objects (``seen``: the change count
        each computation started from); return each one's ``stale`` (a write landed since).

        Stamping also empties the model's ``reset_when_computed`` fields. An object whose stored
        rows come from a later computation (it saw more changes) is neither stamped nor
        returned: its rows must stay. One statement on PostgreSQL. Run it in
        the transaction that writes the rows, so the row locks are held until they are stored.
        """
        if not seen:
            return {}
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(self._sql(_MARK_COMPUTED), [at, list(seen), list(seen.values())])
                return dict(cursor.fetchall())
        locked = self.select_for_update().filter(pk__in=list(seen))
        stale = {
            pk: dirty != seen[pk]
            for pk, dirty, computed in locked.values_list("pk", "dirty", "computed_dirty")
            if computed <= seen[pk]
        }
        fresh = [pk for pk, is_stale in stale.items() if not is_stale]
        resets = dict.fromkeys(self._resets())
        self.filter(pk__in=fresh).update(
            computed_dirty=F("dirty"), stale=False, computed_at=at, **resets
        )
        for pk in stale.keys() - set(fresh):
            self.filter(pk=pk).update(computed_dirty=seen[pk], stale=True, computed_at=at, **resets)
        return stale

    def needing_refresh(self, ttl: timedelta, also: Q | None = None) -> RefreshStateQuerySet:
        """Stale objects (or those matching ``also``) no live claim covers: the sweeper queues
        these."""
        cutoff = timezone.now() - ttl
        wanted = Q(stale=True) if also is None else Q(stale=True) | also
        return self.filter(wanted).filter(
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


def _left_early() -> Exists:
    """The player left the session early (RULES 6.3): their seat was given up (a substitute took
    it, or the room was re-planned without them) and they were not seated again. Read with the
    row, so a change at a table shows at once, whether or not it changed a result."""
    return Exists(
        TableSeat.objects.filter(
            session_id=OuterRef("session_id"), player_id=OuterRef("player_id"), active=False
        )
    )


class SessionStandingQuerySet(models.QuerySet["SessionStanding"]):
    def for_session(self, session_id: int) -> SessionStandingQuerySet:
        return (
            self.filter(session_id=session_id)
            .annotate(tied=_ties(), left_early=_left_early())
            .select_related("player")
            .order_by(F("rank").asc(nulls_last=True), "player_id")
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
            .order_by("-total_hundreds", "-total_net", "player_id")
        )
