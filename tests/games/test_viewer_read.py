"""Who looks at a pad, read with the rubber in one query (games.selectors, the pad's live part):
the same rubber, rights and `Viewer` as the ORM's reads (`viewer_of`) give, for every kind of
reader, and the same 404 for a rubber hidden or missing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership, TableSeat
from games.models import Rubber
from games.models.values import MAX_ID
from games.selectors import rubber_for_reader, viewer_of
from tests.factories import UserFactory, add_player, make_club, make_session

pytestmark = pytest.mark.django_db


def _both(user: Any, pk: int) -> tuple[Any, Any]:
    with CaptureQueriesContext(connection) as queries:
        _read, viewer = rubber_for_reader(user, pk, deals=False)
    assert len(queries) == 1
    expected = viewer_of(user, Rubber.objects.select_related("table", "session__club").get(pk=pk))
    return viewer, expected


def test_each_reader_is_who_the_orm_says(running_session, director, north, outsider):
    rubber = running_session.rubbers.get()
    spare = add_player(running_session.club, "Spare", user=UserFactory(username="spare"))
    TableSeat.objects.create(
        session=running_session, table=rubber.table, player=spare, position=9, active=True
    )
    for user in (director, north, outsider, spare.user, AnonymousUser()):
        viewer, expected = _both(user, rubber.pk)
        assert viewer == expected, user
    assert _both(spare.user, rubber.pk)[0].at_table  # sitting out at the table
    TableSeat.objects.filter(player=spare).update(active=False)
    assert not _both(spare.user, rubber.pk)[0].at_table  # left it


def test_a_player_whose_membership_ended_is_nobody(running_session, north):
    rubber = running_session.rubbers.get()
    Membership.objects.filter(user=north).delete()
    viewer, expected = _both(north, rubber.pk)
    assert viewer == expected
    assert viewer.role is None and viewer.player is None and viewer.seat is None


def test_the_rubber_read_is_the_orms(running_session, north):
    rubber = running_session.rubbers.get()
    read, _viewer = rubber_for_reader(north, rubber.pk, deals=False)
    orm = Rubber.objects.select_related("table", "session__club").get(pk=rubber.pk)
    for a, b in ((read, orm), (read.table, orm.table), (read.session, orm.session)):
        assert {f.attname: getattr(a, f.attname) for f in type(a)._meta.concrete_fields} == {
            f.attname: getattr(b, f.attname) for f in type(b)._meta.concrete_fields
        }
    assert read.session.club.public is True and read.session.club == orm.session.club


def test_a_hidden_rubber_is_missing(director, outsider):
    private = make_club(director=director, slug="private", public=False)
    hidden = make_session(private, [[add_player(private, f"P{i}") for i in range(4)]])
    rubber = hidden.rubbers.get()
    for pk in (rubber.pk, rubber.pk + 1000, MAX_ID + 1):
        with pytest.raises(Http404):
            rubber_for_reader(outsider, pk, deals=False)
    assert rubber_for_reader(director, rubber.pk, deals=False)[1].role == "director"
