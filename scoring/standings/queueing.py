"""Queueing the derived rows' refreshes: mark stale, claim, publish after commit, sweep.

- ``queue_session_refresh`` runs in the writer's transaction: it marks the session stale (one
  UPDATE) and *claims* the right to queue a refresh (a second UPDATE ... WHERE no live claim);
  on PostgreSQL both, and the leaderboard's revision, are one statement.
  Only the claimer queues a task, after commit; the publish never raises and fails fast, so
  entry never waits on or fails with the broker.
- ``queue_club_ratings_refresh`` does the same for a club's ratings (docs/ratings.md).
- ``standings_queue_stale`` and ``ratings_queue_stale`` (every minute by beat) queue what a dead
  broker or a killed worker lost.

The refresh itself, and the rebuild, are ``scoring.standings.services``; docs/standings.md has
the full story.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q, Subquery
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from clubs.models import Session
from scoring.shared.cache import leaderboard_cache_seconds

from .models import ClubRatingsState, LeaderboardRevision, RefreshState, SessionStandingsState

logger = logging.getLogger(__name__)

# Monotonic time until which publishing is skipped after a failure (per process): with the
# broker down, only the first write in a while pays the (short) connection timeout.
_broker_down_until = 0.0


def _claim_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "STANDINGS_CLAIM_TTL", 120))


def _broker_backoff() -> float:
    return float(getattr(settings, "STANDINGS_BROKER_BACKOFF", 10))


@dataclass(frozen=True)
class _Derived:
    """Rows derived from the deals that the one refresh mechanism keeps: the state model whose
    rows track them (keyed by the id of the object they are derived for), the task that
    refreshes one object's rows, by its registered name (the tasks call these services, so this
    module imports none of them; the app registers them, ``ScoringConfig.ready``), and what they
    are called in the logs."""

    states: type[RefreshState]
    task: str
    label: str


STANDINGS = _Derived(
    SessionStandingsState, "scoring.tasks.refresh_session_standings", "standings of session"
)
RATINGS = _Derived(ClubRatingsState, "scoring.tasks.refresh_club_ratings", "ratings of club")


def queue_session_refresh(session_id: int) -> None:
    """Mark a session's standings stale and queue one refresh after the current commit.

    Called by every write that changes results. Twenty quick writes queue one refresh (the
    first claims it; the others find the claim). Never raises because of the broker. On
    PostgreSQL the mark, the claim and the club's leaderboard revision are one statement
    (``_queue_in_one``) once the session has its state row and the club its revision row.
    """
    states = SessionStandingsState.objects
    claimed = _queue_in_one(session_id) if connection.vendor == "postgresql" else None
    if claimed is None:
        states.mark_stale(session_id)
        if leaderboard_cache_seconds():
            _revise_session_leaderboard(session_id)
        claimed = states.claim(session_id, _claim_ttl())
    if claimed:
        transaction.on_commit(partial(_publish_refresh, session_id), robust=True)


#: ``queue_session_refresh`` in one statement: the state row marked stale and, when no live claim
#: holds it, claimed (``pending_since`` set to this call's time: the row returns that time only
#: to the call that set it), then the club's leaderboard revision raised (``{revise}``), in that
#: order, as a refresh takes those rows (the state, then the revision: no deadlock).
_QUEUE_IN_ONE = """
WITH state AS (
    UPDATE {state} SET stale = true, dirty = dirty + 1, requested_at = %(now)s,
        pending_since = CASE WHEN pending_since IS NULL OR pending_since < %(expired)s
            THEN %(now)s ELSE pending_since END
    WHERE {state_key} = %(session)s
    RETURNING pending_since = %(now)s AS claimed
){revise}
SELECT (SELECT claimed FROM state), {revised}
"""
_REVISE = """, revised AS (
    UPDATE {revision} SET revision = revision + 1, revised_at = %(now)s
    WHERE {revision_key} = (SELECT {club} FROM {session} WHERE {session_key} = %(session)s)
        AND EXISTS (SELECT FROM state)
    RETURNING 1
)"""


def _queue_in_one(session_id: int) -> bool | None:
    """Whether this call claimed the refresh, after marking (one statement, PostgreSQL); None
    when the session has no state row yet (nothing was written: the caller does it in steps).
    A club with no revision row yet gets it as ``revise_leaderboards`` makes it."""
    quote = connection.ops.quote_name
    state, revision = SessionStandingsState._meta, LeaderboardRevision._meta
    revise = bool(leaderboard_cache_seconds())
    sql = _QUEUE_IN_ONE.format(
        state=quote(state.db_table),
        state_key=quote(state.pk.column),
        revise=_REVISE if revise else "",
        revised="(SELECT count(*) FROM revised)" if revise else "1",
    ).format(
        revision=quote(revision.db_table),
        revision_key=quote(revision.pk.column),
        club=quote(Session._meta.get_field("club").column),
        session=quote(Session._meta.db_table),
        session_key=quote(Session._meta.pk.column),
    )
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(sql, {"now": now, "expired": now - _claim_ttl(), "session": session_id})
        claimed, revised = cursor.fetchone()
    if claimed is None:
        return None
    if not revised:
        _revise_session_leaderboard(session_id)
    return bool(claimed)


def revise_leaderboards(club_ids: Iterable[int]) -> None:
    """Give the clubs' cached leaderboards a new version (scoring/shared/cache.py), in the caller's
    transaction, after the rows the boards are read from: a rolled-back change revises nothing,
    a committed one is never missed."""
    ids = sorted(set(club_ids))
    now = timezone.now()
    if ids and LeaderboardRevision.objects.filter(pk__in=ids).update(
        revision=F("revision") + 1, revised_at=now
    ) < len(ids):
        _first_revisions(ids, now)


def _revise_session_leaderboard(session_id: int) -> None:
    """`revise_leaderboards` for the session's club: one UPDATE once the club has a row."""
    now = timezone.now()
    club = Session.objects.filter(pk=session_id).values("club_id")
    revisions = LeaderboardRevision.objects.filter(club_id=Subquery(club))
    if not revisions.update(revision=F("revision") + 1, revised_at=now):
        _first_revisions(list(club.values_list("club_id", flat=True)), now)


