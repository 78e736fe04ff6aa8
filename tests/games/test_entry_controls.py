"""House rules reach the forms (issue 27): the entry and correction forms show only the controls
the game and the session's house rules allow (`GamePages.entry_controls`), and the server still
refuses a control the rules turn off, with the engine's own rule text."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import layouts, registry
from games.forms import DealEntryForm, TurnoverFields, TwoPlayerDealForm
from games.models import Deal
from scoring.rules import HouseRules
from scoring.rules.games import GAMES
from tests.conftest import unchanged
from tests.factories import make_session

pytestmark = pytest.mark.django_db

#: A first deal of each game, as the API takes it.
FIRST_DEAL: dict[str, dict[str, Any]] = {
    "rubber": {"contract": "4S", "declarer": "N", "tricks": 10},
    "chicago": {"contract": "4S", "declarer": "N", "tricks": 10},
    "bridge_for_two": {"declarer": 0, "strain": "S", "tricks": 8},
    "misery": {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 8},
    "turnover": {"tricks": [14, 12]},
    "draw_discard": {"contract": "pass"},
}
#: Which games have honours with each value of `chicago_honours` (RULES 3.6, 5, 7): Chicago
#: only while the option is on; rubber and the two-player games with honours whatever it says.
HONOURS = {
    ("rubber", True): True,
    ("rubber", False): True,
    ("chicago", True): True,
    ("chicago", False): False,
    ("bridge_for_two", True): True,
    ("bridge_for_two", False): True,
    ("misery", True): True,
    ("misery", False): True,
    ("turnover", True): False,
    ("turnover", False): False,
    ("draw_discard", True): False,
    ("draw_discard", False): False,
}


def session_of(club: Any, players: dict[str, Any], kind: str, *, honours: bool) -> Any:
    club.rules_overrides = {"chicago_honours": honours}
    club.save()
    four = list(players.values())
    tables = [four] if GAMES[kind].seats == 4 else [four[:2], four[2:]]
    return make_session(club, tables, kind=kind)


def first_rubber(session: Any) -> Any:
    return session.rubbers.order_by("table__number", "number").first()


def honours_inputs(html: str) -> list[str]:
    return re.findall(r'name="((?:deal\d+-)?honours)"', html)


@pytest.mark.parametrize(("kind", "honours"), list(HONOURS))
def test_the_entry_form_shows_honours_as_the_game_and_house_rules_allow(
    client, club, table_of_four, kind, honours
):
    rubber = first_rubber(session_of(club, table_of_four, kind, honours=honours))
    assert rubber.house_rules().chicago_honours is honours
    client.force_login(rubber.players[0].user)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="entry"' in html
    assert bool(honours_inputs(html)) is HONOURS[kind, honours]
    assert ('class="honours' in html) is (HONOURS[kind, honours] and GAMES[kind].seats == 4)


@pytest.mark.parametrize(("kind", "honours"), list(HONOURS))
def test_the_correction_form_shows_honours_as_the_game_and_house_rules_allow(
    api, client, club, table_of_four, kind, honours
):
    rubber = first_rubber(session_of(club, table_of_four, kind, honours=honours))
    user = rubber.players[0].user
    api.force_authenticate(user)
    response = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 1, **FIRST_DEAL[kind]}, format="json"
    )
    assert response.status_code == 201, response.json()
    deal = Deal.objects.get(rubber=rubber)
    client.force_login(user)
    html = client.get(f"/deals/{deal.pk}/correct", HTTP_HX_REQUEST="true").content.decode()
    assert f'name="deal{deal.pk}-version"' in html
    expected = [f"deal{deal.pk}-honours"] if HONOURS[kind, honours] else []
    assert sorted(set(honours_inputs(html))) == expected


@pytest.mark.parametrize("kind", list(GAMES))
@pytest.mark.parametrize("honours", [True, False])
def test_the_registry_says_which_controls_each_game_has_under_each_rule(kind, honours):
    controls = registry.pages(kind).entry_controls(HouseRules(chicago_honours=honours))
    assert ("honours" in controls) is HONOURS[kind, honours]
    # The controls are the entry form's own fields (no name the form does not have).
    assert controls <= set(registry.pages(kind).controls)


def test_honours_sent_anyway_are_refused_with_the_rule_as_before(client, club, table_of_four):
    """A stale or tampered page still sends honours: the engine refuses them (RULES 5)."""
    rubber = first_rubber(session_of(club, table_of_four, "chicago", honours=False))
    client.force_login(rubber.players[0].user)
    taps = {"number": "1", "level": "4", "strain": "S", "declarer": "N", "result": "0"}
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", {**taps, "honours": "NS100"})
    assert response.status_code == 200
    assert "honours do not count here (chicago_honours off) (RULES 5)" in response.content.decode()
    assert not Deal.objects.exists()


def test_the_live_line_refuses_honours_sent_anyway_as_before(client, club, table_of_four):
    """The live line checks the taps as the entry does: honours sent to a Chicago without them
    are refused with the rule, not dropped from the line's deal."""
    rubber = first_rubber(session_of(club, table_of_four, "chicago", honours=False))
    client.force_login(rubber.players[0].user)
    taps = {"level": "4", "strain": "S", "declarer": "N", "result": "0", "honours": "NS100"}
    line = client.get(f"/rubbers/{rubber.pk}/preview", taps).content.decode().strip()
    assert line == "honours do not count here (chicago_honours off) (RULES 5)"


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_games_controls_are_its_entry_forms_tapped_fields(kind):
    page = registry.pages(kind)
    if page.entry is None:
        form: Any = DealEntryForm()
    else:
        form = TwoPlayerDealForm(kind=kind, entry=page.entry, players=["Ann", "Bob"])
    tapped = [name for name, field in form.fields.items() if not field.widget.is_hidden]
    assert tapped == list(page.controls)


def test_a_rule_for_a_control_the_game_lacks_is_refused():
    with pytest.raises(ValueError, match="no such control or rule"):
        registry.register_pages(
            "turnover",
            registry.GamePages(
                pad="tricks",
                pad_builder=layouts.turnover_pad,
                pad_template="games/_turnover.html",
                entry_template="games/_entry_two.html",
                closing=registry.TURNOVER_CLOSING,
                entry=TurnoverFields(),
                needs=(("honours", "chicago_honours"),),
            ),
        )
    assert registry.pages("turnover").needs == ()
