"""Standings workflows: refresh a session, rebuild everything (the queueing after a write is
``scoring.standings.queueing``, the computation ``scoring.standings.computation``).

How it fits together (docs/standings.md has the full story):

- ``queue_session_refresh`` (``queueing``) runs in the writer's transaction: it marks the
  session stale (one UPDATE) and *claims* the right to queue a refresh (a second UPDATE ...
  WHERE no live claim). Only the claimer queues a task, after commit; the publish never raises
  and fails fast, so entry never waits on or fails with the broker.
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

The modules: ``queueing`` (mark stale, claim, publish, the minute sweep), ``computation`` (the
rows from the deals) and this one (refresh: compare and store; the rebuild).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from psycopg.types.numeric import DecimalBinaryDumper

from clubs.models import Session
from scoring.rules import ScoringError
from scoring.shared.cache import leaderboard_cache_seconds

from .computation import (
    PAYMENT_FIELDS,
    PROVISIONAL,
    RESULT_FIELDS,
    STANDING_FIELDS,
    Computed,
    standings_compute,
    stream_sessions,
)
from .models import RubberResult, SessionPayment, SessionStanding, SessionStandingsState
from .queueing import (
    publish_club_ratings_refreshes,
    queue_club_ratings_refresh,
    revise_leaderboards,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefreshOutcome:
    session_id: int
    written: bool
    changed: tuple[str, ...] = ()
    stale: bool = False
    #: The club whose ratings this refresh marked stale (results of ended rubbers changed).
    rated_club: int | None = None


def standings_refresh(*, session_id: int, queue_ratings: bool = True) -> RefreshOutcome:
    """Recompute a session's standings from its deals and store the rows that differ.

    Idempotent: running it twice changes nothing. Safe beside concurrent writes and a second
    refresh of the same session (see the module docstring). One that fails clears the session's
    rebuild stamp (``_give_up_rebuild``) and raises. The club's ratings are never computed here:
    when the results of ended rubbers change, their own task is queued after the commit (or,
    with ``queue_ratings=False``, only marked stale and claimed: the rebuild queues them at its
    end, ``outcome.rated_club``).
    """
    try:
        outcome = _refresh_sessions([session_id], _compute_one, queue_ratings=queue_ratings)[
            session_id
        ]
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
    session_ids: list[int],
    compute: Callable[[list[int]], dict[int, Computed]],
    *,
    queue_ratings: bool = True,
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
            for pk, is_stale in states.filter(session_id__any=overtaken).values_list(
                "session_id", "stale"
            ):
                outcomes[pk] = RefreshOutcome(pk, written=False, stale=is_stale)
        changes = _differences(current)
        rated = _ended_results_changed(current, changes)
        _write(current, changes)
        for club_id in sorted({current[pk].club_id for pk in rated}):
            queue_club_ratings_refresh(club_id, publish=queue_ratings)
        for pk in current:
            outcomes[pk] = RefreshOutcome(
                pk,
                written=True,
                changed=changes[pk],
                stale=stale[pk],
                rated_club=current[pk].club_id if pk in rated else None,
            )
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
        ("results", RubberResult, RESULT_FIELDS, True),
        ("standings", SessionStanding, STANDING_FIELDS, True),
        ("payments", SessionPayment, PAYMENT_FIELDS, False),
    )


def _differences(computed: dict[int, Computed]) -> dict[int, tuple[str, ...]]:
    """Per session, the kinds whose stored rows differ from the computed ones (one read a kind)."""
    changed: dict[int, list[str]] = {pk: [] for pk in computed}
    if not computed:
        return {}
    for name, model, fields, _ in _kinds():
        stored: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in computed}
        rows = model.objects.filter(session_id__any=list(computed)).order_by()
        for session_id, *row in rows.values_list("session_id", *fields):
            stored[session_id].append(tuple(row))
        for pk, rows_now in computed.items():
            if _differ(stored[pk], getattr(rows_now, name)):
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
    rows = RubberResult.objects.filter(session_id__any=ids, provisional=False).order_by()
    for session_id, *row in rows.values_list("session_id", *RESULT_FIELDS):
        stored[session_id].append(tuple(row))
    ended = [
        pk
        for pk in ids
        if _differ(stored[pk], [r for r in computed[pk].results if not r[PROVISIONAL]])
    ]
    return ended


def _differ(stored: list[tuple[Any, ...]], computed: list[tuple[Any, ...]]) -> bool:
    """Whether two lists of rows differ as multisets: sorted only when their lengths agree (the
    rebuild's emptied tables, and most changes, differ in length)."""
    return len(stored) != len(computed) or sorted(stored) != sorted(computed)


def _write(computed: dict[int, Computed], changes: dict[int, tuple[str, ...]]) -> None:
    """Replace the stored rows of each changed kind (one DELETE and one bulk INSERT a kind)."""
    for name, model, fields, with_club in _kinds():
        session_ids = [pk for pk, kinds in changes.items() if name in kinds]
        if not session_ids:
            continue
        model.objects.filter(session_id__any=session_ids).delete()
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
    fields = [model._meta.get_field(c) for c in columns]
    names = ", ".join(quote(f.column) for f in fields)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(  # the psycopg cursor
            f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN (FORMAT BINARY)"
        ) as copy,
    ):
        # The columns' types told up front: psycopg then dumps each value by its column's
        # type instead of looking its Python type up (about 40% less Python for these rows).
        cursor.cursor.adapters.register_dumper(Decimal, _RememberingDecimalDumper)
        copy.set_types(_column_types(model, columns))
        for row in rows:
            copy.write_row(row)


