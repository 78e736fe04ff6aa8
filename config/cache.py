"""The throttles' cache: Redis while it answers, this process's memory while it does not.

The site's cache ignores a dead Redis (a miss, entry goes on), but throttle counts read from a
dead cache are empty, so every request was allowed: the throttles vanished with Redis. Here a
Redis error sends the call to a local memory cache instead, and Redis is not asked again for
`RETRY_SECONDS`, so a dead or unreachable Redis costs one short timeout per process every few
seconds, not one per request. While it is down each web process counts on its own: a client
gets at most the rate times the number of processes (docs/security.md).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0


class FallbackRedisCache(RedisCache):  # type: ignore[misc]  # django-redis is untyped
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = params.setdefault("OPTIONS", {})
        options["IGNORE_EXCEPTIONS"] = False  # the errors are what switches to the fallback
        super().__init__(server, params)
        self.local = LocMemCache(f"fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self.down_until = 0.0

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= self.down_until:
            try:
                return getattr(super(), name)(*args, **kwargs)
            except (ConnectionInterrupted, RedisError, OSError) as exc:
                self.down_until = time.monotonic() + RETRY_SECONDS
                logger.warning("Redis unavailable, counting in this process: %s", exc)
        return getattr(self.local, name)(*args, **kwargs)

    def get(self, key: Any, default: Any = None, version: Any = None, client: Any = None) -> Any:
        return self._call("get", key, default, version=version)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("set", *args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("add", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("delete", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("incr", *args, **kwargs)

    def clear(self) -> Any:
        self.local.clear()
        return self._call("clear")
