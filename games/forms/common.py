"""What every deal form shares: the buttons' choices, the sides' names and errors in plain words.

The forms turn taps into the fields of a deal and check them with the same domain rules as the
API (`DealFields.build`, i.e. the scoring engine): an impossible result is shown beside the
field it concerns, naming the rule. The model methods write. `PlainErrors` is the page forms'
base: it says what to tap, and keeps only the controls the game and the house rules allow.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.rules import ScoringError
from scoring.shared.error_messages import error_sentence

from ..models import SEATS

LEVELS = [(str(n), str(n)) for n in range(1, 8)] + [("pass", _("Pass"))]
STRAINS = [("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"), ("NT", pgettext_lazy("strain", "NT"))]
DOUBLINGS = [("", "–"), ("X", "X"), ("XX", "XX")]
SEAT_LABELS = {
    "N": pgettext_lazy("seat", "N"),
    "E": pgettext_lazy("seat", "E"),
    "S": pgettext_lazy("seat", "S"),
    "W": pgettext_lazy("seat", "W"),
}
SEAT_CHOICES = [(seat, SEAT_LABELS[seat]) for seat in SEATS]


def side_names(we_side: str | None) -> dict[str, Any]:
    """How a pad names the two sides: We and They for a player at the table (their own side is
    We), N–S and E–W for anyone else."""
    if we_side is None:
        return {"NS": pgettext_lazy("side", "N–S"), "EW": pgettext_lazy("side", "E–W")}
    they = "EW" if we_side == "NS" else "NS"
    return {we_side: _("We"), they: _("They")}


class ChoiceButtons(forms.RadioSelect):
    """Radio inputs, drawn as big buttons by the `.choices` CSS (templates/games/_choices.html).

    Each button's input (`{{ radio.tag }}`) is written here, as Django's own templates write
    it (django/forms/widgets/input.html and attrs.html, escaped alike): a pad's form has some
    forty buttons, and their three nested templates each were most of a pad's render
    (docs/benchmarks.md, issue 28; tests/games/test_choice_buttons.py holds them equal)."""

    def _render(self, template_name: str, context: dict[str, Any], renderer: Any = None) -> Any:
        widget = context.get("widget", {})
        if template_name != self.option_template_name or widget.get("wrap_label"):
            return super()._render(template_name, context, renderer)  # type: ignore[misc]
        html = [
            f'<input type="{conditional_escape(widget["type"])}"'
            f' name="{conditional_escape(widget["name"])}"'
        ]
        if widget["value"] is not None:
            html.append(f' value="{escape(widget["value"])}"')
        for name, value in widget["attrs"].items():
            if value is False:
                continue
            html.append(f" {conditional_escape(name)}")
            if value is not True:
                html.append(f'="{escape(value)}"')
        html.append(">")
        return mark_safe("".join(html))  # noqa: S308  # nosec B308 B703  each part escaped above


# --- errors in plain words ----------------------------------------------------------------------

#: What a page asks for when a field is left empty, or sent with a value the page does not
#: offer (a stale or tampered page): what to tap, named as the pad names it. The API keeps its
#: own wording (docs/api.md); only the page forms say these.
CHOOSE: dict[str, Any] = {
    "level": _("Choose the contract: a level from 1 to 7, or Pass."),
    "strain": _("Choose the strain: ♣, ♦, ♥, ♠ or NT."),
    "doubling": _("Choose whether the contract was doubled: –, X or XX."),
    "doubled": _("Choose whether the contract was doubled."),
    "declarer": _("Choose the declarer: N, E, S or W."),
    "result": _("Choose the result: made, or how many over or down."),
    "honours": _("Choose who held honours, or None."),
    "tricks": _("Choose how many tricks the declarer won, from 0 to 13."),
    "declaration": _("Choose the declaration: ordinary, eight tricks or misery."),
}
#: A hidden field only an out-of-date (or tampered) page gets wrong: the page says so at the top
#: of the form (a hidden field's own errors would show nowhere).
STALE: dict[str, Any] = {
    "number": _("This page is out of date: reload it to enter the next deal."),
    "version": _("This page is out of date: reload it to correct this deal."),
}


def sentence(text: str) -> str:
    """A refusal as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else f"{text}."


class PlainErrors(forms.Form):
    """A page form whose errors are plain sentences (issue 17: no API words on a page).

    Django's own field errors ("This field is required.", "Select a valid choice. 7 is not one
    of the available choices.") become what to tap (`choose`); an engine refusal for a field left
    empty ("tricks is required") too; an engine refusal of a bridge rule keeps its rule
    ("… (RULES 3.6)."). A bad hidden `number` or `version` says the page is out of date, at the
    top of the form. The engine and the API are untouched: this is the page's translation.

    `controls` (the game's and the house rules', `GamePages.entry_controls`) keeps only those of
    the tapped fields: the page shows no other. A value a stale or tampered page still sends for
    another is read as before and reaches the engine, which refuses it with its rule.
    """

    def __init__(self, *args: Any, controls: Collection[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.off_fields: dict[str, forms.Field] = {}
        self.controls = controls

    def keep_controls(self) -> None:
        """Take the tapped fields not in `controls` out of the form (called once its fields are
        all there)."""
        if self.controls is None:
            return
        for name in [n for n, f in self.fields.items() if not f.widget.is_hidden]:
            if name not in self.controls:
                self.off_fields[name] = self.fields.pop(name)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        for name, field in self.off_fields.items():
            raw = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            if raw in field.empty_values:
                continue
            try:
                data[name] = field.clean(raw)
            except ValidationError:
                self.add_error(None, self.choose(name))
        return data

    def choose(self, name: str) -> str:
        """What to tap for the field `name`, in words."""
        text = CHOOSE.get(name)
        if text is None:
            label = self.fields[name].label if name in self.fields else name
            return str(_("Check “%(field)s”.") % {"field": label})
        return str(text)

    def taps_refused(self) -> bool:
        """Whether a field the player taps (not a hidden one) has an error already."""
        return any(n in self.fields and not self.fields[n].widget.is_hidden for n in self.errors)

    def refusal(self, err: ScoringError, name: str | None) -> str:
        """An engine refusal as the page says it beside field `name` (or at the top)."""
        if err.template.startswith("is required") and name in self.fields:
            return self.choose(name)
        return sentence(error_sentence(err))

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound:
            return
        errors = self.errors  # as full_clean left them
        stale = False
        for name in [n for n in errors if n != NON_FIELD_ERRORS]:
            if name in STALE and self.fields[name].widget.is_hidden:
                del errors[name]
                if not stale:
                    self.add_error(None, str(STALE[name]))
                stale = True
            elif any(error.code for error in errors[name].as_data()):
                # Django's own words (codes "required", "invalid_choice", "min_value" …).
                errors[name] = self.error_class(
                    [ValidationError(self.choose(name))], renderer=self.renderer
                )


def apply_scoring_error(form: PlainErrors, err: ScoringError, fields: dict[str, str]) -> None:
    """Show an engine refusal beside the form field it concerns (or at the top), in the page's
    words (`PlainErrors.refusal`)."""
    root = err.field.split(".", 1)[0] if err.field else ""
    name = fields.get(root)
    form.add_error(name, form.refusal(err, name))


#: The largest deal number a page may send (the model's small integer): beyond it, as below 1,
#: the page is out of date (`STALE`), never a database error.
MAX_NUMBER = 32767
#: The largest deal version (the model's integer).
MAX_VERSION = 2**31 - 1
