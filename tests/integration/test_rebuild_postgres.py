"""The nightly rebuild's bulk path on PostgreSQL, where it reads a chunk's deals by their rubbers'
ids as one array (``= ANY``) and its other reads by ``field__any``: the very rows of the
refresh's path on random nights (the unit suite checks the same on SQLite, where both are
``IN`` lists; tests/scoring/standings/test_rebuild_stream.py)."""

from __future__ import annotations

import pytest

from clubs.models import Session
from scoring.standings.computation import compute_sessions, stream_sessions
from tests.scoring.standings.test_rebuild_stream import SEEDS, random_nights

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def test_on_postgresql_the_bulk_path_computes_the_rows_of_the_refresh() -> None:
    club = random_nights(SEEDS[0])
    ids = list(Session.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    previous = compute_sessions(ids)
    assert stream_sessions(ids) == previous
    assert stream_sessions(ids[::2]) == {pk: previous[pk] for pk in ids[::2]}
    assert sum(len(c.results) for c in previous.values()) > 0
