"""The database is down: answer a clean 503 rather than a 500 (docs/operations.md).

While PostgreSQL restarts, every view that touches it raises `OperationalError` (or
`InterfaceError` on a connection the restart broke). Nothing was written: each write runs in a
transaction that the failure rolled back. The client is told to retry (`Retry-After`), the API in
its JSON error shape and pages with a short plain page that needs no database to render. Django
drops the broken connection at the end of the request, so the next request after the database
returns reconnects without restarting the web processes.
"""

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.defaults import server_error as default_server_error

from games.codes import tokens as codes
from scoring.shared.i18n import speak_club_language, visitor_chose_language

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Backscore: back in a moment</title></head>
<body><h1>Back in a moment</h1>
<p>The scores database is not answering. Nothing you sent was lost or half saved:
please try again in a few seconds.</p></body></html>
"""


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
        response = JsonResponse(
            {"detail": "The database is unavailable; retry in a few seconds."}, status=503
        )
    else:
        response = HttpResponse(PAGE, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500 handler (``handler500``): a database failure outside any view, in a
    middleware (the session and user behind ``request.user``, the club's language), is the same
    503 as inside one. Django calls it inside the ``except`` that caught the error."""
    exception = sys.exc_info()[1]
    if isinstance(exception, OperationalError | InterfaceError):
        logger.warning("Database unavailable on %s %s: %s", request.method, request.path, exception)
        return database_unavailable_response(request)
    return default_server_error(request)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The views' failures; `server_error` catches the rest (middleware, responses)."""
        if isinstance(exception, OperationalError | InterfaceError):
            logger.warning(
                "Database unavailable on %s %s: %s", request.method, request.path, exception
            )
            return database_unavailable_response(request)
        return None


#: Pages that belong to one club, by URL name: where the club's language is, from the row that
#: the URL's ``pk`` names. Any other page with a ``slug`` argument is a club page by its slug.
CLUB_LANGUAGE_LOOKUPS = {
    "games:rubber": ("games.Rubber", "session__club__language"),
    "games:enter_deal": ("games.Rubber", "session__club__language"),
    "games:enter_queued_deal": ("games.Rubber", "session__club__language"),
    # The entry's preview line swaps part of a club page: its language. (The live pad's poll,
    # games:rubber_live, reads it with the rubber's state: one query for its 304.)
    "games:preview_deal": ("games.Rubber", "session__club__language"),
    "games:correct_deal": ("games.Deal", "rubber__session__club__language"),
    "games:confirm_deal": ("games.Deal", "rubber__session__club__language"),
    "games:dispute_deal": ("games.Deal", "rubber__session__club__language"),
    # The correction form's live line, the delete's question, the director's ruling.
    "games:preview_correction": ("games.Deal", "rubber__session__club__language"),
    "games:delete_deal": ("games.Deal", "rubber__session__club__language"),
    "games:rule_deal": ("games.Deal", "rubber__session__club__language"),
    "scoring:session-standings": ("clubs.Session", "club__language"),
    "scoring:session-standings-live": ("clubs.Session", "club__language"),
    "scoring:session-settlement": ("clubs.Session", "club__language"),
    "scoring:player": ("clubs.Player", "club__language"),
    "scoring:player-history": ("clubs.Player", "club__language"),
    "scoring:player-language": ("clubs.Player", "club__language"),
}


#: Views that pick their club's language themselves (games.pad.live, games.codes.views): the pad's
#: live part reads it with the rubber's state, for its one-query 304, and the signed-in player's
#: with the rendering; a table code's pages speak the club's, as the pad they lead to.
OWN_LANGUAGE = {"games:rubber_live", "games:table_code", "games:hand_over", "games:give_back"}


