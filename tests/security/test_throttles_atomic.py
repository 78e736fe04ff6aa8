"""The API throttles count atomically (issue 26, item 4; docs/security.md).

DRF's own throttles keep a list of the last period's requests in the cache, read it, decide and
write it back: two workers (or threads) reading the same list both add to it and one write is
lost. An outside probe got 652 writes through a 600/min limit with 4 threads against 2 workers.
Each throttle now counts with one atomic increment in its window, on Redis as on the local-memory
cache, so parallel clients get at most the limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.test import RequestFactory
from rest_framework.request import Request
from rest_framework.test import APIClient

from config.throttling import SignInRateThrottle, WriteRateThrottle
from tests.conftest import ROOT
from tests.security.conftest import World

#: A fixed clock in the middle of a day: the window cannot roll over while a test runs.
NOON = 1_800_000_000.0 - 1_800_000_000.0 % 86_400 + 43_200
LIMIT = 40
THREADS = 8
EACH = 15


def _request(method: str = "POST", user_pk: int = 7, address: str = "192.0.2.1") -> Request:
    request = Request(RequestFactory().generic(method, "/api/v1/x/", REMOTE_ADDR=address))
    request.user = SimpleNamespace(pk=user_pk, is_authenticated=True)
    return request


def _allowed_in_parallel(
    throttle_class: type[Any], make_request: Any, threads: int = THREADS
) -> int:
    """`threads` threads make EACH requests at once, each through its own throttle (as DRF makes
    one per request); how many were allowed."""
    start = threading.Barrier(threads)
    allowed: list[bool] = []
    lock = threading.Lock()

    def client() -> None:
        start.wait()
        for _ in range(EACH):
            ok = throttle_class().allow_request(make_request(), None)
            with lock:
                allowed.append(ok)

    clients = [threading.Thread(target=client) for _ in range(threads)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join()
    assert len(allowed) == threads * EACH
    return sum(allowed)


#: A web worker of its own: 4 threads writing as one user, once the test says go.
WORKER = f"""
import sys, django
django.setup()
from config.throttling import WriteRateThrottle
from tests.security.test_throttles_atomic import _allowed_in_parallel, _request
WriteRateThrottle.THROTTLE_RATES = {{"writes": "{LIMIT}/day"}}
WriteRateThrottle.timer = staticmethod(lambda: {NOON})
print("ready", flush=True)
sys.stdin.readline()
print(_allowed_in_parallel(WriteRateThrottle, _request, threads=4), flush=True)
"""


@pytest.fixture
def fixed_clock(monkeypatch: Any) -> None:
    for throttle_class in (WriteRateThrottle, SignInRateThrottle):
        monkeypatch.setattr(throttle_class, "timer", staticmethod(lambda: NOON))


@pytest.mark.integration
def test_parallel_writes_on_redis_get_at_most_the_limit(monkeypatch: Any, fixed_clock: Any) -> None:
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": f"{LIMIT}/day"})
    for _ in range(3):  # a lost update is a race: give it a few rounds to show
        allowed = _allowed_in_parallel(WriteRateThrottle, _request)
        assert allowed == LIMIT
        WriteRateThrottle().cache.clear()


@pytest.mark.integration
def test_parallel_sign_ins_on_redis_get_at_most_the_limit(
    monkeypatch: Any, fixed_clock: Any
) -> None:
    monkeypatch.setattr(SignInRateThrottle, "THROTTLE_RATES", {"sign-in": f"{LIMIT}/day"})
    for _ in range(3):
        allowed = _allowed_in_parallel(SignInRateThrottle, _request)
        assert allowed == LIMIT
        SignInRateThrottle().cache.clear()


@pytest.mark.integration
def test_two_processes_of_four_threads_get_at_most_the_limit() -> None:
    """The probe's shape: two web workers, four threads each, one user, one Redis."""
    env = {
        **os.environ,
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for worker in workers:
            assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write("go\n")
            worker.stdin.flush()
        allowed = [int(worker.communicate(timeout=60)[0]) for worker in workers]
    finally:
        for worker in workers:
            worker.kill()
    assert sum(allowed) == LIMIT


def test_parallel_writes_in_local_memory_get_at_most_the_limit(
    monkeypatch: Any, fixed_clock: Any
) -> None:
    """`make run` counts in this process's memory (and so does a web process while Redis is
    down, config/cache.py): the same at most."""
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": f"{LIMIT}/day"})
    assert _allowed_in_parallel(WriteRateThrottle, _request) == LIMIT


def test_the_window_ends_and_retry_after_says_when(monkeypatch: Any) -> None:
    clock = [NOON + 20.0]
    monkeypatch.setattr(WriteRateThrottle, "timer", staticmethod(lambda: clock[0]))
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "3/min"})
    answers = [WriteRateThrottle().allow_request(_request(), None) for _ in range(4)]
    assert answers == [True, True, True, False]
    refused = WriteRateThrottle()
    assert refused.allow_request(_request(), None) is False
    assert refused.wait() == pytest.approx(40.0)  # the minute's window ends 40 s from now
    # Another user, and a read, are not counted against this one.
    assert WriteRateThrottle().allow_request(_request(user_pk=8), None) is True
    assert WriteRateThrottle().allow_request(_request("GET"), None) is True
    clock[0] = NOON + 60.0
    assert WriteRateThrottle().allow_request(_request(), None) is True


def test_a_throttled_write_answers_429_with_retry_after(world: World, monkeypatch: Any) -> None:
    monkeypatch.setattr(WriteRateThrottle, "timer", staticmethod(lambda: NOON + 45.5))
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "1/min"})
    client = APIClient()
    client.force_authenticate(world.users["director"])
    url = f"/api/v1/clubs/{world.club.slug}/players/"
    assert client.post(url, {"name": "Gus"}, format="json").status_code == 201
    response = client.post(url, {"name": "Hal"}, format="json")
    assert response.status_code == 429
    assert response["Retry-After"] == "15"
    assert "throttled" in response.json()["detail"].lower()
