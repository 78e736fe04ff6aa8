"""The match page of each two-player game: the entry form posts, the sheet shows the engine's."""

from __future__ import annotations

import re

import pytest

from tests.conftest import unchanged
from tests.games.two_player.conftest import play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO, DRAW_DISCARD, first_match

pytestmark = pytest.mark.django_db


def page(client, match) -> str:
    response = client.get(f"/rubbers/{match.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_bridge_for_two_pad_names_the_players_and_enters_by_the_form(
    client, two_player_session, north
):
    match = first_match(two_player_session("bridge_for_two"))
    client.force_login(north)
    html = page(client, match)
    assert 'id="entry"' in html and "North" in html and "East" in html
    response = client.post(
        f"/rubbers/{match.pk}/deals/",
        {"number": 1, "declarer": "0", "strain": "S", "tricks": "10"},
    )
    assert response.status_code == 302
    assert match.deals.get().data == {"declarer": 0, "strain": "S", "tricks": 10, "doubled": 0}
    assert 'id="total-ns">120<' in page(client, match)


def test_misery_form_refuses_a_misery_declaration_in_hearts(client, two_player_session, north):
    match = first_match(two_player_session("misery"))
    client.force_login(north)
    response = client.post(
        f"/rubbers/{match.pk}/deals/",
        {"number": 1, "declarer": "0", "declaration": "misery", "strain": "H", "tricks": "1"},
    )
    assert response.status_code == 200
    assert "RULES 7.2" in response.content.decode()
    assert not match.deals.exists()


def test_turnover_counter_shows_the_tricks_and_the_winner(client, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    client.force_login(north)
    response = client.post(
        f"/rubbers/{match.pk}/deals/", {"number": 1, "tricks_0": 14, "tricks_1": 8}
    )
    assert response.status_code == 302
    html = page(client, match)
    assert 'id="tricks-0">14<' in html and "pct-100" in html and "North won by 6 tricks." in html


def test_turnover_form_refuses_15_10(client, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    client.force_login(north)
    response = client.post(
        f"/rubbers/{match.pk}/deals/", {"number": 1, "tricks_0": 15, "tricks_1": 10}
    )
    assert "RULES 7.3" in response.content.decode()
    assert not match.deals.exists()


def test_rules_7_3_turnover_form_records_a_game_played_out(client, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    client.force_login(north)
    html = page(client, match)
    assert html.count('max="26"') == 2  # the phone lets a player type 16
    client.post(f"/rubbers/{match.pk}/deals/", {"number": 1, "tricks_0": 10, "tricks_1": 16})
    assert match.deals.get().data == {"tricks": [10, 16]}


def test_draw_and_discard_race_bar(client, api, two_player_session, north):
    match = first_match(two_player_session("draw_discard"))
    play(api, match, DRAW_DISCARD[:1], as_user=north)
    client.force_login(north)
    html = page(client, match)
    assert 'id="score-1">120<' in html and "pct-25" in html  # 120 of 500 → 24% → 25
    response = client.post(
        f"/rubbers/{match.pk}/deals/", {"number": 2, "declarer": "0", "level": "pass"}
    )
    assert response.status_code == 302
    assert match.deals.count() == 2


def test_a_finished_match_shows_the_result_and_waits_for_the_next_pair(
    client, api, two_player_session, north
):
    match = first_match(two_player_session("bridge_for_two"))
    play(api, match, BRIDGE_FOR_TWO, as_user=north)
    client.force_login(north)
    html = page(client, match)
    assert "North won the rubber" in html
    assert 'id="waiting"' in html  # West still plays at table 2


def test_the_session_page_lists_the_tables_of_two_and_their_next_pairs(
    client, two_player_session, director
):
    session = two_player_session("turnover")
    client.force_login(director)
    response = client.get(session.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "North" in html and "West" in html
    cards = client.get(f"/clubs/{session.club.slug}/sessions/{session.pk}/cards/")
    assert cards.status_code == 200


def test_rules_3_7_two_player_form_refuses_impossible_honours(client, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    client.force_login(north)
    # Player 1 took two tricks: too few for all five trump honours, even two to a trick.
    data = {"number": 1, "declarer": "0", "strain": "S", "tricks": "11", "honours": "1:150"}
    with unchanged():
        html = client.post(f"/rubbers/{match.pk}/deals/", data).content.decode()
    assert 'id="honours-errors"' in html and "RULES 3.7" in html


def test_a_finished_turnover_reads_in_its_own_players_order_on_the_room_and_pad(
    client, two_player_session, north, south, west, director
):
    """Issue 29 round 3, item 2: the room's tile named the finished match's figures with the
    next match's players (East v South at table 2) while "won by" named its own; each tricks
    figure now goes with its player's name, on the tile and in the deal's words."""
    session = two_player_session("turnover")
    first = session.rubbers.get(table__number=1)
    second = session.rubbers.get(table__number=2)
    for user, match in ((north, first), (west, second)):
        client.force_login(user)
        entered = client.post(
            f"/rubbers/{match.pk}/deals/", {"number": 1, "tricks_0": 14, "tricks_1": 12}
        )
        assert entered.status_code == 302
    assert "North 14 tricks, East 12" in page(client, first)
    client.force_login(director)
    room = client.get(f"/clubs/{session.club.slug}/room/").content.decode()
    assert (
        '<span class="figures">South <strong>14</strong> – <strong>12</strong> West</span>'
        " · won by South"
    ) in room
    assert "Deal 1: South 14 tricks, West 12" in room


def test_the_deal_list_has_no_column_without_a_heading(client, two_player_session, north):
    """Issue 29 round 3, item 3: the tricks were printed again under an empty heading; the
    deal's words say them already, so every column is named."""
    match = first_match(two_player_session("bridge_for_two"))
    client.force_login(north)
    response = client.post(
        f"/rubbers/{match.pk}/deals/",
        {"number": 1, "declarer": "0", "strain": "S", "tricks": "10"},
    )
    assert response.status_code == 302
    html = page(client, match)
    head = re.search(r'<table class="data" id="deals">\s*<thead>(.*?)</thead>', html, re.S)
    assert head is not None and "<th></th>" not in head.group(1)
    row = re.search(r'<tr id="deal-1">(.*?)</tr>', html, re.S)
    assert row is not None and row.group(1).count("<td") == head.group(1).count("<th")
    assert "♠ by North, 10 tricks" in row.group(1)
