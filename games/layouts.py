"""The games' pad layouts: a scoresheet → the figures its pad shows (a paper pad, a trick
counter, a race to the target). A game's entry in games/registry.py names its builder
(`GamePages.pad_builder`); games/pad/builders.py lays the pad out with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.rules import Side

from .models import SEATS

__all__ = [
    "PadBuilder",
    "chicago_pad",
    "race_pad",
    "rubber_pad",
    "turnover_pad",
    "two_player_rubber_pad",
]

#: A pad's builder: the game's scoresheet (`games.sheets.Sheet`) → the figures its template shows.
PadBuilder = Callable[[Any], dict[str, Any]]


def _segments(
    game_ends: list[tuple[str, int]], below: dict[str, Any], complete: bool
) -> list[dict[str, Any]]:
    """Below-the-line items grouped by game, a line under each finished game. `game_ends` is
    (key of the winner, deal number) per game won, as the engine reports it."""
    ends = [deal_number for _key, deal_number in game_ends]
    segments: list[dict[str, Any]] = [{"ns": [], "ew": [], "won_by": key} for key, _n in game_ends]
    if not complete:
        segments.append({"ns": [], "ew": [], "won_by": None})
    for key, items in below.items():
        for item in items:
            index = sum(1 for end in ends if item.deal is not None and end < item.deal)
            segments[min(index, len(segments) - 1)][key].append(item)
    return segments


def two_player_rubber_pad(sheet: Any) -> dict[str, Any]:
    """A two-player rubber's paper pad (RULES 7.1, 7.2): player 0 in the N–S column."""
    keys = ("NS", "EW")
    return _paper(
        sheet,
        {
            "above_ns": sheet.above[0],
            "above_ew": sheet.above[1],
            "segments": _segments(
                [(keys[player], n) for player, n in sheet.game_ends],
                {"ns": sheet.below[0], "ew": sheet.below[1]},
                sheet.complete,
            ),
            "vul_ns": sheet.vulnerable[0],
            "vul_ew": sheet.vulnerable[1],
            "games_ns": sheet.games[0],
            "games_ew": sheet.games[1],
            "winner": None if sheet.winner is None else keys[sheet.winner],
            "leader": None if sheet.points_leader is None else keys[sheet.points_leader],
        },
    )


def chicago_pad(sheet: Any) -> dict[str, Any]:
    """A Chicago's paper pad (RULES 5), with the next dealer."""
    ends = [
        (item.side.value, item.deal)
        for side in (Side.NS, Side.EW)
        for item in sheet.above[side]
        if item.reason == "game_bonus"
    ]
    vulnerable = sheet.next_vulnerable or (False, False)
    return _paper(
        sheet,
        {
            "above_ns": sheet.above[Side.NS],
            "above_ew": sheet.above[Side.EW],
            "segments": _segments(
                sorted(ends, key=lambda end: end[1]),
                {"ns": sheet.below[Side.NS], "ew": sheet.below[Side.EW]},
                sheet.complete,
            ),
            "vul_ns": vulnerable[0],
            "vul_ew": vulnerable[1],
            "games_ns": sheet.games[Side.NS],
            "games_ew": sheet.games[Side.EW],
            "winner": None,
            "leader": None if sheet.points_leader is None else sheet.points_leader.value,
            # RULES 5: N, E, S, W deal the counted deals in turn; a passed-out deal is redealt.
            "next_dealer": None if sheet.complete else SEATS[sheet.counted % 4],
            "counted": sheet.counted,
        },
    )


def rubber_pad(sheet: Any) -> dict[str, Any]:
    """A rubber's paper pad (RULES 2): a line under each game won."""
    return _paper(
        sheet,
        {
            "above_ns": sheet.above[Side.NS],
            "above_ew": sheet.above[Side.EW],
            "segments": _segments(
                [(side.value, n) for side, n in sheet.game_ends],
                {"ns": sheet.below[Side.NS], "ew": sheet.below[Side.EW]},
                sheet.rubber_complete,
            ),
            "vul_ns": sheet.vulnerable[Side.NS],
            "vul_ew": sheet.vulnerable[Side.EW],
            "games_ns": sheet.games[Side.NS],
            "games_ew": sheet.games[Side.EW],
            "winner": None if sheet.winner is None else sheet.winner.value,
            "leader": None if sheet.points_leader is None else sheet.points_leader.value,
        },
    )


def _paper(sheet: Any, pad: dict[str, Any]) -> dict[str, Any]:
    """A paper pad with the result's figures under it (RULES 4.1)."""
    result = sheet.result
    return {
        **pad,
        "total_ns": result.totals[0],
        "total_ew": result.totals[1],
        "hundreds_ns": result.hundreds[0],
        "hundreds_ew": result.hundreds[1],
        "net_ns": result.net[0],
        "margin": abs(result.net[0]),
    }


def _percent(value: int, whole: int) -> int:
    """A bar's length in steps of 5% (the CSS classes .pct-0 … .pct-100; no inline styles)."""
    return max(0, min(100, 5 * round(20 * value / whole))) if whole else 0


def turnover_pad(sheet: Any) -> dict[str, Any]:
    """The trick counter of a Turnover game (RULES 7.3): the first to 14 of 26 tricks wins."""
    tricks = sheet.result.totals if sheet.score is not None else None
    return {
        "tricks": tricks,
        "values": list(tricks) if tricks else [None, None],
        "bars": [_percent(t, 14) for t in tricks] if tricks else [0, 0],
        "margin": abs(tricks[0] - tricks[1]) if tricks else 0,
        "winner_place": sheet.result.winner,
        "tie": sheet.score is not None and sheet.score.tie,
        "total_ns": tricks[0] if tricks else 0,
        "total_ew": tricks[1] if tricks else 0,
    }


def race_pad(sheet: Any) -> dict[str, Any]:
    """The race to the target of Draw and Discard (RULES 7.4): each player's score and bar."""
    target = sheet.score.target
    scores = sheet.result.totals
    return {
        "target": target,
        "scores": scores,
        "values": list(scores),
        "bars": [_percent(score, target) for score in scores],
        "margin": abs(scores[0] - scores[1]),
        "winner_place": sheet.score.winner,
        "total_ns": scores[0],
        "total_ew": scores[1],
    }
