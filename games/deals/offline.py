"""Deals entered on a phone while it was offline, sent when the connection returns.

static/js/offline.js keeps a deal the phone could not send in the browser (IndexedDB) and posts
it here later: the same fields as the entry form, the same form and `Rubber.record_deal` behind
them, with the deal's number, so a retry is harmless (RULES 8.1: the same content again answers
200 and writes nothing). The answer is JSON with a status the queue acts on:

- 201 recorded, 200 already recorded (a retry): the phone forgets its copy;
- 409 with `server` and `mine` when another phone entered other content for that number: the
  player sees both and chooses; `replace_version` (the server deal's version) corrects the
  server's deal to the phone's, through `Deal.correct` (a stale version is another 409);
- 409 without `server` (a finished rubber, a gap, a closed session), 400 (input the rules
  refuse), 403, 404: refused, with the reason; the player drops it, or, for a gap after the
  rubber's last deal (`next`, a deal before it was deleted meanwhile), records it as that one;
- 403 `sign in` (the phone's session ended, or a table-code phone is handed over to the other
  side to confirm, games/tokens.py): the deal stays on the phone until they sign in or it is
  given back;
- 409 `closed` (the rubber's session is closed, or reopened for the director's corrections,
  to anyone but a director: its table codes, and its players' entry, are dead): the phone keeps
  its deals, shows them and says "This session is closed: show these to the director."; nothing
  is sent again, or dropped unless the player drops it.

docs/offline.md describes the whole round trip.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.rules import ScoringError
from scoring.shared.error_messages import error_line
from scoring.shared.inputs import UNKNOWN_FIELD, unknown_fields
from scoring.shared.numbers import small_number

from .. import history, registry
from ..codes import tokens
from ..codes.names import code_note
from ..forms.common import MAX_NUMBER
from ..models import (
    Conflict,
    Deal,
    DealFields,
    NextRubberToWithdraw,
    NumberGap,
    Rubber,
    change_note,
)
from ..pad.forms import entry_form
from ..permissions import Viewer
from ..selectors import CodeChanged, rubber_for_request


def _sign_in() -> JsonResponse:
    """A phone that may no longer write here (signed out, or its table code no longer works):
    not a refusal of the deal, which the phone keeps until it may write again."""
    detail = _("Sign in, or open your table's code again, to send the deals kept on this phone.")
    return JsonResponse({"status": "sign in", "detail": detail}, status=403)


def _closed() -> JsonResponse:
    """The session stopped taking its players' deals (closed, or reopened for corrections): the
    phone keeps the deals it holds for the director to see."""
    detail = _("This session is closed: show these to the director.")
    return JsonResponse({"status": "closed", "detail": detail}, status=409)


def _players(rubber: Rubber) -> list[str] | None:
    """A two-player match's players by name (player 0, player 1), as its pad names them."""
    return registry.names_for(rubber)


def _deal_json(rubber: Rubber, deal: Deal) -> dict[str, Any]:
    # Who entered it as the club shows them, never a login (games/history.py).
    names = history.entrants(rubber.session.club_id, [deal.entered_by_id])
    return {
        "number": deal.number,
        "summary": registry.summarise(rubber.kind, deal, _players(rubber)),
        "version": deal.version,
        "entered_by": history.who(names, deal.entered_by_id).name or "",
    }


def _conflict(
    rubber: Rubber,
    viewer: Viewer,
    fields: DealFields,
    number: int,
    err: Conflict,
    *,
    detail: str | None = None,
) -> JsonResponse:
    """409: both versions when the number holds other content (`detail` says why, by default
    that another phone entered it first), else the refusal's reason."""
    stored = Deal.objects.filter(rubber=rubber, number=number).first()
    answer: dict[str, Any] = {"status": "refused", "detail": str(err)}
    if isinstance(err, NumberGap) and number > err.expected:
        # A deal before it was deleted meanwhile: the phone may record it as the next one.
        answer["next"] = err.expected
    if stored is not None and stored.fields() != fields:
        mine = Deal(rubber=rubber, number=number, **fields.as_kwargs())
        answer = {
            "status": "conflict",
            "detail": detail
            or _("Another phone entered deal %(number)s first.") % {"number": number},
            "server": _deal_json(rubber, stored),
            "mine": {"number": number, "summary": mine.summary(_players(rubber))},
            "can_correct": viewer.can_correct(stored) and not rubber.session.is_closed,
        }
    return JsonResponse(answer, status=409)


