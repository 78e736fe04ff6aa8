"""Two requests creating the same thing at once (docs/api.md: integrity answers; issue 14,
item 11): the one that loses the race gets the answer it would have had coming second, a 400
naming the field, never a 500 (IntegrityError), and nothing of it is written.

Here the race is provoked deterministically: the check that would have seen the other row is
made to miss it, so the insert meets the database's unique constraint. The real race, against
gunicorn on PostgreSQL, is tests/integration/test_integrity_race.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from clubs import services
from clubs.models import Club, Player
from tests.conftest import unchanged
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def checks_miss(monkeypatch: pytest.MonkeyPatch) -> Any:
    """`checks_miss(n)`: the next n checks for a club or a player (or for the given models)
    answer "none", as if the other request's row came just after them."""
    real = QuerySet.exists
    left = [0]
    missing: list[Any] = []

    def exists(self: QuerySet[Any]) -> bool:
        if self.model in missing and left[0] > 0:
            left[0] -= 1
            return False
        return real(self)

    monkeypatch.setattr(QuerySet, "exists", exists)

    def miss(count: int, *models: Any) -> None:
        left[0] = count
        missing[:] = models or (Club, Player)

    return miss


@pytest.fixture
def first_check_misses(checks_miss: Any) -> None:
    checks_miss(1)


def test_a_slug_taken_at_the_same_time_is_a_400(api, director, outsider, checks_miss):
    services.club_create(slug="twin", name="First", director=director)
    checks_miss(2)  # the serializer's check and the service's
    api.force_authenticate(outsider)
    with unchanged():
        response = api.post("/api/v1/clubs/", {"slug": "twin", "name": "Second"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"errors": {"slug": ["A club with this slug already exists."]}}


def test_a_player_name_taken_at_the_same_time_is_a_400(api, club, director, first_check_misses):
    PlayerFactory(club=club, name="Ann")
    api.force_authenticate(director)
    with unchanged():
        response = api.post(f"/api/v1/clubs/{club.slug}/players/", {"name": "Ann"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"errors": {"name": ["'Ann' is already a player of this club."]}}


def test_a_login_created_at_the_same_time_is_a_400(api, club, director, checks_miss):
    get_user_model().objects.create(username="newcomer")
    checks_miss(1, get_user_model())  # the other request created the login after the check
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            f"/api/v1/clubs/{club.slug}/players/",
            {"name": "Newcomer", "username": "newcomer", "password": "a-long-enough-password-7"},
            format="json",
        )
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "username": [
            "This login already exists. Leave the password empty to invite its holder instead."
        ]
    }


def test_the_club_page_answers_a_taken_slug_on_the_form(client, outsider, director, checks_miss):
    services.club_create(slug="twin", name="First", director=director)
    checks_miss(2)  # the form's check and the service's
    client.force_login(outsider)
    with unchanged():
        response = client.post(
            "/clubs/new/",
            {
                "slug": "twin",
                "name": "Second",
                "rules_preset": "acbl",
                "default_stake": "0",
                "currency": "EUR",
                "language": "en",
            },
        )
    assert response.status_code == 200
    assert response.context["form"].errors == {"slug": ["A club with this slug already exists."]}
