"""The state a pad shows and a cached rubber answer is keyed on, declared once (`FACTS`) and
read in one SQL query made of the declaration (`answer_state`: games.api, the pad's live part).

Each `Fact` names what a pad shows, the SQL expression that reads it and the table columns that
expression covers. A pad's render may read a column only if a fact covers it or `NOT_SHOWN` says
why it need not (tests/games/test_pad_state.py captures a pad's queries and checks it; the same
file changes each fact in turn and sees a new ETag and the new content)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from django.db import connection

from .values import MAX_ID


@dataclass(frozen=True)
class Fact:
    """One thing a pad shows: `sql`, its expression in the state's query (`r` the rubber, `s`
    its session, `c` its club), and `reads`, the ``table.column`` it covers."""

    shows: str
    sql: str
    reads: tuple[str, ...]


_SEATS = ("north", "east", "south", "west")


def _on(table: str, columns: str) -> tuple[str, ...]:
    """``table.column`` for each of the space-separated `columns`."""
    return tuple(f"{table}.{column}" for column in columns.split())


def joined(sql: str, vendor: str) -> str:
    """`sql` with each ``JOINED(expression)`` made the vendor's aggregate that joins the
    expression's values in one text (PostgreSQL's ``string_agg``, SQLite's ``group_concat``),
    each ``AMONG(id; a, b; list)`` the test that `id` is one of the ids `a`, `b`... or of those
    the JSON list column `list` holds, and each ``LISTED(column)`` the ids a JSON list column
    holds, as a subquery.

    On PostgreSQL ``AMONG`` is one ``= ANY`` of one array, which an index on `id` answers: its
    ``IN (a, b) OR IN (subquery)`` scanned the whole table (every player of every club: 7 ms
    at 52,000 players, for 4 rows; docs/benchmarks.md, "Issue 33: the deal's POST into rubbers
    of real length")."""
    if vendor == "postgresql":
        sql = re.sub(
            r"AMONG\(([^;]*); ([^;]*); ([^)]*)\)",
            r"\1 = ANY(ARRAY[\2] || ARRAY(SELECT CAST(e AS integer)"
            r" FROM jsonb_array_elements_text(\3) e))",
            sql,
        )
        sql = re.sub(
            r"LISTED\(([^)]*)\)",
            r"(SELECT CAST(e AS integer) FROM jsonb_array_elements_text(\1) e)",
            sql,
        )
        return re.sub(r"JOINED\(([^)]*)\)", r"string_agg(CAST(\1 AS text), '|' ORDER BY \1)", sql)
    sql = re.sub(r"AMONG\(([^;]*); ([^;]*); ([^)]*)\)", r"(\1 IN (\2) OR \1 IN LISTED(\3))", sql)
    sql = re.sub(r"LISTED\(([^)]*)\)", r"(SELECT value FROM json_each(\1))", sql)
    return re.sub(r"JOINED\(([^)]*)\)", r"group_concat(\1, '|')", sql)


_DEAL_COLUMNS = (
    "id rubber_id number contract declarer tricks honours_side honours_points data entered_by_id"
    " written_seat written_phone entered_at updated_at version confirmed_by_id disputed ruled"
    " dispute_reason dispute_note"
)

#: What a pad shows, in the order of the state's tuple: the club (id, public) first, for the
#: read check (games.selectors), and the club's language last (`state[-1]`, which the live part
#: speaks). JSON columns are read as text (no parsing).
FACTS: tuple[Fact, ...] = (
    Fact("the club read", "c.id, c.public", ("clubs_club.id", "clubs_club.public")),
    Fact(
        "the rubber: its status, start and end, number, table, session, game, rules",
        "r.status, r.started_at, r.ended_at, r.number, r.table_id, r.session_id, r.kind,"
        " CAST(r.rules AS text)",
        _on("games_rubber", "id status started_at ended_at number table_id session_id kind rules"),
    ),
    Fact(
        "the seats and who sits out",
        "r.north_id, r.east_id, r.south_id, r.west_id, r.sitting_out",
        (*(f"games_rubber.{seat}_id" for seat in _SEATS), "games_rubber.sitting_out"),
    ),
    Fact(
        # A player sitting out of this rubber while at its table corrects its deals; one who
        # has left the table (their seat made inactive) no longer does (games.selectors).
        "who is at the table",
        "(SELECT JOINED(ts.player_id) FROM clubs_tableseat ts"
        " WHERE ts.table_id = r.table_id AND ts.active)",
        _on("clubs_tableseat", "table_id player_id active"),
    ),
    Fact(
        # Their ids with their names: a rename in the admin, a substitute. One subquery by the
        # seats' ids and those sitting out (the pad's header names them): ~0.05 ms of planning
        # (PostgreSQL), where the names of who wrote or confirmed a deal without being seated
        # would add ~0.5 (`NOT_SHOWN`).
        "the seated and sitting-out players' names",
        "(SELECT JOINED(p.id || ':' || p.name) FROM clubs_player p"
        " WHERE AMONG(p.id; r.north_id, r.east_id, r.south_id, r.west_id; r.sitting_out))",
        _on("clubs_player", "id name"),
    ),
    Fact(
        # Twice the sum of their versions, which a new deal and a correction raise, plus the
        # confirmed ones (a confirmation adds 1, a correction that clears one still adds 1 in
        # all), and the latest write (every verb saves `updated_at`: a dispute, a ruling).
        # Each write adds the deal's history record, which the pad shows; a delete adds one
        # too, so the latest record's id never comes back: a state is never one seen before
        # (an answer made while a deal landed, newer than its state, is never served for it
        # once that deal is deleted).
        "the deals: what they say, their confirmations, disputes, rulings, versions, history",
        "(SELECT 2 * SUM(d.version) + COUNT(d.confirmed_by_id)"
        "  FROM games_deal d WHERE d.rubber_id = r.id),"
        " (SELECT MAX(d.updated_at) FROM games_deal d WHERE d.rubber_id = r.id),"
        " (SELECT MAX(h.history_id) FROM games_historicaldeal h WHERE h.rubber_id = r.id)",
        (*_on("games_deal", _DEAL_COLUMNS), "games_historicaldeal.*"),
    ),
    Fact(
        "the session: its status and last close, its settings (confirmations, table codes,"
        " rules, stake, kind, movement, date)",
        "s.status, s.closed_at, s.started_at, s.confirm_entries, s.table_codes,"
        " CAST(s.rules AS text), s.stake_per_hundred, s.kind, s.movement, s.date",
        _on(
            "clubs_session",
            "id club_id status closed_at started_at confirm_entries table_codes rules"
            " stake_per_hundred kind movement date",
        ),
    ),
    Fact(
        # By subqueries, not a join of four tables: quicker to plan (as for_entry).
        "the table: its number and code (a phone whose code was regenerated or turned off"
        " loses its entry form)",
        "(SELECT t.number || ':' || COALESCE(t.code, '') FROM clubs_table t"
        " WHERE t.id = r.table_id)",
        ("clubs_table.id", "clubs_table.session_id", "clubs_table.number", "clubs_table.code"),
    ),
    Fact(
        "the club: its name and address, house rules, stake, confirmations and codes",
        "c.slug, c.name, c.rules_preset, CAST(c.rules_overrides AS text), c.default_stake,"
        " c.currency,"
        " c.confirm_entries, c.table_codes",
        _on(
            "clubs_club",
            "slug name rules_preset rules_overrides default_stake currency confirm_entries"
            " table_codes",
        ),
    ),
    Fact("the club's language (last)", "c.language", ("clubs_club.language",)),
)

#: Columns a pad's render reads that are not in the state, and why that is right.
NOT_SHOWN: dict[str, str] = {
    "auth_user.*": "who looks (their session's cookie is in the ETag); a login is never shown",
    "django_session.*": "who looks: the session's cookie is in the ETag",
    "clubs_membership.*": "who looks (their role, read with their cookie's login) and a writer"
    " shown as the club's director (no player): a change of role shows with the next change",
    # Known gap, for the query's cost (the seated players' names above): a deal's history and
    # its "confirmed by" name who wrote or confirmed it; when that is someone not seated at the
    # rubber (a director, a player substituted since), a rename of theirs shows with the pad's
    # next change.
    "clubs_player.club_id": "the writers' players, found by club and login (known gap above)",
    "clubs_player.user_id": "the writers' players, found by club and login (known gap above)",
    "clubs_player.language": "the viewer's own language: reaches an open pad with its next change",
    "clubs_player.created_at": "never shown",
    "clubs_player.email": "never shown on a pad: the results mail's address",
    "clubs_player.mail_stopped_at": "never shown on a pad: whether the results mail stopped",
    "clubs_session.closes": "never shown: how many times the session closed (the results mail)",
    "clubs_club.created_at": "never shown; never changes",
    "clubs_session.created_by_id": "never shown",
    "clubs_session.created_at": "never shown; never changes",
}


def state_sql() -> str:
    """The state's one query, made of `FACTS` in their order."""
    return _state_sql(connection.vendor)


@functools.cache
def _state_sql(vendor: str) -> str:
    """`state_sql` for a database `vendor`, made once (the live part asks for it every poll)."""
    columns = joined(", ".join(fact.sql for fact in FACTS), vendor)
    tables = (
        "games_rubber r JOIN clubs_session s ON s.id = r.session_id"
        " JOIN clubs_club c ON c.id = s.club_id"
    )
    # The columns are FACTS' constant SQL, never a request's input; the rubber's id is bound.
    return f"SELECT {columns} FROM {tables} WHERE r.id = %s"  # noqa: S608  # nosec B608


def answer_state(pk: int) -> tuple[Any, ...] | None:
    """What a pad shows and a rubber's API answer is made of (`FACTS`, in their order: the
    club's id and whether it is public first, its language last), in one query; None if there
    is no such rubber. In SQL: compiling it with the ORM cost more than running it
    (docs/benchmarks.md).

    The times (to the microsecond) tell one incarnation of the database from another. A
    database created again (a test run) or restored from a dump hands out the same ids and
    versions again, and the cache, which outlives it, must not answer one database's deals
    for the other's (their ids are what a client corrects): a rubber or a deal written since
    has another time.

    Deleting the last deal (`Deal.delete_last`) takes its share off the count (at least 2)
    and adds the deal's last history record, so every phone holding a pad with that deal gets
    the new one on its next poll, and the state is never one seen before: an answer is read
    after its state, so one made while a deal landed shows that deal under the state before
    it, which must never come back once the deal is deleted
    (tests/games/test_live_etag.py, tests/games/test_delete_deal.py)."""
    if pk > MAX_ID:  # as in RubberQuerySet.for_entry
        return None
    with connection.cursor() as cursor:
        cursor.execute(state_sql(), [pk])
        row = cursor.fetchone()
    return None if row is None else tuple(row)
