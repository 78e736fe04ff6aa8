"""The web processes' ASGI handler (config/handler.py) answers every kind of request as
Django's ASGIHandler does, status, headers and body alike, with one hand-over to the request's
thread per sync request where Django's takes several; a push stream still streams from the event
loop. Each request goes through the handler as uvicorn sends it (an ASGI scope, receive, send)."""

from __future__ import annotations

import asyncio
import os
import random
import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from knox.models import AuthToken

import config.urls
from config.handler import Handler

# The streams and the handlers' threads read the test's data: it must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


def _boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a view that fails")


#: The site's URLs and one view that raises (ROOT_URLCONF in the tests that need it).
urlpatterns = [path("boom", _boom), *config.urls.urlpatterns]

EXPIRES = re.compile(rb"expires=[^;]*; ?", re.IGNORECASE)


class Answer:
    def __init__(self) -> None:
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = b""
        self.first_part = asyncio.Event()

    def same_as(self) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """What must match: a cookie's expiry and the Expires header (a page that is never
        cached expires now) are the clock's, to the second, so two answers a second apart
        differ there."""
        headers = [
            (k, b"" if k.lower() == b"expires" else EXPIRES.sub(b"", v)) for k, v in self.headers
        ]
        return self.status, headers, self.body


def serve(
    handler: ASGIHandler,
    url: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes = b"",
    stream: bool = False,
) -> Answer:
    """One request through `handler`; a stream is read to its first part, then the client
    goes away."""
    path_, _, query = url.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path_,
        "raw_path": path_.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        + [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    answer = Answer()

    async def run() -> None:
        sent_body = False

        async def receive() -> dict[str, Any]:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            if stream:
                await answer.first_part.wait()
            else:
                await asyncio.Event().wait()  # until the handler stops listening
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer.status = message["status"]
                answer.headers = list(message["headers"])
            else:
                answer.body += message.get("body", b"")
                if answer.body:
                    answer.first_part.set()

        random.seed(28)  # the stream's reconnection jitter
        await asyncio.wait_for(handler(scope, receive, send), 20)  # type: ignore[arg-type]

    async_to_sync(run)()
    return answer


@pytest.fixture(autouse=True)
def _same_tokens(settings: Any) -> Iterator[None]:
    """The CSRF token's mask and a new secret are random: here the same for both handlers."""
    settings.ROOT_URLCONF = __name__
    settings.REDIS_URL = ""  # the push broker delivers in this process
    with mock.patch(
        "django.middleware.csrf.get_random_string",
        side_effect=lambda length, allowed_chars: allowed_chars[:length].ljust(length, "a"),
    ):
        yield


@pytest.fixture
def handovers() -> Iterator[list[str]]:
    """The names of the sync functions handed to a thread (asgiref's sync_to_async)."""
    called: list[str] = []
    real = SyncToAsync.__call__

    async def counted(self: SyncToAsync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        called.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real(self, *args, **kwargs)

    with mock.patch.object(SyncToAsync, "__call__", counted):
        yield called


@pytest.fixture
def member(running_session: Any) -> dict[str, Any]:
    """North's session cookie and API token, and the rubber North plays."""
    rubber = running_session.rubbers.get(number=1)
    north = rubber.seats["N"].user
    client = Client()
    client.force_login(north)
    _, token = AuthToken.objects.create(north)
    return {
        "rubber": rubber,
        "cookie": f"sessionid={client.cookies['sessionid'].value}",
        "token": token,
        "etag": client.get(f"/rubbers/{rubber.pk}/live")["ETag"],
    }


def csrf_post(data: str) -> dict[str, Any]:
    token = "x" * 32
    return {
        "method": "POST",
        "headers": {
            "Cookie": f"csrftoken={token}",
            "X-CSRFToken": token,
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": str(len(data)),
        },
        "body": data.encode(),
    }


def requests(member: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    rubber = member["rubber"]
    signed_in = {"Cookie": member["cookie"]}
    return [
        ("home page", "/", {}),
        ("a signed-in pad", f"/rubbers/{rubber.pk}/", {"headers": signed_in}),
        ("the sign-in form", "/accounts/login/", {}),
        (
            "API with a token",
            "/api/v1/clubs/",
            {"headers": {"Authorization": f"Token {member['token']}"}},
        ),
        ("a POST with its CSRF token", "/i18n/setlang/", csrf_post("language=fr&next=/")),
        (
            "a POST without one",
            "/i18n/setlang/",
            {**csrf_post("language=fr"), "headers": {"Content-Length": "11"}},
        ),
        ("a missing page", "/no-such-page/", {}),
        (
            "an unchanged pad",
            f"/rubbers/{rubber.pk}/live",
            {"headers": {**signed_in, "If-None-Match": member["etag"]}},
        ),
        ("a raising view", "/boom", {}),
    ]


def test_both_handlers_answer_each_request_alike(member: dict[str, Any]) -> None:
    ours, djangos = Handler(), ASGIHandler()
    statuses = []
    for name, url, kwargs in requests(member):
        mine, theirs = serve(ours, url, **kwargs), serve(djangos, url, **kwargs)
        assert mine.same_as() == theirs.same_as(), name
        statuses.append(mine.status)
    assert statuses == [200, 200, 200, 200, 302, 403, 404, 304, 500]


def test_a_push_stream_sends_its_first_event_alike(member: dict[str, Any]) -> None:
    url = f"/rubbers/{member['rubber'].pk}/events"
    mine = serve(Handler(), url, headers={"Cookie": member["cookie"]}, stream=True)
    theirs = serve(ASGIHandler(), url, headers={"Cookie": member["cookie"]}, stream=True)
    assert mine.status == 200
    assert (b"content-type", b"text/event-stream") in [(k.lower(), v) for k, v in mine.headers]
    assert mine.body.startswith(b"retry: ") and b"event: changed" in mine.body
    assert mine.same_as() == theirs.same_as()


def test_a_request_too_large_is_refused_alike(member: dict[str, Any], settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    post = csrf_post("language=fr&next=/")
    assert serve(Handler(), "/i18n/setlang/", **post).status == 400
    assert serve(Handler(), "/i18n/setlang/", **post).same_as() == (
        serve(ASGIHandler(), "/i18n/setlang/", **post).same_as()
    )


def test_a_sync_request_is_one_handover(member: dict[str, Any], handovers: list[str]) -> None:
    handler = Handler()
    for name, url, kwargs in requests(member):
        handovers.clear()
        serve(handler, url, **kwargs)
        assert handovers == ["Handler._respond"], name
    # Django's own takes several: the signal, the chain, the view, the close...
    handovers.clear()
    serve(ASGIHandler(), "/", **requests(member)[0][2])
    assert len(handovers) >= 4


def test_the_signals_come_once_each_and_the_stream_closes_after_its_end(
    member: dict[str, Any],
) -> None:
    seen: list[str] = []

    def started(**kwargs: Any) -> None:
        seen.append("started")

    def finished(**kwargs: Any) -> None:
        seen.append("finished")

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        serve(Handler(), "/")
        assert seen == ["started", "finished"]
        seen.clear()
        url = f"/rubbers/{member['rubber'].pk}/events"
        serve(Handler(), url, headers={"Cookie": member["cookie"]}, stream=True)
        assert seen == ["started", "finished"]
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)


def test_the_site_serves_this_handler() -> None:
    # The entry point sets the pool's size in the environment: others read it afterwards.
    with mock.patch.dict(os.environ):
        from config.asgi import application

    assert isinstance(application, Handler)
