"""The club pages: club home, create a club, players, the console, sessions and table cards."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Player, Session
from games.models import Rubber
from tests.conftest import unchanged
from tests.factories import Night, add_players, make_session


@pytest.fixture
def director_client(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


def test_new_club_shows_next_steps(director_client: Client, club: Club) -> None:
    page = director_client.get(reverse("clubs:home", args=[club.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Next steps" in text and reverse("clubs:players", args=[club.slug]) in text


def test_create_a_club_from_the_page(client: Client, outsider: Any) -> None:
    url = reverse("clubs:create")
    assert client.get(url).status_code == 302  # sign in first
    client.force_login(outsider)
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "name": "Hilltop",
            "slug": "hilltop",
            "public": "on",
            "rules_preset": "acbl",
            "default_stake": "0.10",
            "currency": "eur",
        },
    )
    club = Club.objects.get(slug="hilltop")
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    assert club.is_director(outsider) and club.currency == "EUR"
    again = client.post(
        url,
        {
            "name": "X",
            "slug": "hilltop",
            "rules_preset": "acbl",
            "default_stake": "0",
            "currency": "EUR",
        },
    )
    assert again.status_code == 200 and "already exists" in again.content.decode()


def test_director_invites_a_player_with_a_login(director_client: Client, club: Club) -> None:
    url = reverse("clubs:players", args=[club.slug])
    response = director_client.post(
        url, {"name": "Ivy", "username": "ivy", "password": "a-long-secret-phrase"}
    )
    assert response.status_code == 302
    ivy = Player.objects.get(name="Ivy")
    assert ivy.user.check_password("a-long-secret-phrase") and club.is_member(ivy.user)
    assert "Ivy" in director_client.get(url).content.decode()


def test_only_directors_invite(client: Client, night: Night) -> None:
    url = reverse("clubs:players", args=[night.club.slug])
    with unchanged():
        assert client.post(url, {"name": "Zed"}).status_code == 302  # to sign in
    client.force_login(night.users["player"])
    assert client.get(url).status_code == 200
    assert "Add a player" not in client.get(url).content.decode()
    with unchanged():
        assert client.post(url, {"name": "Zed"}).status_code == 403


def test_console_plans_starts_and_closes_a_session(director_client: Client, club: Club) -> None:
    players = add_players(club, "P", 9)
    console = reverse("clubs:console", args=[club.slug])
    assert director_client.get(console).status_code == 200
    suggest = director_client.get(
        reverse("clubs:suggest", args=[club.slug]), {"players": [p.pk for p in players]}
    )
    assert "tables of 5, 4" in suggest.content.decode()
    response = director_client.post(
        console,
        {
            "date": "2026-12-01",
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": "0.10",
            "players": [p.pk for p in players],
        },
    )
    assert response.status_code == 302
    session = Session.objects.get()
    assert sorted(len(t.present_players()) for t in session.tables.all()) == [4, 5]
    page = director_client.get(console).content.decode()
    assert "Start the session" in page and "Table 2" in page

    start = reverse("clubs:session_start", args=[club.slug, session.pk])
    assert director_client.post(start, {"next": console}).status_code == 302
    assert Rubber.objects.filter(session=session, status="in_play").count() == 2
    again = director_client.post(start, follow=True)
    assert "already running" in again.content.decode()  # a conflict is a message, not a 500

    page = director_client.get(reverse("clubs:session", args=[club.slug, session.pk]))
    assert page.content.decode().count("Rubber 1 in play") == 2

    close = reverse("clubs:session_close", args=[club.slug, session.pk])
    director_client.post(close)
    session.refresh_from_db()
    assert session.status == Session.Status.CLOSED


def test_console_refuses_seven_players(director_client: Client, club: Club) -> None:
    players = add_players(club, "P", 7)
    response = director_client.post(
        reverse("clubs:console", args=[club.slug]),
        {
            "date": "2026-12-01",
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": "0",
            "players": [p.pk for p in players],
        },
    )
    assert response.status_code == 200
    assert "cannot be seated" in response.content.decode()
    assert not Session.objects.exists()


def test_add_and_remove_a_player_at_a_table(
    director_client: Client, club: Club, running_session: Session
) -> None:
    late = add_players(club, "Late", 1)[0]
    args = [club.slug, running_session.pk, 1]
    director_client.post(reverse("clubs:table_add_player", args=args), {"player": late.pk})
    table = running_session.tables.get()
    assert late in table.present_players()
    director_client.post(reverse("clubs:table_remove_player", args=args), {"player": late.pk})
    assert late not in table.present_players()
    # A table of four cannot lose a player: the message says why.
    north = table.present_players()[0]
    response = director_client.post(
        reverse("clubs:table_remove_player", args=args), {"player": north.pk}, follow=True
    )
    assert "at least four" in response.content.decode()


def test_table_cards_one_page_per_table(client: Client, club: Club) -> None:
    session = make_session(club, [add_players(club, "A"), add_players(club, "B", 6)], start=False)
    page = client.get(reverse("clubs:session_cards", args=[club.slug, session.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count('class="page card table-card"') == 2
    assert "Sitting out" in text


def test_members_only_pages_are_hidden(client: Client, private_night: Night) -> None:
    club, session = private_night.club, private_night.running
    urls = [
        reverse("clubs:home", args=[club.slug]),
        reverse("clubs:players", args=[club.slug]),
        reverse("clubs:session", args=[club.slug, session.pk]),
        reverse("clubs:session_cards", args=[club.slug, session.pk]),
    ]
    assert [client.get(u).status_code for u in urls] == [404] * 4
    client.force_login(private_night.users["player"])
    assert [client.get(u).status_code for u in urls] == [200] * 4
    assert client.get(reverse("clubs:console", args=[club.slug])).status_code == 403
    wrong_club = reverse("clubs:session", args=["lakeside", session.pk])
    assert client.get(wrong_club).status_code == 404


def test_session_page_queries_are_bounded(
    client: Client, club: Club, django_assert_max_num_queries: Any
) -> None:
    session = make_session(club, [add_players(club, f"T{i}") for i in range(4)])
    with django_assert_max_num_queries(30):
        response = client.get(reverse("clubs:session", args=[club.slug, session.pk]))
    assert response.content.decode().count("table-card") == 4


def test_the_suggestion_partial_is_for_directors(client: Client, night: Night) -> None:
    url = reverse("clubs:suggest", args=[night.club.slug])
    client.force_login(night.users["player"])
    assert client.get(url, {"players": [1, 2, 3, 4]}).status_code == 403
    client.force_login(night.users["director"])
    partial = client.get(url, {"players": [1, 2, 3, 4, 5, 6, 7]}, HTTP_HX_REQUEST="true")
    assert "cannot be seated" in partial.content.decode()


def test_the_console_seats_a_two_player_night_in_tables_of_two(client, director, club):
    """RULES 7: two-player games are played at tables of two; an odd count is explained."""
    from clubs.models import Session
    from tests.factories import add_player

    players = [add_player(club, f"Duo {i}") for i in range(4)]
    client.force_login(director)
    url = f"/clubs/{club.slug}/console/"
    odd = client.get(
        url.replace("console/", "console/suggest/"),
        {"players": [p.pk for p in players[:3]], "kind": "turnover"},
    )
    assert "even number" in odd.content.decode()
    response = client.post(
        url,
        {
            "date": "2026-12-01",
            "kind": "turnover",
            "movement": "pivot",
            "stake_per_hundred": "0",
            "players": [p.pk for p in players],
        },
    )
    assert response.status_code == 302
    session = Session.objects.get(club=club, kind="turnover")
    assert sorted(t.seats.count() for t in session.tables.all()) == [2, 2]
