"""The console's state, read in one query (games.push.versions.console_state): the club, the
reader's role, and a version that every change the console shows moves (its stream and its
poll's ETag are keyed on it), and nothing else does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Session, TableSeat
from games.push.versions import console_state, console_version
from tests.factories import acting

pytestmark = pytest.mark.django_db

FIRST = {"contract": "2H", "declarer": "N", "tricks": 9}


def _deal(session: Any) -> None:
    rubber = session.rubbers.get()
    rubber.record_deal(number=1, **FIRST, actor=acting(rubber, rubber.north.user))


CHANGES: dict[str, Callable[[Any], Any]] = {
    "a deal recorded": _deal,
    "a deal corrected": lambda s: (
        _deal(s),
        s.rubbers.get().deals.get().correct(version=1, tricks=8, actor=acting(s.rubbers.get())),
    ),
    "a seat left": lambda s: TableSeat.objects.filter(session=s).update(active=False),
    "table codes turned off": lambda s: Session.objects.filter(pk=s.pk).update(table_codes=False),
    "the session closed": lambda s: Session.objects.filter(pk=s.pk).update(status="closed"),
    "its rubber ended": lambda s: s.rubbers.update(status="unfinished"),
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_the_console_shows_moves_its_version(running_session, change):
    club = running_session.club
    before = console_version(club)
    assert console_version(club) == before  # nothing changed, nothing moves
    CHANGES[change](running_session)
    assert console_version(club) != before


def test_the_state_is_one_query_and_says_who_reads(running_session, director, north, outsider):
    slug = running_session.club.slug
    with CaptureQueriesContext(connection) as queries:
        state = console_state(slug, director.pk)
    assert len(queries) == 1
    assert state is not None
    assert (state.club_id, state.public, state.role) == (running_session.club_id, True, "director")
    assert console_state(slug, north.pk).role == "player"
    assert console_state(slug, outsider.pk).role is None
    assert console_state(slug, None).role is None
    assert console_state("no-such-club", director.pk) is None
    assert len({console_state(slug, u).version for u in (director.pk, north.pk, None)}) == 1
