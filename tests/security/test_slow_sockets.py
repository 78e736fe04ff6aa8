"""Slow connections cannot take the site down (issue 26, item 2; docs/security.md, docs/deploy.md).

The web server as `make serve` runs it (the `web` fixture: the same gunicorn configuration file),
on PostgreSQL and Redis. SLOW sockets each send a request line and then one header line every
~2.5 s, never finishing their headers (a slowloris). While they hang, normal requests (the API's
list of clubs and the health check, both reading the database) must each be answered within a
second. With gunicorn's sync workers each worker blocked on one slow socket's headers and nothing
else was answered; an asyncio server reads every socket's headers as they come.

The slow sockets must still be connected at the end: the test proves the normal requests were
answered beside them, not because the server had dropped them.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SLOW = 50
HEADER_EVERY = 2.5  # seconds between two header lines of one slow socket
NORMAL = 16  # normal requests, one every PAUSE seconds while the slow sockets hang
PAUSE = 0.5
ANSWER_WITHIN = 1.0
CLUBS = "/api/v1/clubs/"  # the clubs anyone may see: DRF and a query


class Slowloris:
    """SLOW sockets, each sending its headers a line at a time from one thread."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.sockets: list[socket.socket] = []
        self.broken: list[str] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)

    def open(self) -> None:
        for n in range(SLOW):
            sock = socket.create_connection((self.host, self.port), timeout=5)
            sock.sendall(f"GET /?slow={n} HTTP/1.1\r\nHost: {self.host}\r\n".encode())
            self.sockets.append(sock)
        self.thread.start()

    def _drip(self) -> None:
        line = 0
        # Spread the sockets' lines over the interval, as independent clients would send them.
        while not self.stopping.wait(HEADER_EVERY / SLOW):
            sock = self.sockets[line % SLOW]
            try:
                sock.sendall(f"X-Slow-{line}: a\r\n".encode())
            except OSError as exc:
                self.broken.append(f"socket {line % SLOW}: {exc!r}")
            line += 1

    def still_connected(self) -> int:
        """How many slow sockets the server has neither answered nor closed."""
        alive = 0
        for sock in self.sockets:
            sock.setblocking(False)
            try:
                sock.recv(1)  # an answer, or b"" for a close: not hanging any more
            except BlockingIOError:
                alive += 1
            except OSError:
                pass
        return alive

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def timed_get(host: str, port: int, path: str) -> tuple[int | None, float]:
    """The status of one ordinary request and the seconds it took (None: no answer in 2 s)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(host, port, timeout=2)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    except OSError:
        return None, time.monotonic() - started
    finally:
        connection.close()


def test_fifty_slow_header_sockets_do_not_delay_normal_requests(web: str) -> None:
    address = urlsplit(web)
    host, port = address.hostname or "127.0.0.1", address.port or 80
    # Warm both workers first (each loads the API and opens its pool on its first requests):
    # the test is about slow sockets, not about a worker's first request.
    for path in (CLUBS, "/healthz") * 4:
        assert timed_get(host, port, path)[0] == 200
    slow = Slowloris(host, port)
    slow.open()
    answers = []
    try:
        time.sleep(1)  # every slow socket has been accepted and is mid-headers
        for n in range(NORMAL):
            answers.append(timed_get(host, port, CLUBS if n % 2 else "/healthz"))
            time.sleep(PAUSE)
        connected = slow.still_connected()
    finally:
        slow.close()

    late = [(n, status, round(took, 2)) for n, (status, took) in enumerate(answers)]
    late = [a for a in late if a[1] != 200 or a[2] > ANSWER_WITHIN]
    assert not late, f"{len(late)} of {NORMAL} not answered 200 within {ANSWER_WITHIN}s: {late}"
    assert not slow.broken, slow.broken[:3]
    assert connected == SLOW, f"only {connected} of {SLOW} slow sockets were still hanging"
