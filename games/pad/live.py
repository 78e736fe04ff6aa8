"""The live part of a pad, which the phones at the table poll (its ETag: 304 while nothing
changed)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import salted_hmac
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from scoring.shared.i18n import speak_club_language
from scoring.shared.numbers import small_number

from ..codes import tokens
from ..models import Rubber
from ..selectors import rubber_for_request, rubber_version_for_request
from .context import awaiting_before, pad_context
from .notices import already_entered, deleted_since
from .rendered import live_pad
from .views import tells_code_changed


def _live_etag(request: HttpRequest, state: tuple[Any, ...]) -> str:
    """What a pad's live part depends on: the rubber's state (the facts a pad shows, declared
    once in games.models.state.FACTS: its status, seats and their players' names, a count every
    write of its deals raises, its session's status and settings, its table's code, its club's
    settings and language; `answer_state`), who looks (their session's cookie, which a sign-in or
    sign-out changes, and their table code's: read with no query) and in which language.
    Keyed with the SECRET_KEY: the state holds the table's code, which an ETag handed to anyone
    reading a public club must not let them find by trying codes."""
    who = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    key = f"{state!r}|{who}|{request.COOKIES.get(tokens.COOKIE, '')}|{get_language()}"
    return '"' + salted_hmac("games.views.live", key, algorithm="sha256").hexdigest()[:32] + '"'


@tells_code_changed
@require_GET
def rubber_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of a pad for the phones at the table to poll (static/js/backscore.js):
    304 Not Modified, after one query, while nothing has changed (If-None-Match): in a public
    club that query is all (the club's language comes with the state, and who looks is told by
    their cookies); a members-only club adds the session, the login and the membership."""
    state = rubber_version_for_request(request, pk)
    if state:
        speak_club_language(request, state[-1])
    etag = _live_etag(request, state)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        # Who looks and what they may do, from the rubber alone: a kept pad's key needs no more
        # (games.pad.rendered.viewer_key); its deals and players are read only to render it.
        rubber, viewer = rubber_for_request(request, pk, deals=False)
        own = viewer.player if viewer.player is not None and not viewer.by_code else None
        if own is not None and own.language and own.user_id == request.user.pk:
            # A signed-in player's own language, as the page the pad is swapped into
            # (config.middleware.ClubLanguageMiddleware). Not in the ETag, read with no query:
            # a change of it reaches an open pad with its next change.
            speak_club_language(request, own.language)
        # A form holding taps names its deal number: if another phone recorded that deal,
        # the pad says so at once instead of moving the taps on (a duplicate, issue 17).
        number = small_number(request.GET.get("number", ""))
        if number is not None:
            _fetch(rubber)
        taken = already_entered(rubber, number) if number is not None else None
        if taken is not None:
            context = pad_context(rubber, viewer, notice=taken, notice_deal=number)
        elif number is not None and (moved := deleted_since(rubber, number)) is not None:
            # Taps past the next deal (one was deleted): the poll moves them to it.
            following = len(rubber.ordered_deals()) + 1
            context = pad_context(rubber, viewer, notice=moved, moved_to=following)
        else:
            # The pad as every request with this state, what it shows of its viewer and language
            # sees it: rendered once, then kept (games.pad.rendered).
            before = awaiting_before(rubber, viewer)
            html = live_pad(
                request,
                (pk, *state),
                viewer,
                lambda: pad_context(_fetch(rubber), viewer, before=before),
                before,
            )
            return _tagged(HttpResponse(html), etag)
        response = render(request, "games/_live.html", context)
    return _tagged(response, etag)


def _fetch(rubber: Rubber) -> Rubber:
    """The rubber with its deals and players, as `rubber_for_request` reads them."""
    rubber.fetch_deals()
    rubber.fetch_players()
    return rubber


def _tagged(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
