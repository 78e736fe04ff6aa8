"""Computing a session's standings from its deals, by the engine: the result, standing and
payment rows to store, as tuples (``Computed``). Nothing is written here; the refresh
(``scoring.standings.services``) compares and stores them.

Two ways in, one computation (``_compute_session``):

- ``compute_sessions`` (the refresh after a write): reads by values, no model instance per deal,
  a handful of queries whatever the session's size; each match scored through its sheet
  (``games.sheets.score``), as the pads show it.
- ``stream_sessions`` (the nightly rebuild, ``STANDINGS_REBUILD_CHUNK`` sessions at a time): the
  chunk's deals in one query by their rubbers, held as keys (an int a deal) until the chunk's
  sessions are computed; a rubber's deals go to the engine as their keys
  (``games.sheets.result_of_keys``: the same replay, without building the sheet).
  tests/scoring/standings/test_rebuild_stream.py holds the two equal on random nights;
  docs/benchmarks.md measures both.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import connection

from clubs.models import Player, Session, TableSeat
from games import sheets
from games.models import Deal, DealFields, Rubber
from scoring.rules import DealInput, HouseRules, ScoringError
from scoring.rules.games import Result
from scoring.rules.ranking import Entry, rank_entries
from scoring.rules.settlement import player_money, settle

RESULT_FIELDS = (
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
PROVISIONAL = RESULT_FIELDS.index("provisional")
STANDING_FIELDS = (
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
PAYMENT_FIELDS = ("position", "payer_id", "payee_id", "amount")
_SIDES = ("NS", "EW")  # a place (0 NS or player 0, 1 EW or player 1) as the stored side
_DEAL_FIELDS = ("contract", "declarer", "tricks", "honours_side", "honours_points")


@dataclass
class Computed:
    """A session's standings as freshly computed: the rows to store, each a tuple in the order of
    ``RESULT_FIELDS``, ``STANDING_FIELDS`` or ``PAYMENT_FIELDS`` (compared with the stored rows
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


@lru_cache(maxsize=65536)
def _deal_key(facts: tuple[Any, ...]) -> int:
    """The engine's key of a four-player deal's stored facts (validated as ``_deal_input``)."""
    return _deal_input(facts).key


#: How a match is scored from its stored deals: (kind, deals, closed, options) → its `Result`.
Score = Callable[[str, Any, bool, HouseRules], Result]


def _sheet_result(kind: str, deals: Any, closed: bool, options: HouseRules) -> Result:
    """The match's figures as its sheet gives them (the refresh after a write)."""
    return sheets.score(kind, deals, closed=closed, options=options).result


def _stream_result(kind: str, deals: Any, closed: bool, options: HouseRules) -> Result:
    """The match's figures from its deals' keys where the game scores keys (``stream_sessions``
    gathers keys for those), through its sheet otherwise."""
    if deals and isinstance(deals[0], int):
        result = sheets.result_of_keys(kind, deals, closed=closed, options=options)
        if result is not None:
            return result
    return _sheet_result(kind, deals, closed, options)


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
    return compute_sessions([session_id]).get(session_id)


def compute_sessions(session_ids: list[int]) -> dict[int, Computed]:
    """``standings_compute`` for many sessions at once, in six queries whatever their number."""
    sessions, rubbers, seat_table, names, all_names = _read_sessions(session_ids)
    if not sessions:
        return {}
    ids = [s.pk for s in sessions]
    deals: dict[int, list[_DealRow]] = {}
    for rubber_id, data, *facts in (
        Deal.objects.filter(rubber__session_id__in=ids)
        .order_by("rubber_id", "number")
        .values_list("rubber_id", "data", *_DEAL_FIELDS)
    ):
        deals.setdefault(rubber_id, []).append(_DealRow(tuple(facts), data))
    by_session = _by_session(ids, rubbers)
    return {
        session.pk: _compute_session(
            session,
            by_session[session.pk],
            deals,
            seat_table[session.pk],
            names[session.pk],
            all_names,
            _sheet_result,
        )
        for session in sessions
    }


def stream_sessions(session_ids: list[int]) -> dict[int, Computed]:
    """``compute_sessions`` for the rebuild: the same rows, from one query of the chunk's deals
    by their rubbers' ids (``_chunk_deals``), four-player rubbers scored from their deals'
    keys, then computed a session at a time."""
    sessions, rubbers, seat_table, names, all_names = _read_sessions(session_ids)
    if not sessions:
        return {}
    ids = [s.pk for s in sessions]
    by_session = _by_session(ids, rubbers)
    by_key = {r[0] for r in rubbers if sheets.has_key_scoring(r[4])}
    deals: dict[int, list[Any]] = {}
    key = _deal_key
    for deal in _chunk_deals(ids, [r[0] for r in rubbers]):
        rubber_id = deal[0]
        row = key(deal[2:]) if rubber_id in by_key else _DealRow(deal[2:], _json(deal[1]))
        rows = deals.get(rubber_id)
        if rows is None:
            deals[rubber_id] = [row]
        else:
            rows.append(row)
    return {
        s.pk: _compute_session(
            s,
            by_session[s.pk],
            deals,
            seat_table[s.pk],
            names[s.pk],
            all_names,
            _stream_result,
        )
        for s in sessions
    }


def _chunk_deals(session_ids: list[int], rubber_ids: list[int]) -> list[tuple[Any, ...]]:
    """The deals of these sessions (their ``rubber_ids``), each rubber's in order: (rubber,
    data, *facts), all of them (the chunk's deals are held until its sessions are computed).

    On PostgreSQL by the rubbers' ids, one array parameter (``= ANY``), not by a join to their
    sessions: the deals then come from the index on their rubber, where the join scanned every
    deal in the database for each chunk. Elsewhere (SQLite, whose builds may cap a statement's
    parameters at 999) by the sessions, through the join. The rows are read from the database
    cursor as they are, without the ORM's per-row converters (which cost more than the read
    itself): ``data`` comes as JSON text (``_json`` parses it, only for the games scored from
    it), the other columns need none."""
    if not rubber_ids:
        return []
    sql, params = chunk_deals_query(session_ids, rubber_ids)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def chunk_deals_query(session_ids: list[int], rubber_ids: list[int]) -> tuple[str, Any]:
    """``_chunk_deals``'s SQL and parameters (tests/integration/test_query_plans.py checks its
    plan)."""
    if connection.vendor == "postgresql":
        deals = Deal.objects.filter(rubber_id__any=rubber_ids)
    else:
        deals = Deal.objects.filter(rubber__session_id__in=session_ids)
    query = deals.order_by("rubber_id", "number").values_list("rubber_id", "data", *_DEAL_FIELDS)
    return query.query.sql_with_params()


def _raw(query: Any) -> list[tuple[Any, ...]]:
    """A values query's rows as the database cursor gives them, without the ORM's per-row
    converters: JSON columns stay text (on PostgreSQL and SQLite alike)."""
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _json(value: Any) -> Any:
    """A JSON column as the ORM reads it (the database driver hands it over as text)."""
    return json.loads(value) if isinstance(value, str) else value


def _by_session(ids: list[int], rubbers: list[tuple[Any, ...]]) -> dict[int, list[tuple[Any, ...]]]:
    by_session: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in ids}
    for rubber in rubbers:
        by_session[rubber[1]].append(rubber)
    return by_session


