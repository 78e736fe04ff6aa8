"""Hostile input an earlier probe found still accepted or reflected (docs/api.md): a number for a
name, a session dated in year 1 or 9999, and an unknown ladder or pool repeated back in full.
Each is 400 (a form error on the pages) with a field message, and changes nothing."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Player, Session
from games.sessions import planning
from tests.conftest import unchanged
from tests.factories import add_player, make_session

pytestmark = pytest.mark.django_db

NAME_IS_TEXT = "A name is text (a JSON string), not a number."
LADDERS = "Choose one of: bridge, bridge_for_two, misery, turnover, draw_discard."


@pytest.fixture
def director_api(director: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(director)
    return client


def tonight(club: Club) -> list[Player]:
    return [add_player(club, f"Night {seat}") for seat in "NESW"]


# --- a name is text -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", [42, 4.5, 10**30])
def test_arrivals_named_by_a_number_are_refused(
    director_api: APIClient, running_session: Session, name: Any
) -> None:
    with unchanged():
        answer = director_api.post(
            f"/api/v1/sessions/{running_session.pk}/arrivals",
            {"names": ["Kim", name], "mode": "cut_in"},
            "json",
        )
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"] == {"names": [f"1: {NAME_IS_TEXT}"]}  # the second name


def test_a_substitute_named_by_a_number_is_refused(
    director_api: APIClient, running_session: Session, table_of_four: dict[str, Player]
) -> None:
    with unchanged():
        answer = director_api.post(
            f"/api/v1/sessions/{running_session.pk}/tables/1/substitute",
            {"leaver": table_of_four["west"].pk, "name": 7},
            "json",
        )
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"name": [NAME_IS_TEXT]}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/clubs/riverside/players/", {"name": 12}),
        ("/api/v1/clubs/", {"slug": "numbers", "name": 12}),
    ],
)
def test_a_player_or_club_named_by_a_number_is_refused(
    director_api: APIClient, club: Club, path: str, body: dict[str, Any]
) -> None:
    with unchanged():
        answer = director_api.post(path, body, "json")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"name": [NAME_IS_TEXT]}


def test_a_number_in_quotes_is_refused_as_the_page_refuses_it(
    director_api: APIClient, running_session: Session
) -> None:
    """One rule for all (issue 31): "42" as a JSON string is a bare number still, refused as
    the arrivals page refuses it, with the page's words."""
    with unchanged():
        answer = director_api.post(
            f"/api/v1/sessions/{running_session.pk}/arrivals",
            {"names": ["42"], "mode": "cut_in"},
            "json",
        )
    assert answer.status_code == 400, answer.content
    assert "A new player's name is a name, not a number" in str(answer.json()["errors"]["names"])


# --- a session's date -----------------------------------------------------------------------------


def a_year_from_today() -> datetime.date:
    return planning.latest_date()


def bounds() -> str:
    from django.utils.formats import date_format

    return (
        f"Choose a date from {date_format(planning.EARLIEST_DATE)} to "
        f"{date_format(planning.latest_date())} (a year from today)."
    )


@pytest.mark.parametrize(
    "date",
    ["0001-01-01", "1899-12-31", "9999-12-31", "next"],
)
def test_a_session_dated_out_of_bounds_is_refused(
    director_api: APIClient, club: Club, date: str
) -> None:
    if date == "next":
        date = (a_year_from_today() + datetime.timedelta(days=1)).isoformat()
    players = tonight(club)
    with unchanged():
        answer = director_api.post(
            f"/api/v1/clubs/{club.slug}/sessions/",
            {"date": date, "tables": [{"players": [p.pk for p in players]}]},
            "json",
        )
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"] == {"date": [bounds()]}


@pytest.mark.parametrize("date", ["1900-01-01", "1987-03-14", "latest"])
def test_old_sessions_and_a_year_ahead_are_accepted(
    director_api: APIClient, club: Club, date: str
) -> None:
    """Clubs enter the sessions of old score sheets; a director plans up to a year ahead."""
    if date == "latest":
        date = a_year_from_today().isoformat()
    players = tonight(club)
    answer = director_api.post(
        f"/api/v1/clubs/{club.slug}/sessions/",
        {"date": date, "tables": [{"players": [p.pk for p in players]}]},
        "json",
    )
    assert answer.status_code == 201, answer.content
    assert Session.objects.get(pk=answer.json()["id"]).date.isoformat() == date


