"""A rubber (RULES 2, RULES 4.1, RULES 8): games, vulnerability, bonuses and the back score.

The scoresheet is always derived from the ordered list of deals (RULES 8.2). The game and
vulnerability logic (``play_rubbers``) is generic: it reads each deal's outcome from a table of
``RubberEntry`` indexed by ``key * 4 + vulnerability state`` (state = 2 × NS vulnerable + EW
vulnerable), so a two-player rubber (RULES 7.1: odd tricks may be scored by either player; games
and rubber as §2) reuses it with its own table (built with ``make_entry``, players mapped to the
two sides) and its own ``bonus``. The loop itself reads the table as ``_Row`` tuples, one tuple of
rows per vulnerability state (``_rows``; precomputed with the bridge table).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple

from scoring.rules.contract import Side
from scoring.rules.deal import PASS_KEY, DealInput, deal_table
from scoring.rules.errors import ScoringError
from scoring.rules.items import ABOVE, BELOW, Item
from scoring.rules.options import DEFAULT, HouseRules

__all__ = [
    "STANDARD_BONUS",
    "RubberDeal",
    "RubberEntry",
    "RubberScore",
    "hundreds",
    "iter_rubbers",
    "make_entry",
    "play_rubbers",
    "points_leader",
    "rubber_table",
    "score_rubber",
    "score_rubber_keys",
    "score_rubbers",
    "unfinished_bonuses",
]


def unfinished_bonuses(options: HouseRules) -> tuple[int, int]:
    """RULES 2.6: what a rubber closed before two games gives a side with the only completed
    game and a side with a lone part score in the unfinished game, under ``options``."""
    return (300, options.unfinished_partscore)


# Enum members are read through the class on every access: keep them in module constants.
NS = Side.NS
EW = Side.EW
_SIDES = (NS, EW)
#: (NS vulnerable, EW vulnerable) for each vulnerability state 0–3.
_VULNERABILITY = ((False, False), (False, True), (True, False), (True, True))
#: Rubber bonus when the loser has no game / one game (RULES 2.4).
STANDARD_BONUS = (700, 500)
_new = tuple.__new__


class RubberEntry(NamedTuple):
    """One deal outcome as the rubber needs it: the side scoring below the line (0 NS, 1 EW)
    and how much, the points each side gains in all, and the items without their deal number
    (the fields of ``Item`` but the last).
    """

    below_side: int
    below_points: int
    total_ns: int
    total_ew: int
    stubs: tuple[tuple[Any, ...], ...]


def make_entry(items: Sequence[Item], below_side: Side | None, below_points: int) -> RubberEntry:
    """A table entry from a deal's items (their ``deal`` is ignored)."""
    total_ns = total_ew = 0
    for item in items:
        if item.side is Side.NS:
            total_ns += item.points
        else:
            total_ew += item.points
    return RubberEntry(
        0 if below_side is None else below_side.ordinal,
        below_points,
        total_ns,
        total_ew,
        tuple([item[:-1] for item in items]),
    )


#: A ``RubberEntry`` as the replay loop reads it: a plain tuple (unpacked without an iterator,
#: unlike a named tuple) with the first three stubs apart, None when absent, and the others in
#: ``rest``: most deals have one to three items, built without iterating.
_Stub = tuple[Any, ...]
_Row = tuple[int, int, int, int, _Stub | None, _Stub | None, _Stub | None, tuple[_Stub, ...]]
#: The rows of each vulnerability state 0–3, indexed by key.
_Rows = tuple[tuple[_Row, ...], ...]


def _rows(table: Sequence[RubberEntry]) -> _Rows:
    """A table indexed by ``key * 4 + state`` as one tuple of ``_Row`` per state; an entry
    repeated in the table gives one shared row (a smaller working set for the replay).
    """
    entries = tuple(table)  # alive while rows are shared by their id
    shared: dict[int, _Row] = {}

    def row(entry: RubberEntry) -> _Row:
        below_side, below_points, total_ns, total_ew, stubs = entry
        first, second, third = (*stubs[:3], None, None, None)[:3]
        return (below_side, below_points, total_ns, total_ew, first, second, third, stubs[3:])

    def shared_row(entry: RubberEntry) -> _Row:
        made = shared.get(id(entry))
        if made is None:
            made = shared[id(entry)] = row(entry)
        return made

    return tuple(
        tuple(shared_row(entries[i]) for i in range(state, len(entries), 4)) for state in range(4)
    )


