"""Django's PostgreSQL backend, for the pooled web processes (`DATABASE_POOL_MAX_SIZE`).

The psycopg pool keeps a request waiting up to its timeout for a connection. That is right when
every connection is busy, and wrong when the database refuses connections: every request would
then wait the whole timeout before its 503 (docs/operations.md promises one at once). So when
the pool has no idle connection to hand out, one direct connection attempt tells which: at most
one a second per process, its answer shared by the requests meanwhile, as `/healthz` shares its
Redis probe. A database that refuses connections is answered with OperationalError (the clean
503 of config/middleware.py); one that accepts them is waited for, as the pool would.

After an outage the process starts a fresh pool: the old one may be waiting out its reconnection
back-off, which grows to minutes.
"""

import threading
import time
from typing import Any

import psycopg
from django.db.backends.postgresql import base

#: How long one probe's answer is reused, and how long a probe may wait to connect.
PROBE_SECONDS = 1.0
PROBE_CONNECT_TIMEOUT = 1

_lock = threading.Lock()
_probe: dict[str, Any] = {"at": float("-inf"), "error": None, "was_down": False}


def _probe_database(params: dict[str, Any]) -> tuple[Exception | None, bool]:
    """The error of the latest connection attempt (None: connected), and whether the database
    has just come back after refusing connections."""
    with _lock:
        if time.monotonic() - _probe["at"] < PROBE_SECONDS:
            return _probe["error"], False
        try:
            psycopg.connect(**{**params, "connect_timeout": PROBE_CONNECT_TIMEOUT}).close()
            _probe["error"] = None
        except psycopg.OperationalError as exc:
            _probe["error"] = exc
        _probe["at"] = time.monotonic()
        came_back = _probe["was_down"] and _probe["error"] is None
        _probe["was_down"] = _probe["error"] is not None
        return _probe["error"], came_back


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        pool = self.pool  # type: ignore[attr-defined]  # Django 5.1's, not in django-stubs yet
        if pool is not None and (_probe["error"] or not pool.get_stats()["pool_available"]):
            error, came_back = _probe_database(conn_params)
            if error is not None:
                raise psycopg.OperationalError(f"the database refuses connections: {error}")
            if came_back:
                self.close_pool()  # type: ignore[attr-defined]
        return super().get_new_connection(conn_params)
