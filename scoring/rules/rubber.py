"""A rubber (RULES 2, RULES 4.1, RULES 8): games, vulnerability, bonuses and the back score.

The scoresheet is always derived from the ordered list of deals (RULES 8.2). The game and
vulnerability logic (``play_rubber``) is generic: it reads each deal's outcome from a table of
``RubberEntry`` indexed by ``key * 4 + vulnerability state`` (state = 2 × NS vulnerable + EW
vulnerable), so a two-player rubber (RULES 7.1: odd tricks may be scored by either player; games
and rubber as §2) reuses it with its own table (built with ``make_entry``, players mapped to the
two sides) and its own ``bonus``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
    "make_entry",
    "play_rubber",
    "points_leader",
    "rubber_table",
    "score_rubber",
    "score_rubber_keys",
    "score_rubbers",
]

_SIDES = (Side.NS, Side.EW)
#: (NS vulnerable, EW vulnerable) for each vulnerability state 0–3.
_VULNERABILITY = ((False, False), (False, True), (True, False), (True, True))
#: Rubber bonus when the loser has no game / one game (RULES 2.4).
STANDARD_BONUS = (700, 500)
_new = tuple.__new__


class RubberEntry(NamedTuple):
    """One deal outcome as the rubber needs it: the side scoring below the line (0 NS, 1 EW)
    and how much, the points each side gains in all, and the items (without their deal number)
    with the scoresheet column each goes to (side × 2 + below).
    """

    below_side: int
    below_points: int
    total_ns: int
    total_ew: int
    stubs: tuple[tuple[Any, ...], ...]
    columns: tuple[int, ...]


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
        tuple([(item.side is Side.EW) * 2 + (item.line == BELOW) for item in items]),
    )


def rubber_table(options: HouseRules = DEFAULT) -> tuple[tuple[RubberEntry, ...], frozenset[int]]:
    """Every bridge deal outcome as a ``RubberEntry``, indexed by ``input_key * 4 + state``;
    and the set of valid input keys. A deal is scored with the declarer's vulnerability.
    """
    return _rubber_table(options.insult_redoubled, options.old_undertricks)


@cache
def _rubber_table(
    insult_redoubled: int, old_undertricks: bool
) -> tuple[tuple[RubberEntry, ...], frozenset[int]]:
    options = HouseRules(insult_redoubled=insult_redoubled, old_undertricks=old_undertricks)  # type: ignore[arg-type]
    scores, valid_deal_keys = deal_table(options)
    empty = RubberEntry(0, 0, 0, 0, (), ())
    by_deal_key = [
        empty
        if score is None or score.declarer is None
        else make_entry(score.items, score.declarer, score.declarer_below)
        for score in scores
    ]
    entries: list[RubberEntry] = []
    for key in range(PASS_KEY + 1):
        # The declarer's vulnerability in states 0-3 (none, EW, NS, both).
        if (key // 5) % 2:
            entries += (by_deal_key[2 * key], by_deal_key[2 * key + 1]) * 2
        else:
            entries += (by_deal_key[2 * key],) * 2 + (by_deal_key[2 * key + 1],) * 2
    valid = frozenset(k for k in range(PASS_KEY + 1) if k * 2 in valid_deal_keys)
    return tuple(entries), valid


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


@dataclass(frozen=True, slots=True)
class RubberScore:
    """The scoresheet of one rubber (RULES 2), derived from its deals (RULES 8.2).

    ``above``/``below``: each side's items in playing order (end-of-rubber bonuses last).
    ``game_ends``: (side, deal number) of each game won. ``vulnerable``: the vulnerability the
    next deal would be played at. ``winner`` wins by games; ``points_leader`` by points.
    """

    deals: tuple[RubberDeal, ...]
    above: dict[Side, tuple[Item, ...]]
    below: dict[Side, tuple[Item, ...]]
    totals: dict[Side, int]
    games: dict[Side, int]
    game_ends: tuple[tuple[Side, int], ...]
    vulnerable: dict[Side, bool]
    rubber_complete: bool
    closed: bool
    winner: Side | None
    rubber_bonus: int
    unfinished_bonus: dict[Side, int]
    options: HouseRules

    @property
    def net(self) -> dict[Side, int]:
        """Each side's total minus the other's (antisymmetric)."""
        margin = self.totals[Side.NS] - self.totals[Side.EW]
        return {Side.NS: margin, Side.EW: -margin}

    @property
    def back_score_hundreds(self) -> dict[Side, int]:
        """The net margin in hundreds (RULES 4.1); 0 each on a tie (RULES 8.3)."""
        ns = hundreds(self.totals[Side.NS] - self.totals[Side.EW])
        return {Side.NS: ns, Side.EW: -ns}

    @property
    def points_leader(self) -> Side | None:
        return points_leader(self.totals[Side.NS], self.totals[Side.EW])

    @property
    def items(self) -> tuple[Item, ...]:
        """Every item in playing order, end-of-rubber items last."""
        end = tuple(i for side in _SIDES for i in self.above[side] if i.deal is None)
        return tuple(i for deal in self.deals for i in deal.items) + end

    def to_dict(self) -> dict[str, Any]:
        def pair(values: dict[Side, Any]) -> dict[str, Any]:
            return {"NS": values[Side.NS], "EW": values[Side.EW]}

        leader = self.points_leader
        data: dict[str, Any] = {
            side.value: {
                "above": [item.to_dict() for item in self.above[side]],
                "below": [item.to_dict() for item in self.below[side]],
                "total": self.totals[side],
            }
            for side in _SIDES
        }
        data.update(
            games=pair(self.games),
            vulnerable=pair(self.vulnerable),
            rubber_complete=self.rubber_complete,
            winner=None if self.winner is None else self.winner.value,
            rubber_bonus=self.rubber_bonus,
            unfinished_bonus=pair(self.unfinished_bonus),
            net=pair(self.net),
            back_score_hundreds=pair(self.back_score_hundreds),
            points_leader=None if leader is None else leader.value,
            deals=[deal.to_dict() for deal in self.deals],
            options=self.options.to_dict(),
        )
        return data


def play_rubber(
    keys: Sequence[int],
    table: Sequence[RubberEntry],
    *,
    start: int = 0,
    closed: bool = False,
    bonus: tuple[int, int] = STANDARD_BONUS,
    options: HouseRules = DEFAULT,
) -> tuple[RubberScore, int]:
    """Play deals ``keys[start:]`` until a side wins two games (RULES 2.4); return the rubber
    and the index of the first deal not used. Keys must be valid for ``table``.

    RULES 2.1: only the entry's below-the-line points count toward game. RULES 2.2: at 100 a
    game is won and both sides start the next game from zero (earlier part scores stay in the
    totals). RULES 2.3: the vulnerability state is read before the deal, so the deal that wins a
    first game is scored not vulnerable. RULES 2.4: rubber bonus ``bonus[0]`` if the loser has
    no game, ``bonus[1]`` if one. RULES 2.6 / 8.4: if ``closed`` and unfinished, 300 for the only
    game and ``options.unfinished_partscore`` for a lone part score in the unfinished game.
    """
    new = _new
    item_type = Item
    columns: tuple[list[Item], list[Item], list[Item], list[Item]] = ([], [], [], [])
    deals: list[RubberDeal] = []
    game_ends: list[tuple[Side, int]] = []
    part = [0, 0]
    games = [0, 0]
    total_ns = total_ew = 0
    state = 0
    number = 0
    index = start
    end = len(keys)
    complete = False
    while index < end:
        entry = table[keys[index] * 4 + state]
        index += 1
        number += 1
        items = tuple([new(item_type, stub + (number,)) for stub in entry[4]])
        for item, column in zip(items, entry[5], strict=True):
            columns[column].append(item)
        deals.append(new(RubberDeal, (number, _VULNERABILITY[state], items)))
        total_ns += entry[2]
        total_ew += entry[3]
        below_points = entry[1]
        if below_points:
            side = entry[0]
            reached = part[side] + below_points
            if reached < 100:
                part[side] = reached
                continue
            part = [0, 0]
            games[side] += 1
            game_ends.append((_SIDES[side], number))
            state |= 1 if side else 2
            if games[side] == 2:
                complete = True
                break
    winner: Side | None = None
    bonus_points = 0
    unfinished = [0, 0]
    ends: list[Item] = []
    if complete:
        won = game_ends[-1][0]
        winner = won
        lost = games[1 - won.ordinal]
        bonus_points = bonus[lost]
        ends.append(Item(won, ABOVE, bonus_points, "rubber_bonus", None, None, lost))
    elif closed:
        for side in (0, 1):
            if games[side] == 1 and games[1 - side] == 0:
                unfinished[side] += 300
                ends.append(Item(_SIDES[side], ABOVE, 300, "unfinished_game"))
            if part[side] and not part[1 - side]:
                points = options.unfinished_partscore
                unfinished[side] += points
                ends.append(Item(_SIDES[side], ABOVE, points, "unfinished_partscore"))
    for item in ends:
        columns[item.side.ordinal * 2].append(item)
        if item.side is Side.NS:
            total_ns += item.points
        else:
            total_ew += item.points
    rubber = RubberScore(
        tuple(deals),
        {Side.NS: tuple(columns[0]), Side.EW: tuple(columns[2])},
        {Side.NS: tuple(columns[1]), Side.EW: tuple(columns[3])},
        {Side.NS: total_ns, Side.EW: total_ew},
        {Side.NS: games[0], Side.EW: games[1]},
        tuple(game_ends),
        {Side.NS: state >= 2, Side.EW: bool(state & 1)},
        complete,
        closed,
        winner,
        bonus_points,
        {Side.NS: unfinished[0], Side.EW: unfinished[1]},
        options,
    )
    return rubber, index


def _check_keys(keys: Sequence[int], valid: frozenset[int]) -> None:
    if not valid.issuperset(keys):
        bad = next(i for i, key in enumerate(keys) if key not in valid)
        raise ScoringError(f"deals[{bad}]", f"{keys[bad]!r} is not a deal key", None)


def score_rubber_keys(
    keys: Sequence[int], *, closed: bool = False, options: HouseRules = DEFAULT
) -> RubberScore:
    """``score_rubber`` for deals given by ``DealInput.key``: the batch entry point."""
    table, valid = rubber_table(options)
    _check_keys(keys, valid)
    rubber, used = play_rubber(keys, table, closed=closed, options=options)
    if used < len(keys):
        raise ScoringError(
            f"deals[{used}]",
            f"the rubber ended at deal {used}; this deal belongs to the next rubber",
            "RULES 8.1",
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
            raise ScoringError(f"deals[{i}]", f"{deal!r} is not a deal", None)
        keys.append(deal.key)
    return score_rubber_keys(keys, closed=closed, options=options)


def score_rubbers(
    keys: Sequence[int], *, closed: bool = False, options: HouseRules = DEFAULT
) -> list[RubberScore]:
    """A table's stream of deals as consecutive rubbers: each starts after the previous one
    ends (RULES 8.1). ``closed`` applies to the last rubber if it is unfinished.
    """
    table, valid = rubber_table(options)
    _check_keys(keys, valid)
    rubbers: list[RubberScore] = []
    index, end = 0, len(keys)
    while index < end:
        rubber, index = play_rubber(keys, table, start=index, closed=closed, options=options)
        rubbers.append(rubber)
    return rubbers
