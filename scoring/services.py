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
- ``standings_queue_stale`` (every minute by beat) and the nightly ``standings_rebuild_all``
  catch up whatever a dead broker or a killed worker lost.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from clubs.models import Session, TableSeat
from scoring.rules import ScoringError, Side
from scoring.rules.settlement import player_money, settle

from .models import RubberResult, SessionPayment, SessionStanding, SessionStandingsState
from .ranking import Entry, rank_entries

logger = logging.getLogger(__name__)

_SEAT_SIDE = {"N": Side.NS, "S": Side.NS, "E": Side.EW, "W": Side.EW}
# Monotonic time until which publishing is skipped after a failure (per process): with the
# broker down, only the first write in a while pays the (short) connection timeout.
_broker_down_until = 0.0


def _claim_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "STANDINGS_CLAIM_TTL", 120))


def _broker_backoff() -> float:
    return float(getattr(settings, "STANDINGS_BROKER_BACKOFF", 10))


# --- queueing ------------------------------------------------------------------------------------


def queue_session_refresh(session_id: int) -> None:
    """Mark a session's standings stale and queue one refresh after the current commit.

    Called by every write that changes results. Twenty quick writes queue one refresh (the
    first claims it; the others find the claim). Never raises because of the broker.
    """
    states = SessionStandingsState.objects
    states.mark_stale(session_id)
    if states.claim(session_id, _claim_ttl()):
        transaction.on_commit(partial(_publish_refresh, session_id), robust=True)


def _publish_refresh(session_id: int) -> bool:
    """Send the refresh task; on any failure log, give the claim back and return False.

    Not ``delay_on_commit``: its send cannot be caught, and a dead broker must not reach the
    writer. The standings stay stale; the next write, the sweeper or the nightly rebuild retry.
    """
    global _broker_down_until
    from .tasks import refresh_session_standings

    if time.monotonic() < _broker_down_until:
        _release_quietly(session_id)
        return False
    try:
        refresh_session_standings.apply_async((session_id,))
    except Exception as exc:
        # Only an unreachable broker trips the back-off; with eager Celery (no REDIS_URL) the
        # task runs right here, and its own failure must not stop later refreshes.
        if isinstance(exc, KombuOperationalError | OSError):
            _broker_down_until = time.monotonic() + _broker_backoff()
        logger.warning(
            "Could not queue the standings refresh of session %s; they stay stale until the "
            "next write, the minute sweep or the nightly rebuild.",
            session_id,
            exc_info=True,
        )
        _release_quietly(session_id)
        return False
    return True


def _release_quietly(session_id: int) -> None:
    try:
        SessionStandingsState.objects.release(session_id)
    except DatabaseError:
        logger.warning("Could not release the refresh claim of session %s", session_id)


def standings_queue_stale() -> int:
    """Queue a refresh for every stale session no live claim covers; return how many."""
    queued = 0
    ttl = _claim_ttl()
    for session_id in SessionStandingsState.objects.needing_refresh(ttl).values_list(
        "session_id", flat=True
    ):
        if SessionStandingsState.objects.claim(session_id, ttl) and _publish_refresh(session_id):
            queued += 1
    return queued


# --- computing -----------------------------------------------------------------------------------


@dataclass
class Computed:
    """A session's standings as freshly computed: the rows to store, as comparable tuples."""

    session: Session
    results: list[RubberResult] = field(default_factory=list)
    standings: list[SessionStanding] = field(default_factory=list)
    payments: list[SessionPayment] = field(default_factory=list)


def _ranking(session: Session) -> str:
    try:
        return session.house_rules().pivot_ranking
    except ScoringError:
        return "net"


