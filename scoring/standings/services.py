"""Standings workflows: queue a refresh after a write, refresh a session, rebuild everything.

How it fits together (docs/standings.md has the full story):

- ``queue_session_refresh`` runs in the writer's transaction: it marks the session stale (one
  UPDATE) and *claims* the right to queue a refresh (a second UPDATE ... WHERE no live claim).
  Only the claimer queues a task, after commit; the publish never raises and fails fast, so
  entry never waits on or fails with the broker.
- The task releases the claim *before* it reads the deals, so any write that commits later
  queues exactly one more refresh; the writes in between coalesce into the queued one.
- The refresh computes from the deals (the engine's scoresheets), then locks the state row and
  replaces the rows that differ. A ``dirty`` counter tells whether a write landed meanwhile
  (then the rows stay ``stale`` and the next refresh is already queued).
- When the results of ended rubbers change, the refresh queues the club's ratings the same way
  (``queue_club_ratings_refresh``, one ``ClubRatingsState`` per club; docs/ratings.md).
- ``standings_queue_stale`` (every minute by beat) and the nightly rebuild (a
  ``standings_rebuild_chunk`` per 200 sessions, fanned out over the workers by
  ``scoring.standings.tasks.fan_out_standings_rebuild``) catch up whatever a dead broker or a killed
  worker lost. The rebuild stamps the sessions it queues; the sweep refreshes those no
  computation has stored within ``STANDINGS_REBUILD_GRACE`` (a chunk that died with its worker).
  A computation that fails clears the stamp too: its failure is reported, not swept for ever.
"""

from __future__ import annotations

import datetime
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from functools import lru_cache, partial
from typing import Any, NamedTuple

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q, Subquery
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from clubs.models import Player, Session, TableSeat
from games import sheets
from games.models import Deal, DealFields, Rubber
from scoring.rules import DealInput, HouseRules, ScoringError
from scoring.rules.ranking import Entry, rank_entries
from scoring.rules.settlement import player_money, settle
from scoring.shared.cache import leaderboard_cache_seconds

from .models import (
    ClubRatingsState,
    LeaderboardRevision,
    RefreshState,
    RubberResult,
    SessionPayment,
    SessionStanding,
    SessionStandingsState,
)

logger = logging.getLogger(__name__)

# Monotonic time until which publishing is skipped after a failure (per process): with the
# broker down, only the first write in a while pays the (short) connection timeout.
_broker_down_until = 0.0


def _claim_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "STANDINGS_CLAIM_TTL", 120))


def _broker_backoff() -> float:
    return float(getattr(settings, "STANDINGS_BROKER_BACKOFF", 10))


