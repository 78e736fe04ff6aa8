"""The pads' layouts: a rubber's scoresheet laid out for its game (`PADS`, named by
`GamePages.pad` in games/registry.py) and turned to its viewer (`oriented`)."""

from __future__ import annotations

from typing import Any

from scoring.rules import Side

from .. import display, registry
from ..models import SEATS, Rubber


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


def build_pad(rubber: Rubber, deals: list[Any]) -> dict[str, Any]:
    """The scoresheet laid out for the game (its pages in games/registry.py): a paper pad
    (rubber, Chicago, Bridge for Two, Misery Bridge), a trick counter (Turnover) or a race to
    the target (Draw and Discard)."""
    sheet = rubber.scoresheet(deals)
    finished = sheet.complete or rubber.status == Rubber.Status.UNFINISHED
    page = registry.pages(rubber.kind)
    base = {"sheet": sheet, "finished": finished, "kind": rubber.kind}
    layout = {"layout": page.pad, "template": page.pad_template}
    return {**base, **PADS[page.pad](sheet), **layout}


def _two_player_rubber_pad(sheet: Any) -> dict[str, Any]:
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


def _chicago_pad(sheet: Any) -> dict[str, Any]:
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


def _rubber_pad(sheet: Any) -> dict[str, Any]:
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


PAIRS = (
    ("above_ns", "above_ew"),
    ("vul_ns", "vul_ew"),
    ("games_ns", "games_ew"),
    ("total_ns", "total_ew"),
    ("hundreds_ns", "hundreds_ew"),
)


OTHER = {"NS": "EW", "EW": "NS", None: None}


def oriented(pad: dict[str, Any], we_side: str | None) -> dict[str, Any]:
    """The pad as its viewer writes it: their own side in the left column (We). For an East–West
    player the columns change places; `left` names the side shown on the left and `true` keeps
    the figures by their real sides (N–S first) for what names the sides."""
    if we_side != "EW":
        return {**pad, "left": "ns", "right": "ew", "true": pad, "places": (0, 1)}
    flipped = dict(pad)
    if "values" in pad:  # a trick counter or a race: the two players' bars change places
        flipped["values"] = pad["values"][::-1]
        flipped["bars"] = pad["bars"][::-1]
    for first, second in PAIRS:
        if first in pad:
            flipped[first], flipped[second] = pad[second], pad[first]
    if "segments" in pad:
        flipped["segments"] = [
            {"ns": s["ew"], "ew": s["ns"], "won_by": OTHER[s["won_by"]]} for s in pad["segments"]
        ]
    for key in ("winner", "leader"):
        if key in pad:
            flipped[key] = OTHER[pad[key]]
    if "net_ns" in pad:
        flipped["net_ns"] = -pad["net_ns"]
    return {**flipped, "left": "ew", "right": "ns", "true": pad, "places": (1, 0)}


def swapped(rubber: Rubber) -> bool:
    """Whether a two-player match shows its engine's player 1 first (display.two_player_order)."""
    return rubber.is_two_player and display.two_player_order(rubber.seat_ids)[0] == "E"


def places(rubber: Rubber) -> tuple[int, int]:
    """The engine's places (player 0, player 1) in the order the page shows the players."""
    return (1, 0) if swapped(rubber) else (0, 1)


def _percent(value: int, whole: int) -> int:
    """A bar's length in steps of 5% (the CSS classes .pct-0 … .pct-100; no inline styles)."""
    return max(0, min(100, 5 * round(20 * value / whole))) if whole else 0


def _turnover_pad(sheet: Any) -> dict[str, Any]:
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


def _race_pad(sheet: Any) -> dict[str, Any]:
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


#: The pads' layouts by name (`GamePages.pad` in games/registry.py): the sheet → the pad's figures.
PADS = {
    "rubber": _rubber_pad,
    "chicago": _chicago_pad,
    "two_player_rubber": _two_player_rubber_pad,
    "tricks": _turnover_pad,
    "race": _race_pad,
}
