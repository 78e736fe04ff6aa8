"""Every running and planned session is on the club page and the home page, with its tables
and links; a player seated in a running session cannot be seated in another (issue 18)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client

from clubs.models import Session, TableSeat
from tests.conftest import unchanged
from tests.factories import UserFactory, add_player, make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(club: Any, table_of_four: dict[str, Any]) -> dict[str, Any]:
    """Two running sessions (different players) and a planned one."""
    others = [add_player(club, name) for name in ("Alice", "Bob", "Carol", "Dan")]
    later = [add_player(club, name) for name in ("Kim", "Lou", "Max", "Ned")]
    first = make_session(club, [list(table_of_four.values())])
    second = make_session(club, [others])
    planned = make_session(club, [later], start=False)
    return {"first": first, "second": second, "planned": planned, "others": others}


@pytest.mark.parametrize("path", ["/clubs/riverside/", "/"])
def test_every_running_and_planned_session_is_listed_with_its_tables(
    evening: Any, director: Any, path: str
) -> None:
    client = Client()
    client.force_login(director)
    html = client.get(path).content.decode()
    for key in ("first", "second", "planned"):
        session = evening[key]
        assert f'data-session="{session.pk}"' in html, key
        assert session.get_absolute_url() in html
    for key in ("first", "second"):
        rubber = evening[key].rubbers.get()
        assert f'href="/rubbers/{rubber.pk}/"' in html
    assert "Alice, Bob, Carol, Dan" in html and "Kim, Lou, Max, Ned" in html


def test_a_visitor_of_a_public_club_sees_the_running_sessions(evening: Any) -> None:
    html = Client().get("/clubs/riverside/").content.decode()
    assert f'data-session="{evening["second"].pk}"' in html


def test_the_home_page_reads_a_fixed_number_of_queries(
    evening: Any, director: Any, club: Any, django_assert_max_num_queries: Any
) -> None:
    client = Client()
    client.force_login(director)
    client.get("/")
    more = [add_player(club, f"P{i}") for i in range(8)]
    make_session(club, [more[:4], more[4:]])
    with django_assert_max_num_queries(12):
        client.get("/")


def test_starting_a_session_whose_player_sits_in_a_running_one_is_refused(
    api: Any, director: Any, club: Any, evening: Any, table_of_four: dict[str, Any]
) -> None:
    north = table_of_four["north"]
    clash = make_session(
        club, [[north, *[add_player(club, n) for n in ("X", "Y", "Z")]]], start=False
    )
    api.force_authenticate(director)
    with unchanged():
        response = api.post(f"/api/v1/sessions/{clash.pk}/start")
    assert response.status_code == 400
    (detail,) = response.json()["errors"]["tables"]
    assert "North already sits at table 1 of the running session of" in detail
    clash.refresh_from_db()
    assert clash.status == Session.Status.PLANNED
    assert not clash.rubbers.exists()


def test_a_late_arrival_from_another_running_session_is_refused(
    api: Any, director: Any, evening: Any, table_of_four: dict[str, Any]
) -> None:
    api.force_authenticate(director)
    second = evening["second"]
    north = table_of_four["north"]
    with unchanged():
        response = api.post(
            f"/api/v1/sessions/{second.pk}/tables/1/players", {"player": north.pk}, format="json"
        )
    assert response.status_code == 400
    (message,) = response.json()["errors"]["player"]
    assert message.startswith("North already sits at table 1 of the running session of")
    assert not TableSeat.objects.filter(session=second, player=north).exists()


def test_the_page_says_why_a_session_cannot_start(
    director: Any, club: Any, evening: Any, table_of_four: dict[str, Any]
) -> None:
    east = table_of_four["east"]
    clash = make_session(
        club, [[east, *[add_player(club, n) for n in ("X", "Y", "Z")]]], start=False
    )
    client = Client()
    client.force_login(director)
    response = client.post(f"/clubs/riverside/sessions/{clash.pk}/start/", follow=True)
    assert "East already sits at table 1 of the running session of" in response.content.decode()
    clash.refresh_from_db()
    assert clash.status == Session.Status.PLANNED


def test_a_player_who_left_a_running_table_may_sit_elsewhere(
    api: Any, director: Any, club: Any, evening: Any
) -> None:
    """Leaving frees the player (a table of five loses one; the rotation re-plans)."""
    fifth = add_player(club, "Eve")
    first = evening["first"]
    table = first.tables.get()
    from games.sessions import table_changes

    table_changes.table_add_player(table=table, player=fifth)
    table_changes.table_remove_player(table=table, player=fifth)
    api.force_authenticate(director)
    response = api.post(
        f"/api/v1/sessions/{evening['second'].pk}/tables/1/players",
        {"player": fifth.pk},
        format="json",
    )
    assert response.status_code == 201


def test_nobody_else_is_refused(api: Any, director: Any, club: Any, evening: Any) -> None:
    newcomer = add_player(club, "Newcomer", user=UserFactory(username="newcomer"))
    api.force_authenticate(director)
    response = api.post(
        f"/api/v1/sessions/{evening['second'].pk}/tables/1/players",
        {"player": newcomer.pk},
        format="json",
    )
    assert response.status_code == 201


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Match 1 in play"), ("it", "Incontro 1 in corso")]
)
def test_a_two_player_match_in_play_is_called_a_match(
    director: Any, club: Any, language: str, words: str
) -> None:
    """Issue 29: a Turnover or Misery match was listed as "Rubber 1 in play"."""
    players = [add_player(club, name) for name in ("Ann", "Bea")]
    make_session(club, [players], kind="turnover")
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = language
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    assert words in html
    assert "Rubber 1 in play" not in html and "Rubber 1 in corso" not in html


@pytest.fixture
def left_running(club: Any, table_of_four: dict[str, Any]) -> dict[str, Any]:
    """North sits in a session of three days ago left running; tonight's planned one names him."""
    north = table_of_four["north"]
    old = make_session(club, [list(table_of_four.values())], date=datetime.date(2026, 11, 27))
    tonight = make_session(
        club, [[north, *[add_player(club, n) for n in ("X", "Y", "Z")]]], start=False
    )
    return {"old": old, "tonight": tonight, "north": north}


