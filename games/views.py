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
from django_htmx.middleware import HtmxDetails

from clubs.models import Session
from clubs.permissions import signed_in_user
from scoring.error_messages import error_line
from scoring.rules import ScoringError, Side

from . import history, sheets
from .forms import (
    DealCorrectionForm,
    DealEntryForm,
    TwoPlayerCorrectionForm,
    TwoPlayerDealForm,
)
from .models import SEAT_SIDE, SEATS, Conflict, Deal, Rubber
from .permissions import Viewer, get_deal_for_user, get_rubber_for_user


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for type checking: django-htmx docs)."""

    htmx: HtmxDetails


def _segments(
    game_ends: list[tuple[str, int]], below: dict[str, Any], complete: bool
) -> list[dict[str, Any]]:
    """Below-the-line items grouped by game, a line under each finished game. `game_ends` is
    (key of the winner, deal number) per game won, as the engine reports it."""
    ends = [deal_number for _key, deal_number in game_ends]
    segments: list[dict[str, Any]] = [{"ns": [], "ew": [], "won_by": key} for key, _n in game_ends]
    if not complete:
        segments.append({"ns": [], "ew": [], "won_by": None})
    for key, items in below.items():
        for item in items:
            index = sum(1 for end in ends if item.deal is not None and end < item.deal)
            segments[min(index, len(segments) - 1)][key].append(item)
    return segments


def _pad(rubber: Rubber, deals: list[Any]) -> dict[str, Any]:
    """The scoresheet laid out for the game: a paper pad (rubber, Chicago, Bridge for Two,
    Misery Bridge), a trick counter (Turnover) or a race to the target (Draw and Discard)."""
    sheet = rubber.scoresheet(deals)
    finished = sheet.complete or rubber.status == Rubber.Status.UNFINISHED
    base = {"sheet": sheet, "finished": finished, "kind": rubber.kind}
    if rubber.kind == sheets.TURNOVER:
        return {**base, **_turnover_pad(sheet)}
    if rubber.kind == sheets.DRAW_DISCARD:
        return {**base, **_race_pad(sheet)}
    if rubber.kind in (sheets.BRIDGE_FOR_TWO, sheets.MISERY):
        keys = ("NS", "EW")
        pad = {
            "above_ns": sheet.above[0],
            "above_ew": sheet.above[1],
            "segments": _segments(
                [(keys[player], n) for player, n in sheet.game_ends],
                {"ns": sheet.below[0], "ew": sheet.below[1]},
                sheet.complete,
            ),
            "vul_ns": sheet.vulnerable[0],
            "vul_ew": sheet.vulnerable[1],
            "games_ns": sheet.games[0],
            "games_ew": sheet.games[1],
            "winner": None if sheet.winner is None else keys[sheet.winner],
            "leader": None if sheet.points_leader is None else keys[sheet.points_leader],
        }
    elif rubber.kind == sheets.CHICAGO:
        ends = [
            (item.side.value, item.deal)
            for side in (Side.NS, Side.EW)
            for item in sheet.above[side]
            if item.reason == "game_bonus"
        ]
        vulnerable = sheet.next_vulnerable or (False, False)
        pad = {
            "above_ns": sheet.above[Side.NS],
            "above_ew": sheet.above[Side.EW],
            "segments": _segments(
                sorted(ends, key=lambda end: end[1]),
                {"ns": sheet.below[Side.NS], "ew": sheet.below[Side.EW]},
                sheet.complete,
            ),
            "vul_ns": vulnerable[0],
            "vul_ew": vulnerable[1],
            "games_ns": sheet.games[Side.NS],
            "games_ew": sheet.games[Side.EW],
            "winner": None,
            "leader": None if sheet.points_leader is None else sheet.points_leader.value,
            # RULES 5: N, E, S, W deal the counted deals in turn; a passed-out deal is redealt.
            "next_dealer": None if sheet.complete else SEATS[sheet.counted % 4],
            "counted": sheet.counted,
        }
    else:
        pad = {
            "above_ns": sheet.above[Side.NS],
            "above_ew": sheet.above[Side.EW],
            "segments": _segments(
                [(side.value, n) for side, n in sheet.game_ends],
                {"ns": sheet.below[Side.NS], "ew": sheet.below[Side.EW]},
                sheet.rubber_complete,
            ),
            "vul_ns": sheet.vulnerable[Side.NS],
            "vul_ew": sheet.vulnerable[Side.EW],
            "games_ns": sheet.games[Side.NS],
            "games_ew": sheet.games[Side.EW],
            "winner": None if sheet.winner is None else sheet.winner.value,
            "leader": None if sheet.points_leader is None else sheet.points_leader.value,
        }
    result = sheet.result
    return {
        **base,
        **pad,
        "template": "games/_pad.html",
        "total_ns": result.totals[0],
        "total_ew": result.totals[1],
        "hundreds_ns": result.hundreds[0],
        "hundreds_ew": result.hundreds[1],
        "net_ns": result.net[0],
    }


def _percent(value: int, whole: int) -> int:
    """A bar's length in steps of 5% (the CSS classes .pct-0 … .pct-100; no inline styles)."""
    return max(0, min(100, 5 * round(20 * value / whole))) if whole else 0


def _turnover_pad(sheet: Any) -> dict[str, Any]:
    """The trick counter of a Turnover game (RULES 7.3): the first to 14 of 26 tricks wins."""
    tricks = sheet.result.totals if sheet.score is not None else None
    return {
        "template": "games/_turnover.html",
        "tricks": tricks,
        "bars": [_percent(t, 14) for t in tricks] if tricks else [0, 0],
        "winner_place": sheet.result.winner,
        "tie": sheet.score is not None and sheet.score.tie,
        "total_ns": tricks[0] if tricks else 0,
        "total_ew": tricks[1] if tricks else 0,
    }


