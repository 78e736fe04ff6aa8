"""Standings computed by a real Celery worker on PostgreSQL and Redis (issue 6).

Entry never waits on the broker: with Redis gone, deals are still saved, only the first write in a
back-off tries the broker, the standings say `stale`, and they converge once Redis and the worker
are back.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from kombu import pools

from config.celery import app
from scoring.standings import queueing, services
from scoring.standings.models import SessionStanding, SessionStandingsState
from tests.conftest import Worker, missing, wait_for
from tests.factories import add_player, make_session

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _short_backoff(settings: Any) -> Iterator[None]:
    # A short publish back-off and claim lifetime keep the recovery paths inside the test's time.
    settings.STANDINGS_BROKER_BACKOFF = 1
    settings.STANDINGS_CLAIM_TTL = 5
    queueing._broker_down_until = 0.0
    yield
    queueing._broker_down_until = 0.0


@pytest.fixture
def room(club: Any, table_of_four: dict[str, Any]) -> Any:
    more = [add_player(club, name) for name in ("Alice", "Bob", "Carol", "Dan")]
    return make_session(club, [list(table_of_four.values()), more])


def post_deal(api: Any, rubber_id: int, number: int, contract: str, declarer: str, tricks: int):
    response = api.post(
        f"/api/v1/rubbers/{rubber_id}/deals/",
        {"number": number, "contract": contract, "declarer": declarer, "tricks": tricks},
        format="json",
    )
    assert response.status_code in (200, 201), response.content
    return response.json()


def connections_to(port: int, monkeypatch: Any) -> list[int]:
    """Counts the connections redis-py tries to open to `port` from now on (the broker's)."""
    tried: list[int] = []
    original = redis.connection.AbstractConnection.connect

    def connect(self: Any) -> Any:
        if getattr(self, "port", None) == port:
            tried.append(port)
        return original(self)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", connect)
    return tried


def in_play(session: Any, table: int) -> int:
    return session.rubbers.get(table__number=table, status="in_play").pk


def converged(session: Any) -> bool:
    """Fresh, and equal to what a computation from the deals gives now."""
    state = SessionStandingsState.objects.filter(session=session).first()
    return bool(
        state
        and not state.stale
        and state.computed_at
        and not services.standings_differences(session_id=session.pk)
    )


def ns_win_at_table_1(api: Any, room: Any, director: Any) -> None:
    """The director posts two made 4S for NS at table 1 (RULES 2.4: a rubber won 2–0), then
    waits for the worker's refresh to converge."""
    api.force_authenticate(director)
    rubber = in_play(room, 1)
    post_deal(api, rubber, 1, "4S", "N", 10)
    post_deal(api, rubber, 2, "4S", "N", 10)
    wait_for(lambda: converged(room), timeout=30)


def test_deals_posted_through_the_api_reach_the_standings(
    celery_worker_process, api, room, director
):
    ns_win_at_table_1(api, room, director)
    body = api.get(f"/api/v1/sessions/{room.pk}/standings").json()
    assert body["stale"] is False
    assert sorted(p["hundreds"] for p in body["players"] if p["table"] == 1) == [-9, -9, 9, 9]


def test_the_nightly_rebuild_fans_out_to_the_worker_and_repairs(
    celery_worker_process, api, room, director
):
    from celery.result import AsyncResult

    from scoring.standings.tasks import fan_out_standings_rebuild

    ns_win_at_table_1(api, room, director)
    SessionStanding.objects.filter(session=room, rank=1).update(hundreds=99)  # a hand edit
    finish = fan_out_standings_rebuild.apply_async().get(timeout=30)
    summary = AsyncResult(finish, app=app).get(timeout=60)
    assert summary["differences"] == {str(room.pk): ["standings"]}
    assert summary["failed"] == [] and summary["sessions"] >= 1
    assert converged(room)
    again = AsyncResult(fan_out_standings_rebuild.apply_async().get(timeout=30), app=app)
    assert again.get(timeout=60)["repaired"] == 0


def test_a_worker_killed_with_sigkill_converges_after_restart(
    celery_worker_process, api, room, director
):
    api.force_authenticate(director)
    post_deal(api, in_play(room, 1), 1, "4S", "N", 10)
    post_deal(api, in_play(room, 2), 1, "3NT", "E", 9)
    celery_worker_process.kill()  # SIGKILL, perhaps in the middle of a refresh
    t1, t2 = in_play(room, 1), in_play(room, 2)
    post_deal(api, t1, 2, "4S", "N", 10)  # completes table 1's rubber
    post_deal(api, t2, 2, "2H", "W", 8)
    for number in range(3, 8):
        post_deal(api, t2, number, "4S", "N", 9)  # one down each: no game
    assert api.get(f"/api/v1/sessions/{room.pk}/standings").json()["stale"] is True
    celery_worker_process.start()

    def caught_up() -> bool:
        # Beat's minute sweep, sped up: re-queues a refresh whose message the kill lost.
        queueing.standings_queue_stale()
        return converged(room)

    wait_for(caught_up, timeout=45, interval=1)
    assert SessionStanding.objects.filter(session=room, rubbers=1).count() == 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayRedis:
    """A private redis-server on its own port (the system Redis is never touched)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._answers, timeout=10, interval=0.1)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def _point_celery_at(url: str) -> None:
    """Make this process's Celery app publish to `url` (its connection pools are rebuilt)."""
    pools.reset()  # closes and forgets every pooled connection, whatever its URL
    app._pool = None
    app.amqp._producer_pool = None
    app.conf.broker_url = url


@pytest.fixture
def throwaway_redis() -> Iterator[ThrowawayRedis]:
    if not shutil.which("redis-server"):
        missing("redis-server is not installed")
    original = app.conf.broker_url
    server = ThrowawayRedis(_free_port())
    server.start()
    _point_celery_at(server.url)
    try:
        yield server
    finally:
        server.stop()
        _point_celery_at(original)


def test_with_redis_down_entry_is_saved_standings_turn_stale_then_converge(
    throwaway_redis, worker_env, api, room, director, monkeypatch, settings
):
    worker = Worker({**worker_env, "REDIS_URL": throwaway_redis.url})
    worker.start()
    try:
        api.force_authenticate(director)
        post_deal(api, in_play(room, 1), 1, "4S", "N", 10)
        wait_for(lambda: converged(room), timeout=30)

        worker.stop()
        throwaway_redis.stop()
        t1, t2 = in_play(room, 1), in_play(room, 2)
        burst = [
            (t1, 2, "4S", "N", 10),
            (t2, 1, "3NT", "E", 9),
            (t2, 2, "2H", "W", 8),
            (t2, 3, "4S", "N", 9),
        ]
        settings.STANDINGS_BROKER_BACKOFF = 3600  # the burst lies inside one back-off
        tried = connections_to(throwaway_redis.port, monkeypatch)
        post_deal(api, *burst[0])  # saved, though the broker is down
        first = len(tried)
        for deal in burst[1:]:
            post_deal(api, *deal)
        # Only the first write tries the dead broker (no retry loop: CELERY_TASK_PUBLISH_RETRY);
        # the back-off spares the writes after it any wait on the broker.
        assert first >= 1
        assert len(tried) == first, tried
        body = api.get(f"/api/v1/sessions/{room.pk}/standings").json()
        assert body["stale"] is True
        assert not converged(room)

        throwaway_redis.start()  # back, empty: the messages that could not be sent are gone
        worker.start()
        queueing._broker_down_until = 0.0  # the back-off ends (it would after an hour)

        def caught_up() -> bool:
            queueing.standings_queue_stale()  # what beat runs every minute
            return converged(room)

        wait_for(caught_up, timeout=45, interval=1)
        body = api.get(f"/api/v1/sessions/{room.pk}/standings").json()
        assert body["stale"] is False
        assert sorted(p["hundreds"] for p in body["players"] if p["table"] == 1) == [-9, -9, 9, 9]
    finally:
        worker.stop()
