"""The other side's answer to a deal (confirm, dispute) and a director's ruling on a dispute."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Player

from ..codes import tokens
from ..codes.handover import GivenBack, hand_back_when_done
from ..codes.names import code_note
from ..forms import DisputeForm
from ..models import (
    Conflict,
    Deal,
    change_note,
    reopened_for_director,
)
from ..pad.context import pad_context
from ..pad.views import HtmxHttpRequest, render_pad, tells_code_changed
from ..permissions import Viewer, may_rule
from ..selectors import deal_for_request, rubber_for_request
from .common import posted_version, refused, told


def _unseen(deal: Deal, version: int | None, *, confirming: bool) -> str | None:
    """Why a confirm or dispute of `version` is not of the deal as it is now (the page is out of
    date, or the deal was corrected since: in words), or None. Checked again under the lock."""
    if version is None:
        return str(_("This page is out of date: reload it to see the deal as it is now."))
    try:
        deal._check_seen(version, confirming=confirming)
    except Conflict as err:
        return str(err)
    return None


@tells_code_changed
@require_POST
def confirm_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The other side confirms a deal in one tap (`_answer`)."""
    return _answer(request, pk, confirming=True)


@tells_code_changed
@require_POST
def dispute_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The other side disputes a deal in one tap: it is flagged for the director (the console
    lists it) and stays as entered until a director corrects it or rules that it stands."""
    return _answer(request, pk, confirming=False)


def _answer(request: HtmxHttpRequest, pk: int, *, confirming: bool) -> HttpResponse:
    """The other side's answer to a deal, a confirmation or a dispute: by a seated player of
    the other side (a phone with the table's code as the player in the seat it holds), of the
    deal as they saw it (`version`: if it was corrected since, the side may have changed). A
    phone handed over to them goes back once no deal waits for them (`hand_back_when_done`)."""
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    player = None
    if confirming:
        refusal = _("A deal is confirmed by a player of the other side.")
        # A phone with the table's code confirms as the player in the seat it holds.
        player = deal.rubber.seats[viewer.seat] if viewer.by_code and viewer.seat else viewer.player
        barred = player is None
    else:
        refusal = _("A deal is disputed by a player of the other side.")
        session = deal.rubber.session
        barred = not session.asks_confirmation or session.is_closed
    if barred or viewer.seat is None or not viewer.plays:
        return refused(
            request, refusal if viewer.plays else reopened_for_director(), deal.rubber.table_id
        )
    version = posted_version(request)
    if (stale := _unseen(deal, version, confirming=confirming)) is not None:
        return told(request, deal, stale)
    if not deal.confirmable_from(viewer.seat):
        return refused(request, refusal, deal.rubber.table_id)
    why = DisputeForm(request.POST)
    if not confirming and not why.is_valid():
        return told(request, deal, why.error_line())
    error = None
    back = None
    handed_over = bool(viewer.phone) and viewer.phone == deal.written_phone
    try:
        with change_note(code_note(deal.rubber, viewer, handed_over=handed_over)):
            if player is not None:
                done = _confirmed(deal, player, viewer, version)
            else:
                done = _disputed(deal, viewer, version, why.cleaned_data)
    except Conflict as err:
        error = str(err)
    else:
        if done is not None:
            back = hand_back_when_done(request, deal.rubber, viewer, done)
    return _answer_confirmation(request, deal, error, back)


def _confirmed(deal: Deal, player: Player, viewer: Viewer, version: int | None) -> str | None:
    """Confirm `deal` as `player`: what the pad says when it is their confirmation that stands
    ("Deal 3 confirmed by Alice."), else None."""
    confirmed = deal.confirm(actor=viewer.actor, version=version)
    if confirmed.confirmed_by_id != player.pk:
        return None
    done = _("Deal %(number)s confirmed by %(name)s.")
    return done % {"number": deal.number, "name": player.name}


def _disputed(deal: Deal, viewer: Viewer, version: int | None, why: dict[str, str]) -> str | None:
    """Dispute `deal` for the reason given (`DisputeForm`): what the pad says when it is
    disputed, else None."""
    disputed = deal.dispute(
        actor=viewer.actor, version=version, reason=why["reason"], note=why["note"]
    )
    if not disputed.disputed:
        return None
    # Only a phone handed over goes back (`back_id`): it is the table code's player.
    return _("Deal %(number)s disputed by %(name)s.") % {
        "number": deal.number,
        "name": viewer.code_name,
    }


def _answer_confirmation(
    request: HtmxHttpRequest, deal: Deal, error: str | None, back: GivenBack | None
) -> HttpResponse:
    """The answer to a confirm or dispute: the pad (htmx) or a redirect to it, with the error,
    and with the phone given back when it was (its cookie, and the pad saying so)."""
    response: HttpResponse
    if not request.htmx:
        if error:
            messages.error(request, error)
        if back is not None:
            messages.success(request, back["notice"])
        response = redirect(deal.get_absolute_url())
    else:
        rubber, viewer = rubber_for_request(request, deal.rubber_id)
        notice = None if back is None else back["notice"]
        response = render_pad(request, pad_context(rubber, viewer, error=error, notice=notice))
    if back is not None:
        tokens.keep(response, back["value"])
    return response


def _back_to(request: HttpRequest, default: str) -> str:
    """Where a form asked to go back to (`next`: the console's list of disputed deals) when it
    is a path on this site, else `default`. A bare word is not one: `redirect` would look it up
    as a view's name (a 500 when there is none)."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@tells_code_changed
@require_POST
def rule_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A director rules that a disputed deal stands as recorded ("It stands", next to Correct on
    the pad and in the console's list of disputed deals): the dispute is settled with no change
    (`Deal.rule`). Of the deal as the director saw it (`version`): one corrected since, or in a
    closed session, is refused in words. Anyone else is refused as for the other writes (403; a
    hidden deal is missing: 404). Back to `next` (the console) when given, else to the deal."""
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    if not may_rule(viewer.actor):
        return refused(
            request,
            _("Only a director of the club rules on a disputed deal."),
            deal.rubber.table_id,
        )
    version = posted_version(request)
    error = None
    if version is None:
        error = str(_("This page is out of date: reload it to see the deal as it is now."))
    else:
        try:
            deal.rule(actor=viewer.actor, version=version)
        except Conflict as err:
            error = str(err)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(
                request,
                _("Deal %(number)s stands as recorded: the dispute is settled.")
                % {"number": deal.number},
            )
        return redirect(_back_to(request, deal.get_absolute_url()))
    rubber, viewer = rubber_for_request(request, deal.rubber_id)
    return render_pad(request, pad_context(rubber, viewer, error=error))


def _seen_versions(request: HttpRequest) -> dict[int, int]:
    """The deals a "Confirm all" form lists, each as the player saw it ("<id>:<version>")."""
    seen: dict[int, int] = {}
    for item in request.POST.getlist("deal"):
        pk, _colon, version = item.partition(":")
        if pk.isdigit() and version.isdigit() and len(pk) < 19 and len(version) < 10:
            seen[int(pk)] = int(version)
    return seen


@tells_code_changed
@require_POST
def confirm_all(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Confirm all": the other side confirms in one tap every deal of the rubber awaiting it
    that the page listed (`deal`: "<id>:<version>", as each Confirm sends its version). Disputes
    stay per deal. Who may: as for one confirmation (`_answer`); a phone handed over goes back
    once nothing waits for them."""
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    rubber, viewer = rubber_for_request(request, pk)
    player = rubber.seats[viewer.seat] if viewer.by_code and viewer.seat else viewer.player
    if player is None or viewer.seat is None or not viewer.plays:
        return refused(
            request,
            _("A deal is confirmed by a player of the other side.")
            if viewer.plays
            else reopened_for_director(),
            rubber.table_id,
        )
    seen = _seen_versions(request)
    error = None
    back = None
    if not seen:
        error = str(_("No deal awaits your confirmation."))
    else:
        try:
            with change_note(code_note(rubber, viewer, handed_over=bool(viewer.handed_over_by))):
                count = rubber.confirm_deals(actor=viewer.actor, seen=seen)
        except Conflict as err:
            error = str(err)
        else:
            done = ngettext(
                "%(count)s deal confirmed by %(name)s.",
                "%(count)s deals confirmed by %(name)s.",
                count,
            ) % {"count": count, "name": player.name}
            back = hand_back_when_done(request, rubber, viewer, done)
            if back is None:
                back = GivenBack(value="", notice=done)
    response: HttpResponse
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif back is not None:
            messages.success(request, back["notice"])
        response = redirect(rubber.get_absolute_url())
    else:
        rubber, viewer = rubber_for_request(request, rubber.pk)
        notice = None if back is None else back["notice"]
        response = render_pad(request, pad_context(rubber, viewer, error=error, notice=notice))
    if back is not None and back["value"]:
        tokens.keep(response, back["value"])
    return response
