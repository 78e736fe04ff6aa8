"""The state a cached rubber answer is keyed on, read in SQL (games.api, the pad's live part)."""

from __future__ import annotations

from typing import Any

from django.db import connection

from .values import MAX_ID


def answer_state(pk: int) -> tuple[Any, ...] | None:
    """The rubber's club (id, public) and what its API answer is made of apart from names:
    status, start, end, number, table, session, seats, sitting out, a count that every
    change of its deals raises (twice the sum of their versions, which a new deal and a
    correction raise, plus the confirmed ones: a confirmation adds 1, a correction that
    clears one still adds 1 in all), and the time of the latest write to its deals. None if
    there is no such rubber. In SQL: this is all a cached answer reads, and compiling it with
    the ORM cost more than running it (docs/benchmarks.md).

    The times (to the microsecond) tell one incarnation of the database from another. A
    database created again (a test run) or restored from a dump hands out the same ids and
    versions again, and the cache, which outlives it, must not answer one database's deals
    for the other's (their ids are what a client corrects): a rubber or a deal written since
    has another time.

    Deleting the last deal (`Deal.delete_last`) takes its share off the count (at least 2),
    so every phone holding a pad with that deal gets the new one on its next poll. The state
    may then be one seen before (the deal's entry was the latest write): the deals are then
    exactly those of that state, and an answer kept for it is right. Otherwise the latest
    surviving write fixes the time and only deletes have followed it, each lowering the
    count: two different sets of deals never share a state
    (tests/games/test_delete_deal.py).

    Then what a pad's live part shows besides (its ETag, games.views.rubber_live): the
    session's status and last close (closed, reopened), whether opponents confirm (the
    session's setting and the club's, `Session.asks_confirmation`), whether table codes are
    on and the table's code (a phone whose code was regenerated or turned off loses its
    entry form). Last, the club's language (a pad's live part speaks it: `state[-1]`)."""
    if pk > MAX_ID:  # as in RubberQuerySet.for_entry
        return None
    with connection.cursor() as cursor:
        # The table's code by a subquery, not a join of four tables: quicker to plan (as
        # for_entry). Reading the session's columns costs ~0.1 ms more planning than the
        # club alone did (PostgreSQL, measured for issue 17).
        cursor.execute(
            "SELECT c.id, c.public, r.status, r.started_at, r.ended_at, r.number,"
            " r.table_id, r.session_id, r.north_id, r.east_id, r.south_id, r.west_id,"
            " r.sitting_out, (SELECT 2 * SUM(d.version) + COUNT(d.confirmed_by_id)"
            "  FROM games_deal d WHERE d.rubber_id = r.id),"
            " (SELECT MAX(d.updated_at) FROM games_deal d WHERE d.rubber_id = r.id),"
            " s.status, s.closed_at, s.confirm_entries, c.confirm_entries, s.table_codes,"
            " (SELECT t.code FROM clubs_table t WHERE t.id = r.table_id),"
            " c.language"
            " FROM games_rubber r JOIN clubs_session s ON s.id = r.session_id"
            " JOIN clubs_club c ON c.id = s.club_id"
            " WHERE r.id = %s",
            [pk],
        )
        row = cursor.fetchone()
    return None if row is None else tuple(row)
