"""The state a pad and a rubber's answer are keyed on names the seated and sitting-out players by
their key on PostgreSQL, never by a scan of every club's players (games/models/state.py `AMONG`;
docs/benchmarks.md, "Issue 33: the deal's POST into rubbers of real length": 7 ms of a deal's
POST at 52,000 players, for four rows)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from games.models import Rubber
from games.models.state import answer_state, state_sql
from tests.factories import add_player, make_session

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture
def table_of_five(club: Any, table_of_four: dict[str, Any]) -> tuple[Any, Any]:
    fay = add_player(club, "Fay Fifth")
    session = make_session(club, [[*table_of_four.values(), fay]])
    return session.rubbers.get(number=1), fay


def test_the_names_are_the_seated_and_sitting_out_players(table_of_five: tuple[Any, Any]) -> None:
    rubber, _ = table_of_five
    rubber = Rubber.objects.get(pk=rubber.pk)
    assert len(rubber.sitting_out) == 1
    wanted = [*rubber.seat_ids.values(), *rubber.sitting_out]
    named = {p.pk: p.name for p in rubber.session.club.players.filter(pk__in=wanted)}
    assert len(named) == 5
    expected = {f"{pk}:{name}" for pk, name in named.items()}
    state = answer_state(rubber.pk)
    assert state is not None
    assert expected in [set(v.split("|")) for v in state if isinstance(v, str)]


def test_the_players_are_read_by_their_key(table_of_five: tuple[Any, Any]) -> None:
    """With scans priced out, the players' subquery is an index scan: the `IN (...) OR IN
    (subquery)` it replaced can only be a scan, whatever the costs."""
    rubber, _ = table_of_five
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN (FORMAT JSON) {state_sql()}", [rubber.pk])
        plan = cursor.fetchone()[0]
    plan = plan if isinstance(plan, list) else json.loads(plan)

    def nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
        return [node, *(n for child in node.get("Plans", []) for n in nodes(child))]

    on_players = [n for n in nodes(plan[0]["Plan"]) if n.get("Relation Name") == "clubs_player"]
    assert on_players, plan
    assert all(n["Node Type"] != "Seq Scan" for n in on_players), on_players
