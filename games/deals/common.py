"""What the deal writes share: the version a form carries, and the
answers that refuse a write or tell why it was not made."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from scoring.shared.numbers import small_number

from ..codes import tokens
from ..codes.views import code_changed
from ..models import (
    Deal,
    reopened_for_director,
)
from ..pad.context import pad_context
from ..pad.views import HtmxHttpRequest, render_pad
from ..permissions import HANDED_OVER, Viewer
from ..selectors import rubber_for_request


def told(request: HtmxHttpRequest, deal: Deal, error: str) -> HttpResponse:
    """The pad again, with `error` above it (htmx), or the rubber with it as a message."""
    if not request.htmx:
        messages.error(request, error)
        return redirect(deal.get_absolute_url())
    rubber, viewer = rubber_for_request(request, deal.rubber_id)
    return render_pad(request, pad_context(rubber, viewer, error=error))


def posted_version(request: HttpRequest) -> int | None:
    """The deal version a confirm or dispute form carries (what the player saw), or None."""
    return small_number(request.POST.get("version", ""))


def why_not(viewer: Viewer, words: str) -> str:
    """Why the viewer may not write here: `words`, unless the phone is handed over to the other
    side (`HANDED_OVER`) or the session was reopened for the director's corrections."""
    if not viewer.plays:
        return reopened_for_director()
    if viewer.handed_over_by:
        return str(HANDED_OVER)
    return words


def refused(request: HttpRequest, message: str, table_id: int) -> HttpResponse:
    """Not allowed: sign in first if not signed in (as login_required), else 403 with the
    reason. A phone whose code for the table no longer works is told so (`code_changed`)."""
    held = tokens.cookie(request)
    if not request.user.is_authenticated and held is not None:
        if held.get("t") == table_id and tokens.held(request, table_id) is None:
            return code_changed(request)
        raise PermissionDenied(message)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(message)