# --- queueing ------------------------------------------------------------------------------------


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
    first claims it; the others find the claim). Never raises because of the broker.
    """
    states = SessionStandingsState.objects
    states.mark_stale(session_id)
    if leaderboard_cache_seconds():
        _revise_session_leaderboard(session_id)
    if states.claim(session_id, _claim_ttl()):
        transaction.on_commit(partial(_publish_refresh, session_id), robust=True)


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


def queue_club_ratings_refresh(club_id: int) -> None:
    """Mark a club's ratings stale and queue one refresh after the current commit, exactly as
    ``queue_session_refresh`` does for a session's standings (same claim, same coalescing).

    Called by the standings refresh when it changes the results of ended rubbers, in the
    transaction that stores them: the ratings refresh reads those results.
    """
    RATINGS.states.objects.mark_stale(club_id)
    if RATINGS.states.objects.claim(club_id, _claim_ttl()):
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


# --- computing -----------------------------------------------------------------------------------
#
# Reads are by values (no model instance per deal) and batched per group of sessions: a session
# costs a handful of queries whatever its size, and the nightly rebuild reads and writes
# ``STANDINGS_REBUILD_CHUNK`` sessions at a time (default 200: few queries, bounded memory;
# docs/benchmarks.md measures it at a million deals).

_RESULT_FIELDS = (
    "rubber_id",
    "player_id",
    "date",
    "table_number",
    "rubber_number",
    "seat",
    "side",
    "status",
    "provisional",
    "deals",
    "points",
    "net",
    "hundreds",
    "won",
    "money",
)
_PROVISIONAL = _RESULT_FIELDS.index("provisional")
_STANDING_FIELDS = (
    "player_id",
    "date",
    "rank",
    "table_number",
    "table_rank",
    "prize_choice",
    "rubbers",
    "won",
    "points",
    "net",
    "hundreds",
    "money",
    "running_points",
    "running_hundreds",
)
_PAYMENT_FIELDS = ("position", "payer_id", "payee_id", "amount")
_SIDES = ("NS", "EW")  # a place (0 NS or player 0, 1 EW or player 1) as the stored side
_DEAL_FIELDS = ("contract", "declarer", "tricks", "honours_side", "honours_points")


@dataclass
class Computed:
    """A session's standings as freshly computed: the rows to store, each a tuple in the order of
    ``_RESULT_FIELDS``, ``_STANDING_FIELDS`` or ``_PAYMENT_FIELDS`` (compared with the stored rows
    as they are; a model instance is built only for a row that must be written)."""

    session_id: int
    club_id: int
    results: list[tuple[Any, ...]] = field(default_factory=list)
    standings: list[tuple[Any, ...]] = field(default_factory=list)
    payments: list[tuple[Any, ...]] = field(default_factory=list)


class _DealRow:
    """A stored deal as ``games.sheets.score`` reads it, without a model instance."""

    __slots__ = ("data", "facts")

    def __init__(self, facts: tuple[Any, ...], data: Any) -> None:
        self.facts = facts
        self.data = data

    def as_input(self) -> DealInput:
        return _deal_input(self.facts)


@lru_cache(maxsize=65536)
def _deal_input(facts: tuple[Any, ...]) -> DealInput:
    """The engine's (frozen, validated) input for a four-player deal's stored facts; a club's
    deals repeat a few thousand distinct facts, so each is parsed once."""
    return DealFields(*facts).as_input()


@lru_cache(maxsize=256)
def _options(rules: str) -> HouseRules:
    return HouseRules.from_dict(json.loads(rules))


def _house_rules(rules: dict[str, Any] | None) -> HouseRules:
    return _options(json.dumps(rules, sort_keys=True))


def _ranking(rules: dict[str, Any]) -> str:
    """The session's ``pivot_ranking`` (``Session.house_rules``); "net" if its rules are bad."""
    try:
        return _house_rules(rules).pivot_ranking
    except ScoringError:
        return "net"


class _SessionRow(NamedTuple):
    """What the computation reads of a session."""

    pk: int
    club_id: int
    date: datetime.date
    stake_per_hundred: Decimal
    rules: dict[str, Any]


def standings_compute(*, session_id: int) -> Computed | None:
    """Every result row of a session from its deals, by the engine; None if it is gone.

    Ended rubbers (complete, unfinished) count; a rubber in play is provisional: shown with its
    running score, left out of totals, ranks and money (docs/standings.md).
    """
    return _compute_sessions([session_id]).get(session_id)


