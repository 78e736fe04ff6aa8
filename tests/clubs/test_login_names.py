"""A login's name is read as Django's sign-in page reads it (NFKC, `clubs.logins`): a full-width
"ＡＢＣ" created through the API or the players page is stored as "ABC", signs in on the page, and
no look-alike of it ("abc", "ＡＢＣ") can be created beside it (docs/security.md).

Before: the API stored "ＡＢＣ" as given, the page's sign-in (which normalises) could not reach it,
and a separate "ABC" could then be created: two logins that read the same.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Invitation
from tests.factories import Night

pytestmark = pytest.mark.django_db

FULL_WIDTH = "\uff21\uff22\uff23"  # "ＡＢＣ"
SECRET = "Very-long-pass-123"


def _add(night: Night, name: str, username: str, **extra: Any) -> Any:
    client = APIClient()
    client.force_authenticate(night.users["director"])
    return client.post(
        f"/api/v1/clubs/{night.club.slug}/players/",
        {"name": name, "username": username, **extra},
        format="json",
    )


def _signs_in_on_the_page(username: str, password: str) -> bool:
    client = Client()
    client.post("/accounts/login/", {"username": username, "password": password})
    return "_auth_user_id" in client.session


def test_a_full_width_login_made_through_the_api_is_stored_normalised_and_signs_in(
    night: Night,
) -> None:
    response = _add(night, "Z9", FULL_WIDTH, password=SECRET)
    assert response.status_code == 201
    assert response.json()["username"] == "ABC"
    assert get_user_model().objects.filter(username="ABC").exists()
    assert not get_user_model().objects.filter(username=FULL_WIDTH).exists()
    assert _signs_in_on_the_page("ABC", SECRET)
    assert _signs_in_on_the_page(FULL_WIDTH, SECRET)


@pytest.mark.parametrize("again", ["abc", "ABC", FULL_WIDTH, "\uff41\uff42\uff43"])
def test_a_look_alike_of_a_login_of_the_club_is_refused_on_the_username_field(
    night: Night, again: str
) -> None:
    assert _add(night, "Z9", FULL_WIDTH, password=SECRET).status_code == 201
    logins = get_user_model().objects.count()
    response = _add(night, "Z10", again, password=SECRET)
    assert response.status_code == 400
    read_as = unicodedata.normalize("NFKC", again)  # the name refused is the one read
    assert response.json()["errors"] == {
        "username": [f"{read_as!r} is already linked to, or invited as, a player of this club."]
    }
    assert get_user_model().objects.count() == logins


@pytest.mark.parametrize("again", ["abc", FULL_WIDTH, "\uff41\uff42\uff43"])
def test_a_look_alike_of_a_login_elsewhere_is_refused_on_the_username_field(
    night: Night, again: str
) -> None:
    get_user_model().objects.create_user(username="ABC", password=SECRET)
    logins = get_user_model().objects.count()
    response = _add(night, "Z10", again, password=SECRET)
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "username": [
            "This login already exists. Leave the password empty to invite its holder instead."
        ]
    }
    assert get_user_model().objects.count() == logins


def test_a_look_alike_invitation_of_a_linked_login_is_refused(night: Night) -> None:
    assert _add(night, "Z9", FULL_WIDTH, password=SECRET).status_code == 201
    response = _add(night, "Z10", "abc")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["username"]
    assert not Invitation.objects.exists()


def test_a_full_width_invitation_names_and_reaches_the_normalised_login(night: Night) -> None:
    abc = get_user_model().objects.create_user(username="ABC", password=SECRET)
    assert _add(night, "Ann", FULL_WIDTH).status_code == 201
    invitation = Invitation.objects.get()
    assert invitation.username == "ABC" and invitation.user == abc


def test_the_players_page_stores_a_full_width_login_normalised_and_refuses_a_look_alike(
    night: Night,
) -> None:
    client = Client()
    client.force_login(night.users["director"])
    url = f"/clubs/{night.club.slug}/players/"
    created = client.post(url, {"name": "Z9", "username": FULL_WIDTH, "password": SECRET})
    assert created.status_code == 302
    assert get_user_model().objects.filter(username="ABC").exists()
    assert _signs_in_on_the_page("ABC", SECRET)
    logins = get_user_model().objects.count()
    refused = client.post(url, {"name": "Z10", "username": "abc", "password": SECRET})
    assert refused.status_code == 200 and "already linked to" in refused.content.decode()
    elsewhere = Client()
    elsewhere.force_login(night.users["other_director"])
    lakeside = elsewhere.post(
        "/clubs/lakeside/players/", {"name": "Z11", "username": FULL_WIDTH, "password": SECRET}
    )
    assert lakeside.status_code == 200
    assert "This login already exists" in lakeside.content.decode()
    assert get_user_model().objects.count() == logins


def test_an_api_token_is_issued_for_the_full_width_spelling_as_the_page_signs_it_in(
    night: Night,
) -> None:
    get_user_model().objects.create_user(username="ABC", password=SECRET)
    body = {"username": FULL_WIDTH, "password": SECRET}
    response = APIClient().post("/api/v1/auth/token/", body, format="json")
    assert response.status_code == 200 and response.json()["token"]
    form = APIClient().post(
        "/api/v1/auth/token/", {"username": FULL_WIDTH, "password": SECRET}, format="multipart"
    )
    assert form.status_code == 200
