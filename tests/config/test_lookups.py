"""``field__any=[...]`` (config/lookups.py): the rows of ``field__in``, sent on PostgreSQL as
one array parameter (``= ANY(%s)``) instead of a parameter per value. These run on SQLite in the
unit suite (where ``any`` is ``in``) and on PostgreSQL in the integration suite."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Player
from tests.factories import add_players, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(director) -> list[Player]:
    club = make_club(director=director)
    return add_players(club, "Player", 6)


def ids(queryset) -> list[int]:
    return sorted(queryset.values_list("pk", flat=True))


def test_any_finds_the_rows_in_finds(players) -> None:
    wanted = [players[0].pk, players[3].pk, players[3].pk, None, 10**9]
    assert ids(Player.objects.filter(pk__any=wanted)) == ids(Player.objects.filter(pk__in=wanted))
    assert ids(Player.objects.filter(pk__any=wanted)) == sorted([players[0].pk, players[3].pk])


def test_values_that_are_not_ints_are_prepared_as_in_prepares_them(players) -> None:
    wanted = [str(players[1].pk), players[2].pk]
    assert ids(Player.objects.filter(pk__any=wanted)) == ids(Player.objects.filter(pk__in=wanted))
    assert ids(Player.objects.filter(pk__any=wanted)) == sorted([players[1].pk, players[2].pk])
    with pytest.raises(ValueError):
        list(Player.objects.filter(pk__any=["not a number"]))


def test_no_values_find_no_rows_without_a_query(players) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert list(Player.objects.filter(pk__any=[])) == []
        assert list(Player.objects.filter(pk__any=[None])) == []
    assert len(queries) == 0


def test_a_foreign_key_takes_ids_or_objects(players) -> None:
    club = players[0].club
    by_object = Player.objects.filter(club__any=[club])
    by_id = Player.objects.filter(club_id__any=[club.pk])
    assert ids(by_object) == ids(by_id) == ids(Player.objects.filter(club=club))


def test_a_subquery_is_sent_as_in_sends_it(players) -> None:
    some = Player.objects.filter(pk__in=[players[1].pk, players[2].pk]).values("pk")
    assert ids(Player.objects.filter(pk__any=some)) == sorted([players[1].pk, players[2].pk])


@pytest.mark.integration  # on PostgreSQL in `make test`
def test_on_postgresql_the_values_go_as_one_array(players) -> None:
    wanted = [player.pk for player in players]
    with CaptureQueriesContext(connection) as queries:
        assert ids(Player.objects.filter(pk__any=wanted)) == sorted(wanted)
    (query,) = queries
    if connection.vendor == "postgresql":
        assert '"id" = ANY(' in query["sql"] and " IN (" not in query["sql"], query["sql"]
    else:
        assert " IN (" in query["sql"], query["sql"]
