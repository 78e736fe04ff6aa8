"""A table-code phone handed to the other side to confirm the deals its side wrote, and given
back (games.codes.tokens keeps the player it goes back to in its cookie)."""

from __future__ import annotations

from typing import TypedDict

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .. import registry
from ..models import Deal, Rubber
from ..permissions import Viewer
from . import tokens


def handed_deals(rubber: Rubber, seat: str) -> list[Deal]:
    """The deals of the rubber that wait for the other side from `seat`'s: written from its
    side (by this phone or another), awaiting confirmation as on the pad
    (`Deal.awaits_confirmation`: not one that stands), while the session asks for
    confirmations and runs. What a hand-over is for; read afresh (one query)."""
    if not rubber.session.asks_confirmation or rubber.session.is_closed:
        return []
    deals = Deal.objects.filter(rubber=rubber).order_by("number")
    return [deal for deal in deals if deal.awaits_confirmation and not deal.confirmable_from(seat)]


def back_words(rubber: Rubber, back_id: int, name: str) -> str:
    """ "This phone is Clara's again (seat E)." (a table of two, or Clara sitting out: no seat)."""
    seat = rubber.seat_of(back_id)
    if seat is None or registry.pages(rubber.kind).named_players:
        return _("This phone is %(name)s's again.") % {"name": name}
    return _("This phone is %(name)s's again (seat %(seat)s).") % {
        "name": name,
        "seat": pgettext("seat", seat),
    }


class GivenBack(TypedDict):
    value: str
    notice: str


def hand_back_when_done(
    request: HttpRequest, rubber: Rubber, viewer: Viewer, done: str
) -> GivenBack | None:
    """After the other side confirmed or disputed a deal on a phone handed over to them: once
    no deal of the rubber waits for them from the side that handed it over (`handed_deals`),
    the phone goes back to its player (its new cookie value, which this request now reads) and
    the pad says so: `done` ("Deal 3 confirmed by Alice.") and "This phone is Clara's again
    (seat E)." None while deals remain (they confirm the next on the same phone)."""
    if viewer.back_id is None:
        return None
    seat = rubber.seat_of(viewer.back_id)
    if seat is not None and handed_deals(rubber, seat):
        return None
    value = tokens.given_back(request, rubber.table_id, viewer.back_id)
    words = back_words(rubber, viewer.back_id, viewer.handed_over_by)
    return GivenBack(value=value, notice=f"{done} {words}")
