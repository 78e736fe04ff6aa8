"""Chicago (RULES 5): four counted deals, fixed vulnerability, game and part-score bonuses.

Dealer: the k-th counted deal is dealt by North, East, South, West in turn, so the dealer's side
is NS, EW, NS, EW. A passed-out deal is redealt by the same dealer and does not count: it keeps
the dealer and vulnerability of the deal it replaces. Items carry the deal's 1-based position in
the input (passed-out deals included); ``ChicagoDeal.counted`` is its place among the four.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from scoring.rules.contract import Side
from scoring.rules.deal import DealInput, deal_table
from scoring.rules.errors import ScoringError
from scoring.rules.items import ABOVE, BELOW, Item
from scoring.rules.options import DEFAULT, HouseRules
from scoring.rules.rubber import hundreds, points_leader

__all__ = [
    "ChicagoDeal",
    "ChicagoScore",
    "chicago_dealer",
    "chicago_vulnerability",
    "score_chicago",
]

_SIDES = (Side.NS, Side.EW)
_new = tuple.__new__


def chicago_dealer(counted: int) -> Side:
    """The dealer's side of the ``counted``-th deal (1–4): N, E, S, W deal in turn."""
    return Side.NS if counted % 2 else Side.EW


def chicago_vulnerability(counted: int, options: HouseRules = DEFAULT) -> tuple[bool, bool]:
    """(NS, EW) vulnerability of the ``counted``-th deal (RULES 5): deal 1 nobody, deals 2
    and 3 the dealer's side (option ``chicago_vulnerable``: the non-dealer's), deal 4 both.
    """
    if not 1 <= counted <= 4:
        raise ScoringError("deal", "{number} is not between 1 and 4", "RULES 5", number=counted)
    if counted == 1:
        return (False, False)
    if counted == 4:
        return (True, True)
    side = chicago_dealer(counted)
    if options.chicago_vulnerable == "non_dealer":
        side = side.other
    return (side is Side.NS, side is Side.EW)


class ChicagoDeal(NamedTuple):
    """One deal of a Chicago: its input position (1-based), its counted place (1–4, None when
    passed out and redealt), the dealer's side, the (NS, EW) vulnerability and the items.
    """

    number: int
    counted: int | None
    dealer: Side
    vulnerable: tuple[bool, bool]
    items: tuple[Item, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "counted": self.counted,
            "dealer": self.dealer.value,
            "vulnerable": {"NS": self.vulnerable[0], "EW": self.vulnerable[1]},
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True, slots=True)
class ChicagoScore:
    """The scoresheet of one Chicago (RULES 5). No rubber bonus; the winner is on points.

    ``next_dealer``/``next_vulnerable``: for the next deal, or None once four deals counted.
    """

    deals: tuple[ChicagoDeal, ...]
    above: dict[Side, tuple[Item, ...]]
    below: dict[Side, tuple[Item, ...]]
    totals: dict[Side, int]
    games: dict[Side, int]
    counted: int
    options: HouseRules

    @property
    def complete(self) -> bool:
        return self.counted == 4

    @property
    def next_dealer(self) -> Side | None:
        return None if self.complete else chicago_dealer(self.counted + 1)

    @property
    def next_vulnerable(self) -> tuple[bool, bool] | None:
        return None if self.complete else chicago_vulnerability(self.counted + 1, self.options)

    @property
    def net(self) -> dict[Side, int]:
        margin = self.totals[Side.NS] - self.totals[Side.EW]
        return {Side.NS: margin, Side.EW: -margin}

    @property
    def back_score_hundreds(self) -> dict[Side, int]:
        """The net margin in hundreds, as for a rubber (RULES 4.1, RULES 8.3)."""
        ns = hundreds(self.totals[Side.NS] - self.totals[Side.EW])
        return {Side.NS: ns, Side.EW: -ns}

    @property
    def points_leader(self) -> Side | None:
        return points_leader(self.totals[Side.NS], self.totals[Side.EW])

    def to_dict(self) -> dict[str, Any]:
        def pair(values: dict[Side, Any]) -> dict[str, Any]:
            return {"NS": values[Side.NS], "EW": values[Side.EW]}

        leader, dealer, vulnerable = self.points_leader, self.next_dealer, self.next_vulnerable
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
            deals_counted=self.counted,
            complete=self.complete,
            next=None
            if dealer is None or vulnerable is None
            else {
                "dealer": dealer.value,
                "vulnerable": {"NS": vulnerable[0], "EW": vulnerable[1]},
            },
            net=pair(self.net),
            back_score_hundreds=pair(self.back_score_hundreds),
            points_leader=None if leader is None else leader.value,
            deals=[deal.to_dict() for deal in self.deals],
            options=self.options.to_dict(),
        )
        return data


