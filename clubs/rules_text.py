"""House rules in words (issue 18: they showed as raw codes, `acbl, club_50, old_code`).

Each preset and each option of `scoring.rules.options.HouseRules` has a readable name and, per
value, a sentence, marked for translation; the club settings page and the create form read them.
A test keeps these tables complete against the engine's presets and options.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.rules.options import HouseRules

#: preset code → (name, sentence)
PRESETS: dict[str, tuple[Promise, Promise]] = {
    "acbl": (_("Today's laws (ACBL)"), _("The laws of rubber bridge as played today.")),
    "club_50": (
        _("Club: 50 for a part score"),
        _("Today's laws, but a part score in an unfinished rubber scores 50 instead of 100."),
    ),
    "old_code": (
        _("Old code (1993)"),
        _(
            "The old penalties: 200 (not 300) for the fourth and later undertricks doubled not "
            "vulnerable, and 50 for making a redoubled contract."
        ),
    ),
    "pivot_gross": (
        _("Pivot ranked by points"),
        _("Today's laws; players at a pivot table are ranked by gross points, not hundreds."),
    ),
}

#: option → (name, {value: sentence}); the target of Draw and Discard is any positive number.
OPTIONS: dict[str, tuple[Promise, dict[Any, Promise]]] = {
    "unfinished_partscore": (
        _("Part score in an unfinished rubber (RULES 2.6)"),
        {
            100: _("A part score in the unfinished game scores 100."),
            50: _("A part score in the unfinished game scores 50."),
        },
    ),
    "insult_redoubled": (
        _("Making a redoubled contract (RULES 3.3)"),
        {
            100: _("Making a redoubled contract scores 100."),
            50: _("Making a redoubled contract scores 50."),
        },
    ),
    "old_undertricks": (
        _("Doubled undertricks not vulnerable (RULES 3.4)"),
        {
            False: _("The fourth and later undertricks cost 300 each."),
            True: _("The fourth and later undertricks cost 200 each (old code)."),
        },
    ),
    "pivot_ranking": (
        _("Ranking at a pivot table (RULES 4.3)"),
        {
            "net": _("Players are ranked by hundreds won."),
            "gross": _("Players are ranked by gross points."),
        },
    ),
    "chicago_vulnerable": (
        _("Chicago vulnerability (RULES 5)"),
        {
            "dealer": _("On deals 2 and 3 the dealer's side is vulnerable."),
            "non_dealer": _("On deals 2 and 3 the dealer's opponents are vulnerable."),
        },
    ),
    "chicago_honours": (
        _("Honours in Chicago (RULES 5)"),
        {True: _("Honours score in Chicago."), False: _("Honours do not score in Chicago.")},
    ),
    "rubber_bonus_two_player": (
        _("Rubber bonus for two players (RULES 7.1)"),
        {
            100: _("A two-player rubber scores 100."),
            "standard": _("A two-player rubber scores 700 or 500, as at four."),
        },
    ),
    "draw_and_discard_target": (_("Draw and Discard target (RULES 7.4)"), {}),
}


def preset_choices() -> list[tuple[str, Promise]]:
    return [(code, name) for code, (name, _sentence) in PRESETS.items()]


def describe(rules: HouseRules) -> list[dict[str, Any]]:
    """The rules in force, one row per option: its name, value and sentence."""
    rows = []
    for option, value in rules.to_dict().items():
        name, sentences = OPTIONS[option]
        known = sentences.get(value)
        sentence = (
            str(known)
            if known is not None
            else str(_("The first to %(target)s points wins.")) % {"target": value}
        )
        rows.append({"option": option, "name": name, "value": value, "sentence": sentence})
    return rows
