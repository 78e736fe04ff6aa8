"""The one adapter between a match (a `Rubber` row) and the scoring engine, whatever the game.

A session's kind decides the game each table plays (RULES 2, 5, 7): the four-player rubber and
Chicago, and the two-player Bridge for Two, Misery Bridge, Turnover and Draw and Discard. Every
caller (the model's completion logic, the pages, the serializers, the standings) asks `score`
for a `Sheet` and reads the few figures every game has from it, so nobody else branches on the
kind: each game's entry in the registry (`scoring.rules.games`) says how its match is scored.
No arithmetic lives here: each figure is the engine's.

Places: 0 is NS (or player 0), 1 is EW (or player 1); a seat's place is `PLACE_OF_SEAT`
(N, S → 0; E, W → 1; a two-player match seats player 0 at N and player 1 at E).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules import HouseRules, ScoringError
from scoring.rules.games import GAMES, DealLike, Result, game, kinds
from scoring.shared.i18n import localize_explanations, speaks_the_engines_sentences

__all__ = [
    "DealLike",
    "Result",
    "Sheet",
    "game",
    "has_key_scoring",
    "normalise",
    "result_of_keys",
    "score",
]

#: The codes of the registered games (`scoring.rules.games`), for the names callers know.
RUBBER = "rubber"
CHICAGO = "chicago"
BRIDGE_FOR_TWO = "bridge_for_two"
MISERY = "misery"
TURNOVER = "turnover"
DRAW_DISCARD = "draw_discard"

FOUR_PLAYER = kinds(seats=4)
TWO_PLAYER = kinds(seats=2)
PLACE_OF_SEAT = {"N": 0, "S": 0, "E": 1, "W": 1}


def is_two_player(kind: str) -> bool:
    return kind in GAMES and GAMES[kind].two_player


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
        return game(self.kind).back_score

    def to_dict(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        """The engine's JSON, explained in the active language; a two-player match's sentences
        name its players with `names` (player 0's and player 1's), else count them from 1."""
        if self.score is None:  # a Turnover match before its result is entered
            return {"tricks": None, "winner": None, "tie": False}
        data: dict[str, Any] = self.score.to_dict()
        if self.kind in FOUR_PLAYER and names is None and speaks_the_engines_sentences():
            # Items that name sides, in the engine's own language: already the reader's words.
            return data
        localized: dict[str, Any] = localize_explanations(data, names)
        return localized


def normalise(kind: str, data: Any) -> dict[str, Any]:
    """A two-player deal as entered, checked by the engine (RULES 7.x), in its canonical JSON."""
    entry = GAMES.get(kind)
    if not isinstance(data, Mapping):
        rule = entry.rule if entry is not None and entry.two_player else None
        raise ScoringError("", "expected an object with the deal's fields", rule)
    if entry is None or entry.normalise is None:
        raise ScoringError("kind", "{value!r} is not a two-player game", None, value=kind)
    return entry.normalise(data)


def result_of_keys(
    kind: str, keys: Sequence[int], *, closed: bool, options: HouseRules
) -> Result | None:
    """A match's `Result` from its deals' `DealInput.key`s, as `score(...).result` gives it,
    without the sheet; None for a game with no such path (score its deals instead)."""
    scorer = game(kind).result_of_keys
    return None if scorer is None else scorer(keys, closed, options)


def has_key_scoring(kind: str) -> bool:
    """Whether `result_of_keys` scores a match of `kind`."""
    return kind in GAMES and GAMES[kind].result_of_keys is not None


def score(kind: str, deals: Sequence[DealLike], *, closed: bool, options: HouseRules) -> Sheet:
    """Score a match of `kind` from its ordered deals (RULES 8.2); errors name `deals[i].field`."""
    scored = game(kind).score(deals, closed, options)
    return Sheet(kind, scored.score, scored.complete, scored.result)
