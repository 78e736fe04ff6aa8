"""A field's buttons (`{% choices field %}`, games.pad.rendered.choice_buttons) are kept per
process by what they show: the kept render is byte for byte the template's, for every game's
forms, unbound, tapped, holding a deal's values or refused with errors, in each language; a
render with the same key is the kept one and a change of what shows is another key."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import registry
from games.forms import DealEntryForm, TwoPlayerDealForm
from games.forms.four_player import DealCorrectionForm
from games.pad import rendered
from scoring.rules.games import GAMES


def _two_player(kind: str, data: Any = None) -> Any:
    page = registry.pages(kind)
    return TwoPlayerDealForm(data, kind=kind, entry=page.entry, players=["Ann", "Bob"])


def _radios(form: Any) -> list[Any]:
    return [field for field in form if getattr(field.field.widget, "input_type", "") == "radio"]


#: The two-player games whose entry has buttons (some only count tricks in number inputs).
TWO_PLAYER = [
    kind for kind in GAMES if registry.pages(kind).entry is not None and _radios(_two_player(kind))
]

FORMS = {
    "unbound": lambda: DealEntryForm(we_side="NS", controls=frozenset({"honours"})),
    "names spoken": lambda: DealEntryForm(seat_names={"N": "Ann", "E": "Bo", "S": "Cy", "W": "Di"}),
    "tapped": lambda: DealEntryForm({"level": "4", "strain": "S", "declarer": "N"}, we_side="NS"),
    "tapped otherwise": lambda: DealEntryForm(
        {"level": "3", "strain": "H", "declarer": "W", "doubling": "X"}, we_side="EW"
    ),
    "refused": lambda: _validated(DealEntryForm({"number": "1", "level": "9"}, we_side="NS")),
    "a deal's values": lambda: DealCorrectionForm(
        initial={"level": "3", "strain": "NT", "declarer": "E", "doubling": "X"}
    ),
    **{f"{kind} unbound": (lambda kind=kind: _two_player(kind)) for kind in TWO_PLAYER},
    **{
        f"{kind} refused": (lambda kind=kind: _validated(_two_player(kind, {"number": "x"})))
        for kind in TWO_PLAYER
    },
}


def _validated(form: Any) -> Any:
    form.is_valid()
    return form


def _buttons(form: Any) -> list[Any]:
    found = _radios(form)
    assert found
    return found


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("name", list(FORMS))
def test_kept_buttons_are_the_templates_byte_for_byte(name: str, language: str) -> None:
    with translation.override(language):
        for field in _buttons(FORMS[name]()):
            theirs = render_to_string("games/_choices.html", {"field": field})
            assert rendered.choice_buttons(field) == theirs, field.name
            # Asked again (a new form, as the next render makes): the kept render, the same.
            again = next(f for f in _buttons(FORMS[name]()) if f.name == field.name)
            assert rendered.choice_buttons(again) is rendered.choice_buttons(field)


def test_what_a_button_shows_is_in_its_key() -> None:
    def key(form: Any, name: str = "level") -> str:
        return rendered.choices_key(form[name])

    unbound = DealEntryForm(we_side="NS")
    assert key(unbound) == key(DealEntryForm(we_side="NS"))
    assert key(unbound) != key(DealEntryForm({"level": "4"}, we_side="NS"))
    assert key(DealEntryForm({"level": "4"})) != key(DealEntryForm({"level": "5"}))
    assert key(unbound) != key(_validated(DealEntryForm({"number": "1"}, we_side="NS")))
    assert key(unbound) != key(DealEntryForm(we_side="NS", auto_id="other_%s"))
    english = key(unbound)
    with translation.override("it"):
        assert key(DealEntryForm(we_side="NS")) != english
    named = DealEntryForm(seat_names={"N": "Ann"})
    assert key(named, "declarer") != key(DealEntryForm(seat_names={"N": "Bea"}), "declarer")


def test_a_control_the_form_lacks_renders_as_the_template_does() -> None:
    assert rendered.choice_buttons("") == render_to_string("games/_choices.html", {"field": ""})


@pytest.mark.django_db
def test_a_pad_renders_each_fields_buttons_once(running_session: Any, north: Any) -> None:
    from django.test import Client

    rubber = running_session.rubbers.get()
    phone = Client()
    phone.force_login(north)
    assert phone.get(f"/rubbers/{rubber.pk}/live").status_code == 200
    kept = len(rendered._CHOICES.renders)
    assert kept
    # A bound form's buttons: the pad's form refused, twice, renders its buttons once.
    for _ in range(2):
        refused = phone.post(f"/rubbers/{rubber.pk}/deals/", {"number": "1", "level": "4"})
        assert refused.status_code in (200, 422)
    after_one = len(rendered._CHOICES.renders)
    assert after_one > kept
    phone.post(f"/rubbers/{rubber.pk}/deals/", {"number": "1", "level": "4"})
    assert len(rendered._CHOICES.renders) == after_one
