"""Two-player deal forms say what is wrong in plain words, naming the players (RULES 7; issue 17:
no API words on a page). The four-player forms: tests/games/test_entry_errors.py."""

from __future__ import annotations

import re

import pytest

from tests.conftest import unchanged
from tests.games.test_entry_errors import (
    BAD_NUMBERS,
    STALE_CORRECTION,
    STALE_ENTRY,
    assert_plain,
    correct,
    errors_at,
    page_text,
)
from tests.games.two_player.conftest import play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO, first_match


def test_a_two_player_entry_names_the_players_in_plain_words(client, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    client.force_login(north)
    taps = {"number": "1", "declarer": "", "strain": "S", "tricks": "14"}
    with unchanged():
        response = client.post(f"/rubbers/{match.pk}/deals/", taps)
    assert response.status_code == 200
    assert re.fullmatch(
        r"Choose the declarer: (North or East|East or North)\.",
        errors_at(response, "declarer-errors"),
    )
    tricks = "Choose how many tricks the declarer won, from 0 to 13."
    assert errors_at(response, "tricks-errors") == tricks
    assert_plain(response)


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_a_two_player_entry_with_a_bad_number_is_out_of_date(
    client, two_player_session, north, number
):
    match = first_match(two_player_session("bridge_for_two"))
    client.force_login(north)
    taps = {"number": number, "declarer": "0", "strain": "S", "tricks": "9"}
    with unchanged():
        response = client.post(f"/rubbers/{match.pk}/deals/", taps)
    assert errors_at(response, "entry-errors") == STALE_ENTRY
    assert_plain(response)


def test_a_two_player_honours_refusal_names_the_player_and_the_rule(
    client, two_player_session, north
):
    match = first_match(two_player_session("bridge_for_two"))
    client.force_login(north)
    taps = {"number": "1", "declarer": "0", "strain": "S", "tricks": "0", "honours": "0:150"}
    with unchanged():
        response = client.post(f"/rubbers/{match.pk}/deals/", taps)
    assert re.fullmatch(
        r"North took only 0 tricks: the player holding these honours takes at least \d+ "
        r"\(RULES 3\.7\)\.",
        errors_at(response, "honours-errors"),
    )


@pytest.mark.parametrize("tricks", ["-1", "abc", "", "27"])
def test_a_turnover_count_out_of_range_names_the_player(client, two_player_session, north, tricks):
    match = first_match(two_player_session("turnover"))
    client.force_login(north)
    with unchanged():
        response = client.post(
            f"/rubbers/{match.pk}/deals/", {"number": "1", "tricks_0": tricks, "tricks_1": "9"}
        )
    assert response.status_code == 200
    assert (
        errors_at(response, "tricks_0-errors") == "Enter how many tricks North won, from 0 to 26."
    )
    assert_plain(response)


def test_a_two_player_correction_says_it_in_plain_words(client, api, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    play(api, match, BRIDGE_FOR_TWO[:1], as_user=north)
    deal = match.deals.get()
    client.force_login(north)
    with unchanged():
        bad_tricks = correct(
            client, deal, {"version": "1", "declarer": "1", "strain": "C", "tricks": "99"}
        )
        stale = correct(
            client, deal, {"version": "x", "declarer": "1", "strain": "C", "tricks": "9"}
        )
    assert "Choose how many tricks the declarer won, from 0 to 13." in page_text(bad_tricks)
    assert STALE_CORRECTION in page_text(stale)
    assert_plain(bad_tricks)
    assert_plain(stale)