def _race_pad(sheet: Any) -> dict[str, Any]:
    """The race to the target of Draw and Discard (RULES 7.4): each player's score and bar."""
    target = sheet.score.target
    scores = sheet.result.totals
    return {
        "template": "games/_race.html",
        "target": target,
        "scores": scores,
        "bars": [_percent(score, target) for score in scores],
        "winner_place": sheet.score.winner,
        "total_ns": scores[0],
        "total_ew": scores[1],
    }


def _context(
    rubber: Rubber,
    viewer: Viewer,
    *,
    entry_form: Any = None,
    corrections: dict[int, Any] | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    deals = rubber.ordered_deals()
    seated = rubber.seats.values()
    histories = history.for_rubber(rubber.pk, rubber.session.club_id, seated)
    names = history.entrants(rubber.session.club_id, [d.entered_by_id for d in deals], seated)
    totals = {number: (ns, ew) for number, ns, ew in rubber.running_totals(deals)}
    pad = _pad(rubber, deals)
    # Vulnerability changes no value in the two-player games (scoring.rules.two_player).
    played = () if rubber.is_two_player else pad["sheet"].deals
    vulnerable = {d.number: d.vulnerable for d in played}
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
                "entered_by": history.who(names, deal.entered_by_id).name,
                "totals": totals.get(deal.number),
                "vulnerable": vulnerable.get(deal.number),
                "history": histories.get(deal.pk, []),
                "can_correct": can_correct,
                "can_confirm": can_confirm,
                "form": corrections.get(deal.pk)
                or (_correction_form(rubber, deal) if can_correct else None),
            }
        )
    if entry_form is None and open_for_entry and viewer.can_enter:
        entry_form = _entry_form(rubber, initial={"number": len(deals) + 1})
    next_rubber = rubber.next_rubber() if rubber.status == Rubber.Status.COMPLETE else None
    seats = rubber.seats
    if rubber.is_two_player:
        labels = [player.name for player in rubber.players]
        we, they = labels
    else:
        labels = [_("We"), _("They")]
        we = f"{seats['N'].name} & {seats['S'].name}"
        they = f"{seats['E'].name} & {seats['W'].name}"
    return {
        "rubber": rubber,
        "session": rubber.session,
        "club": rubber.session.club,
        "viewer": viewer,
        "pad": pad,
        "rows": rows,
        "we": we,
        "they": they,
        "labels": labels,
        "two_player": rubber.is_two_player,
        "game": _game_name(rubber.kind),
        "seats": seats,
        "entry_form": entry_form if open_for_entry and viewer.can_enter else None,
        "next_deal": len(deals) + 1,
        "next_rubber": next_rubber,
        "confirm_entries": confirm_entries,
        "error": error,
    }


def _game_name(kind: str) -> str:
    return str(dict(sheets.KINDS).get(kind, kind))


def _entry_form(rubber: Rubber, data: Any = None, **kwargs: Any) -> Any:
    """The deal entry form of the rubber's game: contract and seats, or the game's own fields."""
    if rubber.is_two_player:
        names = [player.name for player in rubber.players]
        return TwoPlayerDealForm(data, kind=rubber.kind, players=names, **kwargs)
    return DealEntryForm(data, **kwargs)


def _correction_form(rubber: Rubber, deal: Deal, data: Any = None) -> Any:
    """The correction form of the rubber's game, filled from the deal as recorded."""
    if rubber.is_two_player:
        names = [player.name for player in rubber.players]
        return TwoPlayerCorrectionForm.for_deal(deal, kind=rubber.kind, players=names, data=data)
    return DealCorrectionForm.for_deal(deal, data=data)


def _render(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "games/_live.html" if request.htmx else "games/rubber.html"
    return render(request, template, context, status=status)


@require_GET
def rubber_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rubber, viewer = get_rubber_for_user(request.user, pk)
    return render(request, "games/rubber.html", _context(rubber, viewer))


@login_required
@require_POST
def enter_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    rubber, viewer = get_rubber_for_user(request.user, pk)
    if not viewer.can_enter:
        raise PermissionDenied(_("Only the players seated in this rubber or a director enter."))
    form = _entry_form(rubber, request.POST)
    if form.is_valid():
        try:
            rubber.record_deal(**form.record_kwargs(), entered_by=signed_in_user(request))
        except Conflict as err:
            form.add_error(None, str(err))
        except ScoringError as err:  # a rule only the whole rubber can check
            form.add_error(None, error_line(err))
        else:
            if not request.htmx:
                messages.success(request, _("Deal recorded."))
                return redirect(rubber.get_absolute_url())
            rubber, viewer = get_rubber_for_user(request.user, pk)
            return _render(request, _context(rubber, viewer))
    return _render(request, _context(rubber, viewer, entry_form=form))


@login_required
@require_POST
def correct_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    deal, viewer = get_deal_for_user(request.user, pk)
    if not viewer.can_correct(deal):
        raise PermissionDenied(_("Only a director or the player who entered it corrects a deal."))
    form = _correction_form(deal.rubber, deal, request.POST)
    error = None
    if form.is_valid():
        try:
            deal.correct(
                version=form.cleaned_data["version"],
                changed_by=signed_in_user(request),
                **form.changes(),
            )
        except (Conflict, ScoringError) as err:
            error = error_line(err) if isinstance(err, ScoringError) else str(err)
            form.add_error(None, error)
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
def confirm_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
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
        deal.confirm(by=viewer.player, user=signed_in_user(request))
    except Conflict as err:
        error = str(err)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(deal.get_absolute_url())
    rubber, viewer = get_rubber_for_user(request.user, deal.rubber_id)
    return _render(request, _context(rubber, viewer, error=error))
