"""Security settings and the guards in front of sign-in and writes (docs/security.md).

CSP and frame denial on every response, login lockout (django-axes), throttles on sign-in and
writes, CSRF on every form, password validation, a clean 503 while the database is down, and
no secret in the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import OperationalError
from django.test import Client
from rest_framework.test import APIClient

from config.throttling import SignInRateThrottle, WriteRateThrottle
from tests.conftest import unchanged
from tests.factories import PASSWORD
from tests.security.conftest import PERSONAS, World
from tests.security.test_permission_matrix import MATRIX

ROOT = Path(__file__).resolve().parents[2]
TOKEN_URL = "/api/v1/auth/token/"


# --- headers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/healthz", "/accounts/login/", "/api/v1/clubs/"])
def test_every_response_carries_the_policy_and_denies_framing(db: Any, path: str) -> None:
    response = Client().get(path)
    policy = response["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split("; ") if part.strip()}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_pages_have_no_inline_script_or_style(world: World) -> None:
    """The browser test proves it in Chromium; this cheap check catches it at review time."""
    client = Client()
    client.force_login(world.users["director"])
    pages = [
        "/",
        f"/clubs/{world.club.slug}/",
        f"/clubs/{world.club.slug}/console/",
        f"/clubs/{world.club.slug}/sessions/{world.running.pk}/",
        f"/rubbers/{world.rubber.pk}/",
        f"/sessions/{world.running.pk}/standings/",
        f"/clubs/{world.club.slug}/players/",
        "/accounts/password/",
        "/accounts/password/reset/",
        "/accounts/login/",
    ]
    for path in pages:
        html = client.get(path).content.decode()
        # A data block (json_script: type="application/json") is not run, so the policy allows it.
        assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", html), (
            path
        )
        assert "<style" not in html, path
        assert not re.search(r"\sstyle=\"", html), path
        assert not re.search(r"\son[a-z]+=\"", html), path


# --- sign-in: lockout and throttle --------------------------------------------------------------


def test_the_login_page_locks_out_after_repeated_failures(world: World) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/accounts/login/", {"username": "north", "password": "wrong"})
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"username": "north", "password": "wrong"})
    assert response.status_code == 429
    # Locked out: even the right password is refused now.
    response = client.post("/accounts/login/", {"username": "north", "password": PASSWORD})
    assert response.status_code == 429
    # Another login from the same address is not locked out (username and address together).
    response = client.post("/accounts/login/", {"username": "east", "password": PASSWORD})
    assert response.status_code == 302


def test_a_token_is_issued_for_good_credentials_and_works(world: World) -> None:
    response = APIClient().post(
        TOKEN_URL, {"username": "north", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get(f"/api/v1/rubbers/{world.rubber.pk}/").status_code == 200


def test_token_sign_in_is_refused_with_wrong_credentials_then_locked_out(world: World) -> None:
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(TOKEN_URL, {"username": "north", "password": "x"}, format="json")
        assert response.status_code == 400
        assert "errors" in response.json()
    response = client.post(TOKEN_URL, {"username": "north", "password": "x"}, format="json")
    assert response.status_code == 429
    right = {"username": "north", "password": PASSWORD}
    with unchanged():  # no token for the right password while locked out
        response = client.post(TOKEN_URL, right, format="json")
    assert response.status_code == 429


def test_token_sign_in_is_throttled_per_address(world: World, monkeypatch: Any) -> None:
    monkeypatch.setattr(SignInRateThrottle, "THROTTLE_RATES", {"sign-in": "3/min"})
    client = APIClient()
    for name in ("north", "east", "south"):
        response = client.post(TOKEN_URL, {"username": name, "password": PASSWORD}, format="json")
        assert response.status_code == 200
    west = {"username": "west", "password": PASSWORD}
    with unchanged():
        response = client.post(TOKEN_URL, west, format="json")
    assert response.status_code == 429
    assert "Retry-After" in response


def test_the_sign_in_and_write_rates_come_from_settings() -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert set(rates) >= {"sign-in", "writes"}
    assert (
        "config.throttling.WriteRateThrottle" in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]
    )


def test_writes_are_throttled_per_user_and_reads_are_not(world: World, monkeypatch: Any) -> None:
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "2/min"})
    client = APIClient()
    client.force_authenticate(world.users["director"])
    url = f"/api/v1/clubs/{world.club.slug}/players/"
    assert client.post(url, {"name": "Gus"}, format="json").status_code == 201
    assert client.post(url, {"name": "Hal"}, format="json").status_code == 201
    with unchanged():
        assert client.post(url, {"name": "Ian"}, format="json").status_code == 429
    for _ in range(5):
        assert client.get(url).status_code == 200
    other = APIClient()
    other.force_authenticate(world.users["other_director"])
    response = other.post(
        f"/api/v1/clubs/{world.other_club.slug}/players/", {"name": "Jo"}, format="json"
    )
    assert response.status_code == 201


def test_the_write_throttle_can_be_lifted(world: World, monkeypatch: Any) -> None:
    """`THROTTLE_WRITES=off` (the HTTP benchmark): no limit, and nothing kept per write."""
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "off"})
    client = APIClient()
    client.force_authenticate(world.users["director"])
    url = f"/api/v1/clubs/{world.club.slug}/players/"
    for name in ("Gus", "Hal", "Ian"):
        assert client.post(url, {"name": name}, format="json").status_code == 201
    assert WriteRateThrottle().rate is None


# --- CSRF and passwords ---------------------------------------------------------------------------


#: Form posts that take no CSRF token, each with its reason.
CSRF_EXEMPT = {
    # RFC 8058: a mail program's one-click unsubscribe POSTs with no cookie and no token; the
    # signed token in the path is the proof, and a forged one is a missing page
    # (tests/scoring/standings/test_results_mail.py).
    "scoring:results-mail-unsubscribe",
}


@pytest.mark.parametrize(
    "name",
    sorted(
        n
        for n, case in MATRIX.items()
        if "POST" in case.expect and ":" in n and n not in CSRF_EXEMPT
    ),
)
def test_every_form_post_needs_the_csrf_token(world: World, name: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["director"])
    case = MATRIX[name]
    body = case.body["POST"](world) if "POST" in case.body else {}
    path = case.path(world)
    with unchanged():
        assert client.post(path, body).status_code == 403


def test_session_writes_through_the_api_need_the_csrf_token(world: World) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(world.users["director"])
    with unchanged():
        response = client.post(
            f"/api/v1/clubs/{world.club.slug}/players/", {"name": "Gus"}, format="json"
        )
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


@pytest.mark.parametrize("password", ["short", "12345678901", "password123", "north1234"])
def test_weak_passwords_are_refused(world: World, password: str) -> None:
    with pytest.raises(ValidationError):
        validate_password(password, user=world.users["seated"])


# --- bodies the parser cannot take --------------------------------------------------------------

NESTED = "[" * 5000 + "]" * 5000


def _api_writes(world: World) -> list[tuple[str, str]]:
    return [
        (name, method)
        for name, case in sorted(MATRIX.items())
        if case.path(world).startswith("/api/")
        for method in case.body  # the writes that take a body (start, close, confirm take none)
    ]


@pytest.mark.parametrize("persona", ["anonymous", "director"])
def test_a_body_the_parser_cannot_take_is_a_400_in_the_apis_shape(
    world: World, settings: Any, persona: str
) -> None:
    """Too deeply nested (RecursionError in the JSON decoder: a 500 before) and over
    DATA_UPLOAD_MAX_MEMORY_SIZE (Django's HTML 400 before), on every API write that takes a
    body (issue 14, item 6). Nothing is written."""
    from clubs.models import Club, Player, Session
    from games.models import Deal

    def counts() -> list[int]:
        return [m.objects.count() for m in (Club, Player, Session, Deal)]

    writes = _api_writes(world)  # may make rows the paths name (an invitation): before counting
    before = counts()
    too_big = '{"name": "' + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + '"}'
    client = Client(raise_request_exception=False)
    if world.users[persona] is not None:
        client.force_login(world.users[persona])
    wrong = []
    assert len(writes) >= 8
    for name, method in writes:
        path = MATRIX[name].path(world)
        for body in (NESTED, too_big):
            response = getattr(client, method.lower())(path, body, content_type="application/json")
            if persona == "anonymous" and response.status_code == 401 and name != "api-token":
                continue  # refused before the body is read
            refused = MATRIX[name].expect[method][PERSONAS.index(persona)] == 403
            if refused and response.status_code == 403:
                continue  # not this persona's write (a director's dispute): refused unread
            ok = (
                response.status_code == 400
                and response["Content-Type"] == "application/json"
                and list(response.json()) == ["errors"]
                and response.json()["errors"]["non_field_errors"]
            )
            if not ok:
                wrong.append(f"{method} {path} ({len(body)} bytes): {response.status_code}")
    assert not wrong, wrong
    assert counts() == before


# --- the database is down -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind"), [("/api/v1/clubs/", "application/json"), ("/", "text/html")]
)
def test_a_database_outage_is_a_clean_503(db: Any, monkeypatch: Any, path: str, kind: str) -> None:
    from clubs.models import ClubQuerySet

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(ClubQuerySet, "visible_to", down)
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 503
    assert response["Content-Type"].startswith(kind)
    assert response["Retry-After"]


#: URLs whose answer needs no database: they answer as usual while it is down.
NO_DATABASE = {
    "schema",
    "api-docs",
    "login",
    "set_language",
    "logout",
    "api-token",
    # The reset pages: a form, a page of words, and a link that is no link.
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    # Static answers: the favicon redirect, the web app manifest, the service worker.
    "favicon",
    "manifest",
    "service-worker",
}


@pytest.mark.parametrize("persona", ["anonymous", "director"])
def test_every_url_answers_503_with_retry_after_while_the_database_is_down(
    world: World, monkeypatch: Any, persona: str
) -> None:
    """Every query fails as with PostgreSQL gone, including those that run before the view (the
    signed-in user's session, the club's language): never a 500 (issue 14, item 7). The real
    PostgreSQL outage: tests/integration/test_faults.py."""
    from django.db.backends.utils import CursorWrapper

    client = Client(raise_request_exception=False)
    if world.users[persona] is not None:
        client.force_login(world.users[persona])
    calls = [
        (name, method, case.path(world), case.body[method](world) if method in case.body else {})
        for name, case in sorted(MATRIX.items())
        for method in case.expect
    ]

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    answers = []
    with monkeypatch.context() as patch:
        patch.setattr(CursorWrapper, "execute", down)
        patch.setattr(CursorWrapper, "executemany", down)
        for name, method, path, body in calls:
            if method == "GET":
                response = client.get(path)
            else:
                kind = {"content_type": "application/json"} if path.startswith("/api/") else {}
                response = getattr(client, method.lower())(path, body, **kind)
            answers.append((name, method, path, response))
    wrong = []
    for name, method, path, response in answers:
        # Without a database: the pages that need none, and the anonymous visitor sent to sign in.
        needs_none = name in NO_DATABASE or (
            persona == "anonymous" and response.status_code in (302, 401)
        )
        unavailable = response.status_code == 503 and response.get("Retry-After")
        if not (unavailable or (needs_none and response.status_code < 500)):
            wrong.append(f"{method} {path}: {response.status_code}")
    assert not wrong, wrong
    assert sum(response.status_code == 503 for *_, response in answers) > len(answers) / 2


# --- no secret in the repository ----------------------------------------------------------------

SECRET_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"AKIA[0-9A-Z]{16}"),
    re.compile(r"(?i)(secret_key|password|token)\s*=\s*['\"][A-Za-z0-9+/=_\-]{24,}['\"]"),
    # A URL with a password in it, other than the docs' placeholders.
    re.compile(r"postgres(?:ql)?://[^:/\s]+:(?!password@|pass@)[^@/\s]+@"),
]


def test_no_secret_is_committed() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert ".env" not in listed, ".env holds local secrets: never commit it"
    found = []
    for name in listed:
        path = ROOT / name
        if (
            path.suffix
            not in {
                ".py",
                ".md",
                ".txt",
                ".toml",
                ".cfg",
                ".ini",
                ".yml",
                ".yaml",
                ".json",
                ".env",
                ".sh",
                "",
            }
            or not path.is_file()
        ):
            continue
        text = path.read_text(errors="ignore")
        found += [f"{name}: {p.pattern}" for p in SECRET_PATTERNS if p.search(text)]
    assert not found, found
    assert settings.SECRET_KEY.startswith("dev-insecure") or not settings.DEBUG
