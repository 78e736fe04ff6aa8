"""Rubber pages: the score pad, deal entry, corrections and confirmations.

Every page works without JavaScript (POST, then redirect); with htmx the forms post in the
background and the live part of the page (`templates/games/_live.html`, which holds the pad
partial `_pad.html`) is swapped in place.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypedDict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from clubs.models import Player, Session, Table
from clubs.permissions import check_club_access
from scoring.rules import ScoringError, Side
from scoring.rules.games import game
from scoring.shared.error_messages import error_line
from scoring.shared.i18n import speak_club_language
from scoring.shared.numbers import small_number

from . import codes, display, history, registry
from .forms import (
    DealCorrectionForm,
    DealEntryForm,
    TwoPlayerCorrectionForm,
    TwoPlayerDealForm,
    side_names,
)
from .models import (
    SEAT_SIDE,
    SEATS,
    Conflict,
    Deal,
    DealFields,
    Rubber,
    change_note,
    closed_session,
    reopened_for_director,
)
from .permissions import Viewer, may_rule
from .selectors import (
    CodeChanged,
    deal_for_request,
    rubber_for_request,
    rubber_version_for_request,
)


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
    """The scoresheet laid out for the game (its pages in games/registry.py): a paper pad
    (rubber, Chicago, Bridge for Two, Misery Bridge), a trick counter (Turnover) or a race to
    the target (Draw and Discard)."""
    sheet = rubber.scoresheet(deals)
    finished = sheet.complete or rubber.status == Rubber.Status.UNFINISHED
    page = registry.pages(rubber.kind)
    base = {"sheet": sheet, "finished": finished, "kind": rubber.kind}
    layout = {"layout": page.pad, "template": page.pad_template}
    return {**base, **PADS[page.pad](sheet), **layout}


def _two_player_rubber_pad(sheet: Any) -> dict[str, Any]:
    """A two-player rubber's paper pad (RULES 7.1, 7.2): player 0 in the N–S column."""
    keys = ("NS", "EW")
    return _paper(
        sheet,
        {
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
        },
    )


def _chicago_pad(sheet: Any) -> dict[str, Any]:
    """A Chicago's paper pad (RULES 5), with the next dealer."""
    ends = [
        (item.side.value, item.deal)
        for side in (Side.NS, Side.EW)
        for item in sheet.above[side]
        if item.reason == "game_bonus"
    ]
    vulnerable = sheet.next_vulnerable or (False, False)
    return _paper(
        sheet,
        {
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
        },
    )


def _rubber_pad(sheet: Any) -> dict[str, Any]:
    """A rubber's paper pad (RULES 2): a line under each game won."""
    return _paper(
        sheet,
        {
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
        },
    )


def _paper(sheet: Any, pad: dict[str, Any]) -> dict[str, Any]:
    """A paper pad with the result's figures under it (RULES 4.1)."""
    result = sheet.result
    return {
        **pad,
        "total_ns": result.totals[0],
        "total_ew": result.totals[1],
        "hundreds_ns": result.hundreds[0],
        "hundreds_ew": result.hundreds[1],
        "net_ns": result.net[0],
        "margin": abs(result.net[0]),
    }


PAIRS = (
    ("above_ns", "above_ew"),
    ("vul_ns", "vul_ew"),
    ("games_ns", "games_ew"),
    ("total_ns", "total_ew"),
    ("hundreds_ns", "hundreds_ew"),
)
OTHER = {"NS": "EW", "EW": "NS", None: None}


def _oriented(pad: dict[str, Any], we_side: str | None) -> dict[str, Any]:
    """The pad as its viewer writes it: their own side in the left column (We). For an East–West
    player the columns change places; `left` names the side shown on the left and `true` keeps
    the figures by their real sides (N–S first) for what names the sides."""
    if we_side != "EW":
        return {**pad, "left": "ns", "right": "ew", "true": pad, "places": (0, 1)}
    flipped = dict(pad)
    if "values" in pad:  # a trick counter or a race: the two players' bars change places
        flipped["values"] = pad["values"][::-1]
        flipped["bars"] = pad["bars"][::-1]
    for first, second in PAIRS:
        if first in pad:
            flipped[first], flipped[second] = pad[second], pad[first]
    if "segments" in pad:
        flipped["segments"] = [
            {"ns": s["ew"], "ew": s["ns"], "won_by": OTHER[s["won_by"]]} for s in pad["segments"]
        ]
    for key in ("winner", "leader"):
        if key in pad:
            flipped[key] = OTHER[pad[key]]
    if "net_ns" in pad:
        flipped["net_ns"] = -pad["net_ns"]
    return {**flipped, "left": "ew", "right": "ns", "true": pad, "places": (1, 0)}


def _swapped(rubber: Rubber) -> bool:
    """Whether a two-player match shows its engine's player 1 first (display.two_player_order)."""
    return rubber.is_two_player and display.two_player_order(rubber.seat_ids)[0] == "E"


def _places(rubber: Rubber) -> tuple[int, int]:
    """The engine's places (player 0, player 1) in the order the page shows the players."""
    return (1, 0) if _swapped(rubber) else (0, 1)


def _percent(value: int, whole: int) -> int:
    """A bar's length in steps of 5% (the CSS classes .pct-0 … .pct-100; no inline styles)."""
    return max(0, min(100, 5 * round(20 * value / whole))) if whole else 0


def _turnover_pad(sheet: Any) -> dict[str, Any]:
    """The trick counter of a Turnover game (RULES 7.3): the first to 14 of 26 tricks wins."""
    tricks = sheet.result.totals if sheet.score is not None else None
    return {
        "tricks": tricks,
        "values": list(tricks) if tricks else [None, None],
        "bars": [_percent(t, 14) for t in tricks] if tricks else [0, 0],
        "margin": abs(tricks[0] - tricks[1]) if tricks else 0,
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
        "target": target,
        "scores": scores,
        "values": list(scores),
        "bars": [_percent(score, target) for score in scores],
        "margin": abs(scores[0] - scores[1]),
        "winner_place": sheet.score.winner,
        "total_ns": scores[0],
        "total_ew": scores[1],
    }


