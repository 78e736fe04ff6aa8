"""The client address behind throttles and the login lockout (docs/security.md, docs/deploy.md).

By default it is the socket's (REMOTE_ADDR): an `X-Forwarded-For` header is the client's own
word and changes nothing. Behind N proxies (`NUM_PROXIES=N`) it is the address the outermost of
them saw, N entries from the end of `X-Forwarded-For`; what a client writes in front of that is
ignored. DRF's throttles and django-axes read the same function (issue 14, item 3).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from config.throttling import SignInRateThrottle, client_address
from tests.factories import PASSWORD
from tests.security.conftest import World

TOKEN_URL = "/api/v1/auth/token/"


def _sign_in(client: Any, username: str, password: str, **meta: str) -> int:
    return int(
        client.post(
            TOKEN_URL, {"username": username, "password": password}, format="json", **meta
        ).status_code
    )


def test_a_forwarded_for_header_does_not_make_a_new_client(world: World, monkeypatch: Any) -> None:
    monkeypatch.setattr(SignInRateThrottle, "THROTTLE_RATES", {"sign-in": "3/min"})
    client = APIClient()
    for i, name in enumerate(("north", "east", "south")):
        assert _sign_in(client, name, PASSWORD, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}") == 200
    assert _sign_in(client, "west", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.0.99") == 429


def test_a_stranger_cannot_lock_a_user_out_by_forging_the_users_address(world: World) -> None:
    attacker = {"REMOTE_ADDR": "203.0.113.7", "HTTP_X_FORWARDED_FOR": "198.51.100.1"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert Client().post(
            "/accounts/login/", {"username": "north", "password": "wrong"}, **attacker
        ).status_code in (200, 429)
    # The attacker's own address is locked out for north, whatever it forwards...
    forged = {**attacker, "HTTP_X_FORWARDED_FOR": "198.51.100.2"}
    assert _sign_in(APIClient(), "north", PASSWORD, **forged) == 429
    # ...and north, at the address the attacker named, is not.
    north = {"REMOTE_ADDR": "198.51.100.1"}
    response = Client().post(
        "/accounts/login/", {"username": "north", "password": PASSWORD}, **north
    )
    assert response.status_code == 302


def test_behind_a_proxy_each_client_is_its_own_address(world: World, settings: Any) -> None:
    """NUM_PROXIES=1: every request comes from the proxy's socket; the client is the last entry
    of X-Forwarded-For, which the proxy appended. The attacker's failures lock the attacker out,
    not north at another address behind the same proxy."""
    settings.NUM_PROXIES = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    attacker = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.1, 203.0.113.7"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "north", "password": "wrong"}, **attacker)
    assert _sign_in(APIClient(), "north", PASSWORD, **attacker) == 429
    north = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.1"}
    response = Client().post(
        "/accounts/login/", {"username": "north", "password": PASSWORD}, **north
    )
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "192.0.2.9"),
        (0, "198.51.100.1", "192.0.2.9"),
        (1, None, "192.0.2.9"),
        (1, "198.51.100.1", "198.51.100.1"),
        (1, "6.6.6.6, 198.51.100.1", "198.51.100.1"),
        (2, "6.6.6.6, 198.51.100.1, 10.0.0.2", "198.51.100.1"),
        (2, "198.51.100.1", "198.51.100.1"),
        # An entry that is no address (a proxy passing the header on, or one proxy too many
        # counted): the socket's, never the client's word (an outside probe: axes' 500).
        (1, "not-an-ip", "192.0.2.9"),
        (1, "6.6.6.6, 1.2.3.4:5678", "192.0.2.9"),
        (1, "fe80::1%eth0", "192.0.2.9"),
        (1, "2001:DB8::1", "2001:db8::1"),
    ],
)
def test_the_client_address(
    settings: Any, proxies: int, forwarded: str | None, expected: str
) -> None:
    from django.test import RequestFactory

    settings.NUM_PROXIES = proxies
    meta = {"REMOTE_ADDR": "192.0.2.9"}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_address(RequestFactory().get("/", **meta)) == expected


def test_drf_and_axes_read_the_one_setting() -> None:
    assert settings.AXES_CLIENT_IP_CALLABLE == "config.throttling.client_address"
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.NUM_PROXIES == 0


@pytest.mark.django_db
@pytest.mark.parametrize("forwarded", ["not-an-ip", "1.2.3.4:5678", "1.2.3.4%eth0"])
def test_a_forwarded_entry_that_is_no_address_signs_in_as_the_socket(
    world: World, settings: Any, forwarded: str
) -> None:
    settings.NUM_PROXIES = 1
    client = APIClient(raise_request_exception=False)
    meta = {"REMOTE_ADDR": "192.0.2.9", "HTTP_X_FORWARDED_FOR": forwarded}
    assert _sign_in(client, "north", "wrong", **meta) == 400
    assert _sign_in(client, "north", PASSWORD, **meta) == 200
