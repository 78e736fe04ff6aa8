"""The pad's pages: a table's page, the rubber's pad, and the helpers every page of a table
answers with (htmx: the live part swapped in place; else the whole page)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from clubs.models import Session, Table
from clubs.permissions import check_club_access

from ..codes.views import code_changed
from ..models import Rubber
from ..selectors import CodeChanged, rubber_for_request
from .context import pad_context


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for type checking: django-htmx docs)."""

    htmx: HtmxDetails


def tells_code_changed(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view of a table's pages: a phone whose code for a members-only table no longer works
    (`selectors.CodeChanged`) is told so, as in a public club, instead of the missing 404."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except CodeChanged as changed:
            return code_changed(request, changed.rubber)

    return wrapped


def render_pad(
    request: HtmxHttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    template = "games/_live.html" if request.htmx else "games/rubber.html"
    return render(request, template, context, status=status)


@tells_code_changed
@require_GET
def table_now(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's page, where every link naming a table goes: while its session runs, its rubber
    in play (or its latest); otherwise its card on the session page, which lists its rubbers.
    A table the reader may not read answers like a missing one."""
    table = Table.objects.filter(pk=pk).select_related("session__club").first()
    if table is None:
        raise Http404("No such table.")
    rubber = None
    if table.session.status == Session.Status.RUNNING:
        rubber = (
            Rubber.objects.filter(table_id=pk)
            .order_by(
                models.Case(models.When(status=Rubber.Status.IN_PLAY, then=0), default=1),
                "-number",
            )
            .only("pk")
            .first()
        )
    if rubber is not None:
        # 404 where the club is hidden (a table code may read it)
        rubber_for_request(request, rubber.pk)
        return redirect(rubber.get_absolute_url())
    check_club_access(request.user, table.session.club)
    return redirect(f"{table.session.get_absolute_url()}#table-{table.pk}")


@tells_code_changed
@require_GET
def rubber_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rubber, viewer = rubber_for_request(request, pk)
    return render(request, "games/rubber.html", pad_context(rubber, viewer))