def _read_sessions(
    session_ids: list[int],
) -> tuple[
    list[_SessionRow],
    list[tuple[Any, ...]],
    dict[int, dict[int, int]],
    dict[int, dict[int, str]],
    dict[int, str],
]:
    """What the computation reads besides the deals (four queries, a fifth for players who
    play without a seat): the sessions, their rubbers in order, who sits where."""
    sessions = [
        _SessionRow(*row)
        for row in Session.objects.filter(pk__any=session_ids)
        .order_by("pk")
        .values_list(*_SessionRow._fields)
    ]
    if not sessions:
        return [], [], {}, {}, {}
    ids = [s.pk for s in sessions]
    seat_table, names, all_names = _seated(ids)
    # As the database gives them (``_raw``): ``rules`` stays JSON text, the key of its parsed
    # options (``_options``), so 18,000 rubbers cost a few parses, not 18,000.
    rubbers = _raw(
        Rubber.objects.filter(session_id__any=ids)
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
    unnamed = {pid for r in rubbers for pid in r[7:] if pid is not None} - all_names.keys()
    if unnamed:
        all_names.update(Player.objects.filter(pk__any=unnamed).values_list("pk", "name"))
    return sessions, rubbers, seat_table, names, all_names


def _seated(
    ids: list[int],
) -> tuple[dict[int, dict[int, int]], dict[int, dict[int, str]], dict[int, str]]:
    """Who sits in these sessions (one query): per session, each seated player's table number
    and name; and every seated player's name."""
    seat_table: dict[int, dict[int, int]] = {pk: {} for pk in ids}
    names: dict[int, dict[int, str]] = {pk: {} for pk in ids}
    all_names: dict[int, str] = {}
    for session_id, player_id, number, name in (
        TableSeat.objects.filter(session_id__any=ids)
        .order_by("session_id", "table_id", "position")
        .values_list("session_id", "player_id", "table__number", "player__name")
    ):
        seat_table[session_id][player_id] = number
        names[session_id][player_id] = name
        all_names[player_id] = name
    return seat_table, names, all_names


def _compute_session(
    session: _SessionRow,
    rubbers: list[tuple[Any, ...]],
    deals: dict[int, list[Any]],
    seat_table: dict[int, int],
    names: dict[int, str],
    all_names: dict[int, str],
    score: Score,
) -> Computed:
    """Long because it is the computation's loop over a session's rubbers, one frame for all of
    them (the nightly rebuild runs it for every rubber): each rubber's result rows, and each
    player's tally of ended rubbers (``totals``) or of the rubber in play (``running``)."""
    in_play, unfinished = "in_play", "unfinished"  # games.models.Rubber.Status
    session_id, club_id, date = session.pk, session.club_id, session.date
    stake = session.stake_per_hundred
    computed = Computed(session_id=session_id, club_id=club_id)
    append = computed.results.append
    totals: dict[int, list[int]] = {pid: [0, 0, 0, 0, 0] for pid in names}
    running: dict[int, list[int]] = {}
    last_rules, options = None, None
    money_of = _rubber_money(stake)
    for rubber_id, _, table, number, kind, status, rules, *seat_ids in rubbers:
        rows = deals.get(rubber_id)
        if not rows:
            continue
        if rules != last_rules or options is None:  # a session's rubbers share their rules
            last_rules = rules
            options = _options(rules) if isinstance(rules, str) else _house_rules(rules)
        result = score(kind, rows, status == unfinished, options)
        provisional = status == in_play
        # (seat, place, player): N and E at a table of two, all four otherwise.
        seated = list(zip(_SEATINGS[sheets.is_two_player(kind)], seat_ids, strict=False))
        hundreds = {pid: result.hundreds[place] for (_, place), pid in seated}
        money = money_of(hundreds)
        bucket = running if provisional else totals
        winner, sides_points, sides_net, deal_count = (
            result.winner,
            result.totals,
            result.net,
            len(rows),
        )
        for (seat, place), pid in seated:
            if pid not in names:
                names[pid] = all_names[pid]
            if pid not in seat_table:
                seat_table[pid] = table
            won = winner == place
            points, net, count = sides_points[place], sides_net[place], hundreds[pid]
            append(
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
                    deal_count,
                    points,
                    net,
                    count,
                    won,
                    money[pid],
                )
            )
            tally = bucket.get(pid)
            if tally is None:
                tally = bucket[pid] = [0, 0, 0, 0, 0]
            tally[0] += 1
            tally[1] += won
            tally[2] += points
            tally[3] += net
            tally[4] += count
            if pid not in totals:
                totals[pid] = [0, 0, 0, 0, 0]
    _add_standings(computed, session, totals, running, seat_table)
    return computed


