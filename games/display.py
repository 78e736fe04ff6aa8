"""Deals in the words a table uses: "4♠× by North, −2: They +300".

Presentation only: every figure shown is the scoring engine's (`preview` scores the rubber with
the deal added, as `Rubber.record_deal` will), nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from scoring.rules import Contract, ScoringError, Side
from scoring.shared.error_messages import error_sentence

from . import sheets
from .models import Deal, DealFields, Rubber

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": pgettext_lazy("strain", "NT")}
SEAT_NAMES = {
    "N": pgettext_lazy("seat name", "North"),
    "E": pgettext_lazy("seat name", "East"),
    "S": pgettext_lazy("seat name", "South"),
    "W": pgettext_lazy("seat name", "West"),
}
DOUBLED = {"": "", "X": "×", "XX": "××"}


def two_player_order(seats: dict[str, int]) -> list[str]:
    """The seats of a two-player match (N: player 0, E: player 1) in the order its players are
    shown everywhere, pad, buttons, console and cards: by player id, so two players stand in the
    same order in every match whoever deals first (issue 17)."""
    return sorted(seats, key=lambda seat: seats[seat])


def contract_label(contract: str) -> str:
    """ "4SX" as a pad writes it: "4♠×" (a pass is "passed out")."""
    parsed = Contract.parse(contract)
    if parsed.is_pass or parsed.strain is None:
        return pgettext("deal summary", "passed out")
    return f"{parsed.level}{SUITS[parsed.strain.value]}{DOUBLED[parsed.doubling.suffix]}"


def result_word(result: int) -> str:
    """The result against the contract: "made", "+1", "−2"."""
    if result == 0:
        return pgettext("result", "made")
    return f"+{result}" if result > 0 else f"−{-result}"


def deal_words(fields: DealFields | Deal) -> str:
    """A four-player deal in words: "4♠ by North, made" (or "passed out")."""
    if fields.contract == "pass":
        return pgettext("deal summary", "passed out")
    over = (fields.tricks or 0) - (Contract.parse(fields.contract).level + 6)
    return _("%(contract)s by %(seat)s, %(result)s") % {
        "contract": contract_label(fields.contract),
        "seat": SEAT_NAMES[fields.declarer],
        "result": result_word(over),
    }


def points_words(points: dict[str, int], names: dict[str, Any]) -> str:
    """ "They +300", or "We +100, They +620", or "no score"."""
    parts = [f"{names[side]} +{points[side]}" for side in ("NS", "EW") if points.get(side)]
    return ", ".join(parts) or _("no score")


def preview(
    rubber: Rubber, fields: DealFields, names: dict[str, Any], *, number: int | None = None
) -> str:
    """The deal as it will be scored if recorded now as the rubber's next deal, in one line:
    the engine scores the rubber with it added (vulnerability, game, bonuses as they will be).
    With `number`, a correction: the deal of that number as it would be with these `fields`, in
    its place (its own vulnerability)."""
    deals = rubber.ordered_deals()
    number = number or len(deals) + 1
    deal = Deal(rubber=rubber, number=number, **fields.as_kwargs())
    played = [d for d in deals if d.number < number] + [deal]
    try:
        sheet = sheets.score(rubber.kind, played, closed=False, options=rubber.house_rules())
    except ScoringError as err:
        return error_sentence(err)
    points = {"NS": 0, "EW": 0}
    # A deal that wins the rubber brings its rubber bonus (RULES 2.4), an end-of-rubber item.
    ends = tuple(getattr(sheet.score, "end_items", ())) if sheet.complete else ()
    for item in (*sheet.deals[-1].items, *ends):
        points[Side(item.side).value] += item.points
    line = f"{deal_words(fields)}: {points_words(points, names)}"
    if ends:
        line += _(", with the rubber bonus")
    return line


def match_preview(
    rubber: Rubber,
    fields: DealFields,
    names: Sequence[str],
    order: Sequence[int],
    said: str,
    *,
    points: bool,
    number: int | None = None,
) -> str:
    """A two-player deal as it will be scored if recorded now as the match's next deal, in one
    line: `said` (the deal in the pad's words), then what each player gains by it, the engine's
    figures ("♠ by Ann, 10 tricks: Ann +120"), and who wins the match when it ends it (a
    Turnover's one result says only that). `names`: player 0's and player 1's; `order`: the
    places as the pad shows them; `points`: whether the game's totals are points (a Turnover
    counts tricks, and its line says only who wins). With `number`, a correction: the deal of
    that number with these `fields`, in its place (the deals before it only)."""
    deals = rubber.ordered_deals()
    if number is not None:
        deals = [d for d in deals if d.number < number]
    deal = Deal(rubber=rubber, number=len(deals) + 1, **fields.as_kwargs())
    rules = rubber.house_rules()
    try:
        sheet = sheets.score(rubber.kind, [*deals, deal], closed=False, options=rules)
        before = sheets.score(rubber.kind, deals, closed=False, options=rules) if deals else None
    except ScoringError as err:
        return error_sentence(err)
    end = ""
    if sheet.complete:
        winner = sheet.result.winner
        end = (
            _("a tie")
            if winner is None
            else _("%(name)s wins the match") % {"name": names[int(winner)]}
        )
    if not points:
        return f"{said}: {end}"
    was = before.result.totals if before is not None else (0, 0)
    gained = [now - then for now, then in zip(sheet.result.totals, was, strict=True)]
    parts = [f"{names[place]} +{gained[place]}" for place in order if gained[place]]
    line = f"{said}: {', '.join(parts) or _('no score')}"
    return f"{line} — {end}" if end else line