def test_the_api_asks_before_seating_a_player_of_a_session_left_running(
    api: Any, director: Any, left_running: dict[str, Any]
) -> None:
    """Issue 31 probe 1: a player of a session of another day left running was seated silently.
    Starting answers 400 naming him and that session, unless told to start `anyway`."""
    tonight = left_running["tonight"]
    api.force_authenticate(director)
    with unchanged():
        refused = api.post(f"/api/v1/sessions/{tonight.pk}/start")
    assert refused.status_code == 400
    (message,) = refused.json()["errors"]["tables"]
    assert message.startswith(
        "North still sits at table 1 of the session of Nov. 27, 2026, left running"
    )
    assert api.post(f"/api/v1/sessions/{tonight.pk}/start", {"anyway": "maybe"}).status_code == 400
    started = api.post(f"/api/v1/sessions/{tonight.pk}/start", {"anyway": True}, format="json")
    assert started.status_code == 200 and started.json()["status"] == "running"
    reason = tonight.history.order_by("-history_id").first().history_change_reason
    assert reason == f"started · also seated: {left_running['north'].pk}"


def test_the_page_asks_first_then_starts_anyway_and_its_history_says_so(
    client: Any, director: Any, left_running: dict[str, Any]
) -> None:
    tonight, old = left_running["tonight"], left_running["old"]
    client.force_login(director)
    url = f"/clubs/riverside/sessions/{tonight.pk}/start/"
    with unchanged():
        shown = client.get(url).content.decode()
        asked = client.post(url).content.decode()
    assert 'id="start-warning"' in shown and "North: table 1 of the session of" in shown
    assert "North: table 1 of the session of Nov. 27, 2026" in asked
    assert f'href="/clubs/riverside/sessions/{old.pk}/close/"' in asked
    assert 'name="anyway" value="1"' in asked
    client.post(url, {"anyway": "1"})
    tonight.refresh_from_db()
    assert tonight.status == Session.Status.RUNNING
    page = client.get(tonight.get_absolute_url()).content.decode()
    assert (
        "Started anyway, with North still seated in a session of another day left running" in page
    )
