"""Every house rule, classified by the entry controls it turns off, and each rule × game shown on
the forms (issue 27: house rules reach the forms).

`scoring.rules.options.TURNS_OFF` is the table: for each option of `HouseRules`, the deal inputs
it takes off each game's entry when it is off ({} = none: the option changes the score, never
what is tapped). A new option fails `test_every_house_rule_is_classified` until it has a row; a
row turning an input off fails `test_the_registry_turns_off_what_the_table_says` until the
game's `needs` in games/registry.py say so. Each (option × game) case then renders the pad's
entry form and a recorded deal's correction form with the option at a value other than its
default, and compares their controls with the game's, less those the table turns off.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from games import registry
from games.models import Deal
from scoring.rules import HouseRules
from scoring.rules.games import GAMES
from scoring.rules.options import DEFAULT, TURNS_OFF
from tests.factories import make_session

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = [f.name for f in dataclasses.fields(HouseRules)]


def other_value(option: str) -> Any:
    """A value of `option` other than its default, by its type: the other of a yes/no or of a
    choice, or a different number."""
    hint = get_type_hints(HouseRules)[option]
    default = getattr(DEFAULT, option)
    if get_origin(hint) is Literal:
        return next(value for value in get_args(hint) if value != default)
    if hint is bool:
        return not default
    if hint is int:
        return default + 1
    raise AssertionError(f"{option}: say here which other value of a {hint} to try")


def turned_off(option: str, kind: str) -> set[str]:
    """The controls of `kind` that `option` at its other value takes off the forms."""
    if getattr(HouseRules(**{option: other_value(option)}), option):
        return set()  # the table's inputs go only when the option is off
    return set(TURNS_OFF[option].get(kind, ()))


#: A first deal of each game, as the API takes it.
FIRST_DEAL: dict[str, dict[str, Any]] = {
    "rubber": {"contract": "4S", "declarer": "N", "tricks": 10},
    "chicago": {"contract": "4S", "declarer": "N", "tricks": 10},
    "bridge_for_two": {"declarer": 0, "strain": "S", "tricks": 8},
    "misery": {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 8},
    "turnover": {"tricks": [14, 12]},
    "draw_discard": {"contract": "pass"},
}

INPUT = re.compile(r"<input\b[^>]*>")
NAME = re.compile(r'\bname="([^"]+)"')


def tapped(html: str, prefix: str = "") -> set[str]:
    """The names of the controls a form offers: its inputs that are not hidden."""
    names = set()
    for tag in INPUT.findall(html):
        found = NAME.search(tag)
        if found and 'type="hidden"' not in tag:
            names.add(found.group(1).removeprefix(prefix))
    return names


def entry_form(html: str) -> str:
    start = html.index('id="entry"')
    return html[start : html.index("</form>", start)]


def no_empty_group(html: str) -> str:
    """A form drawn without a button group for a control it lacks (its legend alone would still
    show: `<fieldset class="field-">`, games/_choices.html with no field)."""
    assert 'class="field-"' not in html
    return html


def test_every_house_rule_is_classified() -> None:
    assert sorted(TURNS_OFF) == sorted(OPTIONS), "give the new option its row in TURNS_OFF"
    for option in OPTIONS:
        value = other_value(option)
        assert value != getattr(DEFAULT, option), option
        assert getattr(HouseRules(**{option: value}), option) == value
        assert set(TURNS_OFF[option]) <= set(GAMES), option
        if TURNS_OFF[option]:
            # "Off" is false: only a yes/no option can turn an input off.
            assert isinstance(getattr(DEFAULT, option), bool), option


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_registry_turns_off_what_the_table_says(kind: str) -> None:
    expected = {
        (control, option) for option in OPTIONS for control in TURNS_OFF[option].get(kind, ())
    }
    assert set(registry.pages(kind).needs) == expected


def test_every_house_rule_is_in_the_rules_doc() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    assert [option for option in OPTIONS if f"`{option}" not in doc] == []


def forms_under(client: Any, api: Any, club: Any, players: dict[str, Any], kind: str) -> Any:
    """The controls of the entry form of `kind`'s first match and of its first deal's correction
    form, under the club's house rules."""
    four = list(players.values())
    tables = [four] if GAMES[kind].seats == 4 else [four[:2], four[2:]]
    session = make_session(club, tables, kind=kind)
    rubber = session.rubbers.order_by("table__number", "number").first()
    user = rubber.players[0].user
    client.force_login(user)
    entry = tapped(
        no_empty_group(entry_form(client.get(f"/rubbers/{rubber.pk}/").content.decode()))
    )
    api.force_authenticate(user)
    response = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 1, **FIRST_DEAL[kind]}, format="json"
    )
    assert response.status_code == 201, response.json()
    deal = Deal.objects.get(rubber=rubber)
    html = client.get(f"/deals/{deal.pk}/correct", HTTP_HX_REQUEST="true").content.decode()
    assert f'name="deal{deal.pk}-version"' in html
    no_empty_group(html)
    return rubber, entry, tapped(html, prefix=f"deal{deal.pk}-")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", list(GAMES))
@pytest.mark.parametrize("option", [None, *OPTIONS])
def test_the_forms_offer_the_controls_the_game_and_the_house_rule_allow(
    client: Any, api: Any, club: Any, table_of_four: dict[str, Any], option: str | None, kind: str
) -> None:
    """With the default rules (`option` None) every control of the game; with `option` at its
    other value, those less the ones `TURNS_OFF` says it turns off, on both forms."""
    off: set[str] = set()
    if option is not None:
        off = turned_off(option, kind)
        club.rules_overrides = {option: other_value(option)}
        club.save()
    rubber, entry, correction = forms_under(client, api, club, table_of_four, kind)
    if option is not None:
        assert getattr(rubber.house_rules(), option) == other_value(option)
    expected = set(registry.pages(kind).controls) - off
    assert entry == expected
    assert correction == expected


@pytest.mark.django_db
def test_a_rule_turning_off_any_control_reaches_both_forms(
    client: Any, api: Any, club: Any, table_of_four: dict[str, Any], monkeypatch: Any
) -> None:
    """A made-up rule (doubling only with `old_undertricks`): the registry entry alone takes the
    Doubled buttons off the rubber's entry and correction forms (no form or template change)."""
    page = registry.pages("rubber")
    monkeypatch.setitem(registry.PAGES, "rubber", page)
    registry.register_pages(
        "rubber", dataclasses.replace(page, needs=(("doubling", "old_undertricks"),))
    )
    assert HouseRules().old_undertricks is False
    _rubber, entry, correction = forms_under(client, api, club, table_of_four, "rubber")
    assert entry == correction == set(page.controls) - {"doubling"}


def test_the_add_a_house_rule_recipe_names_real_tests() -> None:
    """docs/architecture.md's recipe: six numbered steps, and every test it names exists."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    start = doc.index("### Add a house rule")
    recipe = doc[start : doc.index("\n## ", start)]
    assert re.findall(r"^(\d)\. ", recipe, re.MULTILINE) == ["1", "2", "3", "4", "5", "6"]
    sources = "".join(path.read_text() for path in (ROOT / "tests").rglob("test_*.py"))
    named = set(re.findall(r"::(test_\w+)", recipe))
    assert named
    assert [name for name in sorted(named) if f"def {name}(" not in sources] == []
    for path in re.findall(r"`(tests/[\w/]+\.py)", recipe):
        assert (ROOT / path).exists(), path
