"""Queries whose plan PostgreSQL must not get wrong as the tables grow (issue 33)."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def test_a_rubbers_latest_history_row_is_one_probe_of_its_index() -> None:
    """A pad's version is its rubber's latest history id (games/models/state.py). With only an
    index on the rubber, PostgreSQL walked the whole history backwards from its newest row until
    one of the rubber's (29 ms for an old rubber at 78,900 rows; bench/bench_http.py's
    scoresheet slowed round after round). The pair's index answers it at once."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(
            "EXPLAIN SELECT MAX(h.history_id) FROM games_historicaldeal h WHERE h.rubber_id = 1"
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "history_of_a_rubber" in plan, plan
    assert "Filter" not in plan, plan  # the rubber is the index's condition, not a filter


def test_a_rebuild_chunk_reads_its_deals_through_their_rubbers_index() -> None:
    """The nightly rebuild reads a chunk's deals by their rubbers' ids (``chunk_deals_query``).
    Joined to the rubbers by session, PostgreSQL scanned every deal in the database for each
    chunk (a sequential scan, or with it off the whole rubber index into a merge join); by the
    ids, each rubber's deals are looked up in the index."""
    from scoring.standings.computation import chunk_deals_query

    sql, params = chunk_deals_query([1, 2], [10, 11, 12])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Index Cond: (rubber_id = ANY" in plan, plan
