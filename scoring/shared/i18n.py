"""The scoring engine's explanations in the reader's language (docs/i18n.md).

The engine (``scoring.rules``) stays free of Django: each scoresheet item carries a reason code
and figures, and ``scoring.rules.explain.TEMPLATES`` holds the English sentences. This module is
the edge that translates them: ``MARKED`` repeats that table with every sentence marked for
``makemessages`` (a test keeps the two tables identical), and ``templates_for`` builds the
translated copy that ``explain`` and ``explain_player_item`` accept, once per language.

- ``explain_item(item)``: one item's sentence in the active language (pages, via the
  ``explain`` template filter of ``scoring_i18n``).
- ``localize_explanations(data)``: an engine ``to_dict()`` (rubber, deal, Chicago, two-player)
  with every ``"explanation"`` rewritten in the active language (API serializers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from scoring.rules.contract import Contract, Doubling, Side, Strain
from scoring.rules.errors import ScoringError
from scoring.rules.explain import TEMPLATES, explain
from scoring.rules.items import Item
from scoring.rules.two_player import PlayerItem, explain_player_item

__all__ = [
    "MARKED",
    "contract_display",
    "explain_item",
    "localize_explanations",
    "next_club_page_language",
    "speak_club_language",
    "speaks_the_engines_sentences",
    "strain_display",
    "templates_for",
    "visitor_chose_language",
]

Templates = Mapping[str, Mapping[str, str]]

#: ``scoring.rules.explain.TEMPLATES``, word for word, marked for translation. The context
#: "scoresheet" keeps these sentences apart from the same words elsewhere in the catalogue.
MARKED: dict[str, dict[str, Promise]] = {
    "trick_points": {
        "one": pgettext_lazy(
            "scoresheet", "{contract} made, {vul}: {points} below the line for the odd trick bid"
        ),
        "other": pgettext_lazy(
            "scoresheet",
            "{contract} made, {vul}: {points} below the line for {count} odd tricks bid",
        ),
    },
    "overtricks": {
        "one": pgettext_lazy(
            "scoresheet", "{contract} made with an overtrick, {vul}: {points} for the overtrick"
        ),
        "other": pgettext_lazy(
            "scoresheet",
            "{contract} made with {count} overtricks, {vul}: {points} for the overtricks",
        ),
    },
    "insult": {
        "doubled": pgettext_lazy(
            "scoresheet", "{contract} made: {points} for making a doubled contract"
        ),
        "redoubled": pgettext_lazy(
            "scoresheet", "{contract} made: {points} for making a redoubled contract"
        ),
    },
    "slam": {
        "small": pgettext_lazy("scoresheet", "{contract} made, {vul}: {points} for a small slam"),
        "grand": pgettext_lazy("scoresheet", "{contract} made, {vul}: {points} for a grand slam"),
    },
    "undertricks": {
        "one": pgettext_lazy(
            "scoresheet",
            "{contract} down one, {vul}: {points} to the defenders for the undertrick",
        ),
        "other": pgettext_lazy(
            "scoresheet",
            "{contract} down {count}, {vul}: {points} to the defenders for the undertricks",
        ),
    },
    "honours": {
        "four": pgettext_lazy(
            "scoresheet", "{side} held four trump honours in one hand: {points} for honours"
        ),
        "five": pgettext_lazy(
            "scoresheet", "{side} held all five trump honours in one hand: {points} for honours"
        ),
        "aces": pgettext_lazy(
            "scoresheet",
            "{side} held all four aces in one hand at no trumps: {points} for honours",
        ),
    },
    "rubber_bonus": {
        "two_nil": pgettext_lazy(
            "scoresheet", "{side} won the rubber by two games to none: {points} rubber bonus"
        ),
        "two_one": pgettext_lazy(
            "scoresheet", "{side} won the rubber by two games to one: {points} rubber bonus"
        ),
    },
    "unfinished_game": {
        "other": pgettext_lazy(
            "scoresheet", "Rubber unfinished: {points} to {side} for the only completed game"
        ),
    },
    "unfinished_partscore": {
        "other": pgettext_lazy(
            "scoresheet",
            "Rubber unfinished: {points} to {side} for a part score in the unfinished game",
        ),
    },
    "game_bonus": {
        "other": pgettext_lazy(
            "scoresheet", "{contract} completed a game, {vul}: {points} game bonus"
        ),
    },
    "partscore_bonus": {
        "other": pgettext_lazy(
            "scoresheet",
            "{contract} made a part score on the fourth deal: {points} part-score bonus",
        ),
    },
    "two_player_declarer_tricks": {
        "one": pgettext_lazy(
            "scoresheet",
            "Player {player} declared {strain}{doubling} and won the odd trick: "
            "{points} below the line",
        ),
        "other": pgettext_lazy(
            "scoresheet",
            "Player {player} declared {strain}{doubling} and won {count} odd tricks: "
            "{points} below the line",
        ),
    },
    "two_player_opponent_tricks": {
        "one": pgettext_lazy(
            "scoresheet",
            "Player {player} won the odd trick against {strain}{doubling}: {points} below the line",
        ),
        "other": pgettext_lazy(
            "scoresheet",
            "Player {player} won {count} odd tricks against {strain}{doubling}: "
            "{points} below the line",
        ),
    },
    "two_player_honours": {
        "four": pgettext_lazy(
            "scoresheet",
            "Player {player} held four trump honours in one hand: {points} for honours",
        ),
        "five": pgettext_lazy(
            "scoresheet",
            "Player {player} held all five trump honours in one hand: {points} for honours",
        ),
        "aces": pgettext_lazy(
            "scoresheet",
            "Player {player} held all four aces in one hand at no trumps: {points} for honours",
        ),
    },
    "two_player_rubber_bonus": {
        "two_nil": pgettext_lazy(
            "scoresheet",
            "Player {player} won the rubber by two games to none: {points} rubber bonus",
        ),
        "two_one": pgettext_lazy(
            "scoresheet",
            "Player {player} won the rubber by two games to one: {points} rubber bonus",
        ),
    },
    "two_player_unfinished_game": {
        "other": pgettext_lazy(
            "scoresheet",
            "Rubber unfinished: {points} to player {player} for the only completed game",
        ),
    },
    "two_player_unfinished_partscore": {
        "other": pgettext_lazy(
            "scoresheet",
            "Rubber unfinished: {points} to player {player} for a part score "
            "in the unfinished game",
        ),
    },
    "eight_tricks": {
        "other": pgettext_lazy(
            "scoresheet",
            "Player {player} declared eight tricks in {strain} and made them: "
            "{points} below the line for {count} odd tricks at double value",
        ),
    },
    "eight_tricks_failed": {
        "other": pgettext_lazy(
            "scoresheet",
            "Eight tricks in {strain} declared, only {count} taken: "
            "{points} to player {player}, whatever the strain",
        ),
    },
    "misery_penalty": {
        "other": pgettext_lazy(
            "scoresheet",
            "Misery lost, the dealer took {count} tricks: {points} to player {player}, 5 a trick",
        ),
    },
    "misery_made": {
        "other": pgettext_lazy(
            "scoresheet",
            "Misery made, player {player} took one trick or none: {points} for the "
            "{count} tricks the opponent took over six",
        ),
    },
    "draw_discard_tricks": {
        "one": pgettext_lazy(
            "scoresheet", "{contract} made: {points} to player {player} for the trick over six"
        ),
        "other": pgettext_lazy(
            "scoresheet",
            "{contract} made: {points} to player {player} for {count} tricks over six",
        ),
    },
    "_words": {
        "vulnerable": pgettext_lazy("scoresheet", "vulnerable"),
        "not_vulnerable": pgettext_lazy("scoresheet", "not vulnerable"),
        "doubled": pgettext_lazy("scoresheet", "doubled"),
        "redoubled": pgettext_lazy("scoresheet", "redoubled"),
        "passed_out": pgettext_lazy("scoresheet", "passed out"),
        "no_trump": pgettext_lazy("strain", "NT"),
        "side_NS": pgettext_lazy("side", "NS"),
        "side_EW": pgettext_lazy("side", "EW"),
        # Translators: the rule book (docs/rules.md) as a citation names it: "(RULES 3.2)".
        "rules": pgettext_lazy("rule book", "RULES"),
    },
}


#: The two-player sentences of ``MARKED`` with the players named (issue 17): ``{player}`` is a
#: player's name ("Bea won 2 odd tricks against ♥ doubled"), for the pages, where the players
#: are known; the API keeps the engine's numbering (player 0 and player 1), as the CLI prints.
NAMED: dict[str, dict[str, Promise]] = {
    "two_player_declarer_tricks": {
        "one": pgettext_lazy(
            "scoresheet, by name",
            "{player} declared {strain}{doubling} and won the odd trick: {points} below the line",
        ),
        "other": pgettext_lazy(
            "scoresheet, by name",
            "{player} declared {strain}{doubling} and won {count} odd tricks: "
            "{points} below the line",
        ),
    },
    "two_player_opponent_tricks": {
        "one": pgettext_lazy(
            "scoresheet, by name",
            "{player} won the odd trick against {strain}{doubling}: {points} below the line",
        ),
        "other": pgettext_lazy(
            "scoresheet, by name",
            "{player} won {count} odd tricks against {strain}{doubling}: {points} below the line",
        ),
    },
    "two_player_honours": {
        "four": pgettext_lazy(
            "scoresheet, by name",
            "{player} held four trump honours in one hand: {points} for honours",
        ),
        "five": pgettext_lazy(
            "scoresheet, by name",
            "{player} held all five trump honours in one hand: {points} for honours",
        ),
        "aces": pgettext_lazy(
            "scoresheet, by name",
            "{player} held all four aces in one hand at no trumps: {points} for honours",
        ),
    },
    "two_player_rubber_bonus": {
        "two_nil": pgettext_lazy(
            "scoresheet, by name",
            "{player} won the rubber by two games to none: {points} rubber bonus",
        ),
        "two_one": pgettext_lazy(
            "scoresheet, by name",
            "{player} won the rubber by two games to one: {points} rubber bonus",
        ),
    },
    "two_player_unfinished_game": {
        "other": pgettext_lazy(
            "scoresheet, by name",
            "Rubber unfinished: {points} to {player} for the only completed game",
        ),
    },
    "two_player_unfinished_partscore": {
        "other": pgettext_lazy(
            "scoresheet, by name",
            "Rubber unfinished: {points} to {player} for a part score in the unfinished game",
        ),
    },
    "eight_tricks": {
        "other": pgettext_lazy(
            "scoresheet, by name",
            "{player} declared eight tricks in {strain} and made them: "
            "{points} below the line for {count} odd tricks at double value",
        ),
    },
    "eight_tricks_failed": {
        "other": pgettext_lazy(
            "scoresheet, by name",
            "Eight tricks in {strain} declared, only {count} taken: "
            "{points} to {player}, whatever the strain",
        ),
    },
    "misery_penalty": {
        "other": pgettext_lazy(
            "scoresheet, by name",
            "Misery lost, the dealer took {count} tricks: {points} to {player}, 5 a trick",
        ),
    },
    "misery_made": {
        "other": pgettext_lazy(
            "scoresheet, by name",
            "Misery made, {player} took one trick or none: {points} for the "
            "{count} tricks the opponent took over six",
        ),
    },
    "draw_discard_tricks": {
        "one": pgettext_lazy(
            "scoresheet, by name", "{contract} made: {points} to {player} for the trick over six"
        ),
        "other": pgettext_lazy(
            "scoresheet, by name",
            "{contract} made: {points} to {player} for {count} tricks over six",
        ),
    },
}


@lru_cache(maxsize=16)
def templates_for(language: str) -> Templates:
    """The engine's sentence table in ``language`` (built once per language, then cached)."""
    with translation.override(language):
        return {
            reason: {form: str(text) for form, text in forms.items()}
            for reason, forms in MARKED.items()
        }


