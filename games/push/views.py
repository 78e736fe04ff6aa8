"""The push channel's streams (Server-Sent Events): `GET /rubbers/<id>/events` for a pad and
`GET /clubs/<slug>/console/events/` for the director's console. Each answers as reading its page
would (a hidden or missing rubber: the same 404), then sends

    retry: <ms, with jitter>
    id: <version>
    event: changed
    data: <version>

at once (a client refetches on it, so it misses nothing; a reconnecting client that sends the
version it last heard, as `Last-Event-ID` or `?last=`, gets no event if it has not moved, only
the `retry:` line) and again after each commit that changes what the page shows
(games.push.hooks), with a comment line as a heartbeat every PUSH_HEARTBEAT_SECONDS. Who may read
is checked again at each change, their login read again from their session: when a table's code
dies, a membership ends, the session closes or the reader signs out (their login's channel,
`broker.login_channel`), the hooks publish it and the stream ends (a closed session's pad with
`event: closed`, which tells the client not to come back). Every PUSH_RECHECK_SECONDS (5
minutes) a stream checks again with no change, for a write that sent no signal; more often would
cost the idle room most of its CPU (docs/benchmarks.md). The database connection is given back
after each check: an idle stream holds none."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import AsyncIterator, Callable
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET

from clubs.models import Session
from clubs.policy import may_direct, may_read
from clubs.selectors import club_for_reader

from ..models.state import FACTS
from ..selectors import CodeChanged, rubber_version_for_request
from . import broker
from .versions import console_state, version_of


class Lapsed(Exception):
    """Who holds the stream may no longer read it, or its session has closed (`closed`)."""

    def __init__(self, closed: bool = False) -> None:
        super().__init__()
        self.closed = closed


def _columns() -> list[str]:
    """The expressions of the state's query, in the order of its tuple."""
    found: list[str] = []
    for fact in FACTS:
        depth, start = 0, 0
        for i, char in enumerate(fact.sql):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if char == "," and depth == 0:
                found.append(fact.sql[start:i].strip())
                start = i + 1
        found.append(fact.sql[start:].strip())
    return found


SESSION_STATUS = _columns().index("s.status")


def _released(check: Callable[[], str]) -> Callable[[], str]:
    """`check`, giving its database connection back when done (to the pool, or closed): an
    idle stream holds none. Not inside a transaction (a test's)."""

    @functools.wraps(check)
    def run() -> str:
        try:
            return check()
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return run


def _signed_in_again(request: HttpRequest, fresh: int = 1) -> Callable[[], None]:
    """Who holds the stream, read again from their session at each check but the first `fresh`
    ones (the request's own reading): signed out, their password changed elsewhere or their
    login made inactive, they read as anyone else would, as their next page would."""
    left = [fresh]

    def again() -> None:
        if left[0] > 0:
            left[0] -= 1
            return
        session = getattr(request, "session", None)
        key = getattr(session, "session_key", None)
        if key is not None:
            request.user = _user_of(key)

    return again


def _user_of(key: str) -> User | AnonymousUser:
    """The user the session `key` signs in, as `django.contrib.auth.get_user` finds them (a
    login still active, its password's hash the session's) but writing nothing: a check never
    flushes nor cycles the session of a browser that is not asking."""
    data = import_module(settings.SESSION_ENGINE).SessionStore(key).load()
    backend_path = data.get(BACKEND_SESSION_KEY)
    if SESSION_KEY not in data or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    user_id = get_user_model()._meta.pk.to_python(data[SESSION_KEY])
    user: User | None = load_backend(backend_path).get_user(user_id)
    held = data.get(HASH_SESSION_KEY) or ""
    if user is None or not held:
        return AnonymousUser()
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return user if any(constant_time_compare(held, h) for h in hashes) else AnonymousUser()


def _channels(request: HttpRequest, *channels: str) -> list[str]:
    """The stream's channels, with its signed-in session's (`broker.login_channel`): a
    sign-out tells it at once."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    return [*channels, *([broker.login_channel(key)] if key else [])]


def _rubber_check(request: HttpRequest, pk: int) -> Callable[[], str]:
    signed_in = _signed_in_again(request, fresh=2)  # the view's check, then the stream's first

    def check() -> str:
        signed_in()
        request.__dict__.pop("_table_codes_held", None)  # the code, read again (codes.tokens)
        try:
            state = rubber_version_for_request(request, pk)
        except (Http404, CodeChanged):
            raise Lapsed() from None
        if state and state[SESSION_STATUS] == Session.Status.CLOSED:
            raise Lapsed(closed=True)
        return version_of(state)

    return _released(check)


def _console_check(request: HttpRequest, slug: str) -> Callable[[], str]:
    """The console's check: as `club_for_reader(user, slug, director=True)` decides (a
    director of the club), with the console's version, in one query."""

    signed_in = _signed_in_again(request)

    def check() -> str:
        signed_in()
        user = request.user
        state = console_state(slug, user.pk if user.is_authenticated else None)
        if state is None or not (may_read(state.public, state.role) and may_direct(state.role)):
            raise Lapsed()
        return state.version

    return _released(check)


