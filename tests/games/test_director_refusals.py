"""A director's slips refused with a clear message and nothing changed (issue 31): a session
dated before the club could have existed, an arrival named by a bare number, an unknown
``?kind=`` on the leaderboard (never echoed back)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from clubs.models import Player, Session, TableSeat
from tests.factories import add_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


def test_a_session_dated_0001_01_01_is_refused_with_a_form_error(
    director_client: Client, club: Any
) -> None:
    ids = [add_player(club, f"P{i}").pk for i in range(4)]
    answer = director_client.post(
        f"/clubs/{club.slug}/console/",
        {
            "date": "0001-01-01",
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": "0",
            "players": ids,
        },
    )
    assert answer.status_code == 200  # the console again, with the form's errors
    page = html.unescape(answer.content.decode())
    # On the date field, naming the dates a session may have.
    assert 'id="id_date_error"><li>Choose a date from Jan. 1, 1900 to ' in page
    assert not Session.objects.filter(club=club).exists()


def test_an_arrival_named_by_a_bare_number_is_refused(
    director_client: Client, running_session: Session
) -> None:
    club = running_session.club
    before = (Player.objects.filter(club=club).count(), TableSeat.objects.count())
    answer = director_client.post(
        f"/clubs/{club.slug}/sessions/{running_session.pk}/arrivals/",
        {"names": "Max\n42", "mode": "table"},
    )
    assert answer.status_code == 400
    assert "A new player&#x27;s name is a name, not a number" in answer.content.decode()
    assert (Player.objects.filter(club=club).count(), TableSeat.objects.count()) == before
    assert not Player.objects.filter(name__in=["42", "Max"]).exists()


@pytest.fixture
def director_api(director: Any) -> Any:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(director)
    return api


def test_the_api_refuses_a_bare_number_as_the_page_does(
    director_api: Any, running_session: Session
) -> None:
    """One rule for all (issue 31): an arrival, a new club player and a substitute named "12"
    are refused by the API with a field message in the page's words; nothing is written."""
    club = running_session.club
    before = (Player.objects.filter(club=club).count(), TableSeat.objects.count())
    words = "A new player's name is a name, not a number"
    answer = director_api.post(
        f"/api/v1/sessions/{running_session.pk}/arrivals", {"names": ["Max", "12"]}, "json"
    )
    assert answer.status_code == 400, answer.content
    assert words in str(answer.json()["errors"]["names"])
    answer = director_api.post(f"/api/v1/clubs/{club.slug}/players/", {"name": "77"}, "json")
    assert answer.status_code == 400, answer.content
    assert words in answer.json()["errors"]["name"][0]
    assert (Player.objects.filter(club=club).count(), TableSeat.objects.count()) == before
    answer = director_api.post(f"/api/v1/clubs/{club.slug}/players/", {"name": "Max 2"}, "json")
    assert answer.status_code == 201, answer.content


def test_the_players_page_refuses_a_bare_number(director_client: Client, club: Any) -> None:
    answer = director_client.post(f"/clubs/{club.slug}/players/", {"name": "77"})
    assert "A new player&#x27;s name is a name, not a number." in answer.content.decode()
    assert not Player.objects.filter(club=club, name="77").exists()


def test_an_unknown_kind_on_the_leaderboard_is_refused_without_echoing_it(
    client: Client, club: Any
) -> None:
    sent = "zz<b>bogus</b>zz"
    answer = client.get(f"/clubs/{club.slug}/leaderboard/", {"kind": sent})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "Choose one of:" in body
    # Only the language switch's way back (the page's own address, escaped) carries it.
    without_return = re.sub(r'<input name="next" type="hidden" value="[^"]*">', "", body)
    assert "bogus" not in without_return
