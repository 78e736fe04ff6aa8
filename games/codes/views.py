"""The table code's pages: /t/<code> (a phone picks its seat), the hand-over to the other side
and the give-back; and the answer to a phone whose code no longer works (`code_changed`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Table
from scoring.shared.i18n import speak_club_language
from scoring.shared.numbers import small_number

from .. import display, registry
from ..models import SEAT_SIDE, SEATS, Deal, Rubber
from . import tokens
from .handover import back_words, handed_deals


def code_changed(request: HttpRequest, rubber: Rubber | None = None) -> HttpResponse:
    """A phone whose table code no longer works (regenerated, turned off, its session closed or
    reopened for corrections) is told so, never sent to sign in: in the pad, above its taps
    (kept), or as a page. The page of its rubber (`rubber`) keeps the rubber's offline queue, so
    deals still kept on the phone stay in view and hear why (docs/offline.md)."""
    # Closed, or reopened for corrections: scanning the card again would not help.
    context = {"rubber": rubber, "closed": rubber is not None and not rubber.session.is_playing}
    if request.headers.get("HX-Request"):
        response = render(request, "games/_code_changed.html", context, status=200)
        response["HX-Retarget"] = "#entry"
        response["HX-Reswap"] = "afterbegin"
        return response
    return render(request, "games/code_changed.html", context, status=403)


def _code_rubber(
    request: HttpRequest, code: str, wanted: int | None
) -> tuple[Table, Rubber] | HttpResponse:
    """The table a code opens and its rubber `wanted` (one of this table's), else its rubber in
    play, else its latest; or the answer to give instead: 429 to an address that missed too
    often (but not to a phone that holds this code), 404 for an unknown, closed or switched-off
    code."""
    if tokens.throttled(request) and not tokens.holds_code(request, code):
        page = render(
            request, "games/code_throttled.html", {"minutes": tokens.WINDOW // 60}, status=429
        )
        page["Retry-After"] = str(tokens.WINDOW)
        return page
    table = tokens.open_table(code)
    if table is None:
        tokens.count_miss(request)
        raise Http404("No such table.")
    rubber = (
        Rubber.objects.filter(table=table, pk=wanted).first() if wanted is not None else None
    ) or (
        Rubber.objects.filter(table=table, status=Rubber.Status.IN_PLAY).order_by("-number").first()
    )
    if rubber is None:
        rubber = Rubber.objects.filter(table=table).order_by("-number").first()
    if rubber is None:
        raise Http404("No such table.")
    return table, rubber


def table_code(request: HttpRequest, code: str) -> HttpResponse:
    """/t/<code>: a phone with no account opens the table's rubber in play. It first says which
    seat it is (GET: the seats with their players' names; POST: the seat), then holds the table
    by a signed cookie (games.codes). Unknown, closed or switched-off codes answer 404, and too
    many wrong codes from one address 429 (throttled), except to a phone that already holds this
    code (it learnt it from the card: "not you?" comes back here). `?rubber=<id>`, one of this
    table's rubbers, lists that rubber's players instead of the one in play. Picking a seat here
    is the phone's own choice: a phone that was handed over (`hand_over`) is no longer."""
    found = _code_rubber(request, code, small_number(request.GET.get("rubber", "")))
    if isinstance(found, HttpResponse):
        return found
    table, rubber = found
    # A code that works shows the club's table: its page speaks the club's language, as the pad
    # it leads to (an unknown code's 404 above stays in the visitor's).
    speak_club_language(request, table.session.club.language)
    seat = request.POST.get("seat") if request.method == "POST" else None
    if seat in rubber.seat_ids:
        response = redirect(rubber.get_absolute_url())
        tokens.remember(response, table, rubber, seat, tokens.phone_id(request))
        return response
    rubber.fetch_players()
    seats = rubber.seats
    # A table of two lists its players by name, in the pad's stable order (no compass seats).
    named = registry.pages(rubber.kind).named_players
    order = display.two_player_order(rubber.seat_ids) if named else list(seats)
    return render(
        request,
        "games/table_code.html",
        {
            "table": table,
            "session": table.session,
            "club": table.session.club,
            "rubber": rubber,
            "choices": [(seat, seats[seat]) for seat in order],
            "sitting_out": [player.name for player in rubber.out_players],
        },
    )


def _deal_words(rubber: Rubber, deal: Deal) -> str:
    """A deal in words as the pad lists it: "4♠ by East, made" (a two-player deal by names)."""
    return registry.deal_words(rubber, deal)


def _who_confirms(rubber: Rubber, seats: list[str], count: int) -> str:
    """Who picks a seat on the hand-over page, and what they do: "North (Clara Cole) or South
    (Eva Ekberg): pick your seat, check the deal and confirm it." (a table of two: the other
    player, by name)."""
    if registry.pages(rubber.kind).named_players:
        return ngettext(
            "%(name)s: tap your name, check the deal and confirm it.",
            "%(name)s: tap your name, check the deals and confirm them.",
            count,
        ) % {"name": rubber.seats[seats[0]].name}
    return ngettext(
        "%(first)s or %(second)s: pick your seat, check the deal and confirm it.",
        "%(first)s or %(second)s: pick your seat, check the deals and confirm them.",
        count,
    ) % {"first": _seat_and_name(rubber, seats[0]), "second": _seat_and_name(rubber, seats[1])}


def _seat_and_name(rubber: Rubber, seat: str) -> str:
    """ "North (Clara Cole)": a seat in words and who sits there this rubber."""
    return f"{display.SEAT_NAMES[seat]} ({rubber.seats[seat].name})"


@require_http_methods(["GET", "POST"])
def hand_over(request: HttpRequest, code: str) -> HttpResponse:
    """/t/<code>/hand-over?rubber=<id>: the phone holding the table's code is handed to the other
    side to confirm the deals its side wrote, as a Bridgemate goes to the opponents. The page
    names those deals and who confirms them, offers only the other side's seats and a way back
    (Cancel: the phone is unchanged). The seat picked becomes the phone's player, and the cookie
    keeps the one it goes back to (games.codes): while handed over it only confirms and disputes
    (`Viewer.can_enter`), and it goes back once those deals are done (`hand_back_when_done`) or when
    "give it back" is tapped (`give_back`). A phone that does not hold this table as a player
    seated in the rubber picks a seat on the plain page; one already handed over goes to its
    pad (which offers to give it back)."""
    wanted = small_number(request.GET.get("rubber", ""))
    found = _code_rubber(request, code, wanted)
    if isinstance(found, HttpResponse):
        return found
    table, rubber = found
    data = tokens.held(request, table.pk)
    holder = data.get("pl") if data is not None else None
    holder_seat = rubber.seat_of(holder) if isinstance(holder, int) else None
    if data is None or holder_seat is None:
        return redirect(f"{reverse('games:table_code', args=[table.code])}?rubber={rubber.pk}")
    if tokens.back_player(data, table.pk) is not None:
        return redirect(rubber.get_absolute_url())
    # The phone holds this table: its page speaks the club's language, as the pad it came from.
    speak_club_language(request, table.session.club.language)
    rubber.fetch_players()
    handed = handed_deals(rubber, holder_seat)
    side = SEAT_SIDE[holder_seat]
    named = registry.pages(rubber.kind).named_players
    order = display.two_player_order(rubber.seat_ids) if named else SEATS
    others = [seat for seat in order if seat in rubber.seat_ids and SEAT_SIDE[seat] != side]
    seat = request.POST.get("seat") if request.method == "POST" else None
    if seat in others and handed:
        response = redirect(f"{rubber.get_absolute_url()}#confirm-{handed[0].number}")
        tokens.remember(response, table, rubber, seat, tokens.phone_id(request), back=holder)
        return response
    seats = rubber.seats
    return render(
        request,
        "games/hand_over.html",
        {
            "table": table,
            "session": table.session,
            "club": table.session.club,
            "rubber": rubber,
            "deals": [(deal.number, _deal_words(rubber, deal)) for deal in handed],
            "who": _who_confirms(rubber, others, len(handed)),
            "choices": [(seat, seats[seat]) for seat in others] if handed else [],
            "holder": seats[holder_seat].name,
        },
    )


def _held_rubber(request: HttpRequest, wanted: int | None) -> Rubber | None:
    """The rubber a phone whose code died was on: `wanted` if it is one of the table its cookie
    names (signed: it held that table's code), else that table's latest; None without one. Its
    session says why the code died, and its page keeps the rubber's offline queue in view."""
    data = tokens.cookie(request)
    table_id = data.get("t") if data is not None else None
    if not isinstance(table_id, int):
        return None
    rubbers = Rubber.objects.select_related("session").filter(table_id=table_id)
    found = rubbers.filter(pk=wanted).first() if wanted is not None else None
    return found or rubbers.order_by("-number").first()


@require_POST
def give_back(request: HttpRequest, code: str) -> HttpResponse:
    """ "Give it back": a handed-over phone goes back to the player it was handed over by, with no
    confirmation (the cookie's "b", checked by games.codes.tokens.back_player: a forged one is
    ignored and the phone stays as it is). Then the pad of the posted rubber (one of this
    table's) or the table's rubber in play. A phone whose code no longer works (the session
    closed, codes off or new) is told so, on the page of the rubber it was on (`_held_rubber`)."""
    if tokens.holds_code(request, code) and tokens.open_table(code) is None:
        wanted = small_number(request.POST.get("rubber", ""))
        return code_changed(request, _held_rubber(request, wanted))
    found = _code_rubber(request, code, small_number(request.POST.get("rubber", "")))
    if isinstance(found, HttpResponse):
        return found
    table, rubber = found
    response = redirect(rubber.get_absolute_url())
    data = tokens.held(request, table.pk)
    back = tokens.back_player(data, table.pk) if data is not None else None
    if back is not None:
        tokens.keep(response, tokens.given_back(request, table.pk, back.pk))
        speak_club_language(request, table.session.club.language)  # the pad's, as hand_over
        rubber.fetch_players()
        messages.success(request, back_words(rubber, back.pk, back.name))
    return response
