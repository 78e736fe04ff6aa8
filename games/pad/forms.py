"""The pad's forms: the entry and correction forms of the rubber's game (only the controls its
house rules allow), the names it gives the sides, and the live line under the buttons."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .. import display, registry
from ..forms import (
    DealCorrectionForm,
    DealEntryForm,
    TwoPlayerCorrectionForm,
    TwoPlayerDealForm,
    side_names,
)
from ..models import Deal, DealFields, Rubber
from ..permissions import Viewer
from .builders import places


def pad_side_names(rubber: Rubber, viewer: Viewer) -> dict[str, Any]:
    """How this viewer's pad names each side (forms.side_names): We/They at the table."""
    return side_names(None if rubber.is_two_player else viewer.we_side)


def entry_controls(rubber: Rubber) -> frozenset[str]:
    """The entry controls the rubber's game allows under the house rules it is scored under."""
    return registry.pages(rubber.kind).entry_controls(rubber.house_rules())


def entry_form(rubber: Rubber, viewer: Viewer, data: Any = None, **kwargs: Any) -> Any:
    """The deal entry form of the rubber's game: contract and seats, or the game's own fields;
    only the controls its house rules allow."""
    entry = registry.pages(rubber.kind).entry
    controls = entry_controls(rubber)
    if entry is not None:
        names = [player.name for player in rubber.players]
        return TwoPlayerDealForm(
            data,
            kind=rubber.kind,
            entry=entry,
            players=names,
            order=places(rubber),
            controls=controls,
            **kwargs,
        )
    return DealEntryForm(
        data, we_side=viewer.we_side, seat_names=_seat_names(rubber), controls=controls, **kwargs
    )


def correction_form(rubber: Rubber, deal: Deal, viewer: Viewer, data: Any = None) -> Any:
    """The correction form of the rubber's game, filled from the deal as recorded: the entry's
    own buttons."""
    entry = registry.pages(rubber.kind).entry
    controls = entry_controls(rubber)
    if entry is not None:
        names = [player.name for player in rubber.players]
        return TwoPlayerCorrectionForm.for_deal(
            deal,
            kind=rubber.kind,
            entry=entry,
            players=names,
            order=places(rubber),
            data=data,
            controls=controls,
        )
    return DealCorrectionForm.for_deal(
        deal,
        data=data,
        we_side=viewer.we_side,
        seat_names=_seat_names(rubber),
        controls=controls,
    )


def _seat_names(rubber: Rubber) -> dict[str, str]:
    """Who sits where this rubber, by seat, for the declarer buttons."""
    return {seat: player.name for seat, player in rubber.seats.items() if player is not None}


def correction_line(rubber: Rubber, deal: Deal, viewer: Viewer, taps: Any) -> str:
    """The live line for a correction form's `taps` (its prefixed data): the deal as it would
    be scored with them, in its place, in every game (a two-player game's as its entry's)."""
    prefix = f"deal{deal.pk}"
    data = taps.copy()
    data[f"{prefix}-version"] = "1"  # the line is of the taps, whatever version the form holds
    if registry.pages(rubber.kind).entry is not None:
        form = correction_form(rubber, deal, viewer, data)
        if not form.is_valid():
            return " ".join(str(e) for errors in form.errors.values() for e in errors)
        return match_line(rubber, form.cleaned_data["fields"], number=deal.number)
    form = DealCorrectionForm(
        data, prefix=prefix, we_side=viewer.we_side, controls=entry_controls(rubber)
    )
    if not data.get(f"{prefix}-level"):
        return _("Tap the contract, the declarer and the result.")
    if form.is_valid():
        names = pad_side_names(rubber, viewer)
        return display.preview(rubber, form.cleaned_data["fields"], names, number=deal.number)
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def preview_line(rubber: Rubber, viewer: Viewer, taps: Any) -> str:
    """The live line for `taps` (a form's data): also rendered with a pad whose form comes back
    holding taps (a conflict moved them, or an error), so the line never says "Tap the
    contract" over a filled form."""
    data = taps.copy()
    data["number"] = "1"  # the preview scores the deal as the next one, whatever the form says
    if registry.pages(rubber.kind).entry is not None:
        return _match_line(rubber, viewer, data)
    form = DealEntryForm(data, we_side=viewer.we_side, controls=entry_controls(rubber))
    if not data.get("level"):
        return _("Tap the contract, the declarer and the result.")
    if form.is_valid():
        return display.preview(rubber, form.cleaned_data["fields"], pad_side_names(rubber, viewer))
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _match_line(rubber: Rubber, viewer: Viewer, data: Any) -> str:
    """A two-player entry's live line: the deal and what each player gains by it
    (`display.match_preview`), or what is still missing."""
    form = entry_form(rubber, viewer, data)
    if not any(data.get(name) not in (None, "") for name in form.fields if name != "number"):
        return _("Tap the deal: its score shows here before you record it.")
    if not form.is_valid():
        return " ".join(str(e) for errors in form.errors.values() for e in errors)
    return match_line(rubber, form.cleaned_data["fields"])


def match_line(rubber: Rubber, fields: DealFields, *, number: int | None = None) -> str:
    """A two-player deal's live line (`display.match_preview`): as the match's next deal, or
    with `number` as that deal corrected, in its place."""
    names = [player.name for player in rubber.players]
    deal = Deal(
        rubber=rubber,
        number=number or len(rubber.ordered_deals()) + 1,
        **fields.as_kwargs(),
    )
    return display.match_preview(
        rubber,
        fields,
        names,
        places(rubber),
        registry.deal_words(rubber, deal),
        points=registry.pages(rubber.kind).line_points,
        number=number,
    )


def deal_line(rubber: Rubber, deal: Deal, viewer: Viewer) -> str:
    """A correction form's live line as it opens: the deal as recorded, in its place."""
    if registry.pages(rubber.kind).entry is not None:
        return match_line(rubber, deal.fields(), number=deal.number)
    return display.preview(
        rubber, deal.fields(), pad_side_names(rubber, viewer), number=deal.number
    )


def offline_figures(
    rubber: Rubber,
    viewer: Viewer,
    deals: list[Deal],
    player_names: list[str] | None,
    *,
    flip: bool,
) -> dict[str, Any]:
    """What the phone needs to score deals it keeps offline itself (static/js/scorer.js,
    docs/offline.md): the game, its house rules, the recorded deals as the engine reads them,
    and the names of the two columns (the sides as this viewer's pad names them, or the two
    players), left column first."""
    if player_names is not None:
        names: dict[str, str] = {"0": player_names[0], "1": player_names[1]}
        order = ["0", "1"]
        inputs = [deal.data for deal in deals]
    else:
        names = {side: str(name) for side, name in pad_side_names(rubber, viewer).items()}
        order = ["NS", "EW"]
        inputs = [deal.as_input().to_dict() for deal in deals]
    return {
        "kind": rubber.kind,
        "options": rubber.house_rules().to_dict(),
        "deals": inputs,
        "names": names,
        "order": order[::-1] if flip else order,
    }
