"""How a phone holding the table's code is named: in the deal list, the history and the
notices ("table 3 (code), seat N"), and who wrote a deal by their name in the club."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubs.models import Player

from .. import registry
from ..models import Deal, Rubber
from ..permissions import Viewer


def code_label(rubber: Rubber, seat: str) -> str:
    """A phone holding the table's code, as the deals and their history name it: the player who
    sits in its seat this rubber, then the code and seat ("Clara Cole, table 3 (code), seat N";
    the old words, "table 3 (code), seat N", stay whole after the name for whoever reads them).
    A table of two names the player only, as its code page lists them."""
    if seat not in rubber.seat_ids:
        return _("table %(number)s (code), seat %(seat)s") % {
            "number": rubber.table.number,
            "seat": pgettext("seat", seat),
        }
    if registry.pages(rubber.kind).named_players:
        return _("table %(number)s (code), %(name)s") % {
            "number": rubber.table.number,
            "name": rubber.seats[seat].name,
        }
    return _("%(name)s, table %(number)s (code), seat %(seat)s") % {
        "name": rubber.seats[seat].name,
        "number": rubber.table.number,
        "seat": pgettext("seat", seat),
    }


def code_note(rubber: Rubber, viewer: Viewer, *, handed_over: bool = False) -> str:
    """How a change made by a phone with the table's code is named in the deal's history (its
    write runs under `change_note` with it; "" for anyone else); a confirmation or dispute on
    the phone that wrote the deal adds that it was handed over to the other side."""
    if not viewer.by_code or viewer.seat is None:
        return ""
    note = code_label(rubber, viewer.seat)
    if handed_over:
        note += " · " + _("on the phone that entered it")
    return note


def who_wrote(rubber: Rubber, user_id: int | None, code_seat: str = "") -> str:
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
        return code_label(rubber, code_seat)
    return name or _("someone at the table")


def entry_code_seat(deal: Deal) -> str:
    """The seat of the table-code phone that entered the deal (its first history record, as
    `_entered_by` reads it), or "" for anyone else."""
    first = deal.history.order_by("history_id").values("written_seat", "written_phone").first()
    return first["written_seat"] if first and first["written_phone"] else ""
