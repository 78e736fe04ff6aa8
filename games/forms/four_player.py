"""The four-player deal forms (rubber and Chicago): a deal in taps, and its correction."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules import Contract, ScoringError
from scoring.shared import inputs
from scoring.shared.error_messages import localize_rule

from ..models import DealFields
from .common import (
    DOUBLINGS,
    LEVELS,
    MAX_NUMBER,
    MAX_VERSION,
    SEAT_CHOICES,
    STRAINS,
    ChoiceButtons,
    PlainErrors,
    apply_scoring_error,
    side_names,
)

#: Every result a contract can have, from 7NT's −13 to 1♣'s +6 (RULES 1: tricks 0–13); the
#: page shows only those possible for the level chosen (`possible_results`).
RESULTS = [(str(n), f"−{-n}") for n in range(-13, 0)] + [("0", "=")]
RESULTS += [(str(n), f"+{n}") for n in range(1, 7)]


def possible_results(level: int) -> range:
    """The results a contract of `level` can have, from down 6 + level to up 7 − level: the
    declaring side takes between 0 and 13 tricks (1♣: −7 … +6; 7NT: −13 … =)."""
    return range(-(level + 6), 7 - level + 1)


def honours_choices(we_side: str | None) -> list[tuple[str, Any]]:
    """Honours by side, named as the viewer's pad names the sides (We/They, or N–S/E–W)."""
    names = side_names(we_side)
    return [("", _("None"))] + [
        (f"{side}{points}", f"{names[side]} {points}")
        for side in ("NS", "EW")
        for points in (100, 150)
    ]


def _honours(code: str) -> tuple[str | None, int | None]:
    if not code:
        return None, None
    return code[:2], int(code[2:])