#: The pads' layouts by name (`GamePages.pad` in games/registry.py): the sheet → the pad's figures.
PADS = {
    "rubber": _rubber_pad,
    "chicago": _chicago_pad,
    "two_player_rubber": _two_player_rubber_pad,
    "tricks": _turnover_pad,
    "race": _race_pad,
}


def _names(rubber: Rubber, viewer: Viewer) -> dict[str, Any]:
    """How this viewer's pad names each side (forms.side_names): We/They at the table."""
    return side_names(None if rubber.is_two_player else viewer.we_side)


def _context(
    rubber: Rubber,
    viewer: Viewer,
    *,
    entry_form: Any = None,
    corrections: dict[int, Any] | None = None,
    error: str | None = None,
    notice: str | None = None,
    notice_deal: int | None = None,
    moved_to: int | None = None,
    deleting: int | None = None,
) -> dict[str, Any]:
    """What the pad shows. `notice_deal` links the notice to that deal's correction; `moved_to`
    tells the poll to move a form's taps to that deal number (a deal was deleted since they
    were tapped); `deleting` is the id of a deal whose deletion is asked (without JavaScript:
    the question in its correction panel)."""
    deals = rubber.ordered_deals()
    seated = rubber.seats.values()
    # The two players' names in the engine's order (player 0, player 1): the explanations,
    # deal summaries and history name them (issue 17).
    player_names = [p.name for p in rubber.players] if rubber.is_two_player else None
    histories = history.for_rubber(rubber.pk, rubber.session.club_id, seated, player_names)
    # Who wrote what, by their names in the club: a login is never shown (API.md).
    entrant_names = history.entrants(
        rubber.session.club_id, [d.entered_by_id for d in deals], seated
    )
    totals = {number: (ns, ew) for number, ns, ew in rubber.running_totals(deals)}
    we_side = None if rubber.is_two_player else viewer.we_side
    # Two players in a stable order (display.two_player_order): the engine's player 1 is first
    # when their id is the lower, so the columns do not swap when the dealer does.
    pad = _oriented(_pad(rubber, deals), "EW" if _swapped(rubber) else we_side)
    flip = pad["left"] == "ew"
    # Vulnerability changes no value in the two-player games (scoring.rules.two_player).
    played = () if rubber.is_two_player else pad["sheet"].deals
    vulnerable = {d.number: d.vulnerable for d in played}
    open_for_entry = (
        rubber.status == Rubber.Status.IN_PLAY and rubber.session.status == Session.Status.RUNNING
    )
    corrections = corrections or {}
    confirm_entries = rubber.session.asks_confirmation
    last_number = deals[-1].number if deals else None
    rows = []
    for deal in deals:
        seat = viewer.seat
        awaits = (
            confirm_entries
            and seat is not None
            and not deal.settled
            and not deal.disputed
            and not rubber.session.is_closed
            and viewer.plays
        )
        can_confirm = awaits and seat is not None and deal.confirmable_from(seat)
        can_correct = viewer.can_correct(deal) and not rubber.session.is_closed
        # The director settles a dispute: a correction, or "It stands" (Deal.rule).
        can_rule = (
            confirm_entries
            and deal.disputed
            and viewer.is_director
            and not rubber.session.is_closed
        )
        # A table's phone that wrote the deal: the other side confirms on it once handed over
        # (they pick their seat on its hand-over page), as with a Bridgemate. Not again while
        # it is handed over: it goes back first.
        hand_over = (
            awaits
            and viewer.by_code
            and seat is not None
            and not deal.confirmable_from(seat)
            and not viewer.handed_over_by
        )
        row_totals = totals.get(deal.number)
        changes = histories.get(deal.pk, [])
        rows.append(
            {
                "deal": deal,
                "words": _words(deal, player_names),
                "totals": row_totals[::-1] if flip and row_totals else row_totals,
                "vulnerable": vulnerable.get(deal.number),
                "history": changes,
                "entered_by": _entered_by(rubber, deal, entrant_names, changes),
                "can_correct": can_correct,
                "can_confirm": can_confirm,
                "can_rule": can_rule,
                "hand_over": hand_over,
                # A correction form only where one is open (its errors, or asked for): the
                # others are fetched when opened (correct_deal's GET).
                "form": corrections.get(deal.pk),
                # "Delete deal N" in the last deal's panel (docs/rules.md, §8 decision 7).
                "can_delete": can_correct
                and deal.number == last_number
                and deal.delete_refusal(
                    rubber, rubber.session, deal.number, director=viewer.is_director
                )
                is None,
                "asking": deal.pk == deleting,
            }
        )
    if entry_form is None and open_for_entry and viewer.can_enter:
        entry_form = _entry_form(rubber, viewer, initial={"number": len(deals) + 1})
    next_rubber = rubber.next_rubber() if rubber.status == Rubber.Status.COMPLETE else None
    seats = rubber.seats
    if rubber.is_two_player:
        assert player_names is not None
        labels = player_names[::-1] if flip else list(player_names)
        we, they = labels
        if pad.get("winner_place") is not None:
            pad["winner_name"] = player_names[pad["winner_place"]]
        if "values" in pad:
            pad["counters"] = [
                {"name": player_names[place], "place": place, "value": value, "bar": bar}
                for place, value, bar in zip(pad["places"], pad["values"], pad["bars"], strict=True)
            ]
    else:
        names = side_names(we_side)
        labels = [names[pad["left"].upper()], names[pad["right"].upper()]]
        pairs = {
            "ns": f"{seats['N'].name} & {seats['S'].name}",
            "ew": f"{seats['E'].name} & {seats['W'].name}",
        }
        we, they = pairs[pad["left"]], pairs[pad["right"]]
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
        "player_names": player_names,
        "at_table": we_side is not None,
        "two_player": rubber.is_two_player,
        "game": _game_name(rubber.kind),
        "seats": seats,
        "entry_form": entry_form if open_for_entry and viewer.can_enter else None,
        "entry_template": registry.pages(rubber.kind).entry_template,
        "next_deal": len(deals) + 1,
        "next_rubber": next_rubber,
        "confirm_entries": confirm_entries,
        "awaiting": [
            deal.number for deal, row in zip(deals, rows, strict=True) if row["can_confirm"]
        ],
        "awaiting_before": _awaiting_before(rubber, viewer) if confirm_entries else [],
        "error": error,
        "notice": notice,
        "notice_deal": notice_deal,
        # Taps moved to the next deal by a conflict (enter_deal): the form says so, and Record
        # names the deal it will record them as.
        "taps_moved": bool(notice_deal and entry_form is not None and entry_form.is_bound),
        "preview_line": _preview_line(rubber, viewer, entry_form.data)
        if entry_form is not None and entry_form.is_bound and not rubber.is_two_player
        else None,
        "moved_to": moved_to,
        "deleted": _deleted(histories, {deal.pk for deal in deals}),
        "poll_url": reverse("games:rubber_live", args=[rubber.pk]),
    }