class _RememberingDecimalDumper(DecimalBinaryDumper):
    """psycopg's binary dumper of a Decimal, remembering each amount's bytes: dumping a Decimal
    was two thirds of the time psycopg took to write a result row, and a rebuild's amounts
    repeat a few thousand values. Only for this module's COPY, whose Decimal columns are all
    ``numeric(12, 2)``: PostgreSQL stores 12.5 and 12.50 (equal, so one entry) alike there."""

    def __init__(self, cls: type, context: Any = None) -> None:
        super().__init__(cls, context)
        self.known: dict[Decimal, bytes] = {}

    def dump(self, obj: Decimal) -> bytes:
        dumped = self.known.get(obj)
        if dumped is None:
            raw = super().dump(obj)
            assert raw is not None  # a Decimal always dumps
            dumped = self.known[obj] = bytes(raw)
        return dumped


@lru_cache(maxsize=16)
def _column_types(model: Any, columns: tuple[str, ...]) -> list[str]:
    """The columns' PostgreSQL type names as psycopg knows them ("numeric(12, 2)" as "numeric"),
    worked out once: Django's ``db_type`` costs more than a refresh's few rows."""
    fields = [model._meta.get_field(c) for c in columns]
    kinds = [f.rel_db_type(connection) if f.is_relation else f.db_type(connection) for f in fields]
    return [str(kind).split("(")[0].strip() for kind in kinds]


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
    """Every session's id, in chunks of about ``chunk`` (``STANDINGS_REBUILD_CHUNK`` by default;
    each chunk is rebuilt on its own; up to 1.5 times it), each session stamped as queued by
    this rebuild.

    The sessions are shared out as evenly as whole chunks allow (``_even_chunks``): 1,201
    sessions make six chunks of 200 or 201, not six of 200 and a seventh of one, which a
    worker would then run alone after the others had finished.

    Storing a computation of a session clears its stamp; one still there
    ``STANDINGS_REBUILD_GRACE`` seconds later belongs to a chunk that died with its worker (its
    acks-late message comes back only after the broker's visibility timeout, an hour), and the
    minute sweep refreshes the session (``standings_queue_stale``). A session with no state row
    (not started, or a process killed between its first write and the mark) is not stamped:
    that chunk, or the next rebuild, gives it one.
    """
    session_ids = list(Session.objects.order_by("pk").values_list("pk", flat=True))
    chunks = _even_chunks(session_ids, chunk or settings.STANDINGS_REBUILD_CHUNK)
    now = timezone.now()
    # Before any chunk is sent, so a chunk's store always clears its stamps; exactly these
    # sessions (one created meanwhile is in no chunk: a stamp would tell the sweep it was lost);
    # a chunk a statement, which SQLite's limit on a statement's parameters (999 on some
    # builds) also allows.
    for ids in chunks:
        SessionStandingsState.objects.filter(pk__any=ids).update(rebuild_queued_at=now)
    return chunks