def standings_compute(*, session_id: int) -> Computed | None:
    """Every result row of a session from its deals, by the engine; None if it is gone.

    Ended rubbers (complete, unfinished) count; a rubber in play is provisional: shown with its
    running score, left out of totals, ranks and money (docs/standings.md).
    """
    from games.models import Rubber

    session = Session.objects.select_related("club").filter(pk=session_id).first()
    if session is None:
        return None
    stake = session.stake_per_hundred
    computed = Computed(session=session)
    seat_table: dict[int, int] = {}
    names: dict[int, str] = {}
    seats = TableSeat.objects.filter(session_id=session_id).select_related("table", "player")
    for table_seat in seats:
        seat_table[table_seat.player_id] = table_seat.table.number
        names[table_seat.player_id] = table_seat.player.name
    totals: dict[int, dict[str, int]] = {pid: _zero() for pid in names}
    running: dict[int, dict[str, int]] = {}
    for rubber in (
        Rubber.objects.filter(session_id=session_id)
        .with_deals()
        .order_by("table__number", "number")
    ):
        deals = list(rubber.deals.all())
        if not deals:
            continue
        sheet = rubber.scoresheet(deals)
        provisional = rubber.status == Rubber.Status.IN_PLAY
        by_side = sheet.back_score_hundreds
        hundreds = {pid: by_side[_SEAT_SIDE[seat]] for seat, pid in rubber.seat_ids.items()}
        money = player_money(hundreds, stake)
        for seat, player in rubber.seats.items():
            side = _SEAT_SIDE[seat]
            names.setdefault(player.pk, player.name)
            seat_table.setdefault(player.pk, rubber.table.number)
            row = RubberResult(
                rubber_id=rubber.pk,
                session_id=session_id,
                club_id=session.club_id,
                player_id=player.pk,
                date=session.date,
                table_number=rubber.table.number,
                rubber_number=rubber.number,
                seat=seat,
                side=side.value,
                status=rubber.status,
                provisional=provisional,
                deals=len(deals),
                points=sheet.totals[side],
                net=sheet.net[side],
                hundreds=hundreds[player.pk],
                won=sheet.points_leader is side,
                money=money[player.pk],
            )
            computed.results.append(row)
            bucket = running if provisional else totals
            tally = bucket.setdefault(player.pk, _zero())
            tally["rubbers"] += 1
            tally["won"] += row.won
            tally["points"] += row.points
            tally["net"] += row.net
            tally["hundreds"] += row.hundreds
            totals.setdefault(player.pk, _zero())
    session_money = player_money({pid: t["hundreds"] for pid, t in totals.items()}, stake)
    entries = [
        Entry(
            player=pid,
            name=names[pid],
            table=seat_table.get(pid),
            rubbers=t["rubbers"],
            points=t["points"],
            net=t["net"],
            hundreds=t["hundreds"],
        )
        for pid, t in totals.items()
    ]
    for placing in rank_entries(entries, _ranking(session)):  # type: ignore[arg-type]
        t = totals[placing.player]
        now = running.get(placing.player)
        computed.standings.append(
            SessionStanding(
                session_id=session_id,
                club_id=session.club_id,
                player_id=placing.player,
                date=session.date,
                rank=placing.rank,
                table_number=seat_table.get(placing.player),
                table_rank=placing.table_rank,
                prize_choice=placing.prize_choice,
                rubbers=t["rubbers"],
                won=t["won"],
                points=t["points"],
                net=t["net"],
                hundreds=t["hundreds"],
                money=session_money[placing.player],
                running_points=now["points"] if now else None,
                running_hundreds=now["hundreds"] if now else None,
            )
        )
    hundreds_final = {pid: t["hundreds"] for pid, t in totals.items()}
    for position, payment in enumerate(settle(hundreds_final, stake), start=1):
        computed.payments.append(
            SessionPayment(
                session_id=session_id,
                position=position,
                payer_id=payment.payer,
                payee_id=payment.payee,
                amount=payment.amount,
            )
        )
    return computed


def _zero() -> dict[str, int]:
    return {"rubbers": 0, "won": 0, "points": 0, "net": 0, "hundreds": 0}


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


