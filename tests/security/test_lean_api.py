"""The API's lean middleware answers as Django's own did (config/lean.py; issue 33).

Each request is made twice, once through the project's ``MIDDLEWARE`` and once through the same
list with Django's and django-csp's own classes in place of the lean ones, and the two answers must
be the same: status, body and every header (the security ones included), for a stranger, a token,
a signed-in session, a hidden object and a missing one, reads and writes.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from knox.models import AuthToken

from config.lean import SecurityPolicyMiddleware
from games.models import Rubber

pytestmark = pytest.mark.django_db

STOCK = {
    "config.lean.SecurityPolicyMiddleware": "csp.middleware.CSPMiddleware",
    "config.lean.LeanSessionMiddleware": "django.contrib.sessions.middleware.SessionMiddleware",
    "config.lean.LeanAuthenticationMiddleware": (
        "django.contrib.auth.middleware.AuthenticationMiddleware"
    ),
    "config.lean.LeanMessageMiddleware": "django.contrib.messages.middleware.MessageMiddleware",
}

TOKEN = re.compile(r'(csrftoken=|csrfmiddlewaretoken" value="|"csrfToken": ")[^;"]+')
EXPIRES = re.compile(r"expires=[^;]+;")
LEAN = list(django_settings.MIDDLEWARE)


def test_the_lean_classes_replace_the_stock_ones() -> None:
    assert set(STOCK) <= set(django_settings.MIDDLEWARE)
    assert not set(STOCK.values()) & set(django_settings.MIDDLEWARE)


def _answer(settings: Any, stock: bool, call: Any) -> tuple[int, bytes, list[tuple[str, str]]]:
    settings.MIDDLEWARE = [STOCK.get(name, name) for name in LEAN] if stock else LEAN
    cache.clear()
    response = call()
    headers = sorted((k.lower(), v) for k, v in response.headers.items())
    cookies = sorted(EXPIRES.sub("", TOKEN.sub("…", str(c))) for c in response.cookies.values())
    body = TOKEN.sub("…", response.content.decode()).encode()  # the browsable API's random token
    return response.status_code, body, [*headers, *(("cookie", c) for c in cookies)]


def _same(settings: Any, call: Any) -> tuple[int, bytes, list[tuple[str, str]]]:
    lean = _answer(settings, False, call)
    stock = _answer(settings, True, call)
    assert lean == stock
    return lean


def _clients(night: Any) -> dict[str, Any]:
    """Who asks, each a maker of a new client (a client keeps the middleware it first ran)."""
    north = night.players["north"].user
    _, token = AuthToken.objects.create(north)
    _, stranger_token = AuthToken.objects.create(night.users["outsider"])

    def signed_in() -> Client:
        client = Client(enforce_csrf_checks=True)
        client.force_login(north)
        return client

    return {
        "anonymous": Client,
        "token": lambda: Client(HTTP_AUTHORIZATION=f"Token {token}"),
        "outsider token": lambda: Client(HTTP_AUTHORIZATION=f"Token {stranger_token}"),
        "bad token": lambda: Client(HTTP_AUTHORIZATION="Token nonsense"),
        "session": signed_in,
    }


def _get(client: Any, url: str, accept: str) -> Any:
    return client().get(url, HTTP_ACCEPT=accept)


def _urls(night: Any) -> list[str]:
    rubber = Rubber.objects.filter(session=night.running).first()
    assert rubber is not None
    return [
        f"/api/v1/rubbers/{rubber.pk}/",
        f"/api/v1/clubs/{night.club.slug}/leaderboard",
        f"/api/v1/sessions/{night.running.pk}/standings",
        "/api/v1/rubbers/999999/",  # missing
        "/api/v1/clubs/nowhere/leaderboard",
        "/api/v1/nothing-here",
    ]


@pytest.mark.parametrize("public", [True, False], ids=["public club", "members-only club"])
def test_reads_answer_as_before(settings: Any, director: Any, public: bool) -> None:
    from tests.factories import build_night

    settings.LEADERBOARD_CACHE_SECONDS = 60
    settings.RUBBER_CACHE_SECONDS = 60
    night = build_night(director=director, public=public)
    statuses = set()
    for who, client in _clients(night).items():
        for url in _urls(night):
            for accept in ("application/json", "*/*", "text/html"):
                status, _, headers = _same(settings, partial(_get, client, url, accept))
                statuses.add((who, url.split("/")[3], status))
                assert ("x-frame-options", "DENY") in headers
                assert any(name == "content-security-policy" for name, _ in headers)
    # The members-only club hides its rubber from a stranger exactly as a missing one (404).
    anonymous = {(url, status) for who, url, status in statuses if who == "anonymous"}
    assert ("rubbers", 404) in anonymous
    if public:
        assert ("rubbers", 200) in anonymous
    else:
        assert ("rubbers", 200) not in anonymous


def test_writes_answer_as_before(settings: Any, director: Any) -> None:
    from tests.factories import build_night

    night = build_night(director=director, public=False)
    rubber = Rubber.objects.filter(session=night.running).first()
    assert rubber is not None
    url = f"/api/v1/rubbers/{rubber.pk}/deals/"
    body = {"number": 1, "contract": "2H", "declarer": "N", "tricks": 9}
    clients = _clients(night)
    seen = []
    for who in ("anonymous", "bad token", "outsider token", "session"):
        status, _, _ = _same(
            settings,
            lambda who=who: clients[who]().post(url, body, content_type="application/json"),
        )
        seen.append(status)
    assert seen == [401, 401, 404, 403]  # the session is refused its CSRF token, as before
    # A token's write: made once each way (the second is the same deal again: 200).
    lean = _answer(settings, False, lambda: clients["token"]().post(url, body, "application/json"))
    stock = _answer(settings, True, lambda: clients["token"]().post(url, body, "application/json"))
    assert (lean[0], stock[0]) == (201, 200)
    assert lean[2] == stock[2]


def test_the_policy_is_built_once(client: Any, monkeypatch: Any, db: Any) -> None:
    built = []
    real = SecurityPolicyMiddleware._policies

    def counting(self: Any) -> tuple[str, str]:
        built.append(SecurityPolicyMiddleware._built is None)
        return real(self)

    monkeypatch.setattr(SecurityPolicyMiddleware, "_policies", counting)
    SecurityPolicyMiddleware._built = None
    for _ in range(3):
        assert "Content-Security-Policy" in client.get("/api/v1/nothing-here")
    assert built == [True, False, False]


def test_a_changed_policy_is_built_again(client: Any, settings: Any, db: Any) -> None:
    client.get("/api/v1/nothing-here")
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    assert client.get("/api/v1/nothing-here")["Content-Security-Policy"] == "default-src 'none'"


def test_a_stranger_needs_no_session(client: Any, settings: Any, db: Any) -> None:
    """The lean path does not build a session for an API request with no session cookie."""
    seen = []

    def view_probe(get_response: Any) -> Any:
        def middleware(request: Any) -> Any:
            seen.append(hasattr(request, "session"))
            return get_response(request)

        return middleware

    settings.MIDDLEWARE = [*django_settings.MIDDLEWARE, f"{__name__}.probe"]
    globals()["probe"] = view_probe
    client.get("/api/v1/nothing-here")
    client.get("/")
    assert seen == [False, True]
