"""Correcting a deal, and deleting the last one (docs/rules.md, §8 decision 7)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scoring.rules import ScoringError
from scoring.shared.error_messages import error_line
from scoring.shared.numbers import small_number

from .. import registry
from ..codes import tokens
from ..codes.names import code_note, who_wrote
from ..models import (
    Conflict,
    Deal,
    NextRubberToWithdraw,
    Rubber,
    change_note,
    closed_session,
)
from ..pad.context import pad_context
from ..pad.forms import correction_form, correction_line, deal_line
from ..pad.views import HtmxHttpRequest, render_pad, tells_code_changed
from ..permissions import Viewer
from ..selectors import deal_for_request, rubber_for_request
from .common import posted_version, refused, told, why_not


@tells_code_changed
@require_http_methods(["GET", "POST"])
def correct_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """POST saves a correction; GET gives its form, filled from the deal as it now stands: to the
    pad when a player opens "Correct" (htmx), else the pad with that form open."""
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    if not viewer.can_correct(deal):
        return refused(
            request,
            why_not(viewer, _("Only a director or a player at the table corrects a deal.")),
            deal.rubber.table_id,
        )
    if request.method == "GET" and deal.rubber.session.is_closed:
        return refused(request, closed_session(), deal.rubber.table_id)
    if request.method == "GET":
        return _correction_panel(request, deal, viewer)
    form = correction_form(deal.rubber, deal, viewer, request.POST)
    error = None
    if form.is_valid():
        sent = form.cleaned_data["version"]
        try:
            # A player's correction is to confirm again; a director's settles it (Deal.correct).
            # An empty next rubber is withdrawn only once the page has asked (`_ask_withdrawal`).
            with change_note(code_note(deal.rubber, viewer)):
                corrected = deal.correct(
                    version=sent,
                    actor=viewer.actor,
                    withdraw_next=small_number(request.POST.get("withdraw_next", "")) or 0,
                    **form.changes(),
                )
        except NextRubberToWithdraw as err:
            _ask_withdrawal(deal, form, err)
        except (Conflict, ScoringError) as err:
            error = error_line(err) if isinstance(err, ScoringError) else str(err)
            form, error = _refused_correction(request, deal, viewer, form, sent, error)
            form.add_error(None, error)
        else:
            return _corrected(request, deal, viewer, corrected, sent)
    rubber, viewer = rubber_for_request(request, deal.rubber_id)
    return render_pad(
        request, pad_context(rubber, viewer, corrections={deal.pk: form}, error=error)
    )


def _ask_withdrawal(deal: Deal, form: Any, question: NextRubberToWithdraw) -> None:
    """Nothing saved: the correction would reopen its match and withdraw the empty one after
    it. Its form, taps kept, asks first in the game's words ("rubber 3, not yet started, will
    be removed"); saved again it carries that number (`Deal.correct`'s `withdraw_next`)."""
    words = registry.pages(deal.rubber.kind).words
    numbers = {"number": question.number, "next": question.next_number}
    form.withdrawal = {
        "question": str(words.withdraw_next) % numbers,
        "button": str(words.withdraw_button) % numbers,
        "next": question.next_number,
    }


def _correction_panel(request: HtmxHttpRequest, deal: Deal, viewer: Viewer) -> HttpResponse:
    """The correction form of `deal`, filled from it as it now stands: into its panel (htmx),
    else the pad with that form open."""
    form = correction_form(deal.rubber, deal, viewer)
    if not request.htmx:
        rubber, viewer = rubber_for_request(request, deal.rubber_id)
        return render(
            request, "games/rubber.html", pad_context(rubber, viewer, corrections={deal.pk: form})
        )
    return render(
        request,
        "games/_correction_form.html",
        {
            "form": form,
            "deal": deal,
            "two_player": deal.rubber.is_two_player,
            "line": deal_line(deal.rubber, deal, viewer),
            "can_delete": _delete_refusal(deal, viewer) is None,
        },
    )


def _refused_correction(
    request: HtmxHttpRequest, deal: Deal, viewer: Viewer, form: Any, sent: int, error: str
) -> tuple[Any, str]:
    """The form and the error to show for a correction the deal refused (`error`). If someone
    corrected it meanwhile: say what it is now, in words, and keep these taps on a form of the
    deal as it now stands (saving it is a new decision)."""
    current = Deal.objects.filter(pk=deal.pk).first()
    if current is None or current.version == sent:
        return form, error
    error = _(
        "Deal %(number)s was just corrected by %(name)s: it is now %(deal)s. "
        "Check it and save your correction again if it still stands."
    ) % {
        "number": current.number,
        "name": who_wrote(
            deal.rubber,
            _last_writer(current),
            current.written_seat if current.written_phone else "",
        ),
        "deal": registry.deal_words(deal.rubber, current),
    }
    data = request.POST.copy()
    data[f"{form.prefix}-version"] = str(current.version)
    form = correction_form(deal.rubber, current, viewer, data)
    form.is_valid()
    return form, error