def _rows(objects: list[Any], fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    return sorted(tuple(getattr(o, f) for f in fields) for o in objects)


def _stored(model: Any, session_id: int, fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    return sorted(model.objects.filter(session_id=session_id).values_list(*fields))


@dataclass(frozen=True)
class RefreshOutcome:
    session_id: int
    written: bool
    changed: tuple[str, ...] = ()
    stale: bool = False


def standings_refresh(*, session_id: int) -> RefreshOutcome:
    """Recompute a session's standings from its deals and store the rows that differ.

    Idempotent: running it twice changes nothing. Safe beside concurrent writes and a second
    refresh of the same session (see the module docstring).
    """
    states = SessionStandingsState.objects
    states.release(session_id)
    seen = states.filter(session_id=session_id).values_list("dirty", flat=True).first()
    if seen is None:
        if not Session.objects.filter(pk=session_id).exists():
            return RefreshOutcome(session_id, written=False)
        states.get_or_create(session_id=session_id)
        seen = 0
    computed = standings_compute(session_id=session_id)
    if computed is None:
        return RefreshOutcome(session_id, written=False)
    with transaction.atomic():
        state = states.select_for_update().get(session_id=session_id)
        if state.computed_dirty > seen:
            # A refresh that started later (and so saw more) has already stored its rows.
            return RefreshOutcome(session_id, written=False, stale=state.stale)
        changed = _replace(session_id, computed)
        state.computed_dirty = seen
        state.stale = state.dirty != seen
        state.computed_at = timezone.now()
        state.save(update_fields=["computed_dirty", "stale", "computed_at"])
    if changed:
        logger.info("Standings of session %s refreshed: %s changed", session_id, ", ".join(changed))
    return RefreshOutcome(session_id, written=True, changed=changed, stale=state.stale)


def standings_differences(*, session_id: int) -> tuple[str, ...]:
    """The kinds of stored rows ("results", "standings", "payments") that a fresh computation
    would change; nothing is written."""
    computed = standings_compute(session_id=session_id)
    if computed is None:
        return ()
    return tuple(
        name
        for name, model, objects, fields in _kinds(computed)
        if _stored(model, session_id, fields) != _rows(objects, fields)
    )


def _kinds(computed: Computed) -> list[tuple[str, Any, list[Any], tuple[str, ...]]]:
    return [
        ("results", RubberResult, computed.results, _RESULT_FIELDS),
        ("standings", SessionStanding, computed.standings, _STANDING_FIELDS),
        ("payments", SessionPayment, computed.payments, _PAYMENT_FIELDS),
    ]


def _replace(session_id: int, computed: Computed) -> tuple[str, ...]:
    """Replace each kind of row whose stored content differs from the computation."""
    changed = []
    for name, model, objects, fields in _kinds(computed):
        if _stored(model, session_id, fields) == _rows(objects, fields):
            continue
        model.objects.filter(session_id=session_id).delete()
        model.objects.bulk_create(objects)
        changed.append(name)
    return tuple(changed)


def standings_rebuild_all() -> dict[str, Any]:
    """Recompute every session; report the sessions whose stored standings were wrong.

    The nightly safety net: a lost refresh, a hand edit or a bug shows up as a difference
    (logged as a warning) and is repaired. Returns a JSON-safe summary.
    """
    started = time.monotonic()
    session_ids = list(Session.objects.order_by("pk").values_list("pk", flat=True))
    differences: dict[str, list[str]] = {}
    failed: list[int] = []
    for session_id in session_ids:
        try:
            outcome = standings_refresh(session_id=session_id)
        except (DatabaseError, ScoringError):
            logger.exception("Rebuilding the standings of session %s failed", session_id)
            failed.append(session_id)
            continue
        if outcome.changed:
            differences[str(session_id)] = list(outcome.changed)
    if differences:
        logger.warning("Nightly rebuild repaired the standings of sessions %s", differences)
    return {
        "sessions": len(session_ids),
        "repaired": len(differences),
        "differences": differences,
        "failed": failed,
        "seconds": round(time.monotonic() - started, 3),
    }
