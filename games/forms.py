"""Deal entry and correction forms (phone first: big radio buttons; they work without JS).

The forms turn taps into the fields of a deal and check them with the same domain rules as the
API (`DealFields.build`, i.e. the scoring engine): an impossible result is shown beside the
field it concerns, naming the rule. The model methods write.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules import ScoringError

from .models import SEATS, DealFields

LEVELS = [(str(n), str(n)) for n in range(1, 8)] + [("pass", _("Pass"))]
STRAINS = [("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"), ("NT", "NT")]
DOUBLINGS = [("", "–"), ("X", "X"), ("XX", "XX")]
SEAT_CHOICES = [(seat, seat) for seat in SEATS]
RESULTS = [(str(n), f"−{-n}") for n in range(-7, 0)] + [("0", "=")]
RESULTS += [(str(n), f"+{n}") for n in range(1, 7)]
HONOURS = [
    ("", _("None")),
    ("NS100", _("We 100")),
    ("NS150", _("We 150")),
    ("EW100", _("They 100")),
    ("EW150", _("They 150")),
]
HONOURS_EDIT = [
    ("", _("None")),
    ("NS100", "NS 100"),
    ("NS150", "NS 150"),
    ("EW100", "EW 100"),
    ("EW150", "EW 150"),
]


class ChoiceButtons(forms.RadioSelect):
    """Radio inputs, drawn as big buttons by the `.choices` CSS (templates/games/_choices.html)."""


def _honours(code: str) -> tuple[str | None, int | None]:
    if not code:
        return None, None
    return code[:2], int(code[2:])


def _apply_scoring_error(form: forms.Form, err: ScoringError, fields: dict[str, str]) -> None:
    """Show an engine refusal beside the form field it concerns (or at the top)."""
    root = err.field.split(".", 1)[0] if err.field else ""
    message = err.message
    if message.startswith("is "):
        message = f"{err.field.replace('_', ' ').replace('.', ' ').capitalize()} {message}"
    if err.rule:
        message = f"{message} ({err.rule})"
    form.add_error(fields.get(root), message)


class DealEntryForm(forms.Form):
    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
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
    tricks = forms.IntegerField(
        label=_("or tricks taken"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 13}),
    )
    honours = forms.ChoiceField(
        label=_("Honours"), choices=HONOURS, required=False, widget=ChoiceButtons
    )

    ERROR_FIELDS = {
        "contract": "level",
        "declarer": "declarer",
        "tricks": "result",
        "honours": "honours",
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        level = data.get("level")
        if not level:
            return data
        passed = level == "pass"
        if passed:
            contract = "pass"
        elif not data.get("strain"):
            self.add_error("strain", _("Choose a strain."))
            return data
        else:
            contract = f"{level}{data['strain']}{data.get('doubling') or ''}"
        tricks = data.get("tricks")
        if tricks is None and not passed and data.get("result") not in (None, ""):
            tricks = int(level) + 6 + int(data["result"])
        honours_side, honours_points = _honours(data.get("honours") or "")
        try:
            fields = DealFields.build(
                contract=contract,
                declarer=data.get("declarer") or None,
                tricks=tricks,
                honours_side=honours_side,
                honours_points=honours_points,
            )
        except ScoringError as err:
            _apply_scoring_error(self, err, self.ERROR_FIELDS)
            return data
        data["fields"] = fields
        return data

    def record_kwargs(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return {"number": self.cleaned_data["number"], **fields.as_kwargs()}


class DealCorrectionForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    contract = forms.CharField(label=_("Contract"), max_length=10, help_text="4S, 3NTX, pass")
    declarer = forms.ChoiceField(
        label=_("Declarer"), choices=[("", "–"), *SEAT_CHOICES], required=False
    )
    tricks = forms.IntegerField(
        label=_("Tricks taken"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 13}),
    )
    honours = forms.ChoiceField(label=_("Honours"), choices=HONOURS_EDIT, required=False)

    ERROR_FIELDS = {
        "contract": "contract",
        "declarer": "declarer",
        "tricks": "tricks",
        "honours": "honours",
    }

    @classmethod
    def for_deal(cls, deal: Any, **kwargs: Any) -> DealCorrectionForm:
        honours = f"{deal.honours_side}{deal.honours_points}" if deal.honours_side else ""
        initial = {
            "version": deal.version,
            "contract": deal.contract,
            "declarer": deal.declarer,
            "tricks": deal.tricks,
            "honours": honours,
        }
        return cls(initial=initial, prefix=f"deal{deal.pk}", **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "contract" not in data:
            return data
        honours_side, honours_points = _honours(data.get("honours") or "")
        try:
            fields = DealFields.build(
                contract=data["contract"],
                declarer=data.get("declarer") or None,
                tricks=data.get("tricks"),
                honours_side=honours_side,
                honours_points=honours_points,
            )
        except ScoringError as err:
            _apply_scoring_error(self, err, self.ERROR_FIELDS)
            return data
        data["fields"] = fields
        return data

    def changes(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return fields.as_kwargs()