def _active_templates() -> Templates:
    return templates_for(translation.get_language() or "en")


def contract_display(contract: str) -> str:
    """A contract as players read it in the active language: "4S" → "4♠", "3NTX" → "3NTX"
    ("3SAX" in Italian, where C would read as Cuori, hearts). Suits are symbols in every
    language. "pass" and anything that is not a contract come back as they are."""
    try:
        parsed = Contract.parse(contract)
    except ScoringError:
        return contract
    if parsed.strain is None:
        return contract
    return f"{parsed.level}{strain_display(parsed.strain)}{parsed.doubling.suffix}"


def strain_display(strain: str) -> str:
    """A strain as players read it: a suit's symbol, or no trump in the active language."""
    try:
        parsed = Strain(str(strain).upper())
    except ValueError:
        return str(strain)
    if parsed is Strain.NT:
        return _active_templates()["_words"]["no_trump"]
    return parsed.symbol


def named_templates_for(language: str) -> Templates:
    """``templates_for(language)`` with the two-player sentences that name the players."""
    return _named_templates(language)


@lru_cache(maxsize=16)
def _named_templates(language: str) -> Templates:
    with translation.override(language):
        named = {
            reason: {form: str(text) for form, text in forms.items()}
            for reason, forms in NAMED.items()
        }
    return {**templates_for(language), **named}


