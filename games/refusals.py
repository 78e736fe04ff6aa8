"""An entry's refusals in its game's words: "Rubber 1 is complete…", "Match 1 is complete…".

A game's words are its registry entry's (`games.registry.GameWords`: `after_end`, `gone`, and
the rule a match's end follows); `games.registry.register_pages` files them in `WORDS` here, so
the models say them without importing the registry (which imports the models), as
`games.summaries.SUMMARIES` does for a deal's summary.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.functional import Promise

from scoring.rules.explain import rule_reference
from scoring.shared.i18n import templates_for

__all__ = ["WORDS", "EntryWords", "after_end", "gone"]


@dataclass(frozen=True)
class EntryWords:
    #: A deal for a match that ended: %(number)s, %(status)s and %(rule)s.
    after_end: Promise
    #: The RULES.md section of a match's end ("RULES 8.1"; a two-player game's own).
    rule: str
    #: A match withdrawn by a correction that reopened the one before it.
    gone: Promise


#: Game code → its entry refusals (`games.registry.register_pages`).
WORDS: dict[str, EntryWords] = {}


def after_end(kind: str, number: int, status: str) -> str:
    """Why a deal is refused for match `number` of `kind`, ended with `status` ("complete"),
    in the active language, citing the game's rule ("REGOLE 7.3" in Italian)."""
    words = WORDS[kind]
    rules = templates_for(translation.get_language() or "en")["_words"]
    return str(words.after_end) % {
        "number": number,
        "status": status,
        "rule": rule_reference(words.rule, rules),
    }


def gone(kind: str) -> str:
    """Why a deal is refused for a match a correction withdrew meanwhile."""
    return str(WORDS[kind].gone)
