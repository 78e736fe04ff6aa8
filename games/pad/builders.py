"""The pads: a rubber's scoresheet laid out for its game (by the builder its entry in
games/registry.py carries, `GamePages.pad_builder`; the games' own are in games/layouts.py) and
turned to its viewer (`oriented`)."""

from __future__ import annotations

from typing import Any

from .. import display, registry
from ..models import Rubber


def build_pad(rubber: Rubber, deals: list[Any]) -> dict[str, Any]:
    """The scoresheet laid out for the game (its pages in games/registry.py): a paper pad
    (rubber, Chicago, Bridge for Two, Misery Bridge), a trick counter (Turnover) or a race to
    the target (Draw and Discard)."""
    sheet = rubber.scoresheet(deals)
    finished = sheet.complete or rubber.status == Rubber.Status.UNFINISHED
    page = registry.pages(rubber.kind)
    base = {"sheet": sheet, "finished": finished, "kind": rubber.kind}
    layout = {"layout": page.pad, "template": page.pad_template}
    return {**base, **page.pad_builder(sheet), **layout}


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