#: Where a two-player match's names are not known, its players are numbered as people count,
#: from 1 ("Player 1" is the engine's player 0): nobody is "player 0" to a reader.
COUNTED = ("1", "2")


def _explain_player(item: PlayerItem, language: str, names: Sequence[str] | None) -> str:
    if names:
        return explain_player_item(item, named_templates_for(language), names)
    return explain_player_item(item, templates_for(language), COUNTED)


def explain_item(item: Item | PlayerItem, names: Sequence[str] | None = None) -> str:
    """The sentence for one scoresheet item, in the active language; a two-player item names
    its player when ``names`` (player 0's and player 1's) are given, else counts from 1."""
    if isinstance(item, PlayerItem):
        return _explain_player(item, translation.get_language() or "en", names)
    return explain(item, _active_templates())


def _item_from_dict(data: Mapping[str, Any]) -> Item | PlayerItem:
    """Rebuild the engine item an item's ``to_dict()`` came from (every field is there)."""
    contract = None if data.get("contract") is None else Contract.parse(data["contract"])
    if "player" in data:
        return PlayerItem(
            player=data["player"],
            line=data["line"],
            points=data["points"],
            reason=data["reason"],
            count=data.get("count"),
            strain=None if data.get("strain") is None else Strain(data["strain"]),
            doubling=Doubling(data.get("doubling", Doubling.NONE)),
            level=None if contract is None else contract.level,
            deal=data.get("deal"),
        )
    return Item(
        side=Side(data["side"]),
        line=data["line"],
        points=data["points"],
        reason=data["reason"],
        contract=contract,
        vulnerable=data.get("vulnerable"),
        count=data.get("count"),
        deal=data.get("deal"),
    )


