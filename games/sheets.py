"""The one adapter between a match (a `Rubber` row) and the scoring engine, whatever the game.

A session's kind decides the game each table plays (RULES 2, 5, 7): the four-player rubber and
Chicago, and the two-player Bridge for Two, Misery Bridge, Turnover and Draw and Discard. Every
caller (the model's completion logic, the pages, the serializers, the standings) asks `score`
for a `Sheet` and reads the few figures every game has from it, so nobody else branches on the
kind. No arithmetic lives here: each figure is the engine's.

Places: 0 is NS (or player 0), 1 is EW (or player 1); a seat's place is `PLACE_OF_SEAT`
(N, S → 0; E, W → 1; a two-player match seats player 0 at N and player 1 at E).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext_lazy as _

from scoring.rules import (
    DealInput,
    HouseRules,
    ScoringError,
    Side,
    score_chicago,
    score_rubber,
)
from scoring.rules.two_player import (
    DrawDiscardDeal,
    TwoPlayerDeal,
    draw_discard_deals_from_json,
    score_bridge_for_two,
    score_draw_discard,
    score_misery,
    turnover_from_json,
    two_player_deals_from_json,
)
from scoring.shared.i18n import localize_explanations

RUBBER = "rubber"
CHICAGO = "chicago"
BRIDGE_FOR_TWO = "bridge_for_two"
MISERY = "misery"
TURNOVER = "turnover"
DRAW_DISCARD = "draw_discard"

KINDS = [
    (RUBBER, _("Rubber bridge")),
    (CHICAGO, _("Chicago")),
    (BRIDGE_FOR_TWO, _("Bridge for Two")),
    (MISERY, _("Misery Bridge")),
    (TURNOVER, _("Turnover Bridge")),
    (DRAW_DISCARD, _("Draw and Discard Bridge")),
]
FOUR_PLAYER = (RUBBER, CHICAGO)
TWO_PLAYER = (BRIDGE_FOR_TWO, MISERY, TURNOVER, DRAW_DISCARD)
#: Games scored as rubbers, whose margin becomes a back score in hundreds (RULES 4.1).
WITH_BACK_SCORE = (RUBBER, CHICAGO, BRIDGE_FOR_TWO, MISERY)
PLACE_OF_SEAT = {"N": 0, "S": 0, "E": 1, "W": 1}
RULE_OF_KIND = {
    BRIDGE_FOR_TWO: "RULES 7.1",
    MISERY: "RULES 7.2",
    TURNOVER: "RULES 7.3",
    DRAW_DISCARD: "RULES 7.4",
}


def is_two_player(kind: str) -> bool:
    return kind in TWO_PLAYER


class DealLike(Protocol):
    """What the adapter reads from a deal: the four-player fields or the two-player `data`."""

    data: Any

    def as_input(self) -> DealInput: ...


@dataclass(frozen=True)
class Result:
    """The figures standings need, per place: totals, net, hundreds (0 without a back score),
    and who won (`winner`, None while open or on a tie)."""

    totals: tuple[int, int]
    net: tuple[int, int]
    hundreds: tuple[int, int]
    winner: int | None


@dataclass(frozen=True)
class Sheet:
    """A match's scoresheet: the engine's own object (`score`, whose attributes it also answers,
    so a rubber's sheet still reads `sheet.game_ends`), whether the match is over (`complete`)
    and its `result`. `to_dict()` is the engine's JSON, as `python -m scoring <game>` prints."""

    kind: str
    score: Any
    complete: bool
    result: Result

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.score, name)

    @property
    def has_back_score(self) -> bool:
        return self.kind in WITH_BACK_SCORE

    def to_dict(self) -> dict[str, Any]:
        if self.score is None:  # a Turnover match before its result is entered
            return {"tricks": None, "winner": None, "tie": False}
        data: dict[str, Any] = localize_explanations(self.score.to_dict())
        return data


def _pair(values: Mapping[Side, int]) -> tuple[int, int]:
    return (values[Side.NS], values[Side.EW])


def _leader(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def _margin(totals: tuple[int, int]) -> tuple[int, int]:
    return (totals[0] - totals[1], totals[1] - totals[0])


def normalise(kind: str, data: Any) -> dict[str, Any]:
    """A two-player deal as entered, checked by the engine (RULES 7.x), in its canonical JSON."""
    if not isinstance(data, Mapping):
        raise ScoringError("", "expected an object with the deal's fields", RULE_OF_KIND.get(kind))
    if kind == BRIDGE_FOR_TWO:
        return TwoPlayerDeal.from_dict(data).to_dict()
    if kind == MISERY:
        canonical = TwoPlayerDeal.from_dict(data, misery=True).to_dict()
        canonical.setdefault("declaration", "ordinary")
        return canonical
    if kind == TURNOVER:
        return {"tricks": list(turnover_from_json(data).tricks)}
    if kind == DRAW_DISCARD:
        return DrawDiscardDeal.from_dict(data).to_dict()
    raise ScoringError("kind", "{value!r} is not a two-player game", None, value=kind)


def score(kind: str, deals: Sequence[DealLike], *, closed: bool, options: HouseRules) -> Sheet:
    """Score a match of `kind` from its ordered deals (RULES 8.2); errors name `deals[i].field`."""
    if kind == RUBBER:
        rubber = score_rubber([d.as_input() for d in deals], closed=closed, options=options)
        totals = _pair(rubber.totals)
        leader = rubber.points_leader
        return Sheet(
            kind,
            rubber,
            rubber.rubber_complete,
            Result(
                totals,
                _pair(rubber.net),
                _pair(rubber.back_score_hundreds),
                None if leader is None else leader.ordinal,
            ),
        )
    if kind == CHICAGO:
        chicago = score_chicago([d.as_input() for d in deals], options=options)
        totals = _pair(chicago.totals)
        leader = chicago.points_leader
        return Sheet(
            kind,
            chicago,
            chicago.complete,
            Result(
                totals,
                _pair(chicago.net),
                _pair(chicago.back_score_hundreds),
                None if leader is None else leader.ordinal,
            ),
        )
    raw = [d.data for d in deals]
    if kind in (BRIDGE_FOR_TWO, MISERY):
        scorer = score_misery if kind == MISERY else score_bridge_for_two
        parsed = two_player_deals_from_json(raw, misery=kind == MISERY)
        match = scorer(parsed, closed=closed, options=options)
        return Sheet(
            kind,
            match,
            match.rubber_complete,
            Result(match.totals, match.net, match.back_score_hundreds, match.points_leader),
        )
    if kind == TURNOVER:
        if len(raw) > 1:
            raise ScoringError(
                f"deals[{len(raw) - 1}]", "a Turnover game has one result", "RULES 7.3"
            )
        if not raw:
            return Sheet(kind, None, False, Result((0, 0), (0, 0), (0, 0), None))
        try:
            result = turnover_from_json(raw[0])
        except ScoringError as error:
            raise error.within("deals[0]") from None
        tricks = (result.tricks[0], result.tricks[1])
        return Sheet(kind, result, True, Result(tricks, _margin(tricks), (0, 0), result.winner))
    if kind == DRAW_DISCARD:
        game = score_draw_discard(draw_discard_deals_from_json(raw), options=options)
        scores = (game.scores[0], game.scores[1])
        # The first to the target wins; a game stopped short is won on points (as RULES 2.5).
        winner = game.winner if game.finished else _leader(scores)
        return Sheet(kind, game, game.finished, Result(scores, _margin(scores), (0, 0), winner))
    raise ScoringError("kind", "{value!r} is not a game Backscore scores", None, value=kind)
