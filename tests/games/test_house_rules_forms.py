"""Every house rule, classified by the entry controls it turns off, and each rule × game shown on
the forms (issue 27: house rules reach the forms).

`RESTRICTS` is the table: for each option of `HouseRules`, a value other than its default and the
controls that value takes off the entry and correction forms, by game ({} = none: the option
changes the score, never what is tapped). A new option fails
`test_every_house_rule_is_classified` until it has a row here; a row turning a control off fails
`test_the_registry_turns_off_what_the_table_says` until the game's `needs` in games/registry.py
say so. Each (option × game) case then renders the pad's entry form and a recorded deal's
correction form under that value and compares their controls with the game's, less the table's.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.models import Deal
from scoring.rules import HouseRules
from scoring.rules.games import GAMES
from tests.factories import make_session

ROOT = Path(__file__).resolve().parents[2]

#: option → (a value other than the default, {game: the controls that value turns off}).
RESTRICTS: dict[str, tuple[Any, dict[str, frozenset[str]]]] = {
    # RULES 2.6: the bonus of an unfinished rubber; nothing tapped differs.
    "unfinished_partscore": (50, {}),
    # RULES 3.3: a made redoubled contract scores 50; XX is still tapped.
    "insult_redoubled": (50, {}),
    # RULES 3.4: the price of undertricks; nothing tapped differs.
    "old_undertricks": (True, {}),
    # RULES 4.3: how the standings rank a pivot table; not a deal's control.
    "pivot_ranking": ("gross", {}),
    # RULES 5: who is vulnerable is computed from the deal's number, never tapped.
    "chicago_vulnerable": ("non_dealer", {}),
    # RULES 5: honours do not count in a Chicago without them (the engine refuses a claim).
    "chicago_honours": (False, {"chicago": frozenset({"honours"})}),
    # RULES 7.1: the rubber bonus of Bridge for Two and Misery; nothing tapped differs.
    "rubber_bonus_two_player": ("standard", {}),
    # RULES 7.4: the score that wins Draw and Discard; nothing tapped differs.
    "draw_and_discard_target": (300, {}),
}

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
    options = [f.name for f in dataclasses.fields(HouseRules)]
    assert sorted(RESTRICTS) == sorted(options), "classify the new option in RESTRICTS"
    for option, (value, by_game) in RESTRICTS.items():
        default = getattr(HouseRules(), option)
        assert value != default, option
        assert getattr(HouseRules(**{option: value}), option) == value
        assert set(by_game) <= set(GAMES), option


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_registry_turns_off_what_the_table_says(kind: str) -> None:
    expected = {
        (control, option)
        for option, (_value, by_game) in RESTRICTS.items()
        for control in by_game.get(kind, ())
    }
    assert set(registry.pages(kind).needs) == expected


def test_every_house_rule_is_in_the_rules_doc() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    assert [option for option in RESTRICTS if f"`{option}" not in doc] == []


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
@pytest.mark.parametrize("option", [None, *RESTRICTS])
def test_the_forms_offer_the_controls_the_game_and_the_house_rule_allow(
    client: Any, api: Any, club: Any, table_of_four: dict[str, Any], option: str | None, kind: str
) -> None:
    """With the default rules (`option` None) every control of the game; with `option` at its
    other value, those less the ones `RESTRICTS` says it turns off, on both forms."""
    off: frozenset[str] = frozenset()
    if option is not None:
        value, by_game = RESTRICTS[option]
        off = by_game.get(kind, frozenset())
        club.rules_overrides = {option: value}
        club.save()
    rubber, entry, correction = forms_under(client, api, club, table_of_four, kind)
    if option is not None:
        assert getattr(rubber.house_rules(), option) == RESTRICTS[option][0]
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
