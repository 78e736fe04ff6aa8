"""Bad input to the clubs and sessions API is answered clearly: 400 naming the field, 409 for a
state conflict, never a 500. List endpoints run a fixed number of queries."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club, Player, Session
from tests.conftest import unchanged
from tests.factories import UserFactory, add_players, make_club, make_session


def _ids(players: list[Player]) -> list[int]:
    return [p.pk for p in players]


@pytest.fixture
def as_director(api: Any, director: Any) -> Any:
    api.force_authenticate(director)
    return api


def _plan(api: Any, club: Club, players: list[list[int]], **extra: Any) -> Any:
    body = {"date": "2026-12-01", "tables": [{"players": t} for t in players], **extra}
    return api.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")


# --- clubs and players -------------------------------------------------------------------------


def test_create_club_rejects_a_bad_rule_naming_the_option(as_director: Any) -> None:
    with unchanged():
        response = as_director.post(
            "/api/v1/clubs/",
            {"slug": "hilltop", "name": "Hilltop", "rules": {"unfinished_partscore": 70}},
            format="json",
        )
    assert response.status_code == 400
    assert "unfinished_partscore" in response.data["errors"]["rules"][0]


def test_create_club_rejects_an_unknown_rule(as_director: Any) -> None:
    with unchanged():
        response = as_director.post(
            "/api/v1/clubs/",
            {"slug": "hilltop", "name": "Hilltop", "rules": {"free_beer": True}},
            format="json",
        )
    assert response.status_code == 400
    assert "free_beer" in response.data["errors"]["rules"][0]


def test_create_club_with_options_and_a_taken_slug(as_director: Any, club: Club) -> None:
    ok = as_director.post(
        "/api/v1/clubs/",
        {"slug": "hilltop", "name": "Hilltop", "public": False, "rules": {"insult_redoubled": 50}},
        format="json",
    )
    assert ok.status_code == 201
    assert ok.data["rules"]["insult_redoubled"] == 50 and ok.data["public"] is False
    with unchanged():
        taken = as_director.post(
            "/api/v1/clubs/", {"slug": club.slug, "name": "Again"}, format="json"
        )
        reserved = as_director.post("/api/v1/clubs/", {"slug": "new", "name": "N"}, format="json")
    assert taken.status_code == 400 and "slug" in taken.data["errors"]
    assert reserved.status_code == 400 and "slug" in reserved.data["errors"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": "  "}, "name"),
        ({"name": "North"}, "name"),  # already a player
        ({"name": "Gus", "director": True}, "director"),
        ({"name": "Gus", "password": "x"}, "password"),
        ({"name": "Gus", "username": "bad name!"}, "username"),
        ({"name": "Gus", "username": "gus", "password": "123"}, "password"),  # too weak
    ],
)
def test_add_player_errors(
    as_director: Any, club: Club, table_of_four: dict[str, Player], body: dict, field: str
) -> None:
    with unchanged():
        response = as_director.post(f"/api/v1/clubs/{club.slug}/players/", body, format="json")
    assert response.status_code == 400, response.data
    assert field in response.data["errors"]


# --- sessions ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 7])
def test_a_table_seats_four_to_six(as_director: Any, club: Club, size: int) -> None:
    response = _plan(as_director, club, [_ids(add_players(club, "P", size))])
    assert response.status_code == 400
    assert "4 to 6" in response.data["errors"]["tables"][0]


def test_a_player_sits_at_one_table(as_director: Any, club: Club) -> None:
    players = _ids(add_players(club, "P", 7))
    response = _plan(as_director, club, [players[:4], players[3:]])
    assert response.status_code == 400
    assert any("one table" in m for m in response.data["errors"]["tables"])
    assert not Session.objects.exists()


def test_a_player_from_another_club_is_refused(as_director: Any, club: Club, outsider: Any) -> None:
    other = make_club(director=outsider, slug="lakeside")
    stranger = add_players(other, "S", 1)[0]
    response = _plan(as_director, club, [[*_ids(add_players(club, "P", 3)), stranger.pk]])
    assert response.status_code == 400
    assert response.data["errors"]["tables"] == [
        f"Player {stranger.pk} is not a player of this club."
    ]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"date": "30/11/2026"}, "date"),
        ({"date": "2026-02-30"}, "date"),
        ({"date": ""}, "date"),
        ({"kind": "duplicate"}, "kind"),
        ({"movement": "howell"}, "movement"),
        ({"stake_per_hundred": "-1"}, "stake_per_hundred"),
        ({"stake_per_hundred": "abc"}, "stake_per_hundred"),
        ({"stake_per_hundred": "0.505"}, "stake_per_hundred"),
        ({"tables": []}, "tables"),
        ({"tables": "four"}, "tables"),
        ({"tables": [{"players": ["x"]}]}, "tables"),
    ],
)
def test_session_input_errors(
    as_director: Any, club: Club, table_of_four: dict[str, Player], extra: dict, field: str
) -> None:
    response = _plan(as_director, club, [_ids(list(table_of_four.values()))], **extra)
    assert response.status_code == 400, response.data
    assert field in response.data["errors"]


def test_fixed_partners_need_four_at_a_table(as_director: Any, club: Club) -> None:
    response = _plan(as_director, club, [_ids(add_players(club, "P", 5))], movement="fixed")
    assert response.status_code == 400
    assert "movement" in response.data["errors"]


def test_starting_or_closing_twice_is_a_conflict(
    as_director: Any, club: Club, table_of_four: dict[str, Player]
) -> None:
    session = make_session(club, [list(table_of_four.values())], start=False)
    with unchanged():
        close_planned = as_director.post(f"/api/v1/sessions/{session.pk}/close")
    assert close_planned.status_code == 409
    assert as_director.post(f"/api/v1/sessions/{session.pk}/start").status_code == 200
    with unchanged():
        again = as_director.post(f"/api/v1/sessions/{session.pk}/start")
    assert again.status_code == 409 and "already running" in again.data["detail"]
    assert as_director.post(f"/api/v1/sessions/{session.pk}/close").status_code == 200
    latecomer = add_players(club, "Late", 1)[0]
    with unchanged():
        twice = as_director.post(f"/api/v1/sessions/{session.pk}/close")
        late = as_director.post(
            f"/api/v1/sessions/{session.pk}/tables/1/players",
            {"player": latecomer.pk},
            format="json",
        )
    assert twice.status_code == 409 and "already closed" in twice.data["detail"]
    assert late.status_code == 409


def test_table_player_errors(
    as_director: Any, club: Club, running_session: Session, outsider: Any
) -> None:
    url = f"/api/v1/sessions/{running_session.pk}/tables/1/players"
    seated = running_session.table_seats.first().player
    stranger = add_players(make_club(director=outsider, slug="lakeside"), "S", 1)[0]
    with unchanged():
        assert as_director.post(url, {"player": seated.pk}, format="json").status_code == 400
        assert as_director.post(url, {"player": stranger.pk}, format="json").status_code == 400
        assert as_director.post(url, {}, format="json").status_code == 400
        assert as_director.post(url, {"player": "x"}, format="json").status_code == 400
        # Four is the minimum: nobody may leave a table of four.
        leave = as_director.delete(url, {"player": seated.pk}, format="json")
        assert leave.status_code == 400 and "four" in leave.data["errors"]["player"][0]
        missing = f"/api/v1/sessions/{running_session.pk}/tables/9/players"
        assert as_director.post(missing, {"player": seated.pk}, format="json").status_code == 404


def test_a_player_may_leave_by_query_parameter(
    as_director: Any, club: Club, table_of_four: dict[str, Player]
) -> None:
    fifth = add_players(club, "Fifth", 1)[0]
    session = make_session(club, [[*table_of_four.values(), fifth]])
    url = f"/api/v1/sessions/{session.pk}/tables/1/players?player={fifth.pk}"
    response = as_director.delete(url)
    assert response.status_code == 200
    assert fifth.pk not in response.data["players"]


def test_rotation_ahead_is_validated(as_director: Any, running_session: Session) -> None:
    url = f"/api/v1/sessions/{running_session.pk}/tables/1/rotation"
    assert as_director.get(url + "?ahead=-1").status_code == 400
    assert as_director.get(url + "?ahead=x").status_code == 400
    assert len(as_director.get(url + "?ahead=0").data) == 1
    assert (
        as_director.get(f"/api/v1/sessions/{running_session.pk}/tables/2/rotation").status_code
        == 404
    )


def test_unknown_ids_are_404(as_director: Any) -> None:
    assert as_director.get("/api/v1/sessions/999999/").status_code == 404
    with unchanged():
        assert as_director.post("/api/v1/sessions/999999/start").status_code == 404
    assert as_director.get("/api/v1/clubs/nope/sessions/").status_code == 404


# --- query counts ------------------------------------------------------------------------------


def _night(club: Club, sessions: int) -> None:
    for i in range(sessions):
        make_session(club, [add_players(club, f"S{i}T1"), add_players(club, f"S{i}T2", 5)])


@pytest.mark.parametrize("sessions", [1, 6])
def test_session_list_queries_do_not_grow(
    as_director: Any, club: Club, sessions: int, django_assert_max_num_queries: Any
) -> None:
    _night(club, sessions)
    with django_assert_max_num_queries(8):
        response = as_director.get(f"/api/v1/clubs/{club.slug}/sessions/")
    assert len(response.data) == sessions
    assert all(t["current_rubber"] for s in response.data for t in s["tables"])


def test_player_and_club_lists_queries(
    as_director: Any, club: Club, django_assert_max_num_queries: Any
) -> None:
    for i in range(20):
        UserFactory(username=f"u{i}")
    add_players(club, "P", 20)
    with django_assert_max_num_queries(4):
        players = as_director.get(f"/api/v1/clubs/{club.slug}/players/")
    assert len(players.data) == 20
    with django_assert_max_num_queries(3):
        as_director.get("/api/v1/clubs/")


def test_session_detail_queries(
    as_director: Any, club: Club, django_assert_max_num_queries: Any
) -> None:
    _night(club, 1)
    session = Session.objects.get()
    with django_assert_max_num_queries(8):
        response = as_director.get(f"/api/v1/sessions/{session.pk}/")
    assert [t["number"] for t in response.data["tables"]] == [1, 2]


def test_out_of_range_ids_are_answered_not_crashed(
    as_director: Any, club: Club, running_session: Session
) -> None:
    huge = 2**70
    assert as_director.get(f"/api/v1/sessions/{huge}/").status_code == 404
    assert as_director.get(f"/api/v1/sessions/{2**63}/tables/1/rotation").status_code == 404
    url = f"/api/v1/sessions/{running_session.pk}/tables/{huge}/rotation"
    assert as_director.get(url).status_code == 404
    players = f"/api/v1/sessions/{running_session.pk}/tables/1/players"
    with unchanged():
        assert as_director.post(players, {"player": huge}, format="json").status_code == 400
        response = _plan(as_director, club, [[huge, 1, 2, 3]])
    assert response.status_code == 400


def test_a_chicago_session_plays_chicagos_at_its_tables(api, director, club):
    """Tables of a Chicago session play chukkers of four deals (RULES 5), not rubbers."""
    from tests.factories import add_player

    players = [add_player(club, f"C{i}") for i in range(4)]
    api.force_authenticate(director)
    response = api.post(
        f"/api/v1/clubs/{club.slug}/sessions/",
        {
            "date": "2026-12-01",
            "kind": "chicago",
            "movement": "pivot",
            "tables": [{"players": [p.pk for p in players]}],
        },
        format="json",
    )
    assert response.status_code == 201
    session_id = response.json()["id"]
    assert api.post(f"/api/v1/sessions/{session_id}/start").status_code == 200
    rubber_id = api.get(f"/api/v1/sessions/{session_id}/").json()["tables"][0]["current_rubber"]
    assert api.get(f"/api/v1/rubbers/{rubber_id['id']}/").json()["kind"] == "chicago"
