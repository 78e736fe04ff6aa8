"""The cached reads' fast path answers as DRF does (scoring/shared/cache.py `cached_or_drf`;
issue 33).

A stranger's plain GET of a cached leaderboard or scoresheet is answered with the cached bytes
without DRF. Each request here is made with the fast path and again with it turned off (every
request then goes through the DRF view, as before), after a first request that fills the cache,
and the two answers must be the same: status, body and every header (the security ones
included), for a stranger, a token, a bad token, an outsider's token and a signed-in session, on
a public and a members-only club, for hidden and missing objects; and the fast path must have
answered the strangers' hits without entering DRF.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from knox.models import AuthToken
from rest_framework.views import APIView

import scoring.shared.cache as answers
from games.models import Rubber

pytestmark = pytest.mark.django_db

#: The browsable API's page carries a fresh CSRF token each time (in its body and cookie).
TOKEN = re.compile(r'(csrftoken=|csrfmiddlewaretoken" value="|"csrfToken": ")[^;"]+')
EXPIRES = re.compile(r"expires=[^;]+;")
ACCEPTS = (None, "application/json", "*/*", "text/html", "application/json; indent=2")


def _clients(night: Any) -> dict[str, Any]:
    north = night.players["north"].user
    _, token = AuthToken.objects.create(north)
    _, outsider = AuthToken.objects.create(night.users["outsider"])

    def signed_in() -> Client:
        client = Client()
        client.force_login(north)
        return client

    return {
        "anonymous": Client,
        "token": lambda: Client(HTTP_AUTHORIZATION=f"Token {token}"),
        "outsider token": lambda: Client(HTTP_AUTHORIZATION=f"Token {outsider}"),
        "bad token": lambda: Client(HTTP_AUTHORIZATION="Token nonsense"),
        "session": signed_in,
    }


def _urls(night: Any) -> list[str]:
    rubber = Rubber.objects.filter(session=night.running).first()
    assert rubber is not None
    return [
        f"/api/v1/rubbers/{rubber.pk}/",
        f"/api/v1/clubs/{night.club.slug}/leaderboard",
        f"/api/v1/clubs/{night.club.slug}/leaderboard?kind=bridge",
        f"/api/v1/rubbers/{rubber.pk}/?format=json",
        "/api/v1/rubbers/999999/",  # missing
        "/api/v1/clubs/nowhere/leaderboard",
    ]


def _answer(client: Any, url: str, accept: str | None) -> tuple[int, bytes, list]:
    extra = {} if accept is None else {"HTTP_ACCEPT": accept}
    response = client().get(url, **extra)
    headers = sorted((k.lower(), v) for k, v in response.headers.items())
    cookies = sorted(EXPIRES.sub("", TOKEN.sub("…", str(c))) for c in response.cookies.values())
    body = TOKEN.sub("…", response.content.decode()).encode()
    return response.status_code, body, [*headers, *(("cookie", c) for c in cookies)]


@pytest.fixture
def drf_calls(monkeypatch: Any) -> list[str]:
    """The requests that entered a DRF view."""
    seen: list[str] = []
    real = APIView.dispatch

    def dispatch(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(request.path)
        return real(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "dispatch", dispatch)
    return seen


@pytest.mark.parametrize("public", [True, False], ids=["public club", "members-only club"])
def test_the_fast_path_answers_as_drf(
    settings: Any, director: Any, public: bool, monkeypatch: Any, drf_calls: list[str]
) -> None:
    from tests.factories import build_night

    settings.LEADERBOARD_CACHE_SECONDS = 60
    settings.RUBBER_CACHE_SECONDS = 60
    night = build_night(director=director, public=public)
    fast_hits = 0
    statuses = set()
    for who, client in _clients(night).items():
        # Everyone else is DRF's by construction: their plain reads are checked, not every form.
        urls = _urls(night) if who == "anonymous" else _urls(night)[:2]
        for url in urls:
            for accept in ACCEPTS if who == "anonymous" else ACCEPTS[:1]:
                _answer(client, url, accept)  # fills the cache (a miss is DRF's)
                drf_calls.clear()
                fast = _answer(client, url, accept)
                served_fast = not drf_calls
                with monkeypatch.context() as off:
                    off.setattr(answers, "_plain_stranger", lambda request: False)
                    slow = _answer(client, url, accept)
                assert fast == slow, (who, url, accept)
                statuses.add((who, url, accept, fast[0], served_fast))
                fast_hits += served_fast
                assert ("x-frame-options", "DENY") in fast[2]
                assert any(name == "content-security-policy" for name, _ in fast[2])
    # Only a stranger's plain JSON hits skip DRF; everyone else's answer is DRF's own.
    fast = {(who, url, accept) for who, url, accept, _, served in statuses if served}
    assert {who for who, _, _ in fast} <= {"anonymous"}
    assert all("?" not in url and accept in ACCEPTS[:3] for _, url, accept in fast)
    if public:
        # Both cached reads of a public club, for each plain Accept: 2 URLs × 3.
        assert fast_hits == 6
        assert all(status == 200 for *_, status, served in statuses if served)
    else:
        assert fast_hits == 0  # a stranger may not read them: DRF's 404


def test_a_hidden_object_answers_as_a_missing_one(settings: Any, director: Any) -> None:
    from tests.factories import build_night

    settings.LEADERBOARD_CACHE_SECONDS = 60
    settings.RUBBER_CACHE_SECONDS = 60
    night = build_night(director=director, public=False)
    rubber = Rubber.objects.filter(session=night.running).first()
    assert rubber is not None
    hidden = _answer(Client, f"/api/v1/rubbers/{rubber.pk}/", None)
    missing = _answer(Client, "/api/v1/rubbers/999999/", None)
    assert hidden[0] == 404
    assert hidden == missing
    board = _answer(Client, f"/api/v1/clubs/{night.club.slug}/leaderboard", None)
    nowhere = _answer(Client, "/api/v1/clubs/nowhere/leaderboard", None)
    assert board[0] == 404
    assert board == nowhere


def test_a_new_version_is_not_answered_from_the_old_bytes(
    settings: Any, director: Any, drf_calls: list[str]
) -> None:
    """The fast path reads the version first: a deal written makes the next GET a miss (DRF)."""
    from tests.factories import acting, build_night

    settings.RUBBER_CACHE_SECONDS = 60
    night = build_night(director=director, public=True)
    rubber = Rubber.objects.filter(session=night.running).first()
    assert rubber is not None
    url = f"/api/v1/rubbers/{rubber.pk}/"
    first = Client().get(url).content
    drf_calls.clear()
    assert Client().get(url).content == first and not drf_calls
    rubber.record_deal(
        number=1, contract="2H", declarer="N", tricks=9, actor=acting(rubber, director)
    )
    after = Client().get(url)
    assert drf_calls == [url]
    assert after.json()["deals"] and after.content != first
