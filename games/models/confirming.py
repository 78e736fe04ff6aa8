"""Confirm all: a side confirms every deal awaiting it at once (RULES 8.2's confirmation, as
`Deal.confirm` gives it for one)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from scoring.shared.errors import Conflict

from ..permissions import Actor
from .deal import Deal, lock_session_of


def confirm_deals(rubber_id: int, *, actor: Actor, seen: dict[int, int]) -> int:
    """Confirm every deal of rubber `rubber_id` in `seen` (id → the version the player saw) at
    once, as `Deal.confirm` confirms one (the write policy asks for each): all or none
    ("Confirm all", on the pad and in the API). The session's row first, then the deals by
    id, as a correction, a dispute and a close take them, so a correction or a dispute
    landing meanwhile is seen here: a deal corrected since refuses the whole (Conflict,
    saying what it is now), as does a deal that is not this rubber's; one disputed or
    settled since is left as it is. How many were confirmed."""
    with transaction.atomic():
        lock_session_of(rubber_id)
        deals = list(
            Deal.objects.select_for_update(of=("self",), no_key=True)
            .filter(rubber_id=rubber_id, pk__in=seen)
            .order_by("pk")
        )
        if len(deals) != len(seen):
            raise Conflict(
                gettext("This page is out of date: reload it to see the deal as it is now.")
            )
        done = 0
        for deal in deals:
            if deal.disputed or deal.settled:
                continue  # a dispute stays the director's; a settled deal needs nothing
            deal.confirm(actor=actor, version=seen[deal.pk])
            done += 1
    return done
