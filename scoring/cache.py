"""The club leaderboard's response cache (django-redis), invalidated by the standings.

A board is cached under its club's *generation*, a token replaced (after commit) whenever a write
marks one of the club's sessions stale and whenever a refresh or the rebuild stores a session's
rows, so a reader never sees a board older than the last committed change (its ``stale`` and
``computed_at`` included). A lost token only causes a miss.

On only when the cache is shared by every process (Redis, i.e. ``REDIS_URL``): with a
per-process cache, a write in one gunicorn worker could not invalidate another's copy.
``LEADERBOARD_CACHE_SECONDS`` overrides (0 turns it off).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache

DEFAULT_SECONDS = 300


def leaderboard_cache_seconds() -> int:
    configured = getattr(settings, "LEADERBOARD_CACHE_SECONDS", None)
    if configured is not None:
        return int(configured)
    backend = settings.CACHES["default"]["BACKEND"]
    return DEFAULT_SECONDS if "redis" in backend.lower() else 0


def _generation_key(club_id: int) -> str:
    return f"standings:club:{club_id}:generation"


def cached_leaderboard(club_id: int, period: tuple[Any, Any], build: Callable[[], Any]) -> Any:
    """The club's board for ``period`` from the cache, else ``build()`` (then cached)."""
    seconds = leaderboard_cache_seconds()
    if not seconds:
        return build()
    generation = cache.get(_generation_key(club_id))
    if generation is None:
        cache.add(_generation_key(club_id), time.time_ns(), timeout=None)
        generation = cache.get(_generation_key(club_id))
        if generation is None:  # the cache is down: never serve from it
            return build()
    key = f"standings:leaderboard:{club_id}:{generation}:{period[0]}:{period[1]}"
    data = cache.get(key)
    if data is None:
        data = build()
        cache.set(key, data, seconds)
    return data


def invalidate_clubs(club_ids: Iterable[int]) -> None:
    """Start a new generation of the clubs' cached boards (call after commit)."""
    ids = set(club_ids)
    if ids and leaderboard_cache_seconds():
        token = time.time_ns()
        cache.set_many({_generation_key(pk): token for pk in ids}, timeout=None)