def _compute_sessions(session_ids: list[int]) -> dict[int, Computed]:
    """``standings_compute`` for many sessions at once, in six queries whatever their number."""
    sessions = [
        _SessionRow(*row)
        for row in Session.objects.filter(pk__in=session_ids)
        .order_by("pk")
        .values_list(*_SessionRow._fields)
    ]
    if not sessions:
        return {}
    ids = [s.pk for s in sessions]
    seat_table: dict[int, dict[int, int]] = {pk: {} for pk in ids}
    names: dict[int, dict[int, str]] = {pk: {} for pk in ids}
    all_names: dict[int, str] = {}
    for session_id, player_id, number, name in (
        TableSeat.objects.filter(session_id__in=ids)
        .order_by("session_id", "table_id", "position")
        .values_list("session_id", "player_id", "table__number", "player__name")
    ):
        seat_table[session_id][player_id] = number
        names[session_id][player_id] = name
        all_names[player_id] = name
    rubbers = list(
        Rubber.objects.filter(session_id__in=ids)
        .order_by("session_id", "table__number", "number")
        .values_list(
            "pk",
            "session_id",
            "table__number",
            "number",
            "kind",
            "status",
            "rules",
            "north_id",
            "east_id",
            "south_id",
            "west_id",
        )
    )
    deals: dict[int, list[_DealRow]] = {}
    for rubber_id, data, *facts in (
        Deal.objects.filter(rubber__session_id__in=ids)
        .order_by("rubber_id", "number")
        .values_list("rubber_id", "data", *_DEAL_FIELDS)
    ):
        deals.setdefault(rubber_id, []).append(_DealRow(tuple(facts), data))
    unnamed = {pid for r in rubbers for pid in r[7:] if pid is not None} - all_names.keys()
    if unnamed:
        all_names.update(Player.objects.filter(pk__in=unnamed).values_list("pk", "name"))

    by_session: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in ids}
    for rubber in rubbers:
        by_session[rubber[1]].append(rubber)
    computed = {}
    for session in sessions:
        computed[session.pk] = _compute_session(
            session,
            by_session[session.pk],
            deals,
            seat_table[session.pk],
            names[session.pk],
            all_names,
            sheets,
        )
    return computed


def _compute_session(
    session: _SessionRow,
    rubbers: list[tuple[Any, ...]],
    deals: dict[int, list[_DealRow]],
    seat_table: dict[int, int],
    names: dict[int, str],
    all_names: dict[int, str],
    sheets: Any,
) -> Computed:
    in_play, unfinished = "in_play", "unfinished"  # games.models.Rubber.Status
    session_id, club_id, date = session.pk, session.club_id, session.date
    stake = session.stake_per_hundred
    computed = Computed(session_id=session_id, club_id=club_id)
    totals: dict[int, dict[str, int]] = {pid: _zero() for pid in names}
    running: dict[int, dict[str, int]] = {}
    last_rules, options = None, None
    for rubber_id, _, table, number, kind, status, rules, *seat_ids in rubbers:
        rows = deals.get(rubber_id)
        if not rows:
            continue
        if rules != last_rules or options is None:  # a session's rubbers share their rules
            last_rules, options = rules, _house_rules(rules)
        seats = {"N": seat_ids[0], "E": seat_ids[1]}
        if not sheets.is_two_player(kind):
            seats.update(S=seat_ids[2], W=seat_ids[3])
        result = sheets.score(kind, rows, closed=status == unfinished, options=options).result
        provisional = status == in_play
        places = {pid: sheets.PLACE_OF_SEAT[seat] for seat, pid in seats.items()}
        hundreds = {pid: result.hundreds[place] for pid, place in places.items()}
        money = player_money(hundreds, stake)
        bucket = running if provisional else totals
        for seat, pid in seats.items():
            place = places[pid]
            names.setdefault(pid, all_names[pid])
            seat_table.setdefault(pid, table)
            won = result.winner == place
            points, net = result.totals[place], result.net[place]
            computed.results.append(
                (
                    rubber_id,
                    pid,
                    date,
                    table,
                    number,
                    seat,
                    _SIDES[place],
                    status,
                    provisional,
                    len(rows),
                    points,
                    net,
                    hundreds[pid],
                    won,
                    money[pid],
                )
            )
            tally = bucket.setdefault(pid, _zero())
            tally["rubbers"] += 1
            tally["won"] += won
            tally["points"] += points
            tally["net"] += net
            tally["hundreds"] += hundreds[pid]
            totals.setdefault(pid, _zero())
    session_money = player_money({pid: t["hundreds"] for pid, t in totals.items()}, stake)
    # RULES 6.3: a player with no result row (no deal in any rubber, ended or in play) is
    # listed apart, unranked.
    played = {row[1] for row in computed.results}
    entries = [
        Entry(
            player=pid,
            table=seat_table.get(pid),
            rubbers=t["rubbers"],
            points=t["points"],
            net=t["net"],
            hundreds=t["hundreds"],
            played=pid in played,
        )
        for pid, t in totals.items()
    ]
    for placing in rank_entries(entries, _ranking(session.rules)):  # type: ignore[arg-type]
        t = totals[placing.player]
        now = running.get(placing.player)
        computed.standings.append(
            (
                placing.player,
                date,
                placing.rank,
                seat_table.get(placing.player),
                placing.table_rank,
                placing.prize_choice,
                t["rubbers"],
                t["won"],
                t["points"],
                t["net"],
                t["hundreds"],
                session_money[placing.player],
                now["points"] if now else None,
                now["hundreds"] if now else None,
            )
        )
    hundreds_final = {pid: t["hundreds"] for pid, t in totals.items()}
    for position, payment in enumerate(settle(hundreds_final, stake), start=1):
        computed.payments.append((position, payment.payer, payment.payee, payment.amount))
    return computed