def _event(version: str) -> str:
    return f"{_retry()}\nid: {version}\nevent: changed\ndata: {version}\n\n"


def _retry() -> str:
    return f"retry: {settings.PUSH_RETRY_MS + random.randint(0, settings.PUSH_RETRY_MS)}"  # nosec B311


def last_event_id(request: HttpRequest) -> str:
    """The version a reconnecting client last heard: the `Last-Event-ID` header an
    EventSource sends when it reconnects, or `?last=` from a client that opens a new one."""
    return (request.headers.get("Last-Event-ID") or request.GET.get("last") or "")[:64]


async def _stream(
    check: Callable[[], str], channels: list[str], last: str = ""
) -> AsyncIterator[str]:
    """Long because one loop says the whole life of a stream: subscribe, tell the current
    version (unless the client, resuming, last heard it), then each change, heartbeats and
    re-checks, until a check lapses."""
    checked = sync_to_async(check, thread_sensitive=False)
    subscription = broker.Subscription(channels)
    try:
        await subscription.ready()
        try:
            version = await checked()
        except Lapsed as lapsed:
            if lapsed.closed:
                yield "event: closed\ndata: closed\n\n"
            return
        # A resumed stream whose version has not moved sends no event (nothing to fetch), only
        # its reconnection delay, so the answer starts at once.
        yield _event(version) if version != last else f"{_retry()}\n\n"
        loop = asyncio.get_running_loop()
        next_check = loop.time() + settings.PUSH_RECHECK_SECONDS
        next_beat = loop.time() + settings.PUSH_HEARTBEAT_SECONDS
        while True:
            wait = max(0.0, min(next_check, next_beat) - loop.time())
            changes = await subscription.changes(wait)
            now = loop.time()
            if changes is None and now < next_check:
                if now >= next_beat:
                    next_beat = now + settings.PUSH_HEARTBEAT_SECONDS
                    yield ": ping\n\n"
                continue
            told = [new for _channel, new in changes or ()]
            passed = told[-1] if told and None not in told else None
            if passed is not None and now < next_check:
                # Only deals were written, which change no one's right to read: their new
                # version came with them (games.push.hooks), passed on with no query. Sent
                # even if it is the one last sent: a deal's write always moves the pad.
                version = passed
                next_beat = now + settings.PUSH_HEARTBEAT_SECONDS
                yield _event(version)
                continue
            try:
                latest = await checked()
            except Lapsed as lapsed:
                if lapsed.closed:
                    yield "event: closed\ndata: closed\n\n"
                return
            next_check = loop.time() + settings.PUSH_RECHECK_SECONDS
            if latest != version:
                version = latest
                next_beat = loop.time() + settings.PUSH_HEARTBEAT_SECONDS
                yield _event(version)
    finally:
        subscription.close()


def _no_stream(request: HttpRequest) -> HttpResponse | None:
    """Through a WSGI server (the test suite's live server, a sync worker), which buffers a
    stream whole, no stream: 204, which an EventSource takes as "no stream here" (the page polls,
    docs/deploy.md), instead of a thread held until the stream's re-check."""
    return None if isinstance(request, ASGIRequest) else HttpResponse(status=204)


def _response(stream: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: send each event at once (docs/deploy.md)
    return response


@require_GET
async def rubber_events(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A pad's stream: read as the pad's live part is (games.pad.live), 404 as a missing
    rubber for anyone who may not."""
    check = _rubber_check(request, pk)
    try:
        await sync_to_async(check)()
    except Lapsed as lapsed:
        if not lapsed.closed:
            raise Http404("No such rubber.") from None
    channels = _channels(request, broker.rubber_channel(pk))
    return _no_stream(request) or _response(_stream(check, channels, last_event_id(request)))


@login_required
@require_GET
async def console_events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The director's console's stream: read as the console is (a director of the club)."""
    club = await sync_to_async(_released(lambda: _club_id(request, slug)))()
    channels = _channels(request, broker.club_channel(int(club)))
    stream = _stream(_console_check(request, slug), channels, last_event_id(request))
    return _no_stream(request) or _response(stream)


def _club_id(request: HttpRequest, slug: str) -> str:
    return str(club_for_reader(request.user, slug, director=True).pk)