class DealEntryForm(PlainErrors):
    """A deal in taps: level, strain, doubling, declarer, the result against the contract and
    honours. The result is the one way to give the tricks (no typed count that could disagree);
    a result the level cannot have is a form error, never adjusted. Errors are plain sentences
    (`PlainErrors`)."""

    number = inputs.IntegerFormField(min_value=1, max_value=MAX_NUMBER, widget=forms.HiddenInput)
    level = forms.ChoiceField(label=_("Contract"), choices=LEVELS, widget=ChoiceButtons)
    strain = forms.ChoiceField(
        label=_("Strain"), choices=STRAINS, required=False, widget=ChoiceButtons
    )
    doubling = forms.ChoiceField(
        label=_("Doubled"), choices=DOUBLINGS, required=False, widget=ChoiceButtons
    )
    declarer = forms.ChoiceField(
        label=_("Declarer"), choices=SEAT_CHOICES, required=False, widget=ChoiceButtons
    )
    result = forms.ChoiceField(
        label=_("Result"), choices=RESULTS, required=False, widget=ChoiceButtons
    )
    honours = forms.ChoiceField(
        label=_("Honours"), choices=honours_choices(None), required=False, widget=ChoiceButtons
    )

    ERROR_FIELDS = {
        "contract": "level",
        "declarer": "declarer",
        "tricks": "result",
        "honours": "honours",
    }

    def __init__(
        self,
        *args: Any,
        we_side: str | None = None,
        seat_names: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.we_side = we_side
        #: Who sits where this rubber: the declarer buttons show and speak their names.
        self.seat_names = seat_names or {}
        if seat_names:
            # Each declarer button names who sits there this rubber ("N · Clara Cole").
            declarer = self.fields["declarer"]
            assert isinstance(declarer, forms.ChoiceField)
            declarer.choices = [
                (seat, f"{label} · {seat_names[seat]}" if seat in seat_names else label)
                for seat, label in SEAT_CHOICES
            ]
        honours = self.fields["honours"]
        assert isinstance(honours, forms.ChoiceField)
        honours.choices = honours_choices(we_side)
        self.keep_controls()

    def refusal(self, err: ScoringError, name: str | None) -> str:
        if err.template.startswith("{side} took {tricks} tricks"):
            # RULES 3.7, the side named as the pad names it (We/They, or N–S/E–W).
            side = str(err.params["side"])
            return str(
                _(
                    "%(side)s took only %(tricks)s tricks: the side holding these honours takes "
                    "at least %(minimum)s (%(rule)s)."
                )
                % {
                    "side": side_names(self.we_side).get(side, side),
                    "tricks": err.params["tricks"],
                    "minimum": err.params["minimum"],
                    "rule": localize_rule(err.rule) if err.rule else "",
                }
            )
        return super().refusal(err, name)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        level = data.get("level")
        if not level or self.taps_refused():
            # A field left empty or sent with a value the page does not offer: said beside it
            # (`PlainErrors`), the deal not checked further.
            return data
        if level == "pass":
            # The page hides and unticks the other choices once Pass is tapped; any still sent
            # disagree with the pass, and which one was meant is not guessed.
            if any(data.get(name) for name in ("strain", "doubling", "declarer", "result")):
                self.add_error(
                    None,
                    _("A passed-out deal has no strain, declarer or result: tap them again."),
                )
                return data
            return _with_fields(self, data, contract="pass", tricks=None)
        if not data.get("strain"):
            self.add_error("strain", self.choose("strain"))
            return data
        contract = f"{level}{data['strain']}{data.get('doubling') or ''}"
        if data.get("result") in (None, ""):
            # The engine names what is missing (RULES 1), as the API does.
            return _with_fields(self, data, contract=contract, tricks=None)
        result = int(data["result"])
        if result not in possible_results(int(level)):
            # The declaring side takes 0 to 13 tricks (RULES 1).
            self.add_error(
                "result",
                _(
                    "%(result)s is not a possible result of a %(level)s-level contract: "
                    "the declaring side takes 0 to 13 tricks (RULES 1)."
                )
                % {"result": dict(RESULTS)[data["result"]], "level": level},
            )
            return data
        tricks = int(level) + 6 + result
        return _with_fields(self, data, contract=contract, tricks=tricks)

    def record_kwargs(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return {"number": self.cleaned_data["number"], **fields.as_kwargs()}


def entry_initial(deal: Any) -> dict[str, str]:
    """A recorded four-player deal as `DealEntryForm`'s taps (a correction starts from it)."""
    honours = f"{deal.honours_side}{deal.honours_points}" if deal.honours_side else ""
    contract = Contract.parse(deal.contract)
    if contract.is_pass or contract.strain is None:
        return {"level": "pass", "honours": ""}
    return {
        "level": str(contract.level),
        "strain": contract.strain.value,
        "doubling": contract.doubling.suffix,
        "declarer": deal.declarer,
        "result": str((deal.tricks or 0) - (contract.level + 6)),
        "honours": honours,
    }


class DealCorrectionForm(DealEntryForm):
    """A recorded deal to correct with the entry's own buttons, filled from the deal, with the
    deal's `version` (a stale one is refused by `Deal.correct`) instead of a number."""

    number = None  # type: ignore[assignment]
    version = inputs.IntegerFormField(min_value=1, max_value=MAX_VERSION, widget=forms.HiddenInput)

    @classmethod
    def for_deal(cls, deal: Any, **kwargs: Any) -> DealCorrectionForm:
        initial = {"version": deal.version, **entry_initial(deal)}
        return cls(initial=initial, prefix=f"deal{deal.pk}", **kwargs)

    def changes(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return fields.as_kwargs()


def _with_fields(
    form: DealEntryForm, data: dict[str, Any], *, contract: str, tricks: int | None
) -> dict[str, Any]:
    """Validate the deal through the engine (DealFields) and keep it in `data["fields"]`;
    an impossible result becomes a form error on the field it names (RULES section cited)."""
    honours_side, honours_points = _honours(data.get("honours") or "")
    try:
        data["fields"] = DealFields.build(
            contract=contract,
            declarer=data.get("declarer") or None,
            tricks=tricks,
            honours_side=honours_side,
            honours_points=honours_points,
        )
    except ScoringError as err:
        apply_scoring_error(form, err, form.ERROR_FIELDS)
    return data
