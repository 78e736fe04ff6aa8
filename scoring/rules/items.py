"""One line on a scoresheet: who scores, above or below the line, how much and why."""

from __future__ import annotations

from typing import Any, NamedTuple

from scoring.rules.contract import Contract, Side
from scoring.rules.explain import explain

__all__ = ["ABOVE", "BELOW", "REASONS", "Item"]

ABOVE = "above"
BELOW = "below"

#: Every reason code an item can carry (the keys of ``explain.TEMPLATES``).
REASONS = (
    "trick_points",
    "overtricks",
    "insult",
    "slam",
    "undertricks",
    "honours",
    "rubber_bonus",
    "unfinished_game",
    "unfinished_partscore",
    "game_bonus",
    "partscore_bonus",
    # The two-player games of RULES 7 (scoring/rules/two_player/, ``PlayerItem``).
    "two_player_declarer_tricks",
    "two_player_opponent_tricks",
    "two_player_honours",
    "two_player_rubber_bonus",
    "two_player_unfinished_game",
    "two_player_unfinished_partscore",
    "eight_tricks",
    "eight_tricks_failed",
    "misery_penalty",
    "misery_made",
    "draw_discard_tricks",
)


#: Each item's JSON, kept per process (`Item.to_dict`): a rubber's scoresheet is written out
#: again after each deal, every earlier item unchanged (the API answers a deal with it). Keyed
#: by the item and its fields' types, as `True == 1` and both hash alike.
_DICTS: dict[tuple[Any, ...], dict[str, Any]] = {}
#: At most this many kept; then the table is emptied and refilled.
KEPT_DICTS = 8192


class Item(NamedTuple):
    """A scoresheet entry.

    ``deal`` is the 1-based deal number, or None for an end-of-rubber item (bonuses) and for a
    single deal scored on its own. ``contract``, ``vulnerable`` and ``count`` are what the
    explanation needs: the contract, the vulnerability of the side concerned, and a count
    (odd tricks bid, overtricks, undertricks, honours held (4 or 5), slam level, or the loser's
    games for a rubber bonus). A tuple, so the engine can build millions cheaply.
    """

    side: Side
    line: str
    points: int
    reason: str
    contract: Contract | None = None
    vulnerable: bool | None = None
    # Shadows tuple.count, which an item never needs; the name matches the JSON field.
    count: int | None = None  # type: ignore[assignment]
    deal: int | None = None

    @property
    def explanation(self) -> str:
        return explain(self)

    def to_dict(self) -> dict[str, Any]:
        """The item's JSON, a copy of the one kept for an equal item (`_DICTS`)."""
        key = (self, tuple(map(type, self)))
        kept = _DICTS.get(key)
        if kept is None:
            kept = self._dict()
            if len(_DICTS) >= KEPT_DICTS:
                _DICTS.clear()
            _DICTS[key] = kept
        return dict(kept)

    def _dict(self) -> dict[str, Any]:
        return {
            "side": self.side.value,
            "line": self.line,
            "points": self.points,
            "reason": self.reason,
            "deal": self.deal,
            "contract": None if self.contract is None else str(self.contract),
            "vulnerable": self.vulnerable,
            "count": self.count,
            "explanation": self.explanation,
        }
