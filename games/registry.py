"""The game registry's Django side: each game's pages, by the code of its engine entry.

The engine's entry (`scoring.rules.games.Game`) says what a game is: its seats, how its input is
read and scored, its result and its rule. This adds how its match looks and is entered: the pad's
layout (a builder in games/views.py) and template, the entry template and, for a two-player game,
its deal fields (`games.forms.TwoPlayerFields`). Every registered game must have pages here
(tests/games/test_registry.py checks it); `pages(kind)` is the one lookup the views make.

`GamePages.entry_controls(rules)` says which controls a deal's entry and correction forms show
under a session's house rules (Chicago's honours only with `chicago_honours`, RULES 5): the forms
render those and no other (tests/games/test_entry_controls.py).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from scoring.rules import HouseRules
from scoring.rules.games import game

from .forms import (
    BridgeForTwoFields,
    DrawDiscardFields,
    MiseryFields,
    TurnoverFields,
    TwoPlayerFields,
)

__all__ = ["FOUR_PLAYER_CONTROLS", "PAGES", "GamePages", "pages", "register_pages"]

#: The four-player games' entry controls: `games.forms.DealEntryForm`'s taps.
FOUR_PLAYER_CONTROLS = ("level", "strain", "doubling", "declarer", "result", "honours")


@dataclass(frozen=True)
class GamePages:
    #: The pad's layout: a key of `games.views.PADS` ("rubber", "chicago", "two_player_rubber",
    #: "tricks", "race"); several games may share one.
    pad: str
    #: The template the pad is drawn with (included by templates/games/_live.html).
    pad_template: str
    #: The deal entry template (four-player taps, or the two-player game's own fields).
    entry_template: str
    #: A two-player game's deal fields; None for the four-player games (`DealEntryForm`).
    entry: TwoPlayerFields | None = None
    #: Controls a house rule turns off: (control, the `HouseRules` option that must be on for
    #: the control to show).
    needs: tuple[tuple[str, str], ...] = ()

    @property
    def controls(self) -> tuple[str, ...]:
        """Every control of the game's entry, whatever the house rules say."""
        return FOUR_PLAYER_CONTROLS if self.entry is None else self.entry.controls

    def entry_controls(self, rules: HouseRules) -> frozenset[str]:
        """The controls a deal of this game may have under the house rules `rules`: the ones the
        entry and correction forms show. A value sent for another is still checked by the
        engine, which refuses it naming its rule (e.g. honours in a Chicago without them)."""
        off = {control for control, option in self.needs if not getattr(rules, option)}
        return frozenset(self.controls) - off


#: Game code → its pages; every code of `scoring.rules.games.GAMES` has one.
PAGES: dict[str, GamePages] = {}

_PAD = "games/_pad.html"
_ENTRY = "games/_entry.html"
_ENTRY_TWO = "games/_entry_two.html"


def register_pages(kind: str, entry: GamePages) -> GamePages:
    """Give the registered game `kind` its pages."""
    game(kind)  # refuses a game the engine does not know
    options = {f.name for f in fields(HouseRules)}
    for control, option in entry.needs:
        if control not in entry.controls or option not in options:
            raise ValueError(f"{kind}: {control!r} needs {option!r}: no such control or rule")
    PAGES[kind] = entry
    return entry


def pages(kind: str) -> GamePages:
    return PAGES[kind]


register_pages("rubber", GamePages(pad="rubber", pad_template=_PAD, entry_template=_ENTRY))
register_pages(
    "chicago",
    GamePages(
        pad="chicago",
        pad_template=_PAD,
        entry_template=_ENTRY,
        needs=(("honours", "chicago_honours"),),  # RULES 5
    ),
)
register_pages(
    "bridge_for_two",
    GamePages(
        pad="two_player_rubber",
        pad_template=_PAD,
        entry_template=_ENTRY_TWO,
        entry=BridgeForTwoFields(),
    ),
)
register_pages(
    "misery",
    GamePages(
        pad="two_player_rubber", pad_template=_PAD, entry_template=_ENTRY_TWO, entry=MiseryFields()
    ),
)
register_pages(
    "turnover",
    GamePages(
        pad="tricks",
        pad_template="games/_turnover.html",
        entry_template=_ENTRY_TWO,
        entry=TurnoverFields(),
    ),
)
register_pages(
    "draw_discard",
    GamePages(
        pad="race",
        pad_template="games/_race.html",
        entry_template=_ENTRY_TWO,
        entry=DrawDiscardFields(),
    ),
)
