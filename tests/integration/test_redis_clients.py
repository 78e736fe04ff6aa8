"""Every Redis client of ours connects without redis-py's maintenance notifications
(config/settings.py ``REDIS_CLIENT_OPTIONS``): a managed cluster's feature, tried on each new
connection by default, refused by Redis 7, and the step in which a push's publish failed once
under load (AttributeError inside ``_enable_maintenance_notifications``, bench_http.py on
2026-12-05)."""

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import caches

from config import health
from games.push import broker

pytestmark = pytest.mark.integration


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, ...]]]:
    """The commands every new or reused connection sends, as (name, ...) tuples."""
    commands: list[tuple[Any, ...]] = []
    cls = redis.connection.AbstractConnection
    send, pack_many = cls.send_command, cls.pack_commands

    def note(args: tuple[Any, ...]) -> None:
        commands.append(tuple(a.upper() if isinstance(a, str) else a for a in args))

    def spy_send(self: Any, *args: Any, **kwargs: Any) -> None:
        note(args)
        send(self, *args, **kwargs)

    def spy_pipeline(self: Any, many: Any) -> Any:  # a pipeline's commands, packed together
        many = list(many)
        for args in many:
            note(tuple(args))
        return pack_many(self, many)

    monkeypatch.setattr(cls, "send_command", spy_send)
    monkeypatch.setattr(cls, "pack_commands", spy_pipeline)
    yield commands


def _asked_for_notifications(commands: list[tuple[Any, ...]]) -> bool:
    return any(c[:2] == ("CLIENT", "MAINT_NOTIFICATIONS") for c in commands)


def test_the_baseline_client_does_ask_so_the_spy_sees_it(sent: list[tuple[Any, ...]]) -> None:
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.ping()
    client.close()
    assert _asked_for_notifications(sent)


def test_the_push_publisher_asks_for_no_maintenance_notifications(
    sent: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(broker, "_client", None)
    broker.publish({"rubber-0": broker.CHECK})
    assert any(c[:1] == ("PUBLISH",) for c in sent)
    assert not _asked_for_notifications(sent)


def test_the_caches_and_the_health_probe_ask_for_none(sent: list[tuple[Any, ...]]) -> None:
    caches["default"].set("redis-client-check", 1, 5)
    caches["throttle"].get("redis-client-check")
    health._probes.clear()
    assert health._probe_redis(settings.REDIS_URL) == {"ok": True}
    assert any(c[:1] == ("SET",) for c in sent)
    assert any(c[:1] == ("PING",) for c in sent)
    assert not _asked_for_notifications(sent)