def _replace(
    rubber: Rubber,
    viewer: Viewer,
    request: HttpRequest,
    fields: DealFields,
    number: int,
    version: int,
) -> JsonResponse:
    """Correct the server's deal `number` to the phone's content (the player chose "mine").

    A deal changed since the phone read it is another 409 with both versions (the new one's
    version); any other refusal says its own reason and offers no correction. A correction that
    would withdraw the next, empty rubber asks first (`_ask_withdrawal`), as the pad does."""
    stored = Deal.objects.filter(rubber=rubber, number=number).first()
    if stored is None:
        detail = _("There is no deal %(number)s in this rubber.") % {"number": number}
        return JsonResponse({"status": "refused", "detail": detail}, status=404)
    if not viewer.can_correct(stored):
        return JsonResponse(
            {"status": "refused", "detail": _("You may not correct this deal.")}, status=403
        )
    changes = fields.as_kwargs()
    if rubber.is_two_player:
        # Deal.correct merges a two-player deal's fields into the stored ones: what the phone's
        # version does not have is sent as null, so the result is the phone's version.
        data = dict(changes["data"] or {})
        for name in stored.data or {}:
            data.setdefault(name, None)
        changes = {"data": data}
    try:
        with change_note(code_note(rubber, viewer)):
            stored.correct(
                version=version,
                actor=viewer.actor,
                withdraw_next=small_number(request.POST.get("withdraw_next", "")) or 0,
                **changes,
            )
    except NextRubberToWithdraw as question:
        return _ask_withdrawal(rubber, stored, question)
    except Conflict as err:
        return _refused_replace(rubber, viewer, fields, number, version, err)
    except ScoringError as err:
        return JsonResponse({"status": "refused", "detail": error_line(err)}, status=400)
    return JsonResponse({"status": "corrected", "number": number}, status=200)


def _refused_replace(
    rubber: Rubber, viewer: Viewer, fields: DealFields, number: int, version: int, err: Conflict
) -> JsonResponse:
    """A correction to "mine" the deal refused: changed since the phone read it, both versions
    again (the player chooses anew); else the refusal's own reason, with nothing to correct."""
    current = Deal.objects.filter(rubber=rubber, number=number).first()
    if current is not None and current.fields() == fields:
        # Someone corrected it to this phone's version meanwhile: it holds what the phone has.
        return JsonResponse({"status": "already recorded", "number": number}, status=200)
    if current is not None and current.version != version:
        changed = _("Deal %(number)s changed since this phone read it: it is now %(deal)s.") % {
            "number": number,
            "deal": registry.summarise(rubber.kind, current, _players(rubber)),
        }
        return _conflict(rubber, viewer, fields, number, err, detail=changed)
    return JsonResponse({"status": "refused", "detail": str(err)}, status=409)


def _ask_withdrawal(rubber: Rubber, stored: Deal, question: NextRubberToWithdraw) -> JsonResponse:
    """Nothing saved: correcting to "mine" reopens the match and would withdraw the empty one
    after it. The phone asks first in the game's words, as the pad's correction form does
    (games/deals/corrections.py), and sends again with `withdraw_next` if the player agrees."""
    words = registry.pages(rubber.kind).words
    numbers = {"number": question.number, "next": question.next_number}
    return JsonResponse(
        {
            "status": "withdraw",
            "detail": str(words.withdraw_next) % numbers,
            "button": str(words.withdraw_button) % numbers,
            "withdraw_next": question.next_number,
            "version": stored.version,
        },
        status=409,
    )


