"""Every field a two-player game enters can be corrected through the API, and what a PATCH
does is exactly what docs/api.md says (issue 14, item 11): the fields sent replace the stored
ones, the others stay, null removes an optional one, a pass drops the stored declarer and tricks;
the `version` makes the merge one with the deal as the client read it (a stale one is 409 and
changes nothing); an unknown field is 400 naming it and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Deal
from tests.games.two_player.conftest import engine, named, play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO, DRAW_DISCARD, TURNOVER, first_match

pytestmark = pytest.mark.django_db


def patch(api: Any, deal: Deal, body: dict[str, Any]) -> Any:
    return api.patch(f"/api/v1/deals/{deal.pk}/", body, format="json")


def stored(deal: Deal) -> tuple[Any, ...]:
    deal.refresh_from_db()
    return (deal.data, deal.version, deal.updated_at)


def test_a_turnover_result_is_corrected(api, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    play(api, match, TURNOVER, as_user=north)
    deal = match.deals.get()
    response = patch(api, deal, {"version": 1, "tricks": [5, 14]})
    assert response.status_code == 200, response.json()
    assert response.json()["data"] == {"tricks": [5, 14]}
    expected = engine("turnover", {"tricks": [5, 14]})
    assert response.json()["rubber"]["scoresheet"] == named(expected)
    assert response.json()["rubber"]["scoresheet"]["winner"] == 1


def test_an_impossible_turnover_correction_names_the_rule_and_changes_nothing(
    api, two_player_session, north
):
    match = first_match(two_player_session("turnover"))
    play(api, match, TURNOVER, as_user=north)
    deal = match.deals.get()
    before = stored(deal)
    response = patch(api, deal, {"version": 1, "tricks": [15, 10]})
    assert response.status_code == 400
    assert "RULES 7.3" in response.json()["errors"]["tricks"][0]
    assert stored(deal) == before


def test_two_player_honours_are_corrected_kept_or_removed(api, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    play(api, match, BRIDGE_FOR_TWO[:2], as_user=north)
    deal = match.deals.get(number=2)  # 4S by player 0, honours 100 to player 1
    moved = {"player": 0, "points": 100}
    response = patch(api, deal, {"version": 1, "honours": moved})
    assert response.status_code == 200, response.json()
    assert response.json()["data"]["honours"] == moved
    # Not named: kept as stored.
    response = patch(api, deal, {"version": 2, "tricks": 11})
    data = response.json()["data"]
    assert (data["strain"], data["honours"], data["tricks"]) == ("S", moved, 11)
    # null removes them.
    response = patch(api, deal, {"version": 3, "honours": None})
    assert response.status_code == 200, response.json()
    assert "honours" not in response.json()["data"]
    without = {k: v for k, v in BRIDGE_FOR_TWO[1].items() if k != "honours"}
    deals = [BRIDGE_FOR_TWO[0], {**without, "tricks": 11}]
    expected = engine("bridge-for-two", {"deals": deals, "preset": "acbl"})
    assert response.json()["rubber"]["scoresheet"] == named(expected)


def test_a_draw_discard_pass_drops_the_stored_declarer_and_tricks_only(
    api, two_player_session, north
):
    match = first_match(two_player_session("draw_discard"))
    play(api, match, DRAW_DISCARD[:1], as_user=north)
    deal = match.deals.get()
    response = patch(api, deal, {"version": 1, "contract": "pass"})
    assert response.status_code == 200, response.json()
    assert response.json()["data"] == {"contract": "pass"}
    # Back to a contract: the declarer and tricks must be sent again (nothing stale comes back).
    before = stored(deal)
    response = patch(api, deal, {"version": 2, "contract": "4S"})
    assert response.status_code == 400
    assert stored(deal) == before
    response = patch(api, deal, {"version": 2, "contract": "4S", "declarer": 0, "tricks": 10})
    assert response.status_code == 200, response.json()
    assert response.json()["data"] == {"contract": "4S", "declarer": 0, "tricks": 10}


def test_a_stale_two_player_patch_is_refused_and_changes_nothing(api, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    play(api, match, BRIDGE_FOR_TWO[:2], as_user=north)
    deal = match.deals.get(number=2)
    assert patch(api, deal, {"version": 1, "strain": "H"}).status_code == 200
    before = stored(deal)
    # Read at version 1, sent after the change: its merge would mix two versions.
    response = patch(api, deal, {"version": 1, "tricks": 9})
    assert response.status_code == 409
    assert stored(deal) == before


@pytest.mark.parametrize("kind", ["bridge_for_two", "turnover"])
def test_an_unknown_field_is_a_400_naming_it(api, two_player_session, north, kind):
    match = first_match(two_player_session(kind))
    first = {"bridge_for_two": BRIDGE_FOR_TWO, "turnover": TURNOVER}[kind][:1]
    play(api, match, first, as_user=north)
    deal = match.deals.get(number=1)
    before = stored(deal)
    response = patch(api, deal, {"version": 1, "trick": 9, "number": 2})
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"trick", "number"}
    assert stored(deal) == before
