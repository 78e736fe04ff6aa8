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

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_vary_headers
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
    key = answer_key(name, version)
    body = cache.get(key)
    if body is None:
        body = json_bytes(build())
        cache.set(key, body, seconds)
    return json_answer(body)


def answer_key(name: str, version: tuple[Any, ...]) -> str:
    """The cache key of the answer ``name`` made of ``version``, in the active language."""
    made_of = repr((version, translation.get_language())).encode()
    return f"answers:{name}:{hashlib.blake2b(made_of, digest_size=16).hexdigest()}"


#: What a cached hit's key is made of, for the fast path: ``(name, version, seconds)`` for a
#: reader (the request's user) and the URL's arguments, as the DRF view makes it; ``Http404``
#: when the reader may not see it (answered by the DRF view then).
Finder = Callable[..., tuple[str, tuple[Any, ...], int]]
_JSON_ACCEPTS = ("", "*/*", JSONRenderer.media_type)


def _plain_stranger(request: HttpRequest) -> bool:
    """A GET that DRF would answer as plain JSON to a stranger: no session cookie, no
    ``Authorization``, no query (no ``format``, period or ladder) and an ``Accept`` that picks
    JSON. A token's, a session's and every other request go to the DRF view."""
    meta = request.META
    return (
        request.method == "GET"
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in meta
        and not meta.get("QUERY_STRING")
        and meta.get("HTTP_ACCEPT", "") in _JSON_ACCEPTS
    )


def cached_or_drf(drf_view: Callable[..., HttpResponseBase], find: Finder) -> Callable[..., Any]:
    """``drf_view`` (an ``APIView.as_view()``) with a fast path in front: a stranger's plain
    GET whose answer is cached is answered with the cached bytes and the headers DRF adds
    (``Allow``, ``Vary: Accept``), without DRF's request, authentication, permissions,
    negotiation or response. Anything else (a miss, a hidden or missing object, a token, a
    session, a query) is the DRF view's, which makes and keeps the answer. The same answers,
    headers and permissions: tests/security/test_fast_reads.py."""
    headers: dict[str, str] = {}

    def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if _plain_stranger(request):
            user = request.user
            # Read as DRF's session authentication reads it (an empty session: "Vary: Cookie").
            user.is_active  # noqa: B018
            try:
                name, version, seconds = find(user, **kwargs)
            except (Http404, DatabaseError):
                return drf_view(request, *args, **kwargs)
            body = cache.get(answer_key(name, version)) if seconds else None
            if body is None:  # the DRF view makes it, from the key read here (`found_key`)
                request.found_answer_key = (name, version, seconds)  # type: ignore[attr-defined]
            else:
                if not headers:
                    headers.update(_drf_headers(drf_view, request))
                response = json_answer(body)
                for header, value in headers.items():  # as DRF's finalize_response
                    if header == "Vary":
                        patch_vary_headers(response, value.split(","))
                    else:
                        response[header] = value
                return response
        return drf_view(request, *args, **kwargs)

    functools.update_wrapper(view, drf_view)  # cls, initkwargs, csrf_exempt: still DRF's view
    return view


def found_key(request: Any) -> tuple[str, tuple[Any, ...], int] | None:
    """The answer's key the fast path read before a miss sent the request on to DRF (a plain
    stranger's GET: no query), so that the view does not read it twice; None otherwise."""
    return getattr(getattr(request, "_request", request), "found_answer_key", None)


def _drf_headers(drf_view: Any, request: HttpRequest) -> dict[str, str]:
    """The headers the DRF view's ``finalize_response`` adds to every answer."""
    instance = drf_view.cls(**drf_view.initkwargs)
    instance.setup(request)  # as ``as_view`` does: HEAD answered as GET
    made: dict[str, str] = instance.default_response_headers
    return made
