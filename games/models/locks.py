"""The locks every deal write takes, and the refusals every write shares.

Lock order of every deal write (docs/rules.md): the session, the rubber, then the deal. The
history notes (`change_note`) name a table-code phone in the record a write creates. A write to
a closed session, or a player's write to a session reopened for corrections, is refused here in
the same words for every verb.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from clubs.models import Membership, Session
from clubs.policy import may_direct
from scoring.shared.errors import Conflict
from scoring.shared.hooks import results_changed

from ..permissions import reopened_for_director

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: How a phone holding the table's code is named in the history of the deal it writes ("table
#: 1 (code), seat S", games.views), for the write under way: the record that write creates gets
#: it in its change reason, in the same save. Editing "the latest record" afterwards could land
#: on a record someone else wrote meanwhile, or twice on one (an outside probe saw both).
_CHANGE_NOTE: ContextVar[str] = ContextVar("games_change_note", default="")


@contextmanager
def change_note(note: str) -> Iterator[None]:
    """Within the block, the history records a deal's writes create carry `note`."""
    token = _CHANGE_NOTE.set(note)
    try:
        yield
    finally:
        _CHANGE_NOTE.reset(token)


def noted(reason: str) -> str:
    """A history reason with the note of the write under way (`change_note`), if any."""
    note = _CHANGE_NOTE.get()
    return f"{reason} · {note}" if note else reason


def lock_session(session_id: int) -> Session | None:
    """Lock a session's row (`FOR NO KEY UPDATE`, so rows that reference it are still inserted)
    and read it as it is now, for a write that depends on its status. Taken first, before any
    rubber or deal, as `session_close` takes it (docs/rules.md, "Lock order of every deal
    write")."""
    return Session.objects.select_for_update(no_key=True).filter(pk=session_id).first()


def closed_meanwhile(session_id: int) -> bool:
    """The session is closed now. A four-player entry locks its rubber, not the session, and
    reads the session with it as it was when the statement began: when the close it waited for
    closed or withdrew the rubber, this says why (a refusal's wording; the close's lock on the
    rubber is what keeps the entry out)."""
    return Session.objects.filter(pk=session_id, status=Session.Status.CLOSED).exists()


def closed_session() -> str:
    """Why a write to a closed session is refused (409)."""
    return gettext("The session is closed: its results are final.")


def check_reopened_writer(session: Session, user: User | None) -> None:
    """A session reopened for corrections (`Session.is_reopened`) takes its directors' writes
    only: a player's, or a table-code phone's (no user), raises Conflict. Every deal write asks
    it under its locks, with the session as it is then, so neither a caller that forgot the
    check nor a reopen landing after it lets a closed night be rewritten (docs/security.md,
    issue 26)."""
    if not session.is_reopened:
        return
    if user is not None and may_direct(
        Membership.objects.filter(club_id=session.club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    ):
        return
    raise Conflict(reopened_for_director())


def queue_refresh(session_id: int) -> None:
    """Standings refresh after a committed deal write (DESIGN.md: how a result flows, 4)."""
    results_changed.send(sender=Session, session_id=session_id)
