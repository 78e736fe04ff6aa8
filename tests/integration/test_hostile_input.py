"""Hostile input that only PostgreSQL turned into a 500 (an outside probe, docs/security.md):
SQLite does not enforce a column's length, so these run on the real database too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOKEN_URL = "/api/v1/auth/token/"
TOO_LONG = "Ensure this field has no more than 150 characters."


@pytest.mark.parametrize(
    ("username", "recorded"), [("n" * 256, "n" * 255), ("\ufdfa" * 20, "صلى الله عليه وسلم" * 20)]
)
def test_a_username_longer_than_axes_keeps_is_no_500_on_postgresql(
    username: str, recorded: str
) -> None:
    """The API refuses it as a field (config.api.TokenSerializer); the sign-in page and the
    admin's, whose form bounds a name only in the browser, fail it as any wrong name, and axes
    records it cut to its column (config.sign_in.username)."""
    assert connection.vendor == "postgresql"
    UserFactory(username="north")
    api = APIClient(raise_request_exception=False)
    response = api.post(TOKEN_URL, {"username": username, "password": PASSWORD}, format="json")
    assert response.status_code == 400, response.content
    assert response.json() == {"errors": {"username": [TOO_LONG]}}
    assert not AccessAttempt.objects.exists()
    for path in ("/accounts/login/", "/admin/login/"):
        page = Client(raise_request_exception=False).post(
            path, {"username": username, "password": PASSWORD}
        )
        assert page.status_code == 200, path  # the form again, with its error
        assert "correct username and password" in page.content.decode(), path
    attempt = AccessAttempt.objects.get()
    assert attempt.username == recorded[:255]
    assert attempt.failures_since_start == 2


def test_a_lone_surrogate_is_a_400_on_postgresql() -> None:
    UserFactory(username="north")
    body = json.dumps({"username": "north\ud800", "password": PASSWORD}).encode()
    response = APIClient(raise_request_exception=False).generic(
        "POST", TOKEN_URL, body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "errors": {"non_field_errors": ["The request body could not be read as JSON."]}
    }


@pytest.mark.parametrize("forwarded", ["not-an-ip", "1.2.3.4:5678", "fe80::1%eth0"])
def test_a_forwarded_entry_that_is_no_address_is_no_500_on_postgresql(
    settings: Any, forwarded: str
) -> None:
    """Behind a proxy (NUM_PROXIES=1) whose entry is no address, axes stored it in PostgreSQL's
    inet column: a 500 (an outside probe). The socket's address is taken instead."""
    settings.NUM_PROXIES = 1
    UserFactory(username="north")
    api = APIClient(raise_request_exception=False)
    meta = {"REMOTE_ADDR": "192.0.2.9", "HTTP_X_FORWARDED_FOR": forwarded}
    body = {"username": "north", "password": "wrong"}
    assert api.post(TOKEN_URL, body, format="json", **meta).status_code == 400
    assert AccessAttempt.objects.get().ip_address == "192.0.2.9"