def _words(deal: Deal, player_names: list[str] | None) -> str:
    """A deal as the deal list says it: "1NT by East, −1", or a two-player deal by its players'
    names."""
    return deal.summary(player_names) if player_names is not None else display.deal_words(deal)


def _deleted(histories: dict[int, list[dict[str, Any]]], kept: set[int]) -> list[dict[str, Any]]:
    """The deals deleted from this rubber (their last history entry, oldest first): the pad
    lists them under its deals, so that a deal that vanished from every phone says who deleted
    it and when. Read with the rubber's history, at no further query."""
    found = [
        entries[-1]
        for deal_id, entries in histories.items()
        if deal_id not in kept and entries and entries[-1]["kind"] == "deleted"
    ]
    return sorted(found, key=lambda entry: entry["at"])


def _awaiting_before(rubber: Rubber, viewer: Viewer) -> list[Deal]:
    """Deals of the table's previous rubber that await the viewer's confirmation: its last deal
    is confirmed as everyone moves on to this one (one query)."""
    if rubber.session.is_closed:
        return []
    if viewer.player is not None:
        player_id: int | None = viewer.player.pk
    elif viewer.by_code and viewer.seat is not None:
        player_id = rubber.seat_ids[viewer.seat]
    else:
        return []
    earlier = Deal.objects.filter(
        rubber__table_id=rubber.table_id,
        rubber__number=rubber.number - 1,
        confirmed_by__isnull=True,
        disputed=False,
        ruled=False,
    ).select_related("rubber")
    waiting = []
    for deal in earlier.order_by("rubber__number", "number"):
        seat = deal.rubber.seat_of(player_id)
        if seat is not None and deal.confirmable_from(seat):
            waiting.append(deal)
    return waiting


def _game_name(kind: str) -> str:
    return str(_(game(kind).label))


def _controls(rubber: Rubber) -> frozenset[str]:
    """The entry controls the rubber's game allows under the house rules it is scored under."""
    return registry.pages(rubber.kind).entry_controls(rubber.house_rules())


def _entry_form(rubber: Rubber, viewer: Viewer, data: Any = None, **kwargs: Any) -> Any:
    """The deal entry form of the rubber's game: contract and seats, or the game's own fields;
    only the controls its house rules allow."""
    entry = registry.pages(rubber.kind).entry
    controls = _controls(rubber)
    if entry is not None:
        names = [player.name for player in rubber.players]
        return TwoPlayerDealForm(
            data,
            kind=rubber.kind,
            entry=entry,
            players=names,
            order=_places(rubber),
            controls=controls,
            **kwargs,
        )
    return DealEntryForm(data, we_side=viewer.we_side, controls=controls, **kwargs)


def _correction_form(rubber: Rubber, deal: Deal, viewer: Viewer, data: Any = None) -> Any:
    """The correction form of the rubber's game, filled from the deal as recorded: the entry's
    own buttons."""
    entry = registry.pages(rubber.kind).entry
    controls = _controls(rubber)
    if entry is not None:
        names = [player.name for player in rubber.players]
        return TwoPlayerCorrectionForm.for_deal(
            deal,
            kind=rubber.kind,
            entry=entry,
            players=names,
            order=_places(rubber),
            data=data,
            controls=controls,
        )
    return DealCorrectionForm.for_deal(deal, data=data, we_side=viewer.we_side, controls=controls)


def _code_changed(request: HttpRequest, rubber: Rubber | None = None) -> HttpResponse:
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


