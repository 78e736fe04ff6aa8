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

#: What the console shows, each part one expression of the console's query (`c` the club,
#: `s` its planned and running sessions): every column a console's render reads, so that a
#: change of any of them is a new version (tests/games/test_console_facts.py changes each in
#: turn). Rows are joined into one text by `JOINED` over an alias `x` (the vendor's aggregate
#: takes no nested brackets), in order.
CONSOLE_FACTS: tuple[tuple[str, str], ...] = (
    ("the club's address and settings", "c.slug, c.confirm_entries, c.table_codes"),
    (
        "the sessions: status, date, game, movement, stake, confirmations, codes, rules, times",
        "(SELECT JOINED(x) FROM (SELECT s.id || ':' || s.status || ':' || s.date || ':'"
        " || s.kind || ':' || s.movement || ':' || s.stake_per_hundred || ':'"
        " || s.confirm_entries || ':' || s.table_codes || ':' || CAST(s.rules AS text) || ':'"
        " || COALESCE(CAST(s.started_at AS text), '') || ':'"
        " || COALESCE(CAST(s.closed_at AS text), '') AS x FROM s ORDER BY x) q)",
    ),
    (
        "the tables: their numbers and codes",
        "(SELECT JOINED(x) FROM (SELECT t.id || ':' || t.session_id || ':' || t.number || ':'"
        " || t.code AS x FROM clubs_table t WHERE t.session_id IN (SELECT id FROM s)"
        " ORDER BY x) q)",
    ),
    (
        "who sits at which table, in which place, still there or gone",
        "(SELECT JOINED(x) FROM (SELECT ts.id || ':' || ts.table_id || ':' || ts.player_id"
        " || ':' || ts.position || ':' || ts.active AS x FROM clubs_tableseat ts"
        " WHERE ts.session_id IN (SELECT id FROM s) ORDER BY x) q)",
    ),
    (
        "the rubbers: number, table, game, status, seats and who sits out",
        "(SELECT JOINED(x) FROM (SELECT r.id || ':' || r.table_id || ':' || r.number || ':'"
        " || r.kind || ':' || r.status || ':' || COALESCE(r.north_id, 0) || ':'"
        " || COALESCE(r.east_id, 0) || ':' || COALESCE(r.south_id, 0) || ':'"
        " || COALESCE(r.west_id, 0) || ':' || CAST(r.sitting_out AS text) AS x"
        " FROM games_rubber r WHERE r.session_id IN (SELECT id FROM s) ORDER BY x) q)",
    ),
    (
        # Every write of a deal raises its version or sets its time (a dispute, a ruling).
        "the deals: how many, their versions, confirmations and the latest write",
        "(SELECT COUNT(*) || ':' || COALESCE(SUM(d.version), 0) || ':' || COUNT(d.confirmed_by_id)"
        " || ':' || COALESCE(CAST(MAX(d.updated_at) AS text), '') FROM games_deal d"
        " JOIN games_rubber r ON r.id = d.rubber_id WHERE r.session_id IN (SELECT id FROM s))",
    ),
    (
        # A delete adds a history record too: the latest one's id never comes back, so a
        # version read before a deal landed is never seen again once that deal is deleted.
        "the latest write of their deals, deletes included",
        "(SELECT MAX(h.history_id) FROM games_historicaldeal h"
        " JOIN games_rubber r ON r.id = h.rubber_id WHERE r.session_id IN (SELECT id FROM s))",
    ),
    (
        "the club's players' names (the seats, the rotation, the changes and who made them)",
        "(SELECT JOINED(x) FROM (SELECT p.id || ':' || p.name || ':' || COALESCE(p.user_id, 0)"
        " AS x FROM clubs_player p WHERE p.club_id = c.id ORDER BY x) q)",
    ),
    (
        "the club's roles (a change made by a director without a player is theirs)",
        "(SELECT JOINED(x) FROM (SELECT m.user_id || ':' || m.role AS x FROM clubs_membership m"
        " WHERE m.club_id = c.id ORDER BY x) q)",
    ),
    (
        "the changes at the tables",
        "(SELECT JOINED(x) FROM (SELECT tc.id || ':' || tc.table_id || ':' || tc.kind || ':'"
        " || COALESCE(tc.player_id, 0) || ':' || COALESCE(tc.replaced_id, 0) || ':'"
        " || tc.from_rubber || ':' || COALESCE(tc.closed_rubber, 0) || ':'"
        " || COALESCE(tc.by_id, 0) || ':' || CAST(tc.at AS text) AS x"
        " FROM clubs_tablechange tc WHERE tc.session_id IN (SELECT id FROM s) ORDER BY x) q)",
    ),
)


#: The console's state in one query (compiling the ORM queries it took cost more than running
#: them): the club by its slug, whether it is public, the reader's role, then `CONSOLE_FACTS`.
_CONSOLE_HEAD = (
    "WITH c AS (SELECT id, public, slug, confirm_entries, table_codes FROM clubs_club"
    "  WHERE slug = %s),"
    " s AS (SELECT * FROM clubs_session"
    "  WHERE club_id = (SELECT id FROM c) AND status IN (%s, %s))"
    " SELECT c.id, c.public,"
    " (SELECT m.role FROM clubs_membership m WHERE m.club_id = c.id AND m.user_id = %s), "
)


@functools.cache
def _console_sql(vendor: str) -> str:
    columns = ", ".join(sql for _shows, sql in CONSOLE_FACTS)
    # The table names are the models' own and the facts constant SQL, never a request's input.
    return joined(f"{_CONSOLE_HEAD}{columns} FROM c", vendor)  # nosec B608


def console_state(slug: str, user_id: int | None) -> ConsoleState | None:
    """The console of the club with this slug as the user with `user_id` reads it (None:
    anonymous), in one query; None if there is no such club. Who may read or direct it is
    clubs.policy's to say (games.push.views)."""
    with connection.cursor() as cursor:
        cursor.execute(_console_sql(connection.vendor), [slug, *_ACTIVE, user_id])
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
