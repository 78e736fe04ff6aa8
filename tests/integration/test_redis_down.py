"""Redis stopped: throttles, the login lockout and /healthz keep working (issue 14, item 5).

A THROWAWAY redis-server on a free port (the shared one on 6379 is never touched) backs the
site's cache and the throttles' cache (config/cache.py); the test stops it. The throttles then
count in the process's memory, the lockout (django-axes keeps it in the database) still locks,
and /healthz reports the dead Redis without waiting on it: its probe is reused for
`PROBE_SECONDS`, and one failed call keeps the throttles off Redis for `RETRY_SECONDS`, so ten
requests open at most one connection to the dead port. (The time /healthz takes then is measured
in docs/benchmarks.md, not asserted here.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from config import health
from config.throttling import CountingThrottle, SignInRateThrottle, WriteRateThrottle, window
from tests.factories import PASSWORD, UserFactory, make_club
from tests.integration.test_standings import ThrowawayRedis, _free_port

pytestmark = [pytest.mark.integration]


@pytest.fixture
def private_redis(settings: Any) -> Iterator[ThrowawayRedis]:
    server = ThrowawayRedis(_free_port())
    server.start()
    settings.REDIS_URL = server.url
    settings.CACHES = {
        alias: {**config, "LOCATION": server.url}
        for alias, config in django_settings.CACHES.items()
    }
    health._probes.clear()
    try:
        yield server
    finally:
        server.stop()
        health._probes.clear()


def _connects(monkeypatch: Any) -> list[int]:
    """Counts the connections redis-py opens from now on."""
    opened: list[int] = []
    original = redis.connection.AbstractConnection.connect

    def connect(self: Any) -> Any:
        opened.append(1)
        return original(self)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", connect)
    return opened


def _throttle_calls_to_redis(monkeypatch: Any) -> list[str]:
    """The names of the calls the throttles' cache sends to Redis from now on."""
    from django_redis.cache import RedisCache

    from config.cache import FallbackRedisCache

    asked: list[str] = []
    for name in ("get", "set", "add", "incr"):
        original = getattr(RedisCache, name)

        def call(
            self: Any, *args: Any, _name: str = name, _original: Any = original, **kw: Any
        ) -> Any:
            if isinstance(self, FallbackRedisCache):
                asked.append(_name)
            return _original(self, *args, **kw)

        monkeypatch.setattr(RedisCache, name, call)
    return asked


def _players_posted(user: Any, club: Any, names: list[str]) -> list[int]:
    client = APIClient()
    client.force_authenticate(user)
    url = f"/api/v1/clubs/{club.slug}/players/"
    return [client.post(url, {"name": n}, format="json").status_code for n in names]


def test_throttles_and_lockout_keep_working_with_redis_stopped(
    private_redis: ThrowawayRedis, monkeypatch: Any, db: Any, settings: Any
) -> None:
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "3/min"})
    monkeypatch.setattr(SignInRateThrottle, "THROTTLE_RATES", {"sign-in": "3/min"})
    held = time.time()  # counts are per minute of the clock: all of them in one
    monkeypatch.setattr(CountingThrottle, "timer", staticmethod(lambda: held))
    first, second = UserFactory(username="first"), UserFactory(username="second")
    club_one = make_club(director=first, slug="one")
    club_two = make_club(director=second, slug="two")

    assert _players_posted(first, club_one, ["A", "B", "C", "D"]) == [201, 201, 201, 429]
    key = f"throttle_writes_{first.pk}:{window(60, held)[0]}"
    assert caches["throttle"].get(key) == 4 and caches["throttle"].local.get(key) is None
    private_redis.stop()
    asked = _throttle_calls_to_redis(monkeypatch)

    assert _players_posted(second, club_two, ["A", "B", "C", "D"]) == [201, 201, 201, 429]
    client = APIClient()
    answers = [
        client.post(
            "/api/v1/auth/token/", {"username": "first", "password": PASSWORD}, format="json"
        ).status_code
        for _ in range(4)
    ]
    assert answers == [200, 200, 200, 429]
    # Eight throttled requests, one call to the dead Redis: the rest counted in memory.
    assert asked == ["add"]
    monkeypatch.setattr(SignInRateThrottle, "THROTTLE_RATES", {"sign-in": "100/min"})
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "second", "password": "wrong"})
    locked = Client().post("/accounts/login/", {"username": "second", "password": PASSWORD})
    assert locked.status_code == 429
    # Failures per address (config/sign_in.py) are counted in memory too.
    settings.SIGN_IN_FAILURES_PER_ADDRESS = django_settings.AXES_FAILURE_LIMIT + 3
    for name in ("x", "y", "z"):
        Client().post("/accounts/login/", {"username": name, "password": "wrong"})
    paused = Client().post("/accounts/login/", {"username": "first", "password": PASSWORD})
    assert paused.status_code == 429


def test_healthz_reports_a_stopped_redis_without_waiting_on_it(
    private_redis: ThrowawayRedis, monkeypatch: Any, db: Any, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr("config.celery.app.conf.broker_url", private_redis.url)
    assert Client().get("/healthz").json()["cache"]["ok"] is True
    private_redis.stop()
    health._probes.clear()
    # A loaded machine may take longer than PROBE_SECONDS for ten calls: what is under test is
    # that a probe's answer is reused, not how fast the calls come.
    monkeypatch.setattr(health, "PROBE_SECONDS", 600.0)
    opened = _connects(monkeypatch)
    bodies = [Client().get("/healthz") for _ in range(10)]
    assert {b.status_code for b in bodies} == {200}
    body = bodies[-1].json()
    assert body["status"] == "degraded"
    assert body["cache"]["ok"] is False and body["broker"]["ok"] is False
    # The cache and the broker are the same Redis: one probe, reused by the other nine calls.
    assert len(opened) == 1
    assert health.PROBE_TIMEOUT <= 0.1