def rubber_table(options: HouseRules = DEFAULT) -> tuple[tuple[RubberEntry, ...], frozenset[int]]:
    """Every bridge deal outcome as a ``RubberEntry``, indexed by ``input_key * 4 + state``;
    and the set of valid input keys. A deal is scored with the declarer's vulnerability.
    """
    table, _, valid = _bridge_tables(options.insult_redoubled, options.old_undertricks)
    return table, valid


#: The rows of each bridge table built (``_bridge_tables``), by the table's id, with the table.
_BRIDGE_ROWS: dict[int, tuple[tuple[RubberEntry, ...], _Rows]] = {}


@cache
def _bridge_tables(
    insult_redoubled: int, old_undertricks: bool
) -> tuple[tuple[RubberEntry, ...], _Rows, frozenset[int]]:
    """``rubber_table``'s table, the same as ``_rows``, and its valid keys."""
    options = HouseRules(insult_redoubled=insult_redoubled, old_undertricks=old_undertricks)  # type: ignore[arg-type]
    scores, valid_deal_keys = deal_table(options)
    empty = RubberEntry(0, 0, 0, 0, ())
    by_deal_key = [
        empty
        if score is None or score.declarer is None
        else make_entry(score.items, score.declarer, score.declarer_below)
        for score in scores
    ]
    # Share equal stubs and numbers between entries: a smaller working set keeps the replay
    # in the CPU caches (each new item touches every object its stub refers to).
    numbers: dict[int, int] = {}
    stubs: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def share(stub: tuple[Any, ...]) -> tuple[Any, ...]:
        shared = stubs.get(stub)  # the key ``values`` below, equal to the stub, made before
        if shared is not None:
            return shared
        # Only exact ints are shared: True == 1 must not turn a count into a bool.
        values = tuple(numbers.setdefault(v, v) if type(v) is int else v for v in stub)
        return stubs.setdefault(values, values)

    by_deal_key = [
        entry._replace(stubs=tuple(share(stub) for stub in entry.stubs)) for entry in by_deal_key
    ]
    entries: list[RubberEntry] = []
    for key in range(PASS_KEY + 1):
        # The declarer's vulnerability in states 0-3 (none, EW, NS, both).
        if (key // 5) % 2:
            entries += (by_deal_key[2 * key], by_deal_key[2 * key + 1]) * 2
        else:
            entries += (by_deal_key[2 * key],) * 2 + (by_deal_key[2 * key + 1],) * 2
    valid = frozenset(k for k in range(PASS_KEY + 1) if k * 2 in valid_deal_keys)
    table = tuple(entries)
    rows = _rows(table)
    _BRIDGE_ROWS[id(table)] = (table, rows)
    return table, rows, valid


class RubberDeal(NamedTuple):
    """One deal of a rubber: its number (1-based), the vulnerability it was played at
    (fixed at the start of the deal, RULES 2.3) as (NS, EW), and its items.
    """

    number: int
    vulnerable: tuple[bool, bool]
    items: tuple[Item, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "vulnerable": {"NS": self.vulnerable[0], "EW": self.vulnerable[1]},
            "items": [item.to_dict() for item in self.items],
        }


def hundreds(margin: int) -> int:
    """A points margin in hundreds (RULES 4.1): an odd 50 or more is a full hundred, rounding
    half up on the absolute margin, then the sign (940 → 9, 950 → 10, -1050 → -11).
    """
    count = (abs(margin) + 50) // 100
    return count if margin >= 0 else -count


def points_leader(total_ns: int, total_ew: int) -> Side | None:
    """The side with more points (RULES 2.5), None on a tie (RULES 8.3)."""
    if total_ns == total_ew:
        return None
    return Side.NS if total_ns > total_ew else Side.EW


class RubberScore(NamedTuple):
    """The scoresheet of one rubber (RULES 2), derived from its deals (RULES 8.2).

    A tuple holding what play produced (the engine builds millions): ``deal_count``, ``played``
    (the deals' items in playing order), ``end_items`` (rubber bonus or unfinished bonuses) and
    the tallies. Read it through the properties: ``deals``,
    ``above``/``below`` (each side's items in playing order, end-of-rubber items last),
    ``totals``, ``games``, ``vulnerable`` (the vulnerability the next deal would be played at:
    nobody's once the rubber is complete or closed unfinished, RULES 2.3),
    ``unfinished_bonus``, ``net``, ``back_score_hundreds`` and ``points_leader``. ``winner`` wins
    by games; ``points_leader`` by points (RULES 2.5). ``game_ends``: (side, deal number) of
    each game won.
    """

    deal_count: int
    played: tuple[Item, ...]
    end_items: tuple[Item, ...]
    total_ns: int
    total_ew: int
    games_ns: int
    games_ew: int
    game_ends: tuple[tuple[Side, int], ...]
    state: int
    rubber_complete: bool
    closed: bool
    winner: Side | None
    rubber_bonus: int
    unfinished_ns: int
    unfinished_ew: int
    options: HouseRules

    @property
    def deal_items(self) -> tuple[tuple[Item, ...], ...]:
        """Each deal's items (a passed-out deal has none)."""
        grouped: list[list[Item]] = [[] for _ in range(self.deal_count)]
        for item in self.played:
            grouped[item.deal - 1].append(item)  # type: ignore[operator]
        return tuple(tuple(items) for items in grouped)

    @property
    def deals(self) -> tuple[RubberDeal, ...]:
        """Each deal with the vulnerability it was played at and its items. Vulnerability is
        fixed at the start of a deal (RULES 2.3): it follows from the games won before it.
        """
        deals = []
        state = 0
        ends = iter(self.game_ends)
        next_end = next(ends, None)
        for number, items in enumerate(self.deal_items, 1):
            deals.append(RubberDeal(number, _VULNERABILITY[state], items))
            if next_end is not None and next_end[1] == number:
                state |= 2 if next_end[0] is NS else 1
                next_end = next(ends, None)
        return tuple(deals)

    @property
    def items(self) -> tuple[Item, ...]:
        """Every item in playing order, end-of-rubber items last."""
        return self.played + self.end_items

    def column(self, side: Side, line: str) -> tuple[Item, ...]:
        """One side's items above or below the line, in playing order."""
        return tuple(item for item in self.items if item.side is side and item.line == line)

    @property
    def above(self) -> dict[Side, tuple[Item, ...]]:
        return {NS: self.column(NS, ABOVE), EW: self.column(EW, ABOVE)}

    @property
    def below(self) -> dict[Side, tuple[Item, ...]]:
        return {NS: self.column(NS, BELOW), EW: self.column(EW, BELOW)}

    @property
    def totals(self) -> dict[Side, int]:
        """Above plus below, bonuses included (RULES 2.5)."""
        return {NS: self.total_ns, EW: self.total_ew}

    @property
    def games(self) -> dict[Side, int]:
        return {NS: self.games_ns, EW: self.games_ew}

    @property
    def vulnerable(self) -> dict[Side, bool]:
        """Vulnerability for the next deal: a side with a game is vulnerable (RULES 2.3). Once
        the rubber is complete, or closed unfinished (RULES 2.6, 8.4), no deal follows in it and
        nobody is vulnerable in it (RULES 2.3); after a complete one the next deal opens the next
        rubber (RULES 8.1). Each deal's own vulnerability is in ``deals``.
        """
        if self.rubber_complete or self.closed:
            return {NS: False, EW: False}
        ns, ew = _VULNERABILITY[self.state]
        return {NS: ns, EW: ew}

    @property
    def unfinished_bonus(self) -> dict[Side, int]:
        return {NS: self.unfinished_ns, EW: self.unfinished_ew}

    @property
    def net(self) -> dict[Side, int]:
        """Each side's total minus the other's (antisymmetric)."""
        margin = self.total_ns - self.total_ew
        return {NS: margin, EW: -margin}

    @property
    def back_score_hundreds(self) -> dict[Side, int]:
        """The net margin in hundreds (RULES 4.1); 0 each on a tie (RULES 8.3)."""
        ns = hundreds(self.total_ns - self.total_ew)
        return {NS: ns, EW: -ns}

    @property
    def points_leader(self) -> Side | None:
        return points_leader(self.total_ns, self.total_ew)

    def to_dict(self) -> dict[str, Any]:
        leader, winner = self.points_leader, self.winner
        above, below, totals = self.above, self.below, self.totals
        data: dict[str, Any] = {
            side.value: {
                "above": [item.to_dict() for item in above[side]],
                "below": [item.to_dict() for item in below[side]],
                "total": totals[side],
            }
            for side in _SIDES
        }
        data.update(
            games=_pair(self.games),
            vulnerable=_pair(self.vulnerable),
            rubber_complete=self.rubber_complete,
            winner=None if winner is None else winner.value,
            rubber_bonus=self.rubber_bonus,
            unfinished_bonus=_pair(self.unfinished_bonus),
            net=_pair(self.net),
            back_score_hundreds=_pair(self.back_score_hundreds),
            points_leader=None if leader is None else leader.value,
            deals=[deal.to_dict() for deal in self.deals],
            options=self.options.to_dict(),
        )
        return data


def _pair(values: dict[Side, Any]) -> dict[str, Any]:
    return {"NS": values[NS], "EW": values[EW]}


def play_rubbers(
    keys: Iterable[int],
    table: Sequence[RubberEntry],
    *,
    closed: bool = False,
    bonus: tuple[int, int] = STANDARD_BONUS,
    unfinished: tuple[int, int] | None = None,
    options: HouseRules = DEFAULT,
) -> Iterator[RubberScore]:
    """Play a stream of deals as consecutive rubbers, each ending when a side wins two games
    (RULES 2.4) and the next starting with the next deal (RULES 8.1); the last rubber may be
    unfinished. Keys must be valid for ``table``: ``key * 4 + state`` indexes it, ``key >= 0``.

    RULES 2.1: only the entry's below-the-line points count toward game. RULES 2.2: at 100 a
    game is won and both sides start the next game from zero (earlier part scores stay in the
    totals). RULES 2.3: the vulnerability state is read before the deal, so the deal that wins a
    first game is scored not vulnerable. RULES 2.4: rubber bonus ``bonus[0]`` if the loser has
    no game, ``bonus[1]`` if one. RULES 2.6 / 8.4: if ``closed``, an unfinished last rubber gets
    ``unfinished[0]`` for the only game and ``unfinished[1]`` for a lone part score; by default
    300 and ``options.unfinished_partscore`` (a two-player rubber scales them, RULES 7.1).
    """
    known = _BRIDGE_ROWS.get(id(table))
    rows = known[1] if known is not None and known[0] is table else _rows(table)
    yield from _replay(keys, rows, closed, bonus, options, unfinished)


def _replay(
    keys: Iterable[int],
    rows: _Rows,
    closed: bool,
    bonus: tuple[int, int],
    options: HouseRules,
    unfinished: tuple[int, int] | None = None,
) -> Iterator[RubberScore]:
    """``play_rubbers`` on the table as ``_rows``: ``rows[state][key]`` is the entry.

    Long because it is the engine's hot loop, one frame for a whole stream of deals: a helper
    would cost a call per deal (docs/benchmarks.md measures it)."""
    # The engine's hot loop: locals, tuples and tuple.__new__ on purpose (docs/benchmarks.md).
    # Every item is built here, with its deal number; per-side columns and deal records are
    # derived from them on demand. ``played.append`` is called as a method (the interpreter
    # appends inline), and ``current`` holds the rows of the vulnerability state (RULES 2.3),
    # which changes only when a game is won.
    new, item_type = _new, Item
    played: list[Item] = []
    game_ends: list[tuple[Side, int]] = []
    part_ns = part_ew = games_ns = games_ew = total_ns = total_ew = 0
    state = number = 0
    current = rows[0]
    for key in keys:
        below_side, below_points, gain_ns, gain_ew, first, second, third, rest = current[key]
        number += 1
        if first:
            tail = (number,)
            played.append(new(item_type, first + tail))
            if second:
                played.append(new(item_type, second + tail))
                if third:
                    played.append(new(item_type, third + tail))
                    if rest:
                        for stub in rest:
                            played.append(new(item_type, stub + tail))
        total_ns += gain_ns
        total_ew += gain_ew
        if not below_points:
            continue
        if below_side:
            part_ew += below_points
            if part_ew < 100:
                continue
            games_ew += 1
            state |= 1
            game_ends.append((EW, number))
        else:
            part_ns += below_points
            if part_ns < 100:
                continue
            games_ns += 1
            state |= 2
            game_ends.append((NS, number))
        part_ns = part_ew = 0
        current = rows[state]
        if games_ns == 2 or games_ew == 2:
            winner = NS if games_ns == 2 else EW
            lost = games_ew if winner is NS else games_ns
            points = bonus[lost]
            end = new(item_type, (winner, ABOVE, points, "rubber_bonus", None, None, lost, None))
            yield new(
                RubberScore,
                (
                    number,
                    tuple(played),
                    (end,),
                    total_ns + points * (winner is NS),
                    total_ew + points * (winner is EW),
                    games_ns,
                    games_ew,
                    tuple(game_ends),
                    state,
                    True,
                    closed,
                    winner,
                    points,
                    0,
                    0,
                    options,
                ),
            )
            played = []
            game_ends = []
            games_ns = games_ew = total_ns = total_ew = state = number = 0
            current = rows[0]
    if number:
        yield _unfinished(
            number,
            played,
            game_ends,
            (part_ns, part_ew),
            (games_ns, games_ew),
            (total_ns, total_ew),
            state,
            closed,
            options,
            unfinished,
        )


def _unfinished(
    deal_count: int,
    played: list[Item],
    game_ends: list[tuple[Side, int]],
    part: tuple[int, int],
    games: tuple[int, int],
    totals: tuple[int, int],
    state: int,
    closed: bool,
    options: HouseRules,
    unfinished: tuple[int, int] | None = None,
) -> RubberScore:
    """A rubber in play, or stopped before two games (RULES 2.6, RULES 8.4): when ``closed``,
    300 (``unfinished[0]``) to a side with the only completed game, and
    ``unfinished_partscore`` (``unfinished[1]``) to a side with a part score in the unfinished
    game when the other has none there. A bonus of 0 writes no item (RULES 7.1).
    """
    game_bonus, partscore_bonus = unfinished or unfinished_bonuses(options)
    bonuses = [0, 0]
    end_items: list[Item] = []
    if closed:
        for side in (0, 1):
            if games[side] == 1 and games[1 - side] == 0 and game_bonus:
                bonuses[side] += game_bonus
                end_items.append(Item(_SIDES[side], ABOVE, game_bonus, "unfinished_game"))
            if part[side] and not part[1 - side] and partscore_bonus:
                bonuses[side] += partscore_bonus
                end_items.append(Item(_SIDES[side], ABOVE, partscore_bonus, "unfinished_partscore"))
    return RubberScore(
        deal_count,
        tuple(played),
        tuple(end_items),
        totals[0] + bonuses[0],
        totals[1] + bonuses[1],
        games[0],
        games[1],
        tuple(game_ends),
        state,
        False,
        closed,
        None,
        0,
        bonuses[0],
        bonuses[1],
        options,
    )


def _check_keys(keys: Sequence[int], valid: frozenset[int]) -> None:
    if not valid.issuperset(keys):
        bad = next(i for i, key in enumerate(keys) if key not in valid)
        raise ScoringError(f"deals[{bad}]", "{value!r} is not a deal key", None, value=keys[bad])


def score_rubber_keys(
    keys: Sequence[int], *, closed: bool = False, options: HouseRules = DEFAULT
) -> RubberScore:
    """``score_rubber`` for deals given by ``DealInput.key``: the batch entry point."""
    _, rows, valid = _bridge_tables(options.insult_redoubled, options.old_undertricks)
    _check_keys(keys, valid)
    rubbers = _replay(keys, rows, closed, STANDARD_BONUS, options)
    rubber = next(rubbers, None)
    if rubber is None:
        rubber = _unfinished(0, [], [], (0, 0), (0, 0), (0, 0), 0, closed, options)
    used = rubber.deal_count
    if used < len(keys):
        raise ScoringError(
            f"deals[{used}]",
            "the rubber ended at deal {number}; this deal belongs to the next rubber",
            "RULES 8.1",
            number=used,
        )
    return rubber


def score_rubber(
    deals: Sequence[DealInput], *, closed: bool = False, options: HouseRules = DEFAULT
) -> RubberScore:
    """Score a rubber from its ordered deals (RULES 2, RULES 8.2). ``closed``: play has stopped,
    so an unfinished rubber gets the unfinished bonuses (RULES 2.6, RULES 8.4).
    A deal after the rubber ended is refused (RULES 8.1).
    """
    keys = []
    for i, deal in enumerate(deals):
        if not isinstance(deal, DealInput):
            raise ScoringError(f"deals[{i}]", "{value!r} is not a deal", None, value=deal)
        keys.append(deal.key)
    return score_rubber_keys(keys, closed=closed, options=options)


def iter_rubbers(
    keys: Sequence[int], *, closed: bool = False, options: HouseRules = DEFAULT
) -> Iterator[RubberScore]:
    """A table's stream of deals (``DealInput.key``) as consecutive rubbers: each starts after
    the previous one ends (RULES 8.1). ``closed`` applies to the last rubber if unfinished.
    """
    _, rows, valid = _bridge_tables(options.insult_redoubled, options.old_undertricks)
    _check_keys(keys, valid)
    return _replay(keys, rows, closed, STANDARD_BONUS, options)


def score_rubbers(
    keys: Sequence[int], *, closed: bool = False, options: HouseRules = DEFAULT
) -> list[RubberScore]:
    """``iter_rubbers`` as a list."""
    return list(iter_rubbers(keys, closed=closed, options=options))