def _zero() -> dict[str, int]:
    return {"rubbers": 0, "won": 0, "points": 0, "net": 0, "hundreds": 0}


# --- storing -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RefreshOutcome:
    session_id: int
    written: bool
    changed: tuple[str, ...] = ()
    stale: bool = False


def standings_refresh(*, session_id: int) -> RefreshOutcome:
    """Recompute a session's standings from its deals and store the rows that differ.

    Idempotent: running it twice changes nothing. Safe beside concurrent writes and a second
    refresh of the same session (see the module docstring). One that fails clears the session's
    rebuild stamp (``_give_up_rebuild``) and raises.
    """
    try:
        outcome = _refresh_sessions([session_id], _compute_one)[session_id]
    except Exception:
        _give_up_rebuild(session_id)
        raise
    if outcome.changed:
        logger.info(
            "Standings of session %s refreshed: %s changed", session_id, ", ".join(outcome.changed)
        )
    return outcome


def _give_up_rebuild(session_id: int) -> None:
    """A computation of the session failed: clear the stamp a rebuild left on it, so the minute
    sweep does not queue it again and again as a chunk lost with its worker. The failure is
    reported where it happened (the rebuild's summary lists it under ``failed``; a refresh's
    error is logged); a stamp cleared here is named in a warning. The next nightly rebuild tries
    the session again, and a write to it queues a refresh as always."""
    try:
        cleared = SessionStandingsState.objects.filter(
            pk=session_id, rebuild_queued_at__isnull=False
        ).update(rebuild_queued_at=None)
    except DatabaseError:
        return  # the database that failed the computation: the stamp stays, the sweep retries
    if cleared:
        logger.warning(
            "Computing the standings of session %s failed; the minute sweep will not retry it "
            "for the rebuild (the next nightly rebuild will).",
            session_id,
        )


def _compute_one(session_ids: list[int]) -> dict[int, Computed]:
    # Through the module's name, so a test can stand in for the computation.
    computed = standings_compute(session_id=session_ids[0])
    return {} if computed is None else {session_ids[0]: computed}


def _refresh_sessions(
    session_ids: list[int], compute: Callable[[list[int]], dict[int, Computed]]
) -> dict[int, RefreshOutcome]:
    """Refresh these sessions together: release their claims, remember how many changes each
    had, compute, then under the lock of their state rows store what differs (module docstring).
    """
    states = SessionStandingsState.objects
    seen = states.release_claims(session_ids)
    computed = compute(session_ids)
    outcomes = {pk: RefreshOutcome(pk, written=False) for pk in session_ids if pk not in computed}
    missing = [pk for pk in computed if pk not in seen]
    if missing:
        states.bulk_create(
            [SessionStandingsState(session_id=pk) for pk in missing], ignore_conflicts=True
        )
        seen.update(dict.fromkeys(missing, 0))
    with transaction.atomic():
        stale = states.mark_computed({pk: seen[pk] for pk in computed}, timezone.now())
        current = {pk: rows for pk, rows in computed.items() if pk in stale}
        overtaken = [pk for pk in computed if pk not in stale]
        if overtaken:
            # A refresh that started later (and so saw more) has already stored its rows.
            for pk, is_stale in states.filter(session_id__in=overtaken).values_list(
                "session_id", "stale"
            ):
                outcomes[pk] = RefreshOutcome(pk, written=False, stale=is_stale)
        changes = _differences(current)
        rated = _ended_results_changed(current, changes)
        _write(current, changes)
        for club_id in sorted({current[pk].club_id for pk in rated}):
            queue_club_ratings_refresh(club_id)
        for pk in current:
            outcomes[pk] = RefreshOutcome(pk, written=True, changed=changes[pk], stale=stale[pk])
        if leaderboard_cache_seconds():
            revise_leaderboards(rows.club_id for rows in current.values())
    return outcomes