#: The seats of a rubber and their places (0 NS or player 0, 1 EW or player 1), by whether its
#: game is for two (``sheets.PLACE_OF_SEAT``).
_SEATINGS = {
    two: tuple((seat, sheets.PLACE_OF_SEAT[seat]) for seat in ("NE" if two else "NESW"))
    for two in (False, True)
}


#: ``player_money`` of a rubber's hundreds (by seat) at a whole-cent stake, by stake: a
#: rubber's money depends only on its hundreds there, and rubbers repeat a few hundred of
#: them, so each is worked out once per process (bounded: ``_MONEY_KEPT`` a stake).
_MONEY: dict[Decimal, dict[tuple[int, ...], tuple[Decimal, ...]]] = {}
_MONEY_KEPT = 4096


def _rubber_money(stake: Decimal) -> Callable[[dict[int, int]], dict[int, Decimal]]:
    """``player_money`` at this stake, for a session's rubbers. With a stake in whole cents a
    player's money depends only on their own hundreds, so it is remembered by the rubber's
    hundreds (``_MONEY``); in fractions of a cent, the cents rounding leaves are shared out by
    player key (``player_money``), so it is computed for every rubber."""
    if not stake.is_finite() or (stake * 100) % 1:
        return lambda hundreds: player_money(hundreds, stake)
    known = _MONEY.setdefault(stake, {})
    if len(known) > _MONEY_KEPT:
        known.clear()

    def money(hundreds: dict[int, int]) -> dict[int, Decimal]:
        values = tuple(hundreds.values())
        amounts = known.get(values)
        if amounts is None:
            amounts = known[values] = tuple(player_money(hundreds, stake).values())
        return dict(zip(hundreds, amounts, strict=True))

    return money


def _add_standings(
    computed: Computed,
    session: _SessionRow,
    totals: dict[int, list[int]],
    running: dict[int, list[int]],
    seat_table: dict[int, int],
) -> None:
    """The session's standing rows (ranked, RULES 6) and payments (settled) from each player's
    tally (rubbers, won, points, net, hundreds) of ended rubbers and of the rubbers in play."""
    date, stake = session.date, session.stake_per_hundred
    hundreds_final = {pid: t[4] for pid, t in totals.items()}
    session_money = player_money(hundreds_final, stake)
    # RULES 6.3: a player with no result row (no deal in any rubber, ended or in play) is
    # listed apart, unranked.
    played = {row[1] for row in computed.results}
    entries = [
        Entry(
            player=pid,
            table=seat_table.get(pid),
            rubbers=t[0],
            points=t[2],
            net=t[3],
            hundreds=t[4],
            played=pid in played,
        )
        for pid, t in totals.items()
    ]
    append = computed.standings.append
    for placing in rank_entries(entries, _ranking(session.rules)):  # type: ignore[arg-type]
        player = placing.player
        t = totals[player]
        now = running.get(player)
        append(
            (
                player,
                date,
                placing.rank,
                seat_table.get(player),
                placing.table_rank,
                placing.prize_choice,
                *t,
                session_money[player],
                now[2] if now else None,
                now[4] if now else None,
            )
        )
    for position, payment in enumerate(settle(hundreds_final, stake), start=1):
        computed.payments.append((position, payment.payer, payment.payee, payment.amount))
