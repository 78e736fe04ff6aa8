"""A deal's buttons (games.forms.common.ChoiceButtons) write each input as Django's own widget
templates write it: the same HTML, escaped alike, unbound, tapped, holding a deal's values, for
names and values a page should never see as markup."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django import forms
from django.core.cache import cache
from django.test import Client

from games.forms.common import ChoiceButtons
from games.forms.four_player import DealCorrectionForm, DealEntryForm
from games.pad import rendered


def _by_templates(radio: Any) -> str:
    """The input as Django's templates write it (django/forms/widgets/input.html)."""
    context = {"widget": {**radio.data, "wrap_label": False}}
    return str(forms.Widget._render(radio.parent_widget, radio.template_name, context))


def _each_input(form: forms.Form) -> list[tuple[str, str]]:
    found = [
        (str(radio.tag()), _by_templates(radio))
        for field in form
        if isinstance(field.field.widget, ChoiceButtons)
        for radio in field
    ]
    assert found
    return found


HOSTILE = '"><script>alert(1)</script>&'


@pytest.mark.parametrize(
    "form",
    [
        lambda: DealEntryForm(seat_names={"N": HOSTILE, "E": "Ann", "S": "Bea", "W": "Cy"}),
        lambda: DealEntryForm({"level": "4", "strain": "S", "declarer": "N"}, we_side="NS"),
        lambda: DealCorrectionForm(
            initial={"level": "3", "strain": "NT", "declarer": "E", "doubling": "X"}
        ),
    ],
    ids=["unbound", "tapped", "a deal's values"],
)
def test_each_input_is_the_templates(form):
    for ours, theirs in _each_input(form()):
        assert ours == theirs


def test_hostile_values_and_attributes_are_escaped_alike():
    class Hostile(forms.Form):
        pick = forms.ChoiceField(
            choices=[(HOSTILE, "a"), ("b", HOSTILE)],
            widget=ChoiceButtons(
                attrs={"data-x": HOSTILE, "required": True, "hidden": False, "data-n": 7}
            ),
        )

    for form in (Hostile(), Hostile({"pick": HOSTILE})):
        for ours, theirs in _each_input(form):
            assert ours == theirs
            assert "<script>" not in ours
    assert "checked" in str(Hostile({"pick": HOSTILE})["pick"])


_TOKEN = re.compile(r"[A-Za-z0-9]{64}")


@pytest.mark.django_db
def test_a_pad_is_the_one_the_templates_write(running_session, north, monkeypatch):
    rubber = running_session.rubbers.get()
    phone = Client()
    phone.force_login(north)

    def pad() -> str:
        cache.clear()
        rendered._FIELDS.renders.clear()
        rendered._CHOICES.renders.clear()
        answer = phone.get(f"/rubbers/{rubber.pk}/live")
        assert answer.status_code == 200
        return _TOKEN.sub("TOKEN", answer.content.decode())

    ours = pad()
    monkeypatch.setattr(ChoiceButtons, "_render", forms.Widget._render)
    assert pad() == ours
    assert 'type="radio"' in ours