def _even_chunks(ids: list[int], size: int) -> list[list[int]]:
    """``ids`` in order, cut into ``round(len(ids) / size)`` chunks (at least one) whose lengths
    differ by one at most: each within half a chunk of ``size``, so up to 1.5 times it."""
    if size < 1:
        raise ValueError(f"a rebuild chunk holds at least one session, not {size}")
    if not ids:
        return []
    count = max(1, round(len(ids) / size))  # never more chunks than ids: none is empty
    step, longer = divmod(len(ids), count)
    chunks, start = [], 0
    for index in range(count):
        end = start + step + (index < longer)
        chunks.append(ids[start:end])
        start = end
    return chunks


def standings_rebuild_chunk(*, session_ids: list[int]) -> dict[str, Any]:
    """Recompute and repair a chunk of sessions together; a chunk that fails is retried session
    by session, so one bad session is reported alone. Returns the differences found (session id
    as a string: the kinds of rows repaired), the sessions that failed and the clubs whose
    ratings it marked stale (``ratings``: queued once each by ``standings_rebuild_summary``, not
    here, since a club's sessions span chunks), JSON-safe."""
    try:
        with _without_cycle_collection():
            outcomes = _refresh_sessions(session_ids, stream_sessions, queue_ratings=False)
    except (DatabaseError, ScoringError):
        outcomes = {}
        failed = []
        for session_id in session_ids:
            try:
                outcomes[session_id] = standings_refresh(session_id=session_id, queue_ratings=False)
            except (DatabaseError, ScoringError):
                logger.exception("Rebuilding the standings of session %s failed", session_id)
                failed.append(session_id)
    else:
        failed = []
    differences = {
        str(pk): list(outcome.changed) for pk, outcome in outcomes.items() if outcome.changed
    }
    rated = sorted({o.rated_club for o in outcomes.values() if o.rated_club is not None})
    return {"differences": differences, "failed": failed, "ratings": rated}


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while a chunk is computed and written, then as it was.

    A chunk makes some hundred thousand tuples and lists, freed as they go by their counts;
    each collection the allocations set off walked them for cycles there are none of (0.36 s of
    a rebuild's 3.55 s of Python at 100k deals, by bench/bench_standings.py: docs/benchmarks.md).
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def standings_rebuild_summary(
    *, parts: list[dict[str, Any]], sessions: int, started: float
) -> dict[str, Any]:
    """The rebuild's summary from its chunks' results (``started``: ``time.time()`` when it
    began); logs the repaired sessions as a warning and queues one ratings refresh for each club
    whose ended results a chunk changed (their own task, ``refresh_club_ratings``)."""
    differences: dict[str, list[str]] = {}
    failed: list[int] = []
    rated: set[int] = set()
    for part in parts:
        differences.update(part["differences"])
        failed += part["failed"]
        rated.update(part.get("ratings", ()))
    if differences:
        logger.warning("Nightly rebuild repaired the standings of sessions %s", differences)
    seconds = round(time.time() - started, 3)
    publish_club_ratings_refreshes(rated)
    return {
        "sessions": sessions,
        "repaired": len(differences),
        "differences": differences,
        "failed": failed,
        "ratings": sorted(rated),
        "seconds": seconds,
    }