def test_a_reseat_to_year_one_is_refused(director_api: APIClient, club: Club) -> None:
    planned = make_session(club, [tonight(club)], start=False)
    with unchanged():
        answer = director_api.patch(
            f"/api/v1/sessions/{planned.pk}/", {"date": "0001-01-01"}, "json"
        )
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"date": [bounds()]}


def test_the_console_page_refuses_it_as_a_form_error(
    client: Any, director: Any, club: Club
) -> None:
    players = tonight(club)
    client.force_login(director)
    with unchanged():
        page = client.post(
            f"/clubs/{club.slug}/console/",
            {
                "date": "9999-12-31",
                "kind": "rubber",
                "movement": "pivot",
                "stake_per_hundred": "0",
                "players": [p.pk for p in players],
            },
        )
    assert page.status_code == 200
    assert page.context["form"].errors["date"] == [bounds()]


# --- an unknown ladder or pool is not repeated back ---------------------------------------------

HOSTILE = "<script>alert(1)</script>" + "x" * 5000


@pytest.mark.parametrize("value", [HOSTILE, "chess", "BRIDGE"])
def test_an_unknown_ladder_is_answered_with_the_ladders(api: Any, club: Club, value: str) -> None:
    answer = api.get(f"/api/v1/clubs/{club.slug}/leaderboard", {"kind": value})
    assert answer.status_code == 400
    assert answer.json() == {"errors": {"kind": [LADDERS]}}
    assert value not in answer.content.decode()


def test_an_unknown_pool_is_answered_with_the_pools(api: Any, club: Club) -> None:
    answer = api.get(f"/api/v1/clubs/{club.slug}/ratings", {"pool": HOSTILE})
    assert answer.status_code == 400
    assert answer.json() == {"errors": {"pool": [LADDERS]}}
    assert "script" not in answer.content.decode()


@pytest.mark.parametrize(("path", "field"), [("leaderboard", "kind"), ("ratings", "pool")])
def test_the_pages_do_not_repeat_it_either(client: Any, club: Club, path: str, field: str) -> None:
    page = client.get(f"/clubs/{club.slug}/{path}/", {field: HOSTILE})
    assert page.status_code == 400
    assert page.context["form"].errors[field] == [LADDERS]
    # Every page's language switch keeps the address it was on (escaped); nothing else has it.
    html = re.sub(r'<input name="next" type="hidden" value="[^"]*">', "", page.content.decode())
    assert "x" * 100 not in html


# --- a lone surrogate -----------------------------------------------------------------------------

#: JSON's escapes can spell half a surrogate pair; it is no character and no UTF-8 carries it.
LONE = "\ud800"


def _lone_surrogate_bodies(session: Session) -> list[tuple[str, dict[str, Any]]]:
    rubber = session.tables.get().rubbers.get()
    return [
        (f"/api/v1/sessions/{session.pk}/arrivals", {"names": ["Kim"], "mode": LONE}),
        ("/api/v1/clubs/riverside/sessions/", {"kind": LONE, "movement": LONE}),
        ("/api/v1/clubs/riverside/accounts/payments", {"kind": LONE, "amount": "1"}),
        (f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 1, "contract": "4S" + LONE}),
        (f"/api/v1/rubbers/{rubber.pk}/deals/", {LONE: 1}),
        ("/api/v1/clubs/riverside/players/", {"name": "Ki" + LONE + "m"}),
    ]


def test_a_lone_surrogate_is_refused_as_unreadable_json(
    director_api: APIClient, running_session: Session
) -> None:
    """An outside probe: a lone surrogate in a choice field was repeated in the 400's message,
    which then could not be encoded (500). The parser refuses it (config/parsers.py) as JSON it
    cannot read, wherever it stands; a valid pair (an emoji) still reads."""
    for path, body in _lone_surrogate_bodies(running_session):
        with unchanged():
            answer = director_api.generic(
                "POST", path, json.dumps(body).encode(), content_type="application/json"
            )
        assert answer.status_code == 400, (path, answer.content)
        assert answer.json() == {
            "errors": {"non_field_errors": ["The request body could not be read as JSON."]}
        }
    answer = director_api.generic(
        "POST",
        "/api/v1/clubs/riverside/players/",
        json.dumps({"name": "Kim \U0001f600"}).encode(),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["name"] == "Kim \U0001f600"
