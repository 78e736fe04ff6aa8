"""Draw and Discard Bridge (RULES 7.4): a race to a target score (no lines, no games: its items
are written below the line, as trick points)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.rules.contract import Contract
from scoring.rules.deal import refuse_on_a_pass
from scoring.rules.errors import ScoringError
from scoring.rules.items import BELOW
from scoring.rules.options import DEFAULT, HouseRules
from scoring.rules.two_player.common import (
    _R74,
    PlayerItem,
    _check_fields,
    _check_player,
    _check_tricks,
    _deals_from_json,
    _require,
    _trick_value,
)


@dataclass(frozen=True, slots=True)
class DrawDiscardDeal:
    """A deal of Draw and Discard Bridge (RULES 7.4): the contract won in the auction (levels
    1–7, C < D < H < S < NT, doubled or redoubled) or a pass, the declarer (0 or 1) and the
    tricks the declarer won (0–13). A passed deal has neither declarer nor tricks.
    """

    contract: Contract
    declarer: int | None = None
    tricks: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.contract, Contract):
            raise ScoringError(
                "contract", "{value!r} is not a contract", "RULES 1", value=self.contract
            )
        if self.contract.is_pass:
            refuse_on_a_pass(self.declarer, self.tricks, None)  # as every game (RULES 3.8)
            return
        if self.declarer is None:
            raise ScoringError("declarer", "is required", _R74)
        _check_player(self.declarer, "declarer", _R74)
        if self.tricks is None:
            raise ScoringError("tricks", "is required", "RULES 1")
        _check_tricks(self.tricks)

    @classmethod
    def create(
        cls, contract: Contract | str, declarer: int | None = None, tricks: int | None = None
    ) -> DrawDiscardDeal:
        """Build from loose values: ``DrawDiscardDeal.create("4SX", 0, 10)``."""
        return cls(Contract.parse(contract), declarer, tricks)

    @classmethod
    def from_dict(cls, data: object) -> DrawDiscardDeal:
        """From JSON ``{declarer, contract, tricks}`` (``{"contract": "pass"}`` for a pass)."""
        checked = _check_fields(data, ("declarer", "contract", "tricks"), "a deal")
        contract = Contract.parse(_require(checked, "contract", "RULES 1"))
        return cls(contract, checked.get("declarer"), checked.get("tricks"))

    def swapped(self) -> DrawDiscardDeal:
        """The same deal with the players' places exchanged."""
        if self.declarer is None:
            return self
        return replace(self, declarer=1 - self.declarer)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"contract": str(self.contract)}
        if self.declarer is not None:
            data["declarer"] = self.declarer
            data["tricks"] = self.tricks
        return data


@dataclass(frozen=True, slots=True)
class DrawDiscardDealScore:
    """A scored Draw and Discard deal: the input, its items (none when the contract failed or
    the deal was passed) and its 1-based ``number`` in the game.
    """

    deal: DrawDiscardDeal
    items: tuple[PlayerItem, ...]
    number: int | None = None

    @property
    def points(self) -> tuple[int, int]:
        totals = [0, 0]
        for item in self.items:
            totals[item.player] += item.points
        return (totals[0], totals[1])

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "deal": self.deal.to_dict(),
            "points": list(self.points),
            "items": [item.to_dict() for item in self.items],
        }


def score_draw_discard_deal(deal: DrawDiscardDeal) -> DrawDiscardDealScore:
    """One Draw and Discard deal (RULES 7.4): a made contract scores every trick won over six
    (overtricks included) at C/D 20, H/S 30, NT 40 for the first and 30 after, ×2 doubled,
    ×4 redoubled; a failed contract, or a pass, scores nothing.
    """
    if not isinstance(deal, DrawDiscardDeal):
        raise ScoringError("deal", "{value!r} is not a Draw and Discard deal", None, value=deal)
    contract = deal.contract
    if contract.strain is None or deal.declarer is None or deal.tricks is None:
        return DrawDiscardDealScore(deal, ())
    if deal.tricks < contract.level + 6:
        return DrawDiscardDealScore(deal, ())
    over = deal.tricks - 6
    points = _trick_value(contract.strain, over, contract.doubling.value)
    item = PlayerItem(
        deal.declarer,
        BELOW,
        points,
        "draw_discard_tricks",
        over,
        contract.strain,
        contract.doubling,
        contract.level,
    )
    return DrawDiscardDealScore(deal, (item,))


@dataclass(frozen=True, slots=True)
class DrawDiscardScore:
    """A game of Draw and Discard Bridge (RULES 7.4): the target, each deal's score, the
    players' scores, and the winner, the first player to reach the target (the game is then
    ``finished``).
    """

    target: int
    deals: tuple[DrawDiscardDealScore, ...]
    scores: tuple[int, int]
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def items(self) -> tuple[PlayerItem, ...]:
        return tuple(item for deal in self.deals for item in deal.items)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "scores": list(self.scores),
            "finished": self.finished,
            "winner": self.winner,
            "deals": [deal.to_dict() for deal in self.deals],
        }


def score_draw_discard(
    deals: Sequence[DrawDiscardDeal], *, target: int | None = None, options: HouseRules = DEFAULT
) -> DrawDiscardScore:
    """Score a game of Draw and Discard Bridge from its ordered deals (RULES 7.4).

    ``target`` defaults to the option ``draw_and_discard_target`` (500). The first player whose
    score reaches the target wins and the game ends: a deal after that is refused.
    """
    if target is None:
        target = options.draw_and_discard_target
    if type(target) is not int or target <= 0:
        raise ScoringError("target", "{value!r} is not a positive whole number", _R74, value=target)
    scores = [0, 0]
    winner: int | None = None
    played: list[DrawDiscardDealScore] = []
    for number, deal in enumerate(deals, 1):
        if winner is not None:
            raise ScoringError(
                f"deals[{number - 1}]",
                "player {player} reached the target of {target} at deal {number}; the game is over",
                _R74,
                player=winner,
                target=target,
                number=number - 1,
            )
        if not isinstance(deal, DrawDiscardDeal):
            raise ScoringError(f"deals[{number - 1}]", "{value!r} is not a deal", None, value=deal)
        score = score_draw_discard_deal(deal)
        items = tuple(replace(item, deal=number) for item in score.items)
        played.append(replace(score, items=items, number=number))
        for item in items:
            scores[item.player] += item.points
            if scores[item.player] >= target:
                winner = item.player
    return DrawDiscardScore(target, tuple(played), (scores[0], scores[1]), winner)


def draw_discard_deals_from_json(raw: object) -> list[DrawDiscardDeal]:
    """The ``deals`` list of a Draw and Discard request; errors name the deal."""
    return _deals_from_json(raw, DrawDiscardDeal.from_dict)