def standings_differences(*, session_id: int) -> tuple[str, ...]:
    """The kinds of stored rows ("results", "standings", "payments") that a fresh computation
    would change; nothing is written."""
    computed = standings_compute(session_id=session_id)
    if computed is None:
        return ()
    return _differences({session_id: computed})[session_id]


def _kinds() -> tuple[tuple[str, Any, tuple[str, ...], bool], ...]:
    """(name, model, compared fields, has a club column) of each kind of stored row."""
    return (
        ("results", RubberResult, _RESULT_FIELDS, True),
        ("standings", SessionStanding, _STANDING_FIELDS, True),
        ("payments", SessionPayment, _PAYMENT_FIELDS, False),
    )


def _differences(computed: dict[int, Computed]) -> dict[int, tuple[str, ...]]:
    """Per session, the kinds whose stored rows differ from the computed ones (one read a kind)."""
    changed: dict[int, list[str]] = {pk: [] for pk in computed}
    if not computed:
        return {}
    for name, model, fields, _ in _kinds():
        stored: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in computed}
        rows = model.objects.filter(session_id__in=list(computed)).order_by()
        for session_id, *row in rows.values_list("session_id", *fields):
            stored[session_id].append(tuple(row))
        for pk, rows_now in computed.items():
            if sorted(stored[pk]) != sorted(getattr(rows_now, name)):
                changed[pk].append(name)
    return {pk: tuple(kinds) for pk, kinds in changed.items()}


def _ended_results_changed(
    computed: dict[int, Computed], changes: dict[int, tuple[str, ...]]
) -> list[int]:
    """The sessions whose results of ended rubbers (what the ratings replay) differ from the
    stored ones: a deal entered in a rubber still in play changes no rating."""
    ids = [pk for pk, kinds in changes.items() if "results" in kinds]
    if not ids:
        return []
    stored: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in ids}
    rows = RubberResult.objects.filter(session_id__in=ids, provisional=False).order_by()
    for session_id, *row in rows.values_list("session_id", *_RESULT_FIELDS):
        stored[session_id].append(tuple(row))
    ended = [
        pk
        for pk in ids
        if sorted(stored[pk]) != sorted(r for r in computed[pk].results if not r[_PROVISIONAL])
    ]
    return ended


def _write(computed: dict[int, Computed], changes: dict[int, tuple[str, ...]]) -> None:
    """Replace the stored rows of each changed kind (one DELETE and one bulk INSERT a kind)."""
    for name, model, fields, with_club in _kinds():
        session_ids = [pk for pk, kinds in changes.items() if name in kinds]
        if not session_ids:
            continue
        model.objects.filter(session_id__in=session_ids).delete()
        columns = ("session_id", "club_id", *fields) if with_club else ("session_id", *fields)
        rows = []
        for pk in session_ids:
            head = (pk, computed[pk].club_id) if with_club else (pk,)
            rows += [(*head, *row) for row in getattr(computed[pk], name)]
        _insert(model, columns, rows)


