"""The game registry's Django side: each game's pages, by the code of its engine entry.

The engine's entry (`scoring.rules.games.Game`) says what a game is: its seats, how its input is
read and scored, its result and its rule. This adds how its match looks and is entered: the pad's
layout (its name, its builder in games/layouts.py) and template, the entry template and, for a
two-player game, its deal fields (`games.forms.TwoPlayerFields`). Every registered game must have
pages here (tests/games/test_registry.py checks it); `pages(kind)` is the one lookup the views
make.

Each game also declares how its pages speak of it and what they show: its deal summary
(`summary`, a function of games/summaries.py, filed there by `register_pages`;
`summarise(kind, deal, names)` asks it) and how its pad lists a deal (`deal_words`), its
vocabulary (`GameWords`: "Rubber 3", "Match 3", "Chicago 3", "Next Chicago", ...), the templates of
its rotation on the console and on the table cards, and whether it has early leavers and a
leaderboard of its own. Templates read these with `{% load games %}` (games/templatetags/games.py)
instead of comparing the kind; tests/games/test_kind_guard.py keeps it so.

`GamePages.entry_controls(rules)` says which controls a deal's entry and correction forms show
under a session's house rules (Chicago's honours only with `chicago_honours`, RULES 5): the forms
render those and no other (tests/games/test_entry_controls.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.rules.explain import SECTIONS, rule_reference
from scoring.rules.games import game
from scoring.rules.options import HouseRules
from scoring.rules.rubber import unfinished_bonuses
from scoring.rules.two_player import two_player_unfinished_bonuses
from scoring.shared.i18n import templates_for

from . import display, layouts, refusals, summaries
from .forms import (
    BridgeForTwoFields,
    DrawDiscardFields,
    MiseryFields,
    TurnoverFields,
    TwoPlayerFields,
)
from .summaries import summarise

__all__ = [
    "FOUR_PLAYER_CONTROLS",
    "PAGES",
    "Closing",
    "GamePages",
    "GameWords",
    "deal_words",
    "names_for",
    "pages",
    "register_pages",
    "summarise",
]

#: The four-player games' entry controls: `games.forms.DealEntryForm`'s taps.
FOUR_PLAYER_CONTROLS = ("level", "strain", "doubling", "declarer", "result", "honours")


@dataclass(frozen=True)
class Closing:
    """What closing the session does to a match of this game still in play (RULES 8.4), in
    the close page's words: the rule it applies and, where the game has them, the figures of its
    unfinished bonuses, both the engine's (the section its explanations cite, `explain.SECTIONS`,
    and the bonuses it scores), so the page says what the figures beside it show."""

    #: The RULES.md section, "RULES 2.6"; cited in the reader's language ("REGOLE 2.6").
    rule: str
    #: The sentence, with %(rule)s and, for a game with unfinished bonuses, %(game)s and
    #: %(partscore)s.
    words: Promise
    #: The few words of each match's row ("Closes unfinished (REGOLE 2.6)"), with %(rule)s.
    row: Promise
    #: The engine's unfinished bonuses under the session's house rules: (the only completed
    #: game, a lone part score); None for a game that has none.
    bonuses: Callable[[HouseRules], tuple[int, int]] | None = None
    #: The sentence when the part-score bonus is 0 (RULES 7.1 with the 100 rubber bonus).
    words_no_partscore: Promise | None = None

    def _rule(self) -> str:
        words = templates_for(translation.get_language() or "en")["_words"]
        return rule_reference(self.rule, words)

    def sentence(self, options: HouseRules) -> str:
        """The sentence in the active language, with the figures `options` give."""
        values: dict[str, object] = {"rule": self._rule()}
        words = self.words
        if self.bonuses is not None:
            game_bonus, partscore = self.bonuses(options)
            values.update(game=game_bonus, partscore=partscore)
            if partscore == 0 and self.words_no_partscore is not None:
                words = self.words_no_partscore
        return str(words) % values

    def row_words(self) -> str:
        return str(self.row) % {"rule": self._rule()}


_CLOSES_UNFINISHED = _("Closes unfinished (%(rule)s)")
_CLOSES_AS_IT_STANDS = _("Closes as it stands (%(rule)s)")

RUBBER_CLOSING = Closing(
    rule=SECTIONS["unfinished_game"],
    words=_(
        "Each rubber still in play closes as unfinished and is scored by %(rule)s: %(game)s to "
        "a side with the only completed game, %(partscore)s to a side with a part score in the "
        "unfinished game when the other side has none there. A rubber without a deal is "
        "withdrawn."
    ),
    row=_CLOSES_UNFINISHED,
    bonuses=unfinished_bonuses,
)
CHICAGO_CLOSING = Closing(
    rule="RULES 5",
    words=_(
        "Each Chicago still in play closes as it stands and is counted on its running totals, "
        "with no bonus for the deals not played (%(rule)s). A Chicago without a deal is "
        "withdrawn."
    ),
    row=_CLOSES_AS_IT_STANDS,
)
TWO_PLAYER_RUBBER_CLOSING = Closing(
    rule=SECTIONS["two_player_unfinished_game"],
    words=_(
        "Each match still in play closes as unfinished and is scored by %(rule)s: %(game)s to "
        "the player with the only completed game, %(partscore)s to a player with a part score "
        "in the unfinished game when the other has none there. A match without a deal is "
        "withdrawn."
    ),
    words_no_partscore=_(
        "Each match still in play closes as unfinished and is scored by %(rule)s: %(game)s to "
        "the player with the only completed game, nothing for a part score. A match without a "
        "deal is withdrawn."
    ),
    row=_CLOSES_UNFINISHED,
    bonuses=two_player_unfinished_bonuses,
)
TURNOVER_CLOSING = Closing(
    rule="RULES 7.3",
    words=_("A Turnover game ends with its one result (%(rule)s): one without it is withdrawn."),
    row=_CLOSES_AS_IT_STANDS,
)
DRAW_DISCARD_CLOSING = Closing(
    rule="RULES 7.4",
    words=_(
        "Each game still in play closes as it stands: the player with more points wins it, and "
        "equal points are a tie (%(rule)s). A game without a deal is withdrawn."
    ),
    row=_CLOSES_AS_IT_STANDS,
)


_WITHDRAW_NEXT = _(
    "This correction reopens rubber %(number)s: rubber %(next)s, not yet started, will be removed."
)
_WITHDRAW_BUTTON = _("Save and remove rubber %(next)s")
_RUBBER = _("Rubber")
_AT_TABLE = _("Table %(table)s · rubber %(number)s")
_NONE_TO_CONFIRM = _("No deal of this rubber awaits the other side's confirmation.")
_AWAITING_BEFORE = _("Rubber %(rubber)s, deal %(n)s is awaiting your confirmation.")
_NONE_IN_PLAY = _("No rubber is in play.")
_AFTER_END = _(
    "Rubber %(number)s is %(status)s: a deal after the end of a rubber belongs to the next rubber "
    "(RULES 8.1)."
)
_GONE = _(
    "This rubber no longer exists: a correction reopened the rubber before it at this table. "
    "Reload the table and enter the deal there."
)
_SEATED_ONLY = _("Only the players seated in this rubber or a director enter.")


@dataclass(frozen=True)
class GameWords:
    """How the pages name a game's match, in the active language: each a sentence with named
    placeholders (`{% say %}` of games/templatetags/games.py fills and escapes them). The
    msgids are the ones the templates had, so their translations stay."""

    #: The live pad's title: %(number)s and %(game)s, the game's name.
    title: Promise
    #: The pad's page title (the browser's tab): %(game)s, %(number)s and %(table)s.
    page_title: Promise
    #: A match in the console's list: %(number)s.
    numbered: Promise
    #: The match in play at a table: %(number)s.
    in_play: Promise
    #: A deal in the console's list of deals to check: %(table)s, %(rubber)s, %(number)s.
    deal_at_table: Promise
    #: The link to the next match at the table.
    next: Promise
    #: The pad's result when the session closed the match unfinished.
    unfinished: Promise
    #: Who a table-code phone is (the code's and the hand-over's pages).
    phone_question: Promise
    #: Offline, the match ended on the phone with a deal it keeps (%(n)s): the form takes no
    #: more deals until the server has them (static/js/offline_score.js, docs/offline.md).
    over_offline: Promise
    #: A seat's button on those pages: %(seat)s (as the pad writes it) and %(name)s.
    seat_button: str = "%(seat)s · %(name)s"
    #: The pad's result of a complete match, when the game says it in one sentence; None: the
    #: pad says who won.
    complete: Promise | None = None
    #: What a finished match's page says while the next one waits for its players; None: none.
    waiting: Promise | None = None
    #: A correction that reopens a finished match asks before the empty match after it is
    #: withdrawn (`games.models.NextRubberToWithdraw`): %(number)s and %(next)s; and its button.
    withdraw_next: Promise = _WITHDRAW_NEXT
    withdraw_button: Promise = _WITHDRAW_BUTTON
    #: A match in a column's heading (the close page's); a player's table on the home page:
    #: %(table)s and %(number)s; the table phone's pages with nothing to confirm, and a deal
    #: of an earlier match awaiting confirmation (%(rubber)s, %(n)s); no match in play.
    column: Promise = _RUBBER
    at_table: Promise = _AT_TABLE
    none_to_confirm: Promise = _NONE_TO_CONFIRM
    awaiting_before: Promise = _AWAITING_BEFORE
    none_in_play: Promise = _NONE_IN_PLAY
    #: A deal for a match that ended (`games.refusals`): %(number)s, %(status)s, %(rule)s.
    after_end: Promise = _AFTER_END
    #: The RULES.md section that says where a deal after a match's end belongs; None: the
    #: game's own section (`scoring.rules.games.Game.rule`, a two-player game's RULES 7.x).
    end_rule: str | None = "RULES 8.1"
    #: A match withdrawn by a correction that reopened the one before it.
    gone: Promise = _GONE
    #: Who may enter a deal, said to anyone else.
    seated_only: Promise = _SEATED_ONLY


_WHICH_SEAT = _(
    "Which seat is this phone at? It will enter, confirm and correct the deals of this table "
    "for tonight's session."
)
RUBBER_WORDS = GameWords(
    title=_("Rubber %(number)s"),
    page_title=_("Rubber %(number)s, table %(table)s"),
    numbered=_("Rubber %(number)s"),
    in_play=_("Rubber %(number)s in play"),
    deal_at_table=_("Table %(table)s, rubber %(rubber)s, deal %(number)s"),
    next=_("Next rubber"),
    unfinished=_("Rubber unfinished."),
    phone_question=_WHICH_SEAT,
    over_offline=_(
        "On this phone this rubber ended with deal %(n)s (not yet sent): it takes no more "
        "deals. When the connection returns, the deals are sent and the page leads to the next "
        "rubber; record the next deals there."
    ),
)
#: Chicago speaks of its rubbers as rubber bridge does, but for its own name and its end.
CHICAGO_WORDS = replace(
    RUBBER_WORDS,
    title=_("Chicago %(number)s"),
    page_title=_("Chicago %(number)s, table %(table)s"),
    next=_("Next Chicago"),
    unfinished=_("Chicago unfinished."),
    complete=_("Chicago complete: four deals counted."),
    over_offline=_(
        "On this phone this Chicago ended with deal %(n)s (not yet sent): it takes no more "
        "deals. When the connection returns, the deals are sent and the page leads to the next "
        "Chicago; record the next deals there."
    ),
    withdraw_next=_(
        "This correction reopens Chicago %(number)s: Chicago %(next)s, not yet started, will be "
        "removed."
    ),
    withdraw_button=_("Save and remove Chicago %(next)s"),
    after_end=_(
        "Chicago %(number)s is %(status)s: a deal after the end of a Chicago belongs to the next "
        "Chicago (RULES 8.1)."
    ),
)
#: The two-player games' words: a match between two players, named on their buttons.
MATCH_WORDS = GameWords(
    title=_("%(game)s, match %(number)s"),
    page_title=_("%(game)s, match %(number)s, table %(table)s"),
    numbered=_("Match %(number)s"),
    in_play=_("Match %(number)s in play"),
    deal_at_table=_("Table %(table)s, match %(rubber)s, deal %(number)s"),
    next=_("Next match"),
    unfinished=_("Match unfinished."),
    phone_question=_(
        "Which player is this phone? It will enter, confirm and correct the deals of this "
        "table for tonight's session."
    ),
    seat_button="%(name)s",
    waiting=_(
        "The next match at this table starts when its players have finished at their other tables."
    ),
    over_offline=_(
        "On this phone this match ended with deal %(n)s (not yet sent): it takes no more "
        "deals. When the connection returns, the deals are sent and the page says what comes "
        "next."
    ),
    withdraw_next=_(
        "This correction reopens match %(number)s: match %(next)s, not yet started, will be "
        "removed."
    ),
    withdraw_button=_("Save and remove match %(next)s"),
    column=_("Match"),
    at_table=_("Table %(table)s · match %(number)s"),
    none_to_confirm=_("No deal of this match awaits the other side's confirmation."),
    awaiting_before=_("Match %(rubber)s, deal %(n)s is awaiting your confirmation."),
    none_in_play=_("No match is in play."),
    after_end=_(
        "Match %(number)s is %(status)s: a deal after the end of a match belongs to the next "
        "match (%(rule)s)."
    ),
    end_rule=None,
    gone=_(
        "This match no longer exists: a correction reopened the match before it at this table. "
        "Reload the table and enter the deal there."
    ),
    seated_only=_("Only the players of this match or a director enter."),
)

_ROTATION = "clubs/_rotation.html"
_TWO_PLAYER_ROTATION = "clubs/_two_player_rotation.html"
_CARD = "clubs/_card.html"
_TWO_PLAYER_CARD = "clubs/_two_player_card.html"


@dataclass(frozen=True)
class GamePages:
    #: The pad's layout, by name ("rubber", "chicago", "two_player_rubber", "tricks", "race");
    #: several games may share one. The pad's context names it (`layout`).
    pad: str
    #: The pad's builder: the game's scoresheet → the figures its template shows
    #: (games/layouts.py has the games' own; games/pad/builders.py calls it).
    pad_builder: layouts.PadBuilder
    #: The template the pad is drawn with (included by templates/games/_live.html).
    pad_template: str
    #: The deal entry template (four-player taps, or the two-player game's own fields).
    entry_template: str
    #: What closing the session does to a match still in play (the close page).
    closing: Closing
    #: A two-player game's deal fields; None for the four-player games (`DealEntryForm`).
    entry: TwoPlayerFields | None = None
    #: Controls a house rule turns off: (control, the `HouseRules` option that must be on for
    #: the control to show).
    needs: tuple[tuple[str, str], ...] = ()
    #: A deal in a few words (games/summaries.py; `summarise`).
    summary: summaries.Summary = summaries.four_player_deal
    #: A deal as the pad's deal list, its notices and the console's tables say it; None: its
    #: `summary` (a two-player game's, with its players' names). `deal_words` asks it.
    pad_words: summaries.Summary | None = None
    #: How the pages name a match of the game.
    words: GameWords = RUBBER_WORDS
    #: The console's table of a table's seatings ahead (templates/clubs/_session_block.html).
    rotation_template: str = _ROTATION
    #: A table's card on the printed cards page (templates/clubs/cards.html).
    card_template: str = _CARD
    #: Whether the console offers "Early leaver…" at a table in play (RULES 6).
    early_leaver: bool = True
    #: Whether the engine's sentences name the game's two players (player 0's and player 1's
    #: names, `names_for`), as its pad and its table-code pages do (a phone, its hand-over and
    #: its history named by the player, in the pad's order); otherwise they name seats and
    #: sides.
    named_players: bool = False
    #: Whether the game's matches have a leaderboard of their own (`?kind=` on the club's
    #: leaderboard) rather than the four-player one every club has.
    own_leaderboard: bool = False

    #: Whether the entry's live line says the points each player gains (a Turnover's result
    #: is tricks: its line says who wins the match).
    line_points: bool = True

    @property
    def movements(self) -> bool:
        """Whether its sessions have a movement (Pivot, Fixed partners, Cut-in), as the
        pages name them: the four-player games' (a two-player game's tables of two have none)."""
        return self.entry is None

    @property
    def controls(self) -> tuple[str, ...]:
        """Every control of the game's entry, whatever the house rules say."""
        return FOUR_PLAYER_CONTROLS if self.entry is None else self.entry.controls

    def deal_words(self, deal: summaries.Summarised, names: Sequence[str] | None) -> str:
        """A deal as the pad lists it: "4♠ by North, made", or a two-player game's summary."""
        return (self.pad_words or self.summary)(deal, names)

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
    summaries.SUMMARIES[kind] = entry.summary
    words = entry.words
    refusals.WORDS[kind] = refusals.EntryWords(
        after_end=words.after_end, rule=words.end_rule or game(kind).rule, gone=words.gone
    )
    return entry


