"""What the pad says about a deal number someone else took, or taps a deletion moved on."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clubs.models import Session

from .. import registry
from ..codes.names import entry_code_seat, who_wrote
from ..models import Deal, Rubber


def already_entered(rubber: Rubber, number: int) -> str | None:
    """The plain-words notice for a deal number someone else recorded first, or None."""
    deal = next((d for d in rubber.ordered_deals() if d.number == number), None)
    if deal is None:
        return None
    return _("Deal %(number)s was already entered by %(name)s: %(deal)s. Correct it?") % {
        "number": number,
        "name": who_wrote(
            rubber,
            deal.entered_by_id,
            entry_code_seat(deal) if deal.entered_by_id is None else "",
        ),
        "deal": registry.deal_words(rubber, deal),
    }


def deleted_since(rubber: Rubber, number: int) -> str | None:
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
