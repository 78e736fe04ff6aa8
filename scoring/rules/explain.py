"""Sentences for scoresheet items, from one table of English templates.

``TEMPLATES`` maps a reason code to its forms (plural, slam size, ...), each a ``str.format``
template with named placeholders: ``{contract}``, ``{vul}``, ``{points}``, ``{count}``,
``{side}``. The ``"_words"`` entry holds the fragments placed into them: the doubling and
vulnerability words, no trump, each side's name and the name of the rule book that the
citation at the end of every sentence uses (``SECTIONS``: "(RULES 3.2)", "(REGOLE 3.2)" in
Italian). A Django edge can pass a translated copy of the table to ``explain``; the engine
itself stays free of Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from scoring.rules.contract import Contract, Doubling, Side, Strain

__all__ = ["SECTIONS", "TEMPLATES", "Explained", "cite", "explain", "rule_reference"]


class Explained(Protocol):
    """The fields of a scoresheet item (``items.Item``) that ``explain`` reads: a protocol, so
    that this module needs nothing from ``items``, which imports it (``Item.explanation``)."""

    @property
    def side(self) -> Side: ...
    @property
    def points(self) -> int: ...
    @property
    def reason(self) -> str: ...
    @property
    def contract(self) -> Contract | None: ...
    @property
    def vulnerable(self) -> bool | None: ...
    @property
    def count(self) -> int | None: ...


#: The RULES.md section each reason applies: every explanation names it (README: every figure
#: "explains itself on tap, citing the rule"), "(RULES 3.2)", with the rule book's name in the
#: reader's language ("(REGOLE 3.2)"), like the refusals (docs/i18n.md).
SECTIONS: dict[str, str] = {
    "trick_points": "RULES 3.1",
    "overtricks": "RULES 3.2",
    "insult": "RULES 3.3",
    "undertricks": "RULES 3.4",
    "slam": "RULES 3.5",
    "honours": "RULES 3.6",
    "rubber_bonus": "RULES 2.4",
    "unfinished_game": "RULES 2.6",
    "unfinished_partscore": "RULES 2.6",
    "game_bonus": "RULES 5",
    "partscore_bonus": "RULES 5",
    "two_player_declarer_tricks": "RULES 7.1",
    "two_player_opponent_tricks": "RULES 7.1",
    "two_player_honours": "RULES 3.6",
    "two_player_rubber_bonus": "RULES 7.1",
    "two_player_unfinished_game": "RULES 7.1",
    "two_player_unfinished_partscore": "RULES 7.1",
    "eight_tricks": "RULES 7.2",
    "eight_tricks_failed": "RULES 7.2",
    "misery_penalty": "RULES 7.2",
    "misery_made": "RULES 7.2",
    "draw_discard_tricks": "RULES 7.4",
}

TEMPLATES: dict[str, dict[str, str]] = {
    "trick_points": {
        "one": "{contract} made, {vul}: {points} below the line for the odd trick bid",
        "other": "{contract} made, {vul}: {points} below the line for {count} odd tricks bid",
    },
    "overtricks": {
        "one": "{contract} made with an overtrick, {vul}: {points} for the overtrick",
        "other": "{contract} made with {count} overtricks, {vul}: {points} for the overtricks",
    },
    "insult": {
        "doubled": "{contract} made: {points} for making a doubled contract",
        "redoubled": "{contract} made: {points} for making a redoubled contract",
    },
    "slam": {
        "small": "{contract} made, {vul}: {points} for a small slam",
        "grand": "{contract} made, {vul}: {points} for a grand slam",
    },
    "undertricks": {
        "one": "{contract} down one, {vul}: {points} to the defenders for the undertrick",
        "other": "{contract} down {count}, {vul}: {points} to the defenders for the undertricks",
    },
    "honours": {
        "four": "{side} held four trump honours in one hand: {points} for honours",
        "five": "{side} held all five trump honours in one hand: {points} for honours",
        "aces": "{side} held all four aces in one hand at no trumps: {points} for honours",
    },
    "rubber_bonus": {
        "two_nil": "{side} won the rubber by two games to none: {points} rubber bonus",
        "two_one": "{side} won the rubber by two games to one: {points} rubber bonus",
    },
    "unfinished_game": {
        "other": "Rubber unfinished: {points} to {side} for the only completed game",
    },
    "unfinished_partscore": {
        "other": "Rubber unfinished: {points} to {side} for a part score in the unfinished game",
    },
    "game_bonus": {
        "other": "{contract} completed a game, {vul}: {points} game bonus",
    },
    "partscore_bonus": {
        "other": "{contract} made a part score on the fourth deal: {points} part-score bonus",
    },
    # The two-player games of RULES 7, rendered by ``two_player.explain_player_item`` with the
    # placeholders {player}, {points}, {count}, {strain}, {doubling} and {contract}.
    "two_player_declarer_tricks": {
        "one": "Player {player} declared {strain}{doubling} and won the odd trick: "
        "{points} below the line",
        "other": "Player {player} declared {strain}{doubling} and won {count} odd tricks: "
        "{points} below the line",
    },
    "two_player_opponent_tricks": {
        "one": "Player {player} won the odd trick against {strain}{doubling}: "
        "{points} below the line",
        "other": "Player {player} won {count} odd tricks against {strain}{doubling}: "
        "{points} below the line",
    },
    "two_player_honours": {
        "four": "Player {player} held four trump honours in one hand: {points} for honours",
        "five": "Player {player} held all five trump honours in one hand: {points} for honours",
        "aces": "Player {player} held all four aces in one hand at no trumps: {points} for honours",
    },
    "two_player_rubber_bonus": {
        "two_nil": "Player {player} won the rubber by two games to none: {points} rubber bonus",
        "two_one": "Player {player} won the rubber by two games to one: {points} rubber bonus",
    },
    "two_player_unfinished_game": {
        "other": "Rubber unfinished: {points} to player {player} for the only completed game",
    },
    "two_player_unfinished_partscore": {
        "other": "Rubber unfinished: {points} to player {player} for a part score "
        "in the unfinished game",
    },
    "eight_tricks": {
        "other": "Player {player} declared eight tricks in {strain} and made them: "
        "{points} below the line for {count} odd tricks at double value",
    },
    "eight_tricks_failed": {
        "other": "Eight tricks in {strain} declared, only {count} taken: "
        "{points} to player {player}, whatever the strain",
    },
    "misery_penalty": {
        "other": "Misery lost, the dealer took {count} tricks: {points} to player {player}, "
        "5 a trick",
    },
    "misery_made": {
        "other": "Misery made, player {player} took one trick or none: {points} for the "
        "{count} tricks the opponent took over six",
    },
    "draw_discard_tricks": {
        "one": "{contract} made: {points} to player {player} for the trick over six",
        "other": "{contract} made: {points} to player {player} for {count} tricks over six",
    },
    "_words": {
        "vulnerable": "vulnerable",
        "not_vulnerable": "not vulnerable",
        "doubled": "doubled",
        "redoubled": "redoubled",
        "passed_out": "passed out",
        "no_trump": "NT",
        "side_NS": "NS",
        "side_EW": "EW",
        "rules": "RULES",
    },
}


def _form(item: Explained) -> str:
    reason, count = item.reason, item.count
    if reason == "insult":
        contract = item.contract
        redoubled = contract is not None and contract.doubling is Doubling.REDOUBLED
        return "redoubled" if redoubled else "doubled"
    if reason == "slam":
        return "grand" if count == 7 else "small"
    if reason == "honours":
        contract = item.contract
        if contract is not None and contract.strain is Strain.NT:
            return "aces"
        return "five" if count == 5 else "four"
    if reason == "rubber_bonus":
        return "two_one" if count else "two_nil"
    if reason in ("trick_points", "overtricks", "undertricks"):
        return "one" if count == 1 else "other"
    return "other"


def _contract_text(contract: Contract | None, words: Mapping[str, str]) -> str:
    if contract is None:
        return ""
    if contract.strain is None:
        return words["passed_out"]
    # Suits are symbols in every language; no trump is a word ("SA" in Italian).
    strain = words["no_trump"] if contract.strain is Strain.NT else contract.strain.symbol
    text = f"{contract.level}{strain}"
    if contract.doubling is Doubling.DOUBLED:
        text += " " + words["doubled"]
    elif contract.doubling is Doubling.REDOUBLED:
        text += " " + words["redoubled"]
    return text


def rule_reference(rule: str, words: Mapping[str, str] = TEMPLATES["_words"]) -> str:
    """A RULES.md section as ``words`` name the rule book: "RULES 3.2", "REGOLE 3.2"."""
    return words["rules"] + rule.removeprefix("RULES")


def cite(sentence: str, reason: str, words: Mapping[str, str] = TEMPLATES["_words"]) -> str:
    """The sentence with the RULES section of its reason: "... (RULES 3.2)"."""
    return f"{sentence} ({rule_reference(SECTIONS[reason], words)})"


def explain(item: Explained, templates: Mapping[str, Mapping[str, str]] = TEMPLATES) -> str:
    """A sentence a player understands, naming the rule it applies, e.g.
    "4♠ doubled made with an overtrick, vulnerable: 200 for the overtrick (RULES 3.2)".
    """
    words = templates["_words"]
    vul = words["vulnerable"] if item.vulnerable else words["not_vulnerable"]
    sentence = templates[item.reason][_form(item)].format(
        contract=_contract_text(item.contract, words),
        vul=vul,
        points=item.points,
        count=item.count,
        side=words["side_" + item.side.value],
    )
    return cite(sentence, item.reason, words)