def _may_not_enter(request: HttpRequest, rubber: Rubber, viewer: Viewer) -> JsonResponse:
    """Why this viewer, who may not enter here, sends nothing: the session closed, the phone is
    handed over, signed out, or not seated in this rubber."""
    # The rubber was read before a close that the code check then saw (the code died with
    # the session): the close's answer, not "sign in", which the phone would retry.
    rubber.session.refresh_from_db(fields=["status", "closed_at"])
    if not rubber.session.is_playing and not viewer.is_director:
        return _closed()
    if viewer.handed_over_by:
        # Lent to the other side to confirm: kept on the phone until it is given back.
        detail = _(
            "This phone is handed over to the other side: give it back to send the deals "
            "kept on it."
        )
        return JsonResponse({"status": "sign in", "detail": detail}, status=403)
    if not request.user.is_authenticated:
        return _sign_in()
    return JsonResponse(
        {
            "status": "refused",
            "detail": str(registry.pages(rubber.kind).words.seated_only),
        },
        status=403,
    )


@require_POST
def enter_queued_deal(request: HttpRequest, pk: int) -> JsonResponse:
    """A signed-in player, or a phone holding its table's code (games/codes/), as the entry
    form takes them (games.deals.entry.enter_deal)."""
    if not request.user.is_authenticated and tokens.cookie(request) is None:
        return _sign_in()
    try:
        rubber, viewer = rubber_for_request(request, pk)
    except CodeChanged as changed:
        # A members-only table whose code this phone held: as in a public club (below).
        rubber, viewer = changed.rubber, changed.viewer
    except Http404:  # the queue reads JSON; a hidden rubber answers as a missing one
        return JsonResponse({"status": "refused", "detail": _("No such rubber.")}, status=404)
    if not rubber.session.is_playing and not viewer.is_director:
        # Whatever the phone holds (a code dead with its session, a player's sign-in): a closed
        # night, even reopened, is the director's to change.
        return _closed()
    if not viewer.can_enter:
        return _may_not_enter(request, rubber, viewer)
    form = entry_form(rubber, viewer, request.POST)
    unknown = unknown_fields(request.POST, [*form.fields, "replace_version", "withdraw_next"])
    if unknown:
        detail = " ".join(f"{name}: {UNKNOWN_FIELD}" for name in unknown)
        return JsonResponse({"status": "refused", "detail": detail}, status=400)
    sent_number = small_number(request.POST.get("number", ""))
    if sent_number is None or not 1 <= sent_number <= MAX_NUMBER:
        # The form would say "this page is out of date" (its hidden field): the queue sent it.
        detail = _("The deal number is not valid: a whole number from 1 to %(max)s.") % {
            "max": MAX_NUMBER
        }
        return JsonResponse(
            {"status": "refused", "detail": detail, "errors": {"number": [detail]}}, status=400
        )
    if not form.is_valid():
        messages = [str(m) for errors in form.errors.values() for m in errors]
        return JsonResponse({"status": "refused", "detail": " ".join(messages)}, status=400)
    kwargs = form.record_kwargs()
    number = kwargs["number"]
    fields: DealFields = form.cleaned_data["fields"]
    replace = request.POST.get("replace_version", "")
    if replace:
        version = small_number(replace)
        if version is None:
            return JsonResponse({"status": "refused", "detail": _("Bad version.")}, status=400)
        return _replace(rubber, viewer, request, fields, number, version)
    try:
        with change_note(code_note(rubber, viewer)):
            deal, created = rubber.record_deal(**kwargs, actor=viewer.actor)
    except Conflict as err:
        return _conflict(rubber, viewer, fields, number, err)
    except ScoringError as err:
        return JsonResponse({"status": "refused", "detail": error_line(err)}, status=400)
    return JsonResponse(
        {"status": "recorded" if created else "already recorded", "number": deal.number},
        status=201 if created else 200,
    )