def pages(kind: str) -> GamePages:
    return PAGES[kind]


class _Match(Protocol):
    kind: str

    @property
    def players(self) -> Sequence[Any]: ...


def names_for(match: _Match) -> list[str] | None:
    """The names a match's summaries and explanations use: its two players' (player 0's and
    player 1's) in a game that names them; None in a game whose sentences name seats."""
    if not PAGES[match.kind].named_players:
        return None
    return [player.name for player in match.players]


def deal_words(match: _Match, deal: summaries.Summarised) -> str:
    """A deal of `match` as its pad lists it (`GamePages.deal_words`), naming its players in a
    game that names them (`names_for`)."""
    return PAGES[match.kind].deal_words(deal, names_for(match))


def _seat_words(deal: summaries.Summarised, names: Sequence[str] | None = None) -> str:
    """A four-player deal as the pad lists it: "4♠ by North, made" (`display.deal_words`)."""
    return display.deal_words(deal)  # type: ignore[arg-type]


#: What the two-player games share: a match between two players, its own rotation and card,
#: no "Early leaver…" on the console, a leaderboard per game.
_TWO_PLAYER: dict[str, Any] = {
    "words": MATCH_WORDS,
    "rotation_template": _TWO_PLAYER_ROTATION,
    "card_template": _TWO_PLAYER_CARD,
    "early_leaver": False,
    "named_players": True,
    "own_leaderboard": True,
}