def _corrected(
    request: HtmxHttpRequest, deal: Deal, viewer: Viewer, corrected: Deal, sent: int
) -> HttpResponse:
    """The answer to a correction saved: the deal's pad. Saved as it was: say so rather than
    "corrected" (a director checking a dispute who finds the deal right rules that it stands
    instead)."""
    unchanged = (
        _nothing_changed(corrected.disputed, deal.rubber, viewer)
        if corrected.version == sent
        else None
    )
    if not request.htmx:
        if unchanged is not None:
            messages.info(request, unchanged)
        else:
            messages.success(request, _("Deal %(number)s corrected.") % {"number": deal.number})
        return redirect(deal.get_absolute_url())
    rubber, viewer = rubber_for_request(request, deal.rubber_id)
    return render_pad(request, pad_context(rubber, viewer, notice=unchanged))


def _last_writer(deal: Deal) -> int | None:
    record = deal.history.order_by("-history_date", "-history_id").first()
    return None if record is None else record.history_user_id


def _nothing_changed(disputed: bool, rubber: Rubber, viewer: Viewer) -> str:
    """What a correction saved with no change says: on a disputed deal, to a director, where
    to say that the deal stands (`rule_deal`)."""
    if disputed and viewer.is_director and rubber.session.asks_confirmation:
        return _("Nothing changed. If the deal stands, tap It stands.")
    return _("Nothing changed.")


def _delete_refusal(deal: Deal, viewer: Viewer) -> str | None:
    """Why `deal` (read by `deal_for_request`, with its rubber's deals) may not be deleted now
    by `viewer`, or None (`Deal.delete_refusal`)."""
    rubber = deal.rubber
    return deal.delete_refusal(
        rubber, rubber.session, rubber.ordered_deals()[-1].number, director=viewer.is_director
    )


@tells_code_changed
@require_http_methods(["GET", "POST"])
def delete_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Delete deal N" in the last deal's Correct panel (docs/rules.md, §8 decision 7). GET asks
    once, naming the deal ("Delete deal 5 (1NT by East, −1)?"): into the panel (htmx), else the
    pad with the question in that panel. POST, with the `version` the player saw, deletes it
    (`Deal.delete_last`); the pad shows the rubber without it, or says why not. The same people
    as a correction (`Viewer.can_correct`)."""
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    rubber = deal.rubber
    if not viewer.can_correct(deal):
        return refused(
            request,
            why_not(viewer, _("Only a director or a player at the table deletes a deal.")),
            rubber.table_id,
        )
    if request.method == "GET":
        if (refusal := _delete_refusal(deal, viewer)) is not None:
            response = told(request, deal, refusal)
            if request.htmx:  # asked for the question in the panel: the whole pad says why not
                response["HX-Retarget"] = "#live"
                response["HX-Reswap"] = "outerHTML"
            return response
        if request.htmx:
            return render(
                request,
                "games/_delete_deal.html",
                {"deal": deal, "words": registry.deal_words(rubber, deal)},
            )
        return render(request, "games/rubber.html", pad_context(rubber, viewer, deleting=deal.pk))
    version = posted_version(request)
    if version is None:
        return told(
            request, deal, _("This page is out of date: reload it to see the deal as it is now.")
        )
    try:
        with change_note(code_note(rubber, viewer)):
            deal.delete_last(version=version, actor=viewer.actor)
    except Conflict as err:
        return told(request, deal, str(err))
    done = _("Deal %(number)s deleted.") % {"number": deal.number}
    if not request.htmx:
        messages.success(request, done)
        return redirect(rubber.get_absolute_url())
    rubber, viewer = rubber_for_request(request, rubber.pk)
    return render_pad(request, pad_context(rubber, viewer, notice=done))


@tells_code_changed
@require_GET
def preview_correction(request: HttpRequest, pk: int) -> HttpResponse:
    """The live line of a correction form: the deal as it will be scored with its taps, in its
    place in the rubber (its own vulnerability). An htmx partial."""
    deal, viewer = deal_for_request(request, pk)
    rubber = deal.rubber
    return render(
        request,
        "games/_preview.html",
        {"line": correction_line(rubber, deal, viewer, request.GET)},
    )
