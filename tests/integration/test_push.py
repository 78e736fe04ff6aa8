"""The push channel on real servers (issue 28): two web processes sharing Redis serve one room
(a deal entered through one reaches a stream held on the other), a process whose Redis
subscription is cut subscribes again, and hundreds of idle streams with a few slow-header
sockets never stop a normal request from being answered."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from knox.models import AuthToken

from games.models import Rubber
from tests.conftest import wait_for
from tests.factories import UserFactory, add_player, make_club, make_session
from tests.integration.test_concurrency import call, free_port, gunicorn, stop, wait_healthy

pytestmark = pytest.mark.integration


@contextlib.contextmanager
def server(env: dict[str, str]) -> Iterator[str]:
    """One web process (one uvicorn worker) on a free port, as `make serve` runs it."""
    port = free_port()
    proc = gunicorn({**env, "WEB_CONCURRENCY": "1"}, port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base)
        yield base
    finally:
        stop(proc)


@pytest.fixture
def room() -> tuple[Rubber, str]:
    """A public club's rubber in play, and its North's API token."""
    club = make_club(director=UserFactory(username="td"), slug="room")
    seated = [add_player(club, f"P{s}", user=UserFactory(username=f"p{s}")) for s in "NESW"]
    rubber = make_session(club, [seated]).rubbers.get(number=1)
    return rubber, AuthToken.objects.create(user=seated[0].user)[1]


class Stream:
    """A raw SSE client: the request's bytes, then the messages as they come."""

    def __init__(self, base: str, path: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=20)
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.buffer = b""

    def message(self) -> str:
        """The next message (blank-line terminated) after the response's headers."""
        while (
            b"\n\n" not in self.buffer.split(b"\r\n\r\n", 1)[-1] or b"\r\n\r\n" not in self.buffer
        ):
            chunk = self.sock.recv(4096)
            if not chunk:
                raise AssertionError("the stream ended")
            self.buffer += chunk
        head, body = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 200"), head[:100]
        # chunked transfer: drop the chunk-size lines
        text = b"\n".join(line for line in body.split(b"\r\n") if not _is_hex(line)).decode()
        message, rest = text.split("\n\n", 1)
        self.buffer = head + b"\r\n\r\n" + rest.encode()
        return message

    def close(self) -> None:
        self.sock.close()


def _is_hex(line: bytes) -> bool:
    return bool(line) and all(c in b"0123456789abcdefABCDEF" for c in line)


def field(message: str, name: str) -> str:
    return next(line.split(": ", 1)[1] for line in message.splitlines() if line.startswith(name))


def test_a_deal_entered_through_one_process_reaches_a_stream_on_another(
    worker_env: dict[str, str], room: tuple[Rubber, str]
) -> None:
    rubber, token = room
    # No periodic re-check: only the event published through Redis can tell the first process.
    env = {**worker_env, "PUSH_RECHECK_SECONDS": "3600"}
    with server(env) as first, server(env) as second:
        stream = Stream(first, f"/rubbers/{rubber.pk}/events")
        try:
            before = stream.message()
            assert field(before, "event") == "changed"
            deal = {"number": 1, "contract": "2H", "declarer": "N", "tricks": 9}
            status, body = call("POST", f"{second}/api/v1/rubbers/{rubber.pk}/deals/", token, deal)
            assert status == 201, body
            after = stream.message()  # the socket's timeout fails a stream that never hears
            assert field(after, "event") == "changed"
            assert field(after, "data") != field(before, "data")
        finally:
            stream.close()


def _subscribers(client: redis.Redis) -> set[int]:
    """The ids of the pattern subscribers on this test's Redis database (the web processes')."""
    db = client.connection_pool.connection_kwargs.get("db", 0)
    return {
        int(c["id"])
        for c in client.client_list(_type="pubsub")
        if int(c["db"]) == db and int(c["psub"]) > 0
    }


def test_a_stream_still_hears_a_deal_after_redis_drops_the_subscription(
    worker_env: dict[str, str], room: tuple[Rubber, str]
) -> None:
    rubber, token = room
    client = redis.Redis.from_url(settings.REDIS_URL)
    others = _subscribers(client)  # other processes' on this database, left alone
    env = {**worker_env, "PUSH_RECHECK_SECONDS": "3600", "PUSH_HEARTBEAT_SECONDS": "3600"}
    with server(env) as base:
        stream = Stream(base, f"/rubbers/{rubber.pk}/events")
        try:
            before = stream.message()  # sent once the process is subscribed
            ours = _subscribers(client) - others
            assert ours
            for pk in ours:  # as `CLIENT KILL TYPE pubsub` does, to this process's only
                client.client_kill_filter(_id=pk)
            wait_for(lambda: _subscribers(client) - others - ours, timeout=20)
            deal = {"number": 1, "contract": "2H", "declarer": "N", "tricks": 9}
            status, body = call("POST", f"{base}/api/v1/rubbers/{rubber.pk}/deals/", token, deal)
            assert status == 201, body
            after = stream.message()  # the socket's timeout fails a stream that never hears
            assert field(after, "event") == "changed"
            assert field(after, "data") != field(before, "data")
        finally:
            stream.close()
            client.close()


def test_idle_streams_and_slow_sockets_never_stop_a_normal_request(
    worker_env: dict[str, str], room: tuple[Rubber, str]
) -> None:
    rubber, _ = room
    streams: list[Any] = []
    slow: list[socket.socket] = []
    with server(worker_env) as base:
        try:
            for _ in range(200):
                stream = Stream(base, f"/rubbers/{rubber.pk}/events")
                streams.append(stream)
            for stream in streams:
                assert field(stream.message(), "event") == "changed"
            host, port = base.removeprefix("http://").split(":")
            for _ in range(3):
                sock = socket.create_connection((host, int(port)), timeout=20)
                sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n".encode())  # never ends
                slow.append(sock)
            status, _body = call("GET", f"{base}/api/v1/rubbers/{rubber.pk}/")
            assert status == 200
            assert call("GET", f"{base}/healthz")[0] == 200
        finally:
            for stream in streams:
                stream.close()
            for sock in slow:
                sock.close()
