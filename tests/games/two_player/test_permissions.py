"""Who enters a two-player deal: the two seated players or a director (as for rubbers)."""

from __future__ import annotations

import pytest

from tests.games.two_player.conftest import post_deal
from tests.games.two_player.test_api import first_match

pytestmark = pytest.mark.django_db
RESULT = {"tricks": [14, 5]}


def test_either_seated_player_enters(api, two_player_session, east):
    match = first_match(two_player_session("turnover"))
    assert post_deal(api, match, 1, RESULT, as_user=east).status_code == 201


def test_a_director_enters(api, two_player_session, director):
    match = first_match(two_player_session("turnover"))
    assert post_deal(api, match, 1, RESULT, as_user=director).status_code == 201


def test_a_player_at_another_table_cannot_enter(api, two_player_session, south):
    match = first_match(two_player_session("turnover"))
    assert post_deal(api, match, 1, RESULT, as_user=south).status_code == 403


def test_an_outsider_cannot_enter(api, two_player_session, outsider):
    match = first_match(two_player_session("turnover"))
    assert post_deal(api, match, 1, RESULT, as_user=outsider).status_code == 403


def test_nobody_signed_out_enters(api, two_player_session):
    match = first_match(two_player_session("turnover"))
    api.force_authenticate(None)
    response = api.post(
        f"/api/v1/rubbers/{match.pk}/deals/", {"number": 1, **RESULT}, format="json"
    )
    assert response.status_code == 401


def test_the_director_or_a_player_at_the_table_corrects(
    api, two_player_session, north, east, director
):
    match = first_match(two_player_session("bridge_for_two"))
    deal = {"declarer": 0, "strain": "S", "tricks": 9}
    deal_id = post_deal(api, match, 1, deal, as_user=north).json()["id"]
    api.force_authenticate(east)
    url = f"/api/v1/deals/{deal_id}/"
    assert api.patch(url, {"version": 1, "tricks": 8}, format="json").status_code == 200
    api.force_authenticate(director)
    assert api.patch(url, {"version": 2, "tricks": 7}, format="json").status_code == 200
