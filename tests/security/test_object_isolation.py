"""No object of another club is reachable by guessing ids (docs/security.md).

The director of club B tries every id-bearing URL with club A's ids (members-only club A) and
club A's director tries to pull club B's objects into club A through the URLs and bodies that
take ids. Hidden objects answer 404 exactly like ids that were never created.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Deal
from tests.conftest import unchanged
from tests.security.conftest import World


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_a_director_of_another_club_cannot_read_or_write_by_guessing_ids(world: World) -> None:
    client = _as(world.users["other_director"])
    w = world
    reads = [
        f"/api/v1/clubs/{w.club.slug}/",
        f"/api/v1/clubs/{w.club.slug}/players/",
        f"/api/v1/clubs/{w.club.slug}/sessions/",
        f"/api/v1/clubs/{w.club.slug}/leaderboard",
        f"/api/v1/clubs/{w.club.slug}/ratings",
        f"/api/v1/sessions/{w.running.pk}/",
        f"/api/v1/sessions/{w.running.pk}/tables/1/rotation",
        f"/api/v1/sessions/{w.running.pk}/standings",
        f"/api/v1/sessions/{w.running.pk}/settlement",
        f"/api/v1/rubbers/{w.rubber.pk}/",
        f"/api/v1/deals/{w.deal.pk}/",
        f"/api/v1/deals/{w.deal.pk}/history",
        f"/rubbers/{w.rubber.pk}/",
        f"/sessions/{w.running.pk}/standings/",
        f"/players/{w.players['north'].pk}/history/",
        f"/players/{w.players['north'].pk}/",
        f"/clubs/{w.club.slug}/ratings/",
        f"/clubs/{w.club.slug}/sessions/{w.running.pk}/",
    ]
    for path in reads:
        assert client.get(path).status_code == 404, path
    writes = [
        ("patch", f"/api/v1/deals/{w.deal.pk}/", {"version": 1, "tricks": 8}),
        ("post", f"/api/v1/rubbers/{w.rubber.pk}/deals/", {"number": 2, "contract": "pass"}),
        ("post", f"/api/v1/deals/{w.deal.pk}/confirm", {}),
        ("post", f"/api/v1/deals/{w.deal.pk}/rule", {"version": 1}),
        ("post", f"/api/v1/sessions/{w.running.pk}/close", {}),
        ("post", f"/api/v1/sessions/{w.planned.pk}/start", {}),
        ("post", f"/api/v1/clubs/{w.club.slug}/players/", {"name": "Mole"}),
    ]
    for method, path, body in writes:
        response = getattr(client, method)(path, body, format="json")
        assert response.status_code == 404, (path, response.status_code)
    w.deal.refresh_from_db()
    assert (w.deal.version, w.deal.tricks) == (1, 9)
    assert w.rubber.deals.count() == 1


def test_the_answer_for_a_hidden_object_equals_the_answer_for_no_object(world: World) -> None:
    """A 404 must not say whether the id exists: compare with an id never created."""
    client = _as(world.users["other_director"])
    missing = Deal.objects.order_by("-pk").first().pk + 1000
    hidden = client.get(f"/api/v1/deals/{world.deal.pk}/")
    never = client.get(f"/api/v1/deals/{missing}/")
    assert (hidden.status_code, hidden.json()) == (never.status_code, never.json())


def test_a_director_cannot_pull_another_clubs_objects_into_their_own(world: World) -> None:
    client = _as(world.users["director"])
    w = world
    lake_player = w.other_rubber.north
    # A session planned with another club's players.
    own = [w.players[n].pk for n in ("north", "east", "south")]
    body = {"date": "2026-12-02", "tables": [{"players": [*own, lake_player.pk]}]}
    with unchanged():
        response = client.post(f"/api/v1/clubs/{w.club.slug}/sessions/", body, format="json")
    assert response.status_code == 400, response.json()
    # A late arrival from another club.
    url = f"/api/v1/sessions/{w.planned.pk}/tables/1/players"
    with unchanged():
        response = client.post(url, {"player": lake_player.pk}, format="json")
    assert response.status_code == 400, response.json()
    # Another club's session through this club's page URL.
    assert client.get(f"/clubs/{w.club.slug}/sessions/{w.other_session.pk}/").status_code == 404
    # Another club's rubber, deal and session through the API.
    assert client.get(f"/api/v1/rubbers/{w.other_rubber.pk}/").status_code == 404
    with unchanged():
        response = client.patch(
            f"/api/v1/deals/{w.other_deal.pk}/", {"version": 1, "tricks": 8}, format="json"
        )
        assert client.post(f"/api/v1/sessions/{w.other_session.pk}/close").status_code == 404
    assert response.status_code == 404


@pytest.mark.parametrize("persona", ["member", "seated"])
def test_players_of_the_club_cannot_reach_another_clubs_objects(world: World, persona: str) -> None:
    client = _as(world.users[persona])
    assert client.get(f"/api/v1/rubbers/{world.other_rubber.pk}/").status_code == 404
    assert client.get(f"/api/v1/deals/{world.other_deal.pk}/history").status_code == 404
    with unchanged():
        response = client.post(
            f"/api/v1/rubbers/{world.other_rubber.pk}/deals/",
            {"number": 2, "contract": "pass"},
            format="json",
        )
    assert response.status_code == 404
