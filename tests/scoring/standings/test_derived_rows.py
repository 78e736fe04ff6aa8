"""The standings' derived rows carry no foreign-key constraint in the database (the nightly
rebuild rewrites them in bulk: docs/standings.md, "Stored rows"), yet deleting what they name
still deletes them: Django cascades (``on_delete``), never the database. (A player or a club
with played sessions cannot be deleted: their seats protect them.)"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Session
from scoring.standings import services
from scoring.standings.models import (
    RubberResult,
    SessionPayment,
    SessionStanding,
    SessionStandingsState,
)
from tests.factories import make_session
from tests.scoring.standings.conftest import win_rubber

DERIVED = (RubberResult, SessionStanding, SessionPayment)


@pytest.mark.django_db
def test_the_derived_tables_have_no_foreign_key_constraint_in_the_database():
    with connection.cursor() as cursor:
        for model in DERIVED:
            constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
            assert [name for name, c in constraints.items() if c["foreign_key"]] == []


@pytest.mark.django_db
def test_no_index_only_a_deletion_would_use():
    """docs/standings.md: no index on a result's club, a payment's payer or payee (issue 33);
    the database's own list of indexes, on SQLite here and on PostgreSQL in CI's migrations."""
    unindexed = {RubberResult: {"club_id"}, SessionPayment: {"payer_id", "payee_id"}}
    with connection.cursor() as cursor:
        for model, columns in unindexed.items():
            constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
            leading = {c["columns"][0] for c in constraints.values() if c["index"] or c["unique"]}
            assert not leading & columns, model


def test_the_ratings_replay_reads_a_clubs_results_through_its_sessions(club):
    from scoring.standings import ratings

    with CaptureQueriesContext(connection) as queries:
        ratings.club_matches(club.pk)
    results = [q["sql"] for q in queries if 'FROM "scoring_rubberresult"' in q["sql"]]
    assert len(results) == 1
    assert '"clubs_session"."club_id" =' in results[0]
    assert '"scoring_rubberresult"."club_id"' not in results[0].split("WHERE")[1]


def _counts(**where: object) -> list[int]:
    return [model.objects.filter(**where).count() for model in DERIVED]


@pytest.mark.django_db
def test_deleting_a_session_deletes_its_derived_rows_and_no_others(
    club, room, table_of_four, director
):
    four = list(table_of_four.values())
    other = make_session(club, [four], stake=Decimal("1"), date=datetime.date(2026, 12, 2))
    for session in (room, other):
        win_rubber(session.rubbers.order_by("pk").first(), "NS", by=director)
        services.standings_refresh(session_id=session.pk)
        assert all(_counts(session=session))  # results, standings and payments
    room.delete()
    assert _counts(session_id=room.pk) == [0, 0, 0]
    assert all(_counts(session=other))
    Session.objects.get(pk=other.pk).delete()
    assert [model.objects.count() for model in DERIVED] == [0, 0, 0]


@pytest.mark.django_db
def test_deleting_a_session_deletes_its_state_row_before_its_derived_rows(club, room, director):
    """The state row's lock is what a refresh stores under: deleted first, a refresh storing
    meanwhile has finished (its rows are then deleted too) or will store nothing."""
    win_rubber(room.rubbers.order_by("pk").first(), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    with CaptureQueriesContext(connection) as queries:
        room.delete()
    deletes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    first = next(i for i, sql in enumerate(deletes) if "scoring_sessionstandingsstate" in sql)
    for model in DERIVED:
        table = f'"{model._meta.db_table}"'
        assert first < min(i for i, sql in enumerate(deletes) if f"FROM {table}" in sql)
    assert SessionStandingsState.objects.filter(pk=room.pk).exists() is False
