"""A new player's name is made of characters one can read (clubs.forms.refuse_unreadable), on
the pages and in the API alike (issue 31's one rule). Found by an outside probe: names with
control characters, a right-to-left override or only a zero-width space were stored as sent."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.forms import PlayerForm
from clubs.models import Club, Player, Session
from tests.conftest import unchanged

pytestmark = pytest.mark.django_db

UNREADABLE = (
    "A name is made of characters one can read: no control, direction or invisible characters."
)
BAD = [
    "a\u0001b",
    "Kim\nLee",
    "Kim\tLee",
    "\u202egnp.exe",
    "\u200b",
    " \u200d ",
    "\uffff",
    "Ki\ufdd0m",
]
GOOD = ["Kim", "Mehr\u200cdad", "Ann \U0001f469\u200d\U0001f467", "Zoë-Ĳ", "Иван"]


@pytest.fixture
def director_api(director: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.mark.parametrize("name", BAD)
def test_an_unreadable_name_is_refused_by_the_api_and_the_page(
    director_api: APIClient, club: Club, running_session: Session, name: str
) -> None:
    with unchanged():
        answer = director_api.post(f"/api/v1/clubs/{club.slug}/players/", {"name": name}, "json")
        arrivals = director_api.post(
            f"/api/v1/sessions/{running_session.pk}/arrivals",
            {"names": [name], "mode": "cut_in"},
            "json",
        )
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"name": [UNREADABLE]}
    assert arrivals.status_code == 400, arrivals.content
    assert UNREADABLE in str(arrivals.json()["errors"]["names"])
    form = PlayerForm({"name": name})
    assert not form.is_valid()
    assert UNREADABLE in form.errors["name"]


@pytest.mark.parametrize("name", GOOD)
def test_a_readable_name_is_kept_as_written(director_api: APIClient, club: Club, name: str) -> None:
    answer = director_api.post(f"/api/v1/clubs/{club.slug}/players/", {"name": name}, "json")
    assert answer.status_code == 201, answer.content
    assert Player.objects.get(pk=answer.json()["id"]).name == name
