"""`GET /healthz`: the state of the database, the cache and the Celery broker.

200 while the database answers; a dead cache or broker is reported but not fatal, because entry
keeps working without them (standings turn stale and converge later).

Anyone may call it, so it must stay cheap when Redis is down: Redis is asked with a short
timeout, no retry, and its answer is kept in the process for `PROBE_SECONDS`.
"""

import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from config.middleware import RETRY_AFTER_SECONDS

#: How long one Redis probe's answer is reused, and how long a probe may wait for Redis.
PROBE_SECONDS = 2.0
PROBE_TIMEOUT = 0.05
_probes: dict[str, tuple[float, dict[str, Any]]] = {}


def _probe_redis(url: str) -> dict[str, Any]:
    now = time.monotonic()
    if (seen := _probes.get(url)) and now - seen[0] < PROBE_SECONDS:
        return seen[1]
    client = redis.Redis.from_url(
        url,
        socket_connect_timeout=PROBE_TIMEOUT,
        socket_timeout=PROBE_TIMEOUT,
        retry=Retry(NoBackoff(), 0),
        **settings.REDIS_CLIENT_OPTIONS,
    )
    try:
        client.ping()
        result: dict[str, Any] = {"ok": True}
    except (RedisError, OSError) as exc:
        result = {"ok": False, "error": exc.__class__.__name__}
    finally:
        client.close()
    _probes[url] = (now, result)
    return result


def _check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


def _check_cache() -> dict[str, Any]:
    if settings.REDIS_URL:
        return {**_probe_redis(settings.REDIS_URL), "backend": "RedisCache"}
    key = "healthz:probe"
    try:
        cache.set(key, "1", 5)
        ok = cache.get(key) == "1"
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    return {"ok": ok, "backend": backend}


def _check_broker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    from config.celery import app

    url = str(app.conf.broker_url)
    if url.startswith(("redis://", "rediss://")):
        return {**_probe_redis(url), "mode": "broker"}
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=1)
    except Exception as exc:
        return {"ok": False, "mode": "broker", "error": exc.__class__.__name__}
    return {"ok": True, "mode": "broker"}


def _worker_heartbeat() -> dict[str, Any]:
    """When a Celery worker last ran the heartbeat task (informational, never fatal)."""
    from scoring.standings.models import WorkerHeartbeat

    try:
        beat = WorkerHeartbeat.objects.filter(name="default").first()
    except Exception as exc:
        return {"error": exc.__class__.__name__}
    return {"last_beat": beat.beat_at.isoformat() if beat else None}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    started = time.perf_counter()
    checks = {
        "database": _check_database(),
        "cache": _check_cache(),
        "broker": _check_broker(),
    }
    status = 200 if checks["database"]["ok"] else 503
    body = {
        "status": "ok" if all(c["ok"] for c in checks.values()) else "degraded",
        **checks,
        "worker": _worker_heartbeat() if checks["database"]["ok"] else {},
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }
    if status != 200:
        body["status"] = "down"
    response = JsonResponse(body, status=status)
    if status != 200:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