def speaks_the_engines_sentences() -> bool:
    """Whether the active language's scoresheet sentences are the engine's own (English): a
    four-player sheet's items are then explained already as `localize_explanations` would."""
    return _engines_own(translation.get_language() or "en")


@lru_cache(maxsize=16)
def _engines_own(language: str) -> bool:
    return templates_for(language) == TEMPLATES


def localize_explanations(data: Any, names: Sequence[str] | None = None) -> Any:
    """``data`` (an engine ``to_dict()``, or any JSON built from them) with each item's
    ``"explanation"`` rewritten in the active language; the figures are left as they are.
    A two-player item names its player with ``names`` (player 0's and player 1's), as the pad
    does, else counts the players from 1."""
    return _localize(data, translation.get_language() or "en", tuple(names) if names else None)


def _localize(data: Any, language: str, names: tuple[str, ...] | None) -> Any:
    if isinstance(data, dict):
        if "explanation" in data and "reason" in data:
            return _kept_item(data, language, names)
        return {
            key: _localize(value, language, names) if isinstance(value, dict | list) else value
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [
            _localize(value, language, names) if isinstance(value, dict | list) else value
            for value in data
        ]
    return data


#: Items explained, by language, names and their fields: a rubber's answer after each deal
#: explains every earlier deal's items again, unchanged (docs/benchmarks.md, issue 33). Each
#: field is keyed with its type, as `True == 1` and both hash alike: an item whose
#: `"vulnerable"` is `1` is not answered with one whose is `true`.
_KEPT: dict[tuple[Any, ...], dict[str, Any]] = {}
#: At most this many items kept per process; then the whole table is emptied and refilled.
KEPT_ITEMS = 8192


def _kept_item(data: dict[str, Any], language: str, names: tuple[str, ...] | None) -> Any:
    """An item's dict in ``language``, as `_item` makes it, kept: a copy of the one made for
    the same fields (each of the same type), or `_item`'s for one whose fields are not all
    hashable."""
    # Its English sentence too: made from the other fields, it changes with them.
    key = (language, names, tuple(data.items()), tuple(map(type, data.values())))
    try:
        kept = _KEPT.get(key)
    except TypeError:  # a field that cannot be a key (a list, a dict): explained as it is
        return _item(data, language, names)
    if kept is None:
        kept = _item(data, language, names)
        if len(_KEPT) >= KEPT_ITEMS:
            _KEPT.clear()
        _KEPT[key] = kept
    return dict(kept)


def _item(data: dict[str, Any], language: str, names: tuple[str, ...] | None) -> dict[str, Any]:
    """An item's dict with its ``"explanation"`` in ``language`` (its other fields as they are,
    any nested ones localized too)."""
    out = {
        key: _localize(value, language, names) if isinstance(value, dict | list) else value
        for key, value in data.items()
    }
    fields = tuple(item for item in data.items() if item[0] != "explanation")
    try:
        out["explanation"] = _explanation(language, fields, names)
    except TypeError:  # a field that cannot be a cache key: explain it directly
        with translation.override(language):
            out["explanation"] = explain_item(_item_from_dict(data), names)
    return out


@lru_cache(maxsize=4096)
def _explanation(
    language: str, fields: tuple[tuple[str, Any], ...], names: tuple[str, ...] | None
) -> str:
    """One item's sentence in ``language``, remembered: a scoresheet repeats each item (in its
    column and under its deal) and a rubber's answer is rendered after every deal entered."""
    item = _item_from_dict(dict(fields))
    if isinstance(item, PlayerItem):
        return _explain_player(item, language, names)
    return explain(item, templates_for(language))


def visitor_chose_language(request: Any) -> bool:
    """Whether the visitor chose a language with the header's switcher (its cookie)."""
    from django.conf import settings

    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return bool(chosen) and translation.check_for_language(chosen)


def next_club_page_language(request: Any, club: Any) -> str:
    """The language the club's next page will speak to this visitor: the switch's, else their
    player's own, else the club's (docs/i18n.md). A flash message added before a redirect is
    written in it, so it reads in the language of the page that shows it."""
    if visitor_chose_language(request):
        return translation.get_language()
    language: str = club.language_for(request.user)
    return language


def speak_club_language(request: Any, language: str | None) -> None:
    """A club page speaks the club's `language` unless the visitor chose one with the header's
    switcher: config.middleware.ClubLanguageMiddleware, and views that read the club's language
    themselves (the live pad's poll), call this (docs/i18n.md)."""
    if visitor_chose_language(request):
        return
    if language and language != translation.get_language():
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