def _first_revisions(club_ids: list[int], now: datetime.datetime) -> None:
    """A club's first change: make its row, then count the change (again for clubs that had
    one: harmless), so that a concurrent first change is counted too."""
    LeaderboardRevision.objects.bulk_create(
        [LeaderboardRevision(club_id=pk, revised_at=now) for pk in club_ids], ignore_conflicts=True
    )
    LeaderboardRevision.objects.filter(pk__in=club_ids).update(
        revision=F("revision") + 1, revised_at=now
    )


def queue_club_ratings_refresh(club_id: int, *, publish: bool = True) -> None:
    """Mark a club's ratings stale and queue one refresh after the current commit, exactly as
    ``queue_session_refresh`` does for a session's standings (same claim, same coalescing).

    Called by the standings refresh when it changes the results of ended rubbers, in the
    transaction that stores them: the ratings refresh reads those results. The rebuild passes
    ``publish=False``: it marks and claims chunk by chunk, and queues each club once when every
    chunk is done (``publish_club_ratings_refreshes``), not once a chunk. Its claim keeps the
    sweep and other refreshes from queueing the club meanwhile; a rebuild that dies before its
    end leaves a claim the sweep takes over after ``STANDINGS_CLAIM_TTL``.
    """
    RATINGS.states.objects.mark_stale(club_id)
    if RATINGS.states.objects.claim(club_id, _claim_ttl()) and publish:
        transaction.on_commit(partial(_publish, RATINGS, club_id), robust=True)


def publish_club_ratings_refreshes(club_ids: Iterable[int]) -> None:
    """Queue one ratings refresh for each club, after the current commit (at once outside a
    transaction): the end of a rebuild, for the clubs its chunks marked stale."""
    for club_id in sorted(set(club_ids)):
        transaction.on_commit(partial(_publish, RATINGS, club_id), robust=True)


def _publish_refresh(session_id: int) -> bool:
    """Send a session's standings refresh (``_publish``)."""
    return _publish(STANDINGS, session_id)


def _publish(derived: _Derived, key: int) -> bool:
    """Send the refresh task; on any failure log, give the claim back and return False.

    Not ``delay_on_commit``: its send cannot be caught, and a dead broker must not reach the
    writer. The rows stay stale; the next write, the sweeper or the nightly rebuild retry.
    """
    global _broker_down_until
    if time.monotonic() < _broker_down_until:
        _release_quietly(derived, key)
        return False
    try:
        current_app.tasks[derived.task].apply_async((key,))
    except Exception as exc:
        # Only an unreachable broker trips the back-off; with eager Celery (no REDIS_URL) the
        # task runs right here, and its own failure must not stop later refreshes.
        if isinstance(exc, KombuOperationalError | OSError):
            _broker_down_until = time.monotonic() + _broker_backoff()
        logger.warning(
            "Could not queue the refresh of the %s %s; they stay stale until the next write, "
            "the minute sweep or the nightly rebuild.",
            derived.label,
            key,
            exc_info=True,
        )
        _release_quietly(derived, key)
        return False
    return True


def _release_quietly(derived: _Derived, key: int) -> None:
    try:
        derived.states.objects.release(key)
    except DatabaseError:
        logger.warning("Could not release the refresh claim of the %s %s", derived.label, key)


def _queue_stale(derived: _Derived, also: Q | None = None) -> list[int]:
    """Claim and queue a refresh of the stale objects (and those matching ``also``) no live claim
    covers; return the keys queued."""
    queued = []
    ttl = _claim_ttl()
    states = derived.states.objects
    for key in states.needing_refresh(ttl, also).values_list("pk", flat=True):
        if states.claim(key, ttl) and _publish(derived, key):
            queued.append(key)
    return queued


def standings_queue_stale() -> int:
    """Queue a refresh for every stale session no live claim covers, and for every session a
    rebuild queued more than ``STANDINGS_REBUILD_GRACE`` seconds ago that no computation has
    stored since (its chunk died with a worker, logged as a warning); return how many."""
    grace = timedelta(seconds=settings.STANDINGS_REBUILD_GRACE)
    overdue = Q(rebuild_queued_at__lt=timezone.now() - grace)
    late = set(SessionStandingsState.objects.filter(overdue).values_list("pk", flat=True))
    queued = _queue_stale(STANDINGS, overdue)
    if late.intersection(queued):
        logger.warning(
            "The rebuild queued sessions %s more than %s s ago and never stored them (a chunk "
            "lost with its worker?): refreshing them one by one.",
            sorted(late.intersection(queued)),
            settings.STANDINGS_REBUILD_GRACE,
        )
    return len(queued)


def ratings_queue_stale() -> int:
    """Queue a refresh for every club whose stale ratings no live claim covers; return how many."""
    return len(_queue_stale(RATINGS))
