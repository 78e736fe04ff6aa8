"""The versions the push streams send (games.push.views): a pad's (`version_of` its state),
what the console's poll and its stream both say changed."""

from __future__ import annotations

import functools
import hashlib
import re
from typing import Any, NamedTuple

from django.db import connection
from django.utils.crypto import salted_hmac

from clubs.models import Club, Session

from ..models import Rubber
from ..models.state import joined


def version_of(state: tuple[Any, ...] | list[Any]) -> str:
    """A short version of a state, keyed (the state holds the table's code)."""
    text = re.sub(r"\s+", " ", repr(state))
    return salted_hmac("games.push", text, algorithm="sha256").hexdigest()[:16]


def rubber_version(pk: int) -> str | None:
    """The version of a rubber's pad as every reader's stream has it (`version_of` its
    `answer_state`, which is the same whoever reads), or None if there is no such rubber."""
    state = Rubber.objects.answer_state(pk)
    return None if state is None else version_of(state)


class ConsoleState(NamedTuple):
    """A club's console as its stream checks it: the club, whether it is public, the reader's
    role in it (None: not a member) and `version`, what its sessions show."""

    club_id: int
    public: bool
    role: str | None
    version: str


_ACTIVE = (Session.Status.PLANNED.value, Session.Status.RUNNING.value)

#: The console's state in one query (compiling the five ORM queries it took cost more than
#: running them): the club by its slug, the reader's role, and what the console's planned and
#: running sessions show: their status and table codes, their seats (how many, how many
#: active), rubbers (how many, how many ended) and every write of their deals (count, versions,
#: confirmations, the latest time). The table names are the models' own, never a request's.
_CONSOLE_SQL = (
    "WITH c AS (SELECT id, public FROM clubs_club WHERE slug = %s),"
    " s AS (SELECT id, status, table_codes FROM clubs_session"
    "  WHERE club_id = (SELECT id FROM c) AND status IN (%s, %s))"
    " SELECT c.id, c.public,"
    " (SELECT m.role FROM clubs_membership m WHERE m.club_id = c.id AND m.user_id = %s),"
    " (SELECT JOINED(s.id || ':' || s.status || ':' || s.table_codes) FROM s),"
    " seats.n, seats.active, rubbers.n, rubbers.ended,"
    " deals.n, deals.versions, deals.confirmed, deals.latest"
    " FROM c,"
    " (SELECT COUNT(*) AS n, SUM(CASE WHEN ts.active THEN 1 ELSE 0 END) AS active"
    "  FROM clubs_tableseat ts WHERE ts.session_id IN (SELECT id FROM s)) seats,"
    " (SELECT COUNT(*) AS n, SUM(CASE WHEN r.status <> %s THEN 1 ELSE 0 END) AS ended"
    "  FROM games_rubber r WHERE r.session_id IN (SELECT id FROM s)) rubbers,"
    " (SELECT COUNT(*) AS n, SUM(d.version) AS versions, COUNT(d.confirmed_by_id) AS confirmed,"
    "  MAX(d.updated_at) AS latest FROM games_deal d JOIN games_rubber r ON r.id = d.rubber_id"
    "  WHERE r.session_id IN (SELECT id FROM s)) deals"
)


@functools.cache
def _console_sql(vendor: str) -> str:
    return joined(_CONSOLE_SQL, vendor)


def console_state(slug: str, user_id: int | None) -> ConsoleState | None:
    """The console of the club with this slug as the user with `user_id` reads it (None:
    anonymous), in one query; None if there is no such club. Who may read or direct it is
    clubs.policy's to say (games.push.views)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _console_sql(connection.vendor),
            [slug, *_ACTIVE, user_id, Rubber.Status.IN_PLAY.value],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    version = hashlib.sha256(repr(tuple(row[3:])).encode()).hexdigest()[:16]
    return ConsoleState(club_id=row[0], public=bool(row[1]), role=row[2], version=version)


def console_version(club: Club) -> str:
    """What the console's sessions show: their status and tables, the rubbers and every write
    of their deals (`console_state`). Its push stream sends it (games.push.views)."""
    state = console_state(club.slug, None)
    return "" if state is None else state.version