register_pages(
    "rubber",
    GamePages(
        pad="rubber",
        pad_builder=layouts.rubber_pad,
        pad_template=_PAD,
        entry_template=_ENTRY,
        closing=RUBBER_CLOSING,
        pad_words=_seat_words,
    ),
)
register_pages(
    "chicago",
    GamePages(
        pad="chicago",
        pad_builder=layouts.chicago_pad,
        pad_template=_PAD,
        entry_template=_ENTRY,
        closing=CHICAGO_CLOSING,
        needs=(("honours", "chicago_honours"),),  # RULES 5
        words=CHICAGO_WORDS,
        pad_words=_seat_words,
    ),
)
register_pages(
    "bridge_for_two",
    GamePages(
        pad="two_player_rubber",
        pad_builder=layouts.two_player_rubber_pad,
        pad_template=_PAD,
        entry_template=_ENTRY_TWO,
        closing=TWO_PLAYER_RUBBER_CLOSING,
        entry=BridgeForTwoFields(),
        summary=summaries.strain_deal,
        **_TWO_PLAYER,
    ),
)
register_pages(
    "misery",
    GamePages(
        pad="two_player_rubber",
        pad_builder=layouts.two_player_rubber_pad,
        pad_template=_PAD,
        entry_template=_ENTRY_TWO,
        closing=TWO_PLAYER_RUBBER_CLOSING,
        entry=MiseryFields(),
        summary=summaries.strain_deal,
        **_TWO_PLAYER,
    ),
)
register_pages(
    "turnover",
    GamePages(
        pad="tricks",
        pad_builder=layouts.turnover_pad,
        pad_template="games/_turnover.html",
        entry_template=_ENTRY_TWO,
        closing=TURNOVER_CLOSING,
        entry=TurnoverFields(),
        summary=summaries.tricks_deal,
        line_points=False,
        **_TWO_PLAYER,
    ),
)
register_pages(
    "draw_discard",
    GamePages(
        pad="race",
        pad_builder=layouts.race_pad,
        pad_template="games/_race.html",
        entry_template=_ENTRY_TWO,
        closing=DRAW_DISCARD_CLOSING,
        entry=DrawDiscardFields(),
        summary=summaries.contract_deal,
        **_TWO_PLAYER,
    ),
)