class ClubLanguageMiddleware:
    """Which language a page speaks (docs/i18n.md), after ``LocaleMiddleware``:

    1. the visitor's choice with the header's switcher (the language cookie) always wins;
    2. then a signed-in player's own language (``Player.language``): on a club's page, that of
       their player in that club; elsewhere, that of their first player with one;
    3. then, on a club's page, the club's language (``Club.language``);
    4. else the browser's Accept-Language, then ``LANGUAGE_CODE`` (``LocaleMiddleware``).

    The API is left to Accept-Language: an API client says what it wants. One small query on
    club pages (the signed-in player's language comes with the club's), and one on other pages
    for a signed-in visitor.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        if request.path.startswith("/api/") or visitor_chose_language(request):
            return
        match = request.resolver_match
        if match is not None and match.view_name in OWN_LANGUAGE:
            return
        speak_club_language(request, self._language(request, view_kwargs))

    @staticmethod
    def _language(request: HttpRequest, view_kwargs: dict[str, Any]) -> str | None:
        """The signed-in player's language, else the language of the club the URL names, only
        if the visitor may read that club: a members-only club's language would otherwise tell
        a stranger that its slug or ids exist (a hidden object answers exactly like a missing
        one, docs/security.md). None: the browser's."""
        match = request.resolver_match
        lookup = CLUB_LANGUAGE_LOOKUPS.get(match.view_name) if match else None
        players = apps.get_model("clubs.Player").objects
        user = request.user
        if lookup and "pk" in view_kwargs:
            model_label, path = lookup
            rows = apps.get_model(model_label).objects.filter(pk=view_kwargs["pk"])
        elif "slug" in view_kwargs:
            path = "language"
            rows = apps.get_model("clubs.Club").objects.filter(slug=view_kwargs["slug"])
        elif user.is_authenticated:
            own: str | None = (
                players.filter(user=user)
                .exclude(language="")
                .order_by("pk")
                .values_list("language", flat=True)
                .first()
            )
            return own
        else:
            return None
        club = path.removesuffix("language")
        readable = apps.get_model("clubs.Club").objects.visible_to(user).values("pk")
        rows = rows.filter(**{f"{club}pk__in": readable})
        if not user.is_authenticated:
            language: str | None = rows.values_list(path, flat=True).first()
            return language
        mine = players.filter(club_id=OuterRef(f"{club}pk"), user=user).values("language")[:1]
        found = rows.annotate(mine=Subquery(mine)).values_list("mine", path).first()
        return None if found is None else (found[0] or found[1])


class FormEncodingMiddleware:
    """A page's form that declares an encoding other than UTF-8 is answered 400 at once.

    Django refuses such a form (``BadRequest``) each time ``request.POST`` is read, and its
    error pages read it again to check the CSRF token (``requires_csrf_token``): the 400, the 404
    and the 500 page all failed, and any visitor got Django's last-resort 500 on every page (an
    outside probe). Refused here, before any view, CSRF check or error page reads the form; the
    API's parsers read such a body themselves (a 400 in the API's shape).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        encoding = request.encoding
        if (
            request.content_type == "application/x-www-form-urlencoded"
            and encoding is not None
            and encoding.lower() != "utf-8"  # Django's own test (HttpRequest._load_post_and_files)
            and not request.path.startswith("/api/")
        ):
            return render(request, "400.html", status=400)
        return self.get_response(request)


class NotFoundVariesOnCookieMiddleware:
    """Every 404 says ``Vary: Cookie``, so a hidden object's 404 equals a missing one's.

    A view that reads the session or the signed-in user before it finds an object hidden (a
    members-only club's rubber, a table code's cookie) makes the session middleware add
    ``Vary: Cookie``; a view that finds nothing may not. Whether a 404 is "missing" or "hidden"
    depends on who asks, so every 404 varies on the cookie (docs/security.md). Last in
    ``MIDDLEWARE``: its response pass runs first, so the header's order is the same either way.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 404:
            patch_vary_headers(response, ("Cookie",))
        return response


class PrivateAnswersMiddleware:
    """An answer to whoever carries credentials is ``Cache-Control: private, no-store``: no
    proxy keeps it, and the browser keeps no copy on disk that the next person at a club's
    shared computer could bring back (docs/security.md, "7. Smaller ones").

    Credentials are a session cookie (a signed-in user), an ``Authorization`` header (an API
    token), a table code's cookie (a phone at the table), sent with the request or set by the
    answer (a sign-in, a code opened), or a table code in the path (``/t/<code>``). Reading the
    cookies needs no query, and no visitor's user is loaded for this. An answer whose view chose
    its own ``Cache-Control`` keeps it, made ``private`` unless it is ``public`` on purpose (a
    static file): the live pad's ``no-cache`` is what lets its poll be answered 304
    (games.pad.live.rubber_live). The rubber page a phone keeps for offline use is kept by the
    service worker in its own storage, which ``no-store``
    does not reach (docs/offline.md). First in ``MIDDLEWARE``: it sees every answer last.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not _carries_credentials(request, response):
            return response
        chosen = response.get("Cache-Control")
        if chosen is None:
            response["Cache-Control"] = "private, no-store"
        elif "public" not in chosen:
            patch_cache_control(response, private=True)
        return response


def _carries_credentials(request: HttpRequest, response: HttpResponse) -> bool:
    names = (settings.SESSION_COOKIE_NAME, codes.COOKIE)
    return (
        # A table code in the path is the credential itself: its seat picker names the players.
        request.path.startswith("/t/")
        or "Authorization" in request.headers
        or any(name in request.COOKIES for name in names)
        or any(name in response.cookies for name in names)
    )
