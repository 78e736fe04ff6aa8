"""Cached API answers (django-redis): the leaderboard and the rubber, one mechanism for both.

An answer is cached under its object's *version*, read from the database in the same query as the
read check (clubs.policy), so a hit costs that one query and one cache read, and no write has to
invalidate anything: a write changes the version with the rows it writes (in the same
transaction, or right after the rows an answer is read from), and the next read makes another
key. The versions (docs/architecture.md, "The read boundary"):

- a rubber (``RubberQuerySet.answer_state``): the facts its pad shows, declared once
  (``games.models.state.FACTS``): its row (status, seats, start, end), its players' names, a count
  that every write of its deals raises (``Deal.version``, the confirmations) and the time of the
  latest one (``Deal.updated_at``), its session's status and settings, its table's code, its club's
  settings and language;
- a club's leaderboard (``scoring.standings.queries.leaderboard_version``): its
  ``LeaderboardRevision``, a count that ``scoring.standings.queueing.revise_leaderboards`` raises,
  with the time, with every mark of one of its sessions as stale (``queue_session_refresh``, after
  the mark, in its transaction) and in the transaction of every refresh that stores a session's
  rows; and the club's creation time.
  A reader that finds the new revision finds what the write marked and stored.

A version is made of counters *and* the times of the latest writes (to the microsecond), so a
database made again (a test run) or restored from a dump, which hands out the same ids and counts
again, is not answered from the other incarnation's copies (the cache outlives it): an object
written since has another time. There is no token to lose, no invalidation after commit to miss. The
leaderboard's revision is raised only while its cache is on (no write pays for it otherwise): a
board cached before the cache was turned off may be answered for its seconds once it is on again,
as with the generation token this replaced.

On only when the cache is shared by every process (Redis, i.e. ``REDIS_URL``).
``LEADERBOARD_CACHE_SECONDS`` and ``RUBBER_CACHE_SECONDS`` override (0 turns one off). An answer is
kept as the JSON bytes DRF's ``JSONRenderer`` made of it and a hit answers those bytes as they are
(``json_answer``), without serializing or rendering again (docs/benchmarks.md, HTTP). A
leaderboard's version holds no names: a player renamed in the admin shows on it within
``DEFAULT_SECONDS`` (a rubber's holds its seated players': at once).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
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


def versioned_answer(
    request: Request, name: str, version: tuple[Any, ...], seconds: int, build: Callable[[], Any]
) -> HttpResponseBase:
    """The answer made of ``version`` (the object's version, what else the answer depends on, as
    its period), from the cache if held, else ``build()`` rendered and kept for ``seconds``. The
    language is in the key: a translated field must not be served in another one."""
    if not seconds or not wants_plain_json(request):
        return Response(build())
    made_of = repr((version, translation.get_language())).encode()
    key = f"answers:{name}:{hashlib.blake2b(made_of, digest_size=16).hexdigest()}"
    body = cache.get(key)
    if body is None:
        body = json_bytes(build())
        cache.set(key, body, seconds)
    return json_answer(body)


def leaderboard_answer(
    request: Request, version: tuple[Any, ...], period: tuple[Any, ...], build: Callable[[], Any]
) -> HttpResponseBase:
    """The club's board for ``period`` (its dates and ladder) under its ``version``
    (``leaderboard_version``)."""
    return versioned_answer(
        request, "leaderboard", (version, period), leaderboard_cache_seconds(), build
    )