def score_chicago(deals: Sequence[DealInput], *, options: HouseRules = DEFAULT) -> ChicagoScore:
    """Score a Chicago (RULES 5). Trick, overtrick, undertrick, insult, slam and honours values
    as RULES 3 (honours only with ``chicago_honours``; a claim is refused otherwise). Part scores
    add up toward game until either side makes one; the deal completing a game earns 300 not
    vulnerable or 500 vulnerable; a part score on deal 4 that completes no game earns 100.
    A deal after the fourth counted deal is refused.
    """
    table, _ = deal_table(options)
    columns: tuple[list[Item], list[Item], list[Item], list[Item]] = ([], [], [], [])
    records: list[ChicagoDeal] = []
    part = [0, 0]
    games = [0, 0]
    totals = [0, 0]
    counted = 0
    for i, deal in enumerate(deals):
        _refuse_out_of_place(i, deal, counted=counted, options=options)
        number = i + 1
        this = counted + 1
        dealer = chicago_dealer(this)
        vulnerable = chicago_vulnerability(this, options)
        declarer = deal.declarer
        if declarer is None:
            records.append(ChicagoDeal(number, None, dealer, vulnerable, ()))
            continue
        counted = this
        side = declarer.ordinal
        declarer_vulnerable = vulnerable[side]
        score = table[deal.key * 2 + declarer_vulnerable]
        assert score is not None
        items = [_new(Item, (*item[:-1], number)) for item in score.items]
        below = score.declarer_below
        if below:
            reached = part[side] + below
            if reached >= 100:
                part = [0, 0]
                games[side] += 1
                items.append(_bonus(declarer, "game_bonus", deal, declarer_vulnerable, number))
            else:
                part[side] = reached
                if this == 4:
                    bonus = _bonus(declarer, "partscore_bonus", deal, declarer_vulnerable, number)
                    items.append(bonus)
        for item in items:
            column = item.side.ordinal * 2 + (item.line == BELOW)
            columns[column].append(item)
            totals[item.side.ordinal] += item.points
        records.append(ChicagoDeal(number, this, dealer, vulnerable, tuple(items)))
    return ChicagoScore(
        tuple(records),
        {Side.NS: tuple(columns[0]), Side.EW: tuple(columns[2])},
        {Side.NS: tuple(columns[1]), Side.EW: tuple(columns[3])},
        {Side.NS: totals[0], Side.EW: totals[1]},
        {Side.NS: games[0], Side.EW: games[1]},
        counted,
        options,
    )


def _refuse_out_of_place(i: int, deal: object, *, counted: int, options: HouseRules) -> None:
    """Refuse what is not a deal, a deal after the fourth counted one, and an honours claim
    when ``chicago_honours`` is off (RULES 5)."""
    if not isinstance(deal, DealInput):
        raise ScoringError(f"deals[{i}]", "{value!r} is not a deal", None, value=deal)
    if counted == 4:
        raise ScoringError(f"deals[{i}]", "the Chicago ended after four counted deals", "RULES 5")
    if deal.honours is not None and not options.chicago_honours:
        raise ScoringError(
            f"deals[{i}].honours", "honours do not count here (chicago_honours off)", "RULES 5"
        )


def _bonus(declarer: Side, reason: str, deal: DealInput, vulnerable: bool, number: int) -> Item:
    """A Chicago bonus above the line (RULES 5): ``game_bonus``, 300 not vulnerable or 500
    vulnerable for the deal completing a game; ``partscore_bonus``, 100 for a part score on deal
    4 that completes no game."""
    points = 100 if reason == "partscore_bonus" else 500 if vulnerable else 300
    return Item(declarer, ABOVE, points, reason, deal.contract, vulnerable, None, number)
