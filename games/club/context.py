"""What the session page and the console show of a session: its tables, its changes, the deals
not settled yet; and the console's sessions, read in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from django.db.models import Prefetch
from django.http import HttpRequest

from clubs.models import Club, Session, TableChange
from clubs.permissions import is_director
from games.history import entrants, who
from games.models import Deal
from games.sessions.pages import reverse_or_none, unconfirmed_deals

from .tables import AHEAD_ON_CONSOLE, table_views, tables_with_rubbers, with_rubbers_in_play


def session_context(
    request: HttpRequest,
    session: Session,
    *,
    director: bool | None = None,
    names: dict[int, str] | None = None,
    unconfirmed: list[Deal] | None = None,
) -> dict[str, Any]:
    """A session's tables and rotation as the session page and the console show them.
    ``director`` and ``names`` (the club's players' names by id) may be given when already
    known."""
    if director is None:
        director = is_director(request.user, session.club)
    if unconfirmed is None:
        unconfirmed = unconfirmed_deals([session]).get(session.pk, [])
    return {
        "session": session,
        "club": session.club,
        "table_changes": _table_changes(session),
        "unconfirmed": unconfirmed,
        "standings_url": reverse_or_none("scoring:session-standings", session.pk),
        "tables": table_views(session, ahead=AHEAD_ON_CONSOLE, names=names),
        "is_director": director,
    }


def _table_changes(session: Session) -> list[TableChange]:
    """The changes at the session's tables (issue 18), each with who made it, as the club
    names them (`games.history.entrants`: never a login)."""
    found = getattr(session, "change_list", None)
    if found is None:
        found = list(session.changes.select_related("table", "player", "replaced"))
    if found:
        names = entrants(session.club_id, (c.by_id for c in found))
        for change in found:
            change.by_name = who(names, change.by_id).name
    return list(found)


def room_order(session: Session) -> tuple[bool, bool, Any, int]:
    """The order the console, the room and the club page list sessions in (issue 31): running
    ones first, tonight's before any left running from an earlier day, then the planned ones,
    each by date. A planned session dated 1900, or a stale one, never sits above tonight's."""
    running = session.status == Session.Status.RUNNING
    return (not running, session.left_running, session.date, session.pk)


def console_sessions(club: Club, tables_read: Collection[int] | None = None) -> Sequence[Session]:
    """The club's planned and running sessions with their tables, seats and rubbers, read with
    a fixed number of queries however many sessions and tables there are (no N+1; guarded in
    tests/scale/test_query_counts.py); with `tables_read`, only the tables with those ids."""
    tables = tables_with_rubbers()
    if tables_read is not None:
        tables = tables.filter(pk__in=tables_read)
    sessions = list(
        club.sessions.filter(status__in=[Session.Status.PLANNED, Session.Status.RUNNING])
        .order_by("date", "id")
        .prefetch_related(
            Prefetch("tables", queryset=tables),
            Prefetch(
                "changes",
                queryset=TableChange.objects.select_related("table", "player", "replaced"),
                to_attr="change_list",
            ),
        )
    )
    for session in sessions:
        session.club = club
    with_rubbers_in_play(table for session in sessions for table in session.tables.all())
    return sorted(sessions, key=room_order)
