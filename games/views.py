"""Rubber pages: the score pad, deal entry, corrections and confirmations.

Every page works without JavaScript (POST, then redirect); with htmx the forms post in the
background and the live part of the page (`templates/games/_live.html`, which holds the pad
partial `_pad.html`) is swapped in place.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Session
from scoring.rules import ScoringError, Side

from . import history
from .forms import DealCorrectionForm, DealEntryForm
from .models import SEAT_SIDE, Conflict, Rubber
from .permissions import Viewer, get_deal_for_user, get_rubber_for_user


def _pad(rubber: Rubber, deals: list[Any]) -> dict[str, Any]:
    """The scoresheet laid out as a paper pad: We (NS) and They (EW), above and below the line,
    below-the-line items grouped by game with a line under each finished game."""
    sheet = rubber.scoresheet(deals)
    ends = [deal_number for _side, deal_number in sheet.game_ends]
    segments: list[dict[str, Any]] = [
        {"ns": [], "ew": [], "won_by": side.value} for side, _deal_number in sheet.game_ends
    ]
    if not sheet.rubber_complete:
        segments.append({"ns": [], "ew": [], "won_by": None})
    for side, key in ((Side.NS, "ns"), (Side.EW, "ew")):
        for item in sheet.below[side]:
            index = sum(1 for end in ends if item.deal is not None and end < item.deal)
            segments[index][key].append(item)
    return {
        "sheet": sheet,
        "above_ns": sheet.above[Side.NS],
        "above_ew": sheet.above[Side.EW],
        "segments": segments,
        "total_ns": sheet.totals[Side.NS],
        "total_ew": sheet.totals[Side.EW],
        "vul_ns": sheet.vulnerable[Side.NS],
        "vul_ew": sheet.vulnerable[Side.EW],
        "games_ns": sheet.games[Side.NS],
        "games_ew": sheet.games[Side.EW],
        "winner": None if sheet.winner is None else sheet.winner.value,
        "leader": None if sheet.points_leader is None else sheet.points_leader.value,
        "hundreds_ns": sheet.back_score_hundreds[Side.NS],
        "hundreds_ew": sheet.back_score_hundreds[Side.EW],
        "net_ns": sheet.net[Side.NS],
        "finished": sheet.rubber_complete or rubber.status == Rubber.Status.UNFINISHED,
    }


def _context(
    rubber: Rubber,
    viewer: Viewer,
    *,
    entry_form: DealEntryForm | None = None,
    corrections: dict[int, DealCorrectionForm] | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    deals = rubber.ordered_deals()
    histories = history.for_rubber(rubber.pk)
    totals = {number: (ns, ew) for number, ns, ew in rubber.running_totals(deals)}
    pad = _pad(rubber, deals)
    vulnerable = {d.number: d.vulnerable for d in pad["sheet"].deals}
    open_for_entry = (
        rubber.status == Rubber.Status.IN_PLAY and rubber.session.status == Session.Status.RUNNING
    )
    corrections = corrections or {}
    confirm_entries = rubber.session.club.confirm_entries
    rows = []
    for deal in deals:
        entering = rubber.entering_seat(deal)
        can_confirm = (
            confirm_entries
            and deal.confirmed_by_id is None
            and viewer.seat is not None
            and (entering is None or SEAT_SIDE[entering] != SEAT_SIDE[viewer.seat])
            and not rubber.session.is_closed
        )
        can_correct = viewer.can_correct(deal) and not rubber.session.is_closed
        rows.append(
            {
                "deal": deal,
                "totals": totals.get(deal.number),
                "vulnerable": vulnerable.get(deal.number),
                "history": histories.get(deal.pk, []),
                "can_correct": can_correct,
                "can_confirm": can_confirm,
                "form": corrections.get(deal.pk)
                or (DealCorrectionForm.for_deal(deal) if can_correct else None),
            }
        )
    if entry_form is None and open_for_entry and viewer.can_enter:
        entry_form = DealEntryForm(initial={"number": len(deals) + 1})
    next_rubber = rubber.next_rubber() if rubber.status == Rubber.Status.COMPLETE else None
    seats = rubber.seats
    return {
        "rubber": rubber,
        "session": rubber.session,
        "club": rubber.session.club,
        "viewer": viewer,
        "pad": pad,
        "rows": rows,
        "we": f"{seats['N'].name} & {seats['S'].name}",
        "they": f"{seats['E'].name} & {seats['W'].name}",
        "seats": seats,
        "entry_form": entry_form if open_for_entry and viewer.can_enter else None,
        "next_deal": len(deals) + 1,
        "next_rubber": next_rubber,
        "confirm_entries": confirm_entries,
        "error": error,
    }


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "games/_live.html" if request.htmx else "games/rubber.html"
    return render(request, template, context, status=status)


@require_GET
def rubber_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rubber, viewer = get_rubber_for_user(request.user, pk)
    return render(request, "games/rubber.html", _context(rubber, viewer))


@login_required
@require_POST
def enter_deal(request: HttpRequest, pk: int) -> HttpResponse:
    rubber, viewer = get_rubber_for_user(request.user, pk)
    if not viewer.can_enter:
        raise PermissionDenied(_("Only the players seated in this rubber or a director enter."))
    form = DealEntryForm(request.POST)
    if form.is_valid():
        try:
            rubber.record_deal(**form.record_kwargs(), entered_by=request.user)
        except Conflict as err:
            form.add_error(None, str(err))
        except ScoringError as err:  # a rule only the whole rubber can check
            form.add_error(None, str(err))
        else:
            if not request.htmx:
                messages.success(request, _("Deal recorded."))
                return redirect(rubber.get_absolute_url())
            rubber, viewer = get_rubber_for_user(request.user, pk)
            return _render(request, _context(rubber, viewer))
    return _render(request, _context(rubber, viewer, entry_form=form))


@login_required
@require_POST
def correct_deal(request: HttpRequest, pk: int) -> HttpResponse:
    deal, viewer = get_deal_for_user(request.user, pk)
    if not viewer.can_correct(deal):
        raise PermissionDenied(_("Only a director or the player who entered it corrects a deal."))
    form = DealCorrectionForm(request.POST, prefix=f"deal{deal.pk}")
    error = None
    if form.is_valid():
        try:
            deal.correct(
                version=form.cleaned_data["version"],
                changed_by=request.user,
                **form.changes(),
            )
        except (Conflict, ScoringError) as err:
            form.add_error(None, str(err))
            error = str(err)
        else:
            if not request.htmx:
                messages.success(request, _("Deal %(number)s corrected.") % {"number": deal.number})
                return redirect(deal.get_absolute_url())
            rubber, viewer = get_rubber_for_user(request.user, deal.rubber_id)
            return _render(request, _context(rubber, viewer))
    rubber, viewer = get_rubber_for_user(request.user, deal.rubber_id)
    return _render(request, _context(rubber, viewer, corrections={deal.pk: form}, error=error))


@login_required
@require_POST
def confirm_deal(request: HttpRequest, pk: int) -> HttpResponse:
    deal, viewer = get_deal_for_user(request.user, pk)
    entering = deal.rubber.entering_seat(deal)
    if (
        viewer.player is None
        or viewer.seat is None
        or (entering is not None and SEAT_SIDE[entering] == SEAT_SIDE[viewer.seat])
    ):
        raise PermissionDenied(_("A deal is confirmed by a player of the other side."))
    error = None
    try:
        deal.confirm(by=viewer.player, user=request.user)
    except Conflict as err:
        error = str(err)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(deal.get_absolute_url())
    rubber, viewer = get_rubber_for_user(request.user, deal.rubber_id)
    return _render(request, _context(rubber, viewer, error=error))
