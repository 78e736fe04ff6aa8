"""``field__any=[...]`` (config/lookups.py): the rows of ``field__in``, sent on PostgreSQL as
one array parameter (``= ANY(%s)``) instead of a parameter per value. The unit suite runs these
on SQLite (where ``any`` is ``in``); tests/integration/test_lookups_postgres.py runs the same
tests on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Player
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


def test_a_string_is_refused_not_read_a_character_at_a_time(players) -> None:
    """The admin's filters hand a query string's value over as it is (``?id__any=12``)."""
    with pytest.raises(ValueError, match="list of values"):
        list(Player.objects.filter(pk__any=str(players[0].pk)))


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


def test_excluded_and_or_as_in_with_a_column_that_may_be_null(players, director) -> None:
    """``user`` is a nullable key: ``NOT (x = ANY(...))`` must leave the players without one
    exactly where ``NOT IN`` leaves them."""
    players[0].user = director
    players[0].save(update_fields=["user"])
    for lookup in ("in", "any"):
        excluded = Player.objects.exclude(**{f"user__{lookup}": [director.pk]})
        one = Q(**{f"pk__{lookup}": [players[1].pk]})
        either = Player.objects.filter(one | Q(pk=players[2].pk))
        assert ids(excluded) == sorted(p.pk for p in players[1:]), lookup
        assert ids(either) == sorted([players[1].pk, players[2].pk]), lookup


def test_deletes_and_updates_take_it(players) -> None:
    Player.objects.filter(pk__any=[players[0].pk]).update(name="Renamed")
    assert Player.objects.get(pk=players[0].pk).name == "Renamed"
    Player.objects.filter(pk__any=[players[5].pk]).delete()
    assert not Player.objects.filter(pk=players[5].pk).exists()


def test_a_json_field_keeps_its_key_named_any(players) -> None:
    """Registered on integer columns and keys only: elsewhere ``any`` stays a JSON key."""
    club = players[0].club
    club.rules_overrides = {"any": "x"}
    club.save(update_fields=["rules_overrides"])
    assert list(Club.objects.filter(rules_overrides__any="x")) == [club]


def test_on_postgresql_the_values_go_as_one_array(players) -> None:
    wanted = [player.pk for player in players]
    with CaptureQueriesContext(connection) as queries:
        assert ids(Player.objects.filter(pk__any=wanted)) == sorted(wanted)
    (query,) = queries
    if connection.vendor == "postgresql":
        assert '"id" = ANY(' in query["sql"] and " IN (" not in query["sql"], query["sql"]
    else:
        assert " IN (" in query["sql"], query["sql"]
