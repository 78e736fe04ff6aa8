"""Opponents' confirmation turned on or off by the director, for the club or one session
(issue 17). Turned on while a session runs, it asks for the deals entered from then on: those
already recorded stand as recorded (issue 31), each settled (`ruled`) with a history record
saying so, so that the pads, the console, the room and the close agree that none awaits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from clubs.models import Club, Session

from ..models import Deal
from ..push import hooks as push_hooks

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: The history reason of a deal recorded before its session asked for confirmation.
BEFORE_CONFIRMATION = "recorded before confirmation"


def set_confirmation(
    *, club: Club, on: bool, session: Session | None = None, by: User | None = None
) -> int:
    """The club's setting (`session` None) or one session's. The club's row, then the running
    sessions it changes, are locked (as a close or a correction takes a session first), so a deal
    is either recorded before the switch and stands, or after it and awaits. How many deals
    stood."""
    with transaction.atomic():
        locked_club = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        running = Session.objects.filter(club=locked_club, status=Session.Status.RUNNING)
        if session is not None:
            running = running.filter(pk=session.pk)
        sessions = list(running.select_for_update(of=("self",), no_key=True).order_by("pk"))
        asked = {s.pk for s in sessions if s.confirm_entries or locked_club.confirm_entries}
        if session is None:
            locked_club.confirm_entries = on
            locked_club.save(update_fields=["confirm_entries"])
        else:
            Session.objects.filter(pk=session.pk).update(confirm_entries=on)
            push_hooks.changed_session(session.pk)  # an update sends no signal
            session.confirm_entries = on
        if not on:
            return 0
        newly = [s.pk for s in sessions if s.pk not in asked]
        return _stand(newly, by)


def _stand(session_ids: list[int], by: User | None) -> int:
    """The deals of these sessions not settled nor disputed stand as recorded."""
    if not session_ids:
        return 0
    waiting = Deal.objects.select_for_update(of=("self",), no_key=True).filter(
        rubber__session_id__in=session_ids,
        confirmed_by__isnull=True,
        ruled=False,
        disputed=False,
    )
    count = 0
    for deal in waiting.order_by("pk"):
        deal.ruled = True
        deal._note(BEFORE_CONFIRMATION, by)
        deal.save(update_fields=["ruled", "updated_at"])
        count += 1
    return count
