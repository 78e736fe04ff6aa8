"""Turnover Bridge (RULES 7.3): a result (who won the more of 26 tricks), not a score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.errors import ScoringError
from scoring.rules.two_player.common import _R73, _check_fields, _require


@dataclass(frozen=True, slots=True)
class TurnoverResult:
    """The result of a game of Turnover Bridge (RULES 7.3): the tricks each player won, and the
    winner (the first to 14, who has the more tricks), or None for a 13–13 tie.
    """

    tricks: tuple[int, int]
    winner: int | None

    @property
    def tie(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {"tricks": list(self.tricks), "winner": self.winner, "tie": self.tie}


def score_turnover(tricks_0: int, tricks_1: int) -> TurnoverResult:
    """The result of a Turnover game from the tricks each player won (RULES 7.3).

    The first to 14 of the 26 tricks wins. Play normally stops there, so 14 against 0–12 is a
    result; but the players may play all 26 out (seed 000: "fourteen or more"), so any split of
    the 26 is one too (16–10 is a win for the 16), and 13–13 a tie. Anything else (15–10, 14–13,
    12–12, ...) is refused.
    """
    for i, value in enumerate((tricks_0, tricks_1)):
        if type(value) is not int:
            raise ScoringError(f"tricks[{i}]", "{value!r} is not a whole number", _R73, value=value)
    played_out = tricks_0 + tricks_1 == 26 and min(tricks_0, tricks_1) >= 0
    stopped = max(tricks_0, tricks_1) == 14 and 0 <= min(tricks_0, tricks_1) <= 12
    if not (played_out or stopped):
        raise ScoringError(
            "tricks",
            "{first}–{second} is not a Turnover result: 14 against 0–12 (play stopped at 14), "
            "or all 26 tricks played out",
            _R73,
            first=tricks_0,
            second=tricks_1,
        )
    if tricks_0 == tricks_1:
        return TurnoverResult((13, 13), None)
    return TurnoverResult((tricks_0, tricks_1), 0 if tricks_0 > tricks_1 else 1)


def turnover_from_json(data: Mapping[str, Any]) -> TurnoverResult:
    """A Turnover request ``{"tricks": [t0, t1]}`` scored (RULES 7.3)."""
    checked = _check_fields(data, ("tricks",), "a Turnover result")
    tricks = _require(checked, "tricks", _R73)
    if not isinstance(tricks, list) or len(tricks) != 2:
        raise ScoringError("tricks", "{value!r} is not a pair [t0, t1]", _R73, value=tricks)
    return score_turnover(tricks[0], tricks[1])
