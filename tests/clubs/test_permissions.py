"""Who may do what: every clubs endpoint × anonymous, outsider, a player of the club, the
director of another club and the club's director (docs/api.md, "Permissions").

A public club is readable by anyone; a members-only club answers 404 to non-members (as if it
did not exist). Writes need the club's director: 401 anonymous, 403 for readers who are not its
director, 404 for those who cannot even read the club.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from clubs.permissions import can_read_club, is_director, is_member
from tests.factories import Night, build_night, make_club

PERSONAS = ["anonymous", "outsider", "player", "other_director", "director"]


def _club(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "get", f"/api/v1/clubs/{n.club.slug}/", None


def _players(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "get", f"/api/v1/clubs/{n.club.slug}/players/", None


def _add_player(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "post", f"/api/v1/clubs/{n.club.slug}/players/", {"name": "Gus"}


def _sessions(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "get", f"/api/v1/clubs/{n.club.slug}/sessions/", None


def _plan(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    ids = [n.players[k].pk for k in ("north", "east", "south", "west")]
    body = {"date": "2026-12-01", "tables": [{"players": ids}]}
    return "post", f"/api/v1/clubs/{n.club.slug}/sessions/", body


def _session(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "get", f"/api/v1/sessions/{n.running.pk}/", None


def _start(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "post", f"/api/v1/sessions/{n.planned.pk}/start", None


def _close(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "post", f"/api/v1/sessions/{n.running.pk}/close", None


def _reopen(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    from games.sessions.lifecycle import session_close

    session_close(session=n.running)
    return "post", f"/api/v1/sessions/{n.running.pk}/reopen", None


def _rotation(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    return "get", f"/api/v1/sessions/{n.running.pk}/tables/1/rotation", None


def _arrive(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    url = f"/api/v1/sessions/{n.planned.pk}/tables/1/players"
    return "post", url, {"player": n.players["fay"].pk}


def _leave(n: Night) -> tuple[str, str, dict[str, Any] | None]:
    url = f"/api/v1/sessions/{n.planned.pk}/tables/1/players"
    return "delete", url, {"player": n.players["eve"].pk}


READ = {"public": [200] * 5, "private": [404, 404, 200, 404, 200]}

# endpoint, success status for the director; reads follow READ.
ENDPOINTS: list[tuple[str, Callable[[Night], Any], int | None]] = [
    ("club", _club, None),
    ("players", _players, None),
    ("add player", _add_player, 201),
    ("sessions", _sessions, None),
    ("plan session", _plan, 201),
    ("session", _session, None),
    ("start", _start, 200),
    ("close", _close, 200),
    ("reopen", _reopen, 200),
    ("rotation", _rotation, None),
    ("late arrival", _arrive, 201),
    ("early leaver", _leave, 200),
]


def expected(visibility: str, ok: int | None) -> list[int]:
    if ok is None:
        return READ[visibility]
    if visibility == "public":
        return [401, 403, 403, 403, ok]
    return [401, 404, 403, 404, ok]


CASES = [
    pytest.param(visibility, name, build, persona, status, id=f"{visibility}-{name}-{persona}")
    for visibility in ("public", "private")
    for name, build, ok in ENDPOINTS
    for persona, status in zip(PERSONAS, expected(visibility, ok), strict=True)
]


@pytest.mark.parametrize(("visibility", "name", "build", "persona", "status"), CASES)
def test_permission_matrix(
    api: Any, director: Any, visibility: str, name: str, build: Any, persona: str, status: int
) -> None:
    night = build_night(director=director, public=visibility == "public")
    user = night.users[persona]
    if user is not None:
        api.force_authenticate(user)
    method, url, body = build(night)
    response = getattr(api, method)(url, body, format="json")
    assert response.status_code == status, (name, persona, response.data)


@pytest.mark.parametrize(
    ("persona", "status"),
    [("anonymous", 401), ("outsider", 201), ("player", 201), ("director", 201)],
)
def test_any_signed_in_user_may_create_a_club(
    api: Any, night: Night, persona: str, status: int
) -> None:
    user = night.users[persona]
    if user is not None:
        api.force_authenticate(user)
    response = api.post("/api/v1/clubs/", {"slug": "hilltop", "name": "Hilltop"}, format="json")
    assert response.status_code == status
    if status == 201:
        from clubs.models import Club

        assert Club.objects.get(slug="hilltop").is_director(user)


def test_a_members_only_club_looks_like_no_club_to_outsiders(
    api: Any, private_night: Night
) -> None:
    api.force_authenticate(private_night.users["outsider"])
    hidden = api.get(f"/api/v1/clubs/{private_night.club.slug}/")
    missing = api.get("/api/v1/clubs/no-such-club/")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.data == missing.data


def test_club_list_shows_members_only_clubs_to_members_only(api: Any, private_night: Night) -> None:
    slugs = [c["slug"] for c in api.get("/api/v1/clubs/").data]
    assert "riverside" not in slugs and "lakeside" in slugs
    api.force_authenticate(private_night.users["player"])
    slugs = [c["slug"] for c in api.get("/api/v1/clubs/").data]
    assert "riverside" in slugs


def test_a_director_can_make_another_director_who_may_then_manage(api: Any, night: Night) -> None:
    api.force_authenticate(night.users["director"])
    response = api.post(
        f"/api/v1/clubs/{night.club.slug}/players/",
        {"name": "Hal", "username": "hal", "password": "a-long-secret-phrase", "director": True},
        format="json",
    )
    assert response.status_code == 201
    assert response.data["username"] == "hal"
    assert "password" not in response.data
    from django.contrib.auth import get_user_model

    hal = get_user_model().objects.get(username="hal")
    assert hal.check_password("a-long-secret-phrase")
    api.force_authenticate(hal)
    start = api.post(f"/api/v1/sessions/{night.planned.pk}/start")
    assert start.status_code == 200


def test_helpers_agree_with_the_policy(private_night: Night) -> None:
    users, club = private_night.users, private_night.club
    public_club = make_club(director=users["other_director"], slug="open-house")
    assert can_read_club(users["outsider"], public_club)
    assert can_read_club(AnonymousUser(), public_club)
    assert not can_read_club(users["outsider"], club)
    assert not can_read_club(AnonymousUser(), club)
    assert can_read_club(users["player"], club)
    assert is_member(users["player"], club) and not is_director(users["player"], club)
    assert is_director(users["director"], club)
    assert not is_director(users["other_director"], club)


def test_logins_are_shown_to_directors_only(api: Any, night: Night) -> None:
    url = f"/api/v1/clubs/{night.club.slug}/players/"
    public = api.get(url).data
    assert all(set(p) == {"id", "name"} for p in public)
    api.force_authenticate(night.users["director"])
    north = next(p for p in api.get(url).data if p["name"] == "North")
    assert north["username"] == "north"
