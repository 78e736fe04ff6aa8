"""The club leaderboard's response cache (django-redis), invalidated by the standings.

A board is cached under its club's *generation*, a token replaced (after commit) whenever a write
marks one of the club's sessions stale and whenever a refresh or the rebuild stores a session's
rows, so a reader never sees a board older than the last committed change (its ``stale`` and
``computed_at`` included). A lost token only causes a miss.

On only when the cache is shared by every process (Redis, i.e. ``REDIS_URL``): with a
per-process cache, a write in one gunicorn worker could not invalidate another's copy.
``LEADERBOARD_CACHE_SECONDS`` overrides (0 turns it off).

A board is kept as the JSON bytes DRF's ``JSONRenderer`` made of it, with the generation it was
built under, and read in one round trip with the club's current generation: a hit answers those
bytes as they are (``json_answer``), without serializing or rendering again
(docs/benchmarks.md, HTTP). Names in a board change with its generation or, for a player renamed
in the admin, within ``DEFAULT_SECONDS``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseBase
from django.utils import translation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

DEFAULT_SECONDS = 300


def cache_seconds(setting: str) -> int:
    """How long a cached answer lives: the ``setting`` if given (0 turns it off), else
    ``DEFAULT_SECONDS`` with a shared (Redis) cache and off with a per-process one."""
    configured = getattr(settings, setting, None)
    if configured is not None:
        return int(configured)
    backend = settings.CACHES["default"]["BACKEND"]
    return DEFAULT_SECONDS if "redis" in backend.lower() else 0


def leaderboard_cache_seconds() -> int:
    return cache_seconds("LEADERBOARD_CACHE_SECONDS")


def _generation_key(club_id: int) -> str:
    return f"standings:club:{club_id}:generation"


def wants_plain_json(request: Request) -> bool:
    """True when DRF chose plain JSON for this request (not the browsable API, no ``indent``):
    then the cached bytes are exactly what ``JSONRenderer`` would send."""
    return getattr(request, "accepted_media_type", None) == JSONRenderer.media_type


def json_bytes(data: Any) -> bytes:
    body: bytes = JSONRenderer().render(data)
    return body


def json_answer(body: bytes) -> HttpResponse:
    """An already rendered JSON body, answered as DRF's ``Response`` would answer it (the view's
    ``finalize_response`` still adds its ``Allow`` and ``Vary`` headers)."""
    return HttpResponse(body, content_type=JSONRenderer.media_type)


def leaderboard_answer(
    request: Request, club_id: int, period: tuple[Any, Any], build: Callable[[], Any]
) -> HttpResponseBase:
    """The club's board for ``period``, from the cache when it holds the current generation's,
    else ``build()`` (then cached). The body does not depend on the language, but a translated
    field added later must not be served in another one, so the language is in the key."""
    seconds = leaderboard_cache_seconds()
    if not seconds or not wants_plain_json(request):
        return Response(build())
    generation_key = _generation_key(club_id)
    key = (
        f"standings:leaderboard:{club_id}:{period[0]}:{period[1]}:"
        f"{translation.get_language() or ''}"
    )
    found = cache.get_many([generation_key, key])
    generation = found.get(generation_key)
    if generation is None:
        cache.add(generation_key, time.time_ns(), timeout=None)
        generation = cache.get(generation_key)
        if generation is None:  # the cache is down: never serve from it
            return Response(build())
    stored = found.get(key)
    if stored is not None and stored[0] == generation:
        return json_answer(stored[1])
    body = json_bytes(build())
    cache.set(key, (generation, body), seconds)
    return json_answer(body)


def invalidate_clubs(club_ids: Iterable[int]) -> None:
    """Start a new generation of the clubs' cached boards (call after commit)."""
    ids = set(club_ids)
    if ids and leaderboard_cache_seconds():
        token = time.time_ns()
        cache.set_many({_generation_key(pk): token for pk in ids}, timeout=None)
