"""Entering a deal on the pad, and the live line under the entry buttons."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.rules import ScoringError
from scoring.shared.error_messages import error_line

from .. import registry
from ..codes import tokens
from ..codes.names import code_note
from ..models import (
    Conflict,
    Rubber,
    change_note,
)
from ..pad.context import pad_context
from ..pad.forms import entry_form, preview_line
from ..pad.notices import already_entered, deleted_since
from ..pad.views import HtmxHttpRequest, render_pad, tells_code_changed
from ..permissions import Viewer
from ..selectors import rubber_for_request
from .common import refused, why_not


def _moved_to_next(form: Any, rubber: Rubber, viewer: Viewer) -> Any:
    """The same taps, on the rubber's real next deal (the number another phone took), not yet
    checked: they are shown for the player to record again or change."""
    data = form.data.copy()
    data["number"] = str(len(rubber.ordered_deals()) + 1)
    return entry_form(rubber, viewer, data)


@tells_code_changed
@require_POST
def enter_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    rubber, viewer = rubber_for_request(request, pk)
    if not viewer.can_enter:
        return refused(
            request,
            why_not(viewer, str(registry.pages(rubber.kind).words.seated_only)),
            rubber.table_id,
        )
    form = entry_form(rubber, viewer, request.POST)
    if form.is_valid():
        try:
            with change_note(code_note(rubber, viewer)):
                rubber.record_deal(**form.record_kwargs(), actor=viewer.actor)
        except Conflict as err:
            rubber, viewer = rubber_for_request(request, pk)
            number = form.cleaned_data["number"]
            taken = already_entered(rubber, number)
            if taken is None and (moved := deleted_since(rubber, number)) is not None:
                # A deal was deleted since these taps were made: they are the rubber's next
                # deal now (docs/rules.md, §8 decision 7), shown on it, unrecorded.
                form = _moved_to_next(form, rubber, viewer)
                return render_pad(
                    request, pad_context(rubber, viewer, entry_form=form, notice=moved)
                )
            if taken is None:
                form.add_error(None, str(err))
            else:
                # Another phone recorded this deal first: say so in words, offer to correct
                # it, and move these taps to the next deal (nothing is recorded unasked).
                form = _moved_to_next(form, rubber, viewer)
                context = pad_context(
                    rubber,
                    viewer,
                    entry_form=form,
                    notice=taken,
                    notice_deal=number,
                )
                return render_pad(request, context)
        except ScoringError as err:  # a rule only the whole rubber can check
            form.add_error(None, error_line(err))
        else:
            if not request.htmx:
                messages.success(request, _("Deal recorded."))
                return redirect(rubber.get_absolute_url())
            rubber, viewer = rubber_for_request(request, pk)
            return render_pad(request, pad_context(rubber, viewer))
    return render_pad(request, pad_context(rubber, viewer, entry_form=form))


@tells_code_changed
@require_GET
def preview_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The live line under the entry buttons: the deal as it will be scored ("4♠× by North, −2:
    They +300"; a two-player deal: "♠ by Ann, 10 tricks: Ann +120"), by the engine, or what is
    still missing. An htmx partial."""
    rubber, viewer = rubber_for_request(request, pk)
    return render(
        request, "games/_preview.html", {"line": preview_line(rubber, viewer, request.GET)}
    )
