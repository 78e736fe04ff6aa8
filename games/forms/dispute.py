"""Why a deal is disputed: what is wrong (a short list) and the player's own words."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import DISPUTE_NOTE_MAX, DisputeReason


class DisputeForm(forms.Form):
    """A dispute's reason (`DisputeReason`, required) and note (optional, at most
    `DISPUTE_NOTE_MAX` characters), as `Deal.dispute` takes them."""

    reason = forms.ChoiceField(
        label=_("What is wrong?"),
        choices=DisputeReason.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": _(
                "Say what is wrong: the contract, the declarer, the result, the honours or "
                "something else."
            ),
            "invalid_choice": _(
                "Choose what is wrong: the contract, the declarer, the result, the honours or "
                "something else."
            ),
        },
    )
    note = forms.CharField(
        label=_("In your words (optional)"),
        required=False,
        max_length=DISPUTE_NOTE_MAX,
        error_messages={
            "max_length": _("Say it in at most %(limit_value)d characters."),
        },
    )

    def error_line(self) -> str:
        """Every error of the form in one line, for the pad's error banner."""
        return " ".join(str(message) for errors in self.errors.values() for message in errors)