def _tells_code_changed(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view of a table's pages: a phone whose code for a members-only table no longer works
    (`selectors.CodeChanged`) is told so, as in a public club, instead of the missing 404."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except CodeChanged as changed:
            return _code_changed(request, changed.rubber)

    return wrapped


def _render(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "games/_live.html" if request.htmx else "games/rubber.html"
    return render(request, template, context, status=status)


@_tells_code_changed
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


def _code_rubber(
    request: HttpRequest, code: str, wanted: int | None
) -> tuple[Table, Rubber] | HttpResponse:
    """The table a code opens and its rubber `wanted` (one of this table's), else its rubber in
    play, else its latest; or the answer to give instead: 429 to an address that missed too
    often (but not to a phone that holds this code), 404 for an unknown, closed or switched-off
    code."""
    if codes.throttled(request) and not codes.holds_code(request, code):
        page = render(
            request, "games/code_throttled.html", {"minutes": codes.WINDOW // 60}, status=429
        )
        page["Retry-After"] = str(codes.WINDOW)
        return page
    table = codes.open_table(code)
    if table is None:
        codes.count_miss(request)
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
        codes.remember(response, table, rubber, seat, codes.phone_id(request))
        return response
    rubber.fetch_players()
    seats = rubber.seats
    # A table of two lists its players by name, in the pad's stable order (no compass seats).
    order = display.two_player_order(rubber.seat_ids) if rubber.is_two_player else list(seats)
    return render(
        request,
        "games/table_code.html",
        {
            "table": table,
            "session": table.session,
            "club": table.session.club,
            "rubber": rubber,
            "choices": [(seat, seats[seat]) for seat in order],
        },
    )


def _handed_deals(rubber: Rubber, seat: str) -> list[Deal]:
    """The deals of the rubber that wait for the other side from `seat`'s: written from its
    side (by this phone or another), neither confirmed nor disputed, while the session asks for
    confirmations and runs. What a hand-over is for; read afresh (one query)."""
    if not rubber.session.asks_confirmation or rubber.session.is_closed:
        return []
    waiting = Deal.objects.filter(rubber=rubber, confirmed_by__isnull=True, disputed=False)
    return [deal for deal in waiting.order_by("number") if not deal.confirmable_from(seat)]


def _deal_words(rubber: Rubber, deal: Deal) -> str:
    """A deal in words as the pad lists it: "4♠ by East, made" (a two-player deal by names)."""
    if rubber.is_two_player:
        return deal.summary([p.name for p in rubber.players])
    return display.deal_words(deal)


def _who_confirms(rubber: Rubber, seats: list[str], count: int) -> str:
    """Who picks a seat on the hand-over page, and what they do: "North or South: pick your
    seat, check the deal and confirm it." (a table of two: the other player, by name)."""
    if rubber.is_two_player:
        return ngettext(
            "%(name)s: tap your name, check the deal and confirm it.",
            "%(name)s: tap your name, check the deals and confirm them.",
            count,
        ) % {"name": rubber.seats[seats[0]].name}
    return ngettext(
        "%(first)s or %(second)s: pick your seat, check the deal and confirm it.",
        "%(first)s or %(second)s: pick your seat, check the deals and confirm them.",
        count,
    ) % {"first": display.SEAT_NAMES[seats[0]], "second": display.SEAT_NAMES[seats[1]]}


@require_http_methods(["GET", "POST"])
def hand_over(request: HttpRequest, code: str) -> HttpResponse:
    """/t/<code>/hand-over?rubber=<id>: the phone holding the table's code is handed to the other
    side to confirm the deals its side wrote, as a Bridgemate goes to the opponents. The page
    names those deals and who confirms them, offers only the other side's seats and a way back
    (Cancel: the phone is unchanged). The seat picked becomes the phone's player, and the cookie
    keeps the one it goes back to (games.codes): while handed over it only confirms and disputes
    (`Viewer.can_enter`), and it goes back once those deals are done (`_give_back`) or when
    "give it back" is tapped (`give_back`). A phone that does not hold this table as a player
    seated in the rubber picks a seat on the plain page; one already handed over goes to its
    pad (which offers to give it back)."""
    wanted = small_number(request.GET.get("rubber", ""))
    found = _code_rubber(request, code, wanted)
    if isinstance(found, HttpResponse):
        return found
    table, rubber = found
    data = codes.held(request, table.pk)
    holder = data.get("pl") if data is not None else None
    holder_seat = rubber.seat_of(holder) if isinstance(holder, int) else None
    if data is None or holder_seat is None:
        return redirect(f"{reverse('games:table_code', args=[table.code])}?rubber={rubber.pk}")
    if codes.back_player(data, table.pk) is not None:
        return redirect(rubber.get_absolute_url())
    # The phone holds this table: its page speaks the club's language, as the pad it came from.
    speak_club_language(request, table.session.club.language)
    rubber.fetch_players()
    handed = _handed_deals(rubber, holder_seat)
    side = SEAT_SIDE[holder_seat]
    order = display.two_player_order(rubber.seat_ids) if rubber.is_two_player else SEATS
    others = [seat for seat in order if seat in rubber.seat_ids and SEAT_SIDE[seat] != side]
    seat = request.POST.get("seat") if request.method == "POST" else None
    if seat in others and handed:
        response = redirect(f"{rubber.get_absolute_url()}#confirm-{handed[0].number}")
        codes.remember(response, table, rubber, seat, codes.phone_id(request), back=holder)
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


def _back_words(rubber: Rubber, back_id: int, name: str) -> str:
    """ "This phone is Clara's again (seat E)." (a table of two, or Clara sitting out: no seat)."""
    seat = rubber.seat_of(back_id)
    if seat is None or rubber.is_two_player:
        return _("This phone is %(name)s's again.") % {"name": name}
    return _("This phone is %(name)s's again (seat %(seat)s).") % {
        "name": name,
        "seat": pgettext("seat", seat),
    }


def _held_rubber(request: HttpRequest, wanted: int | None) -> Rubber | None:
    """The rubber a phone whose code died was on: `wanted` if it is one of the table its cookie
    names (signed: it held that table's code), else that table's latest; None without one. Its
    session says why the code died, and its page keeps the rubber's offline queue in view."""
    data = codes.cookie(request)
    table_id = data.get("t") if data is not None else None
    if not isinstance(table_id, int):
        return None
    rubbers = Rubber.objects.select_related("session").filter(table_id=table_id)
    found = rubbers.filter(pk=wanted).first() if wanted is not None else None
    return found or rubbers.order_by("-number").first()


@require_POST
def give_back(request: HttpRequest, code: str) -> HttpResponse:
    """ "Give it back": a handed-over phone goes back to the player it was handed over by, with no
    confirmation (the cookie's "b", checked by games.codes.back_player: a forged one is ignored
    and the phone stays as it is). Then the pad of the posted rubber (one of this table's) or
    the table's rubber in play. A phone whose code no longer works (the session closed, codes
    off or new) is told so, on the page of the rubber it was on (`_held_rubber`)."""
    if codes.holds_code(request, code) and codes.open_table(code) is None:
        wanted = small_number(request.POST.get("rubber", ""))
        return _code_changed(request, _held_rubber(request, wanted))
    found = _code_rubber(request, code, small_number(request.POST.get("rubber", "")))
    if isinstance(found, HttpResponse):
        return found
    table, rubber = found
    response = redirect(rubber.get_absolute_url())
    data = codes.held(request, table.pk)
    back = codes.back_player(data, table.pk) if data is not None else None
    if back is not None:
        codes.keep(response, codes.given_back(request, table.pk, back.pk))
        speak_club_language(request, table.session.club.language)  # the pad's, as hand_over
        rubber.fetch_players()
        messages.success(request, _back_words(rubber, back.pk, back.name))
    return response


class GivenBack(TypedDict):
    value: str
    notice: str


def _give_back(request: HttpRequest, rubber: Rubber, viewer: Viewer, done: str) -> GivenBack | None:
    """After the other side confirmed or disputed a deal on a phone handed over to them: once
    no deal of the rubber waits for them from the side that handed it over (`_handed_deals`),
    the phone goes back to its player (its new cookie value, which this request now reads) and
    the pad says so: `done` ("Deal 3 confirmed by Alice.") and "This phone is Clara's again
    (seat E)." None while deals remain (they confirm the next on the same phone)."""
    if viewer.back_id is None:
        return None
    seat = rubber.seat_of(viewer.back_id)
    if seat is not None and _handed_deals(rubber, seat):
        return None
    value = codes.given_back(request, rubber.table_id, viewer.back_id)
    words = _back_words(rubber, viewer.back_id, viewer.handed_over_by)
    return GivenBack(value=value, notice=f"{done} {words}")


@_tells_code_changed
@require_GET
def rubber_detail(request: HttpRequest, pk: int) -> HttpResponse:
    rubber, viewer = rubber_for_request(request, pk)
    return render(request, "games/rubber.html", _context(rubber, viewer))


def _live_etag(request: HttpRequest, state: tuple[Any, ...]) -> str:
    """What a pad's live part depends on: the rubber's state (its status, seats, a count every
    write of its deals raises, its session's status and settings, its table's code and its
    club's language, `answer_state`), who looks (their session's cookie, which a sign-in or
    sign-out changes, and their table code's: read with no query) and in which language.
    Keyed with the SECRET_KEY: the state holds the table's code, which an ETag handed to anyone
    reading a public club must not let them find by trying codes."""
    who = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    key = f"{state!r}|{who}|{request.COOKIES.get(codes.COOKIE, '')}|{get_language()}"
    return '"' + salted_hmac("games.views.live", key, algorithm="sha256").hexdigest()[:32] + '"'


@_tells_code_changed
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
        rubber, viewer = rubber_for_request(request, pk)
        own = viewer.player if viewer.player is not None and not viewer.by_code else None
        if own is not None and own.language and own.user_id == request.user.pk:
            # A signed-in player's own language, as the page the pad is swapped into
            # (config.middleware.ClubLanguageMiddleware). Not in the ETag, read with no query:
            # a change of it reaches an open pad with its next change.
            speak_club_language(request, own.language)
        # A form holding taps names its deal number: if another phone recorded that deal,
        # the pad says so at once instead of moving the taps on (a duplicate, issue 17).
        number = small_number(request.GET.get("number", ""))
        taken = _already_entered(rubber, number) if number is not None else None
        if taken is not None:
            context = _context(rubber, viewer, notice=taken, notice_deal=number)
        elif number is not None and (moved := _deleted_since(rubber, number)) is not None:
            # Taps past the next deal (one was deleted): the poll moves them to it.
            following = len(rubber.ordered_deals()) + 1
            context = _context(rubber, viewer, notice=moved, moved_to=following)
        else:
            context = _context(rubber, viewer)
        response = render(request, "games/_live.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _entered_by(
    rubber: Rubber, deal: Deal, names: dict[int, Any], changes: list[dict[str, Any]]
) -> str | None:
    """Who entered a deal, as the deal list shows it: their name in the club, or the table's
    code and seat for a phone with no account (its first history record); None: unknown."""
    name = history.who(names, deal.entered_by_id).name
    if name is None and deal.entered_by_id is None and changes and changes[0]["code_seat"]:
        return _code_label(rubber, changes[0]["code_seat"])
    return name


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


def _told(request: HtmxHttpRequest, deal: Deal, error: str) -> HttpResponse:
    """The pad again, with `error` above it (htmx), or the rubber with it as a message."""
    if not request.htmx:
        messages.error(request, error)
        return redirect(deal.get_absolute_url())
    rubber, viewer = rubber_for_request(request, deal.rubber_id)
    return _render(request, _context(rubber, viewer, error=error))


def _posted_version(request: HttpRequest) -> int | None:
    """The deal version a confirm or dispute form carries (what the player saw), or None."""
    return small_number(request.POST.get("version", ""))


#: Why a phone handed over to the other side enters and corrects nothing (Viewer.can_enter).
HANDED_OVER = gettext_lazy(
    "This phone is handed over to the other side to confirm: give it back to enter or correct "
    "deals."
)


def _why_not(viewer: Viewer, words: str) -> str:
    """Why the viewer may not write here: `words`, unless the phone is handed over to the other
    side (`HANDED_OVER`) or the session was reopened for the director's corrections."""
    if not viewer.plays:
        return reopened_for_director()
    if viewer.handed_over_by:
        return str(HANDED_OVER)
    return words


def _refused(request: HttpRequest, message: str, table_id: int) -> HttpResponse:
    """Not allowed: sign in first if not signed in (as login_required), else 403 with the
    reason. A phone whose code for the table no longer works is told so (`_code_changed`)."""
    held = codes.cookie(request)
    if not request.user.is_authenticated and held is not None:
        if held.get("t") == table_id and codes.held(request, table_id) is None:
            return _code_changed(request)
        raise PermissionDenied(message)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(message)


def _code_label(rubber: Rubber, seat: str) -> str:
    """A phone holding the table's code, as the deals and their history name it: "table 3
    (code), seat N" (a table of two: by the player's name, as its code page lists them)."""
    if rubber.is_two_player and seat in rubber.seat_ids:
        return _("table %(number)s (code), %(name)s") % {
            "number": rubber.table.number,
            "name": rubber.seats[seat].name,
        }
    return _("table %(number)s (code), seat %(seat)s") % {
        "number": rubber.table.number,
        "seat": pgettext("seat", seat),
    }


def _code_note(rubber: Rubber, viewer: Viewer, *, handed_over: bool = False) -> str:
    """How a change made by a phone with the table's code is named in the deal's history (its
    write runs under `change_note` with it; "" for anyone else); a confirmation or dispute on
    the phone that wrote the deal adds that it was handed over to the other side."""
    if not viewer.by_code or viewer.seat is None:
        return ""
    note = _code_label(rubber, viewer.seat)
    if handed_over:
        note += " · " + _("on the phone that entered it")
    return note


def _who(rubber: Rubber, user_id: int | None, code_seat: str = "") -> str:
    """Who wrote a deal, by their name in the club (a login is never shown; API.md), or for a
    phone holding the table's code (`code_seat`, its seat) as the deal list names it."""
    name = (
        Player.objects.filter(club_id=rubber.session.club_id, user_id=user_id)
        .values_list("name", flat=True)
        .first()
        if user_id is not None
        else None
    )
    if name is None and user_id is None and code_seat:
        return _code_label(rubber, code_seat)
    return name or _("someone at the table")


def _entry_code_seat(deal: Deal) -> str:
    """The seat of the table-code phone that entered the deal (its first history record, as
    `_entered_by` reads it), or "" for anyone else."""
    first = deal.history.order_by("history_id").values("written_seat", "written_phone").first()
    return first["written_seat"] if first and first["written_phone"] else ""


def _already_entered(rubber: Rubber, number: int) -> str | None:
    """The plain-words notice for a deal number someone else recorded first, or None."""
    deal = next((d for d in rubber.ordered_deals() if d.number == number), None)
    if deal is None:
        return None
    return _("Deal %(number)s was already entered by %(name)s: %(deal)s. Correct it?") % {
        "number": number,
        "name": _who(
            rubber,
            deal.entered_by_id,
            _entry_code_seat(deal) if deal.entered_by_id is None else "",
        ),
        "deal": display.deal_words(deal)
        if not rubber.is_two_player
        else deal.summary([p.name for p in rubber.players]),
    }


def _deleted_since(rubber: Rubber, number: int) -> str | None:
    """The notice for taps numbered past the rubber's next deal because a deal they followed
    was deleted since (`Deal.delete_last`), or None. Any other number past the next one is a
    gap, refused as always (one query, only then)."""
    following = len(rubber.ordered_deals()) + 1
    open_for_entry = (
        rubber.status == Rubber.Status.IN_PLAY and rubber.session.status == Session.Status.RUNNING
    )
    if number <= following or not open_for_entry:
        return None
    deleted = Deal.history.filter(
        rubber_id=rubber.pk, history_type="-", number__gte=following, number__lt=number
    )
    if not deleted.exists():
        return None
    return _(
        "A deal was deleted meanwhile: what you tapped is now deal %(number)s, not yet "
        "recorded. Check it and tap Record deal."
    ) % {"number": following}


def _moved_to_next(form: Any, rubber: Rubber, viewer: Viewer) -> Any:
    """The same taps, on the rubber's real next deal (the number another phone took), not yet
    checked: they are shown for the player to record again or change."""
    data = form.data.copy()
    data["number"] = str(len(rubber.ordered_deals()) + 1)
    return _entry_form(rubber, viewer, data)


@_tells_code_changed
@require_POST
def enter_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated and codes.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    rubber, viewer = rubber_for_request(request, pk)
    if not viewer.can_enter:
        return _refused(
            request,
            _why_not(viewer, _("Only the players seated in this rubber or a director enter.")),
            rubber.table_id,
        )
    form = _entry_form(rubber, viewer, request.POST)
    if form.is_valid():
        try:
            with change_note(_code_note(rubber, viewer)):
                rubber.record_deal(**form.record_kwargs(), actor=viewer.actor)
        except Conflict as err:
            rubber, viewer = rubber_for_request(request, pk)
            number = form.cleaned_data["number"]
            taken = _already_entered(rubber, number)
            if taken is None and (moved := _deleted_since(rubber, number)) is not None:
                # A deal was deleted since these taps were made: they are the rubber's next
                # deal now (docs/rules.md, §8 decision 7), shown on it, unrecorded.
                form = _moved_to_next(form, rubber, viewer)
                return _render(request, _context(rubber, viewer, entry_form=form, notice=moved))
            if taken is None:
                form.add_error(None, str(err))
            else:
                # Another phone recorded this deal first: say so in words, offer to correct
                # it, and move these taps to the next deal (nothing is recorded unasked).
                form = _moved_to_next(form, rubber, viewer)
                context = _context(
                    rubber,
                    viewer,
                    entry_form=form,
                    notice=taken,
                    notice_deal=number,
                )
                return _render(request, context)
        except ScoringError as err:  # a rule only the whole rubber can check
            form.add_error(None, error_line(err))
        else:
            if not request.htmx:
                messages.success(request, _("Deal recorded."))
                return redirect(rubber.get_absolute_url())
            rubber, viewer = rubber_for_request(request, pk)
            return _render(request, _context(rubber, viewer))
    return _render(request, _context(rubber, viewer, entry_form=form))


@_tells_code_changed
@require_GET
def preview_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The live line under the entry buttons: the deal as it will be scored ("4♠× by North, −2:
    They +300"), by the engine, or what is still missing. An htmx partial."""
    rubber, viewer = rubber_for_request(request, pk)
    if rubber.is_two_player:
        raise Http404("No preview for this game.")
    return render(
        request, "games/_preview.html", {"line": _preview_line(rubber, viewer, request.GET)}
    )


@_tells_code_changed
@require_GET
def preview_correction(request: HttpRequest, pk: int) -> HttpResponse:
    """The live line of a correction form: the deal as it will be scored with its taps, in its
    place in the rubber (its own vulnerability). An htmx partial."""
    deal, viewer = deal_for_request(request, pk)
    rubber = deal.rubber
    if rubber.is_two_player:
        raise Http404("No preview for this game.")
    return render(
        request,
        "games/_preview.html",
        {"line": _correction_line(rubber, deal, viewer, request.GET)},
    )


def _correction_line(rubber: Rubber, deal: Deal, viewer: Viewer, taps: Any) -> str:
    """The live line for a correction form's `taps` (its prefixed data)."""
    prefix = f"deal{deal.pk}"
    data = taps.copy()
    data[f"{prefix}-version"] = "1"  # the line is of the taps, whatever version the form holds
    form = DealCorrectionForm(
        data, prefix=prefix, we_side=viewer.we_side, controls=_controls(rubber)
    )
    if not data.get(f"{prefix}-level"):
        return _("Tap the contract, the declarer and the result.")
    if form.is_valid():
        names = _names(rubber, viewer)
        return display.preview(rubber, form.cleaned_data["fields"], names, number=deal.number)
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _preview_line(rubber: Rubber, viewer: Viewer, taps: Any) -> str:
    """The live line for `taps` (a form's data): also rendered with a pad whose form comes back
    holding taps (a conflict moved them, or an error), so the line never says "Tap the
    contract" over a filled form."""
    data = taps.copy()
    data["number"] = "1"  # the preview scores the deal as the next one, whatever the form says
    form = DealEntryForm(data, we_side=viewer.we_side, controls=_controls(rubber))
    if not data.get("level"):
        return _("Tap the contract, the declarer and the result.")
    if form.is_valid():
        return display.preview(rubber, form.cleaned_data["fields"], _names(rubber, viewer))
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@_tells_code_changed
@require_http_methods(["GET", "POST"])
def correct_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """POST saves a correction; GET gives its form, filled from the deal as it now stands: to the
    pad when a player opens "Correct" (htmx), else the pad with that form open."""
    if not request.user.is_authenticated and codes.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    if not viewer.can_correct(deal):
        return _refused(
            request,
            _why_not(viewer, _("Only a director or a player at the table corrects a deal.")),
            deal.rubber.table_id,
        )
    if request.method == "GET" and deal.rubber.session.is_closed:
        return _refused(request, closed_session(), deal.rubber.table_id)
    if request.method == "GET":
        form = _correction_form(deal.rubber, deal, viewer)
        if request.htmx:
            return render(
                request,
                "games/_correction_form.html",
                {
                    "form": form,
                    "deal": deal,
                    "two_player": deal.rubber.is_two_player,
                    "line": None
                    if deal.rubber.is_two_player
                    else display.preview(
                        deal.rubber,
                        DealFields(
                            deal.contract,
                            deal.declarer,
                            deal.tricks,
                            deal.honours_side,
                            deal.honours_points,
                        ),
                        _names(deal.rubber, viewer),
                        number=deal.number,
                    ),
                    "can_delete": _delete_refusal(deal, viewer) is None,
                },
            )
        rubber, viewer = rubber_for_request(request, deal.rubber_id)
        return render(
            request, "games/rubber.html", _context(rubber, viewer, corrections={deal.pk: form})
        )
    form = _correction_form(deal.rubber, deal, viewer, request.POST)
    error = None
    if form.is_valid():
        sent = form.cleaned_data["version"]
        try:
            # A player's correction is to confirm again; a director's settles it (Deal.correct).
            with change_note(_code_note(deal.rubber, viewer)):
                corrected = deal.correct(version=sent, actor=viewer.actor, **form.changes())
        except (Conflict, ScoringError) as err:
            error = error_line(err) if isinstance(err, ScoringError) else str(err)
            current = Deal.objects.filter(pk=deal.pk).first()
            if current is not None and current.version != sent:
                # Someone corrected it meanwhile: say what it is now, in words, and keep these
                # taps on a form of the deal as it now stands (saving it is a new decision).
                error = _(
                    "Deal %(number)s was just corrected by %(name)s: it is now %(deal)s. "
                    "Check it and save your correction again if it still stands."
                ) % {
                    "number": current.number,
                    "name": _who(
                        deal.rubber,
                        _last_writer(current),
                        current.written_seat if current.written_phone else "",
                    ),
                    "deal": display.deal_words(current)
                    if current.data is None
                    else current.summary([p.name for p in deal.rubber.players]),
                }
                data = request.POST.copy()
                data[f"{form.prefix}-version"] = str(current.version)
                form = _correction_form(deal.rubber, current, viewer, data)
                form.is_valid()
            form.add_error(None, error)
        else:
            # Saved as it was: say so rather than "corrected" (a director checking a dispute
            # who finds the deal right rules that it stands instead).
            unchanged = (
                _nothing_changed(corrected.disputed, deal.rubber, viewer)
                if corrected.version == sent
                else None
            )
            if not request.htmx:
                if unchanged is not None:
                    messages.info(request, unchanged)
                else:
                    messages.success(
                        request, _("Deal %(number)s corrected.") % {"number": deal.number}
                    )
                return redirect(deal.get_absolute_url())
            rubber, viewer = rubber_for_request(request, deal.rubber_id)
            return _render(request, _context(rubber, viewer, notice=unchanged))
    rubber, viewer = rubber_for_request(request, deal.rubber_id)
    return _render(request, _context(rubber, viewer, corrections={deal.pk: form}, error=error))


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


@_tells_code_changed
@require_http_methods(["GET", "POST"])
def delete_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Delete deal N" in the last deal's Correct panel (docs/rules.md, §8 decision 7). GET asks
    once, naming the deal ("Delete deal 5 (1NT by East, −1)?"): into the panel (htmx), else the
    pad with the question in that panel. POST, with the `version` the player saw, deletes it
    (`Deal.delete_last`); the pad shows the rubber without it, or says why not. The same people
    as a correction (`Viewer.can_correct`)."""
    if not request.user.is_authenticated and codes.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    rubber = deal.rubber
    if not viewer.can_correct(deal):
        return _refused(
            request,
            _why_not(viewer, _("Only a director or a player at the table deletes a deal.")),
            rubber.table_id,
        )
    if request.method == "GET":
        if (refusal := _delete_refusal(deal, viewer)) is not None:
            response = _told(request, deal, refusal)
            if request.htmx:  # asked for the question in the panel: the whole pad says why not
                response["HX-Retarget"] = "#live"
                response["HX-Reswap"] = "outerHTML"
            return response
        if request.htmx:
            names = [p.name for p in rubber.players] if rubber.is_two_player else None
            return render(
                request, "games/_delete_deal.html", {"deal": deal, "words": _words(deal, names)}
            )
        return render(request, "games/rubber.html", _context(rubber, viewer, deleting=deal.pk))
    version = _posted_version(request)
    if version is None:
        return _told(
            request, deal, _("This page is out of date: reload it to see the deal as it is now.")
        )
    try:
        with change_note(_code_note(rubber, viewer)):
            deal.delete_last(version=version, actor=viewer.actor)
    except Conflict as err:
        return _told(request, deal, str(err))
    done = _("Deal %(number)s deleted.") % {"number": deal.number}
    if not request.htmx:
        messages.success(request, done)
        return redirect(rubber.get_absolute_url())
    rubber, viewer = rubber_for_request(request, rubber.pk)
    return _render(request, _context(rubber, viewer, notice=done))


def _last_writer(deal: Deal) -> int | None:
    record = deal.history.order_by("-history_date", "-history_id").first()
    return None if record is None else record.history_user_id


@_tells_code_changed
@require_POST
def confirm_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated and codes.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    refusal = _("A deal is confirmed by a player of the other side.")
    # A phone with the table's code confirms as the player in the seat it holds.
    player = deal.rubber.seats[viewer.seat] if viewer.by_code and viewer.seat else viewer.player
    if player is None or viewer.seat is None or not viewer.plays:
        return _refused(
            request, refusal if viewer.plays else reopened_for_director(), deal.rubber.table_id
        )
    # Of the deal as the player saw it: if it was corrected since, the side may have changed.
    version = _posted_version(request)
    if (stale := _unseen(deal, version, confirming=True)) is not None:
        return _told(request, deal, stale)
    if not deal.confirmable_from(viewer.seat):
        return _refused(request, refusal, deal.rubber.table_id)
    error = None
    back = None
    handed_over = bool(viewer.phone) and viewer.phone == deal.written_phone
    try:
        with change_note(_code_note(deal.rubber, viewer, handed_over=handed_over)):
            confirmed = deal.confirm(actor=viewer.actor, version=version)
    except Conflict as err:
        error = str(err)
    else:
        if confirmed.confirmed_by_id == player.pk:
            done = _("Deal %(number)s confirmed by %(name)s.")
            back = _give_back(
                request, deal.rubber, viewer, done % {"number": deal.number, "name": player.name}
            )
    return _answer_confirmation(request, deal, error, back)


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
        response = _render(request, _context(rubber, viewer, error=error, notice=notice))
    if back is not None:
        codes.keep(response, back["value"])
    return response


@_tells_code_changed
@require_POST
def dispute_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The other side disputes a deal in one tap: it is flagged for the director (the console
    lists it) and stays as entered until a director corrects it or rules that it stands."""
    if not request.user.is_authenticated and codes.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    refusal = _("A deal is disputed by a player of the other side.")
    if (
        not deal.rubber.session.asks_confirmation
        or deal.rubber.session.is_closed
        or viewer.seat is None
        or not viewer.plays
    ):
        return _refused(
            request, refusal if viewer.plays else reopened_for_director(), deal.rubber.table_id
        )
    version = _posted_version(request)
    if (stale := _unseen(deal, version, confirming=False)) is not None:
        return _told(request, deal, stale)
    if not deal.confirmable_from(viewer.seat):
        return _refused(request, refusal, deal.rubber.table_id)
    error = None
    back = None
    handed_over = bool(viewer.phone) and viewer.phone == deal.written_phone
    try:
        with change_note(_code_note(deal.rubber, viewer, handed_over=handed_over)):
            disputed = deal.dispute(actor=viewer.actor, version=version)
    except Conflict as err:
        error = str(err)
    else:
        if disputed.disputed:
            # Only a phone handed over goes back (`back_id`): it is the table code's player.
            done = _("Deal %(number)s disputed by %(name)s.") % {
                "number": deal.number,
                "name": viewer.code_name,
            }
            back = _give_back(request, deal.rubber, viewer, done)
    return _answer_confirmation(request, deal, error, back)


def _back_to(request: HttpRequest, default: str) -> str:
    """Where a form asked to go back to (`next`: the console's list of disputed deals) when it
    is on this site, else `default`."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@_tells_code_changed
@require_POST
def rule_deal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A director rules that a disputed deal stands as recorded ("It stands", next to Correct on
    the pad and in the console's list of disputed deals): the dispute is settled with no change
    (`Deal.rule`). Of the deal as the director saw it (`version`): one corrected since, or in a
    closed session, is refused in words. Anyone else is refused as for the other writes (403; a
    hidden deal is missing: 404). Back to `next` (the console) when given, else to the deal."""
    if not request.user.is_authenticated and codes.cookie(request) is None:
        return redirect_to_login(request.get_full_path())  # as login_required
    deal, viewer = deal_for_request(request, pk)
    if not may_rule(viewer.actor):
        return _refused(
            request,
            _("Only a director of the club rules on a disputed deal."),
            deal.rubber.table_id,
        )
    version = _posted_version(request)
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
    return _render(request, _context(rubber, viewer, error=error))
