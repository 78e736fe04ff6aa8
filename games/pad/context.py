"""What a rubber's pad shows its viewer (`pad_context`): the facts read once (`_facts`), a row
per deal with what the viewer may do on it (`_rows`, `_rights`), how the sides are named
(`_sides`), the entry form (`_entry`) and the deals awaiting the viewer's confirmation
(`_confirmations`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Session
from scoring.rules.games import game

from .. import display, history, registry
from ..codes.names import code_label
from ..forms import side_names
from ..models import DISPUTE_NOTE_MAX, SEATS, Deal, DisputeReason, Rubber
from ..permissions import Viewer
from . import forms
from .builders import build_pad, oriented, swapped

#: The items that say a rubber or a two-player match was won, and its bonus (RULES 2.4, 7.1).
_WON_BONUSES = ("rubber_bonus", "two_player_rubber_bonus")


@dataclass(frozen=True)
class _Facts:
    """What the pad is made of, read once: the deals, their histories and writers, the pad as
    the viewer sees it, and the state of the rubber and its session."""

    rubber: Rubber
    deals: list[Deal]
    #: The two players' names in the engine's order (player 0, player 1): the explanations,
    #: deal summaries and history name them (issue 17). None at a table of four.
    player_names: list[str] | None
    histories: dict[int, list[dict[str, Any]]]
    entrant_names: dict[int, Any]
    totals: dict[int, tuple[int, int]]
    we_side: str | None
    pad: dict[str, Any]
    flip: bool
    vulnerable: dict[int, Any]
    open_for_entry: bool
    confirm_entries: bool
    last_number: int | None


def _facts(rubber: Rubber, viewer: Viewer) -> _Facts:
    deals = rubber.ordered_deals()
    seated = rubber.seats.values()
    player_names = registry.names_for(rubber)
    histories = history.for_rubber(
        rubber.pk, rubber.kind, rubber.session.club_id, seated, player_names
    )
    # Who wrote what, by their names in the club: a login is never shown (API.md).
    entrant_names = history.entrants(
        rubber.session.club_id, [d.entered_by_id for d in deals], seated
    )
    totals = {number: (ns, ew) for number, ns, ew in rubber.running_totals(deals)}
    we_side = None if rubber.is_two_player else viewer.we_side
    # Two players in a stable order (display.two_player_order): the engine's player 1 is first
    # when their id is the lower, so the columns do not swap when the dealer does.
    pad = oriented(build_pad(rubber, deals), "EW" if swapped(rubber) else we_side)
    # Vulnerability changes no value in the two-player games (scoring.rules.two_player).
    played = () if rubber.is_two_player else pad["sheet"].deals
    return _Facts(
        rubber=rubber,
        deals=deals,
        player_names=player_names,
        histories=histories,
        entrant_names=entrant_names,
        totals=totals,
        we_side=we_side,
        pad=pad,
        flip=pad["left"] == "ew",
        vulnerable={d.number: d.vulnerable for d in played},
        open_for_entry=rubber.status == Rubber.Status.IN_PLAY
        and rubber.session.status == Session.Status.RUNNING,
        confirm_entries=rubber.session.asks_confirmation,
        last_number=deals[-1].number if deals else None,
    )


def _rights(facts: _Facts, viewer: Viewer, deal: Deal) -> dict[str, bool]:
    """What the viewer may do on `deal`: confirm it, correct it, rule on its dispute, hand the
    phone over for it, delete it."""
    rubber = facts.rubber
    seat = viewer.seat
    awaits = (
        facts.confirm_entries
        and seat is not None
        and deal.awaits_confirmation
        and not rubber.session.is_closed
        and viewer.plays
    )
    can_correct = viewer.can_correct(deal) and not rubber.session.is_closed
    return {
        "can_correct": can_correct,
        "can_confirm": awaits and seat is not None and deal.confirmable_from(seat),
        # The director settles a dispute: a correction, or "It stands" (Deal.rule).
        "can_rule": facts.confirm_entries
        and deal.disputed
        and viewer.is_director
        and not rubber.session.is_closed,
        # A table's phone that wrote the deal: the other side confirms on it once handed over
        # (they pick their seat on its hand-over page), as with a Bridgemate. Not again while
        # it is handed over: it goes back first.
        "hand_over": awaits
        and viewer.by_code
        and seat is not None
        and not deal.confirmable_from(seat)
        and not viewer.handed_over_by,
        # "Delete deal N" in the last deal's panel (docs/rules.md, §8 decision 7).
        "can_delete": can_correct
        and deal.number == facts.last_number
        and deal.delete_refusal(rubber, rubber.session, deal.number, director=viewer.is_director)
        is None,
    }


def _rows(
    facts: _Facts, viewer: Viewer, corrections: dict[int, Any], deleting: int | None
) -> list[dict[str, Any]]:
    """A row per deal: the deal in words, the running totals, its history, who entered it and
    what the viewer may do on it."""
    rows = []
    for deal in facts.deals:
        rights = _rights(facts, viewer, deal)
        row_totals = facts.totals.get(deal.number)
        changes = facts.histories.get(deal.pk, [])
        rows.append(
            {
                "deal": deal,
                "words": registry.pages(facts.rubber.kind).deal_words(deal, facts.player_names),
                "totals": row_totals[::-1] if facts.flip and row_totals else row_totals,
                "vulnerable": facts.vulnerable.get(deal.number),
                "history": changes,
                "entered_by": _entered_by(facts.rubber, deal, facts.entrant_names, changes),
                "can_correct": rights["can_correct"],
                "can_confirm": rights["can_confirm"],
                "can_rule": rights["can_rule"],
                "hand_over": rights["hand_over"],
                # A correction form only where one is open (its errors, or asked for): the
                # others are fetched when opened (correct_deal's GET).
                "form": corrections.get(deal.pk),
                "can_delete": rights["can_delete"],
                "asking": deal.pk == deleting,
            }
        )
    return rows


def _sides(facts: _Facts) -> dict[str, Any]:
    """How the pad names its two columns (`labels`) and who plays in them (`we`, `they`): the
    two players by name, or We/They and the pairs. A two-player pad also gets its winner's
    name and its counters."""
    rubber, pad, player_names = facts.rubber, facts.pad, facts.player_names
    if rubber.is_two_player:
        assert player_names is not None
        labels = player_names[::-1] if facts.flip else list(player_names)
        we, they = labels
        if pad.get("winner_place") is not None:
            pad["winner_name"] = player_names[pad["winner_place"]]
        if "values" in pad:
            pad["counters"] = [
                {"name": player_names[place], "place": place, "value": value, "bar": bar}
                for place, value, bar in zip(pad["places"], pad["values"], pad["bars"], strict=True)
            ]
    else:
        seats = rubber.seats
        names = side_names(facts.we_side)
        labels = [names[pad["left"].upper()], names[pad["right"].upper()]]
        pairs = {
            "ns": f"{seats['N'].name} & {seats['S'].name}",
            "ew": f"{seats['E'].name} & {seats['W'].name}",
        }
        we, they = pairs[pad["left"]], pairs[pad["right"]]
    # The bonus of a rubber or match won, explained where the pad says who won it.
    above = (*pad.get("above_ns", ()), *pad.get("above_ew", ()))
    pad["bonus"] = next((item for item in above if item.reason in _WON_BONUSES), None)
    return {"we": we, "they": they, "labels": labels}


def _seating(rubber: Rubber) -> dict[str, Any]:
    """Who sits where this rubber and who sits out, for the pad's header: each seat with its
    name in words and its player (a table of two: its two players, in the pad's order)."""
    seats = rubber.seats
    if registry.pages(rubber.kind).named_players:
        order = display.two_player_order(rubber.seat_ids)
    else:
        order = list(SEATS)
    return {
        "seating": [(seat, display.SEAT_NAMES[seat], seats[seat].name) for seat in order],
        "sitting_out": [player.name for player in rubber.out_players],
    }


def _entry(
    facts: _Facts, viewer: Viewer, entry_form: Any, notice_deal: int | None
) -> dict[str, Any]:
    """The entry form (a new one when none is given and the viewer may enter), the deal it
    records and its live line. A poll from a form holding taps for a deal another phone has
    recorded (`notice_deal` with no form) gets the form for that deal, as the phone holds it:
    the phone morphs in the words around its taps (names, totals), never another number."""
    rubber = facts.rubber
    number = notice_deal if entry_form is None and notice_deal else len(facts.deals) + 1
    if entry_form is None and facts.open_for_entry and viewer.can_enter:
        entry_form = forms.entry_form(rubber, viewer, initial={"number": number})
    bound = entry_form is not None and entry_form.is_bound
    return {
        "entry_form": entry_form if facts.open_for_entry and viewer.can_enter else None,
        "entry_template": registry.pages(rubber.kind).entry_template,
        "next_deal": len(facts.deals) + 1 if bound else number,
        # Taps moved to the next deal by a conflict (enter_deal): the form says so, and Record
        # names the deal it will record them as.
        "taps_moved": bool(notice_deal and bound),
        "preview_line": forms.preview_line(rubber, viewer, entry_form.data) if bound else None,
    }


def _confirmations(
    facts: _Facts, viewer: Viewer, rows: list[dict[str, Any]], before: list[Deal] | None
) -> dict[str, Any]:
    """The deals awaiting the viewer's confirmation, here and at the end of the previous rubber
    (`before`, when read already: `awaiting_before`)."""
    waiting = [deal for deal, row in zip(facts.deals, rows, strict=True) if row["can_confirm"]]
    return {
        "confirm_entries": facts.confirm_entries,
        "awaiting": [deal.number for deal in waiting],
        # "Confirm all" lists them as the viewer sees them (games.deals.answers.confirm_all).
        "awaiting_seen": [f"{deal.pk}:{deal.version}" for deal in waiting],
        "dispute_reasons": DisputeReason.choices,
        "dispute_note_max": DISPUTE_NOTE_MAX,
        "awaiting_before": awaiting_before(facts.rubber, viewer) if before is None else before,
    }


def pad_context(
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
    before: list[Deal] | None = None,
) -> dict[str, Any]:
    """What the pad shows. `notice_deal` links the notice to that deal's correction; `moved_to`
    tells the poll to move a form's taps to that deal number (a deal was deleted since they
    were tapped); `deleting` is the id of a deal whose deletion is asked (without JavaScript:
    the question in its correction panel); `before`: `awaiting_before`, when read already."""
    facts = _facts(rubber, viewer)
    rows = _rows(facts, viewer, corrections or {}, deleting)
    entry = _entry(facts, viewer, entry_form, notice_deal)
    next_rubber = rubber.next_rubber() if rubber.status == Rubber.Status.COMPLETE else None
    return {
        "rubber": rubber,
        "session": rubber.session,
        "club": rubber.session.club,
        "viewer": viewer,
        "pad": facts.pad,
        "rows": rows,
        **_sides(facts),
        "player_names": facts.player_names,
        "at_table": facts.we_side is not None,
        "two_player": rubber.is_two_player,
        "game": _game_name(rubber.kind),
        "seats": rubber.seats,
        **_seating(rubber),
        **entry,
        "next_rubber": next_rubber,
        **_confirmations(facts, viewer, rows, before),
        "error": error,
        "notice": notice,
        "notice_deal": notice_deal,
        "moved_to": moved_to,
        "deleted": _deleted(facts.histories, {deal.pk for deal in facts.deals}),
        "poll_url": reverse("games:rubber_live", args=[rubber.pk]),
        "push_url": reverse("games:rubber_events", args=[rubber.pk]),
        "offline_figures": forms.offline_figures(
            rubber, viewer, facts.deals, facts.player_names, flip=facts.flip
        ),
    }


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


def awaiting_before(rubber: Rubber, viewer: Viewer) -> list[Deal]:
    """Deals of the table's previous rubber that await the viewer's confirmation: its last deal
    is confirmed as everyone moves on to this one (one query, where the session asks
    confirmation). The one thing a pad shows of the person who looks (games.pad.rendered)."""
    if not rubber.session.asks_confirmation or rubber.session.is_closed:
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


def _entered_by(
    rubber: Rubber, deal: Deal, names: dict[int, Any], changes: list[dict[str, Any]]
) -> str | None:
    """Who entered a deal, as the deal list shows it: their name in the club, or the table's
    code and seat for a phone with no account (its first history record); None: unknown."""
    name = history.who(names, deal.entered_by_id).name
    if name is None and deal.entered_by_id is None and changes and changes[0]["code_seat"]:
        return code_label(rubber, changes[0]["code_seat"])
    return name