def _insert(model: Any, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
    """A bulk INSERT: PostgreSQL's COPY (many times faster than INSERT for the rebuild's hundreds
    of thousands of rows), ``bulk_create`` elsewhere."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=500
        )
        return
    quote = connection.ops.quote_name
    names = ", ".join(quote(model._meta.get_field(c).column) for c in columns)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(  # the psycopg cursor
            f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN"
        ) as copy,
    ):
        for row in rows:
            copy.write_row(row)


def standings_rebuild_all(*, chunk: int | None = None) -> dict[str, Any]:
    """Recompute every session; report the sessions whose stored standings were wrong.

    The nightly safety net: a lost refresh, a hand edit or a bug shows up as a difference
    (logged as a warning) and is repaired. Sessions go ``chunk`` at a time (bounded memory, a
    few queries a chunk), one chunk after the other in this process; the nightly task fans the
    same chunks out over the workers instead
    (``scoring.standings.tasks.fan_out_standings_rebuild``).
    Returns a JSON-safe summary.
    """
    started = time.time()
    chunks = standings_rebuild_begin(chunk=chunk)
    parts = [standings_rebuild_chunk(session_ids=ids) for ids in chunks]
    return standings_rebuild_summary(parts=parts, sessions=sum(map(len, chunks)), started=started)


def standings_rebuild_begin(*, chunk: int | None = None) -> list[list[int]]:
    """Every session's id, in chunks of ``chunk`` (``STANDINGS_REBUILD_CHUNK`` by default; each
    chunk is rebuilt on its own), each session stamped as queued by this rebuild.

    Storing a computation of a session clears its stamp; one still there
    ``STANDINGS_REBUILD_GRACE`` seconds later belongs to a chunk that died with its worker (its
    acks-late message comes back only after the broker's visibility timeout, an hour), and the
    minute sweep refreshes the session (``standings_queue_stale``). A session with no state row
    (not started, or a process killed between its first write and the mark) is not stamped:
    that chunk, or the next rebuild, gives it one.
    """
    chunk = chunk or settings.STANDINGS_REBUILD_CHUNK
    session_ids = list(Session.objects.order_by("pk").values_list("pk", flat=True))
    chunks = [session_ids[start : start + chunk] for start in range(0, len(session_ids), chunk)]
    now = timezone.now()
    for ids in chunks:  # before any chunk is sent, so a chunk's store always clears its stamps
        SessionStandingsState.objects.filter(pk__in=ids).update(rebuild_queued_at=now)
    return chunks


def standings_rebuild_chunk(*, session_ids: list[int]) -> dict[str, Any]:
    """Recompute and repair a chunk of sessions together; a chunk that fails is retried session
    by session, so one bad session is reported alone. Returns the differences found (session id
    as a string: the kinds of rows repaired) and the sessions that failed, JSON-safe."""
    try:
        outcomes = _refresh_sessions(session_ids, _compute_sessions)
    except (DatabaseError, ScoringError):
        outcomes = {}
        failed = []
        for session_id in session_ids:
            try:
                outcomes[session_id] = standings_refresh(session_id=session_id)
            except (DatabaseError, ScoringError):
                logger.exception("Rebuilding the standings of session %s failed", session_id)
                failed.append(session_id)
    else:
        failed = []
    differences = {
        str(pk): list(outcome.changed) for pk, outcome in outcomes.items() if outcome.changed
    }
    return {"differences": differences, "failed": failed}


def standings_rebuild_summary(
    *, parts: list[dict[str, Any]], sessions: int, started: float
) -> dict[str, Any]:
    """The rebuild's summary from its chunks' results (``started``: ``time.time()`` when it
    began); logs the repaired sessions as a warning."""
    differences: dict[str, list[str]] = {}
    failed: list[int] = []
    for part in parts:
        differences.update(part["differences"])
        failed += part["failed"]
    if differences:
        logger.warning("Nightly rebuild repaired the standings of sessions %s", differences)
    return {
        "sessions": sessions,
        "repaired": len(differences),
        "differences": differences,
        "failed": failed,
        "seconds": round(time.time() - started, 3),
    }
