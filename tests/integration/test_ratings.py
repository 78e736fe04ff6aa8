"""Ratings computed by a real Celery worker on PostgreSQL and Redis (issue 19, docs/ratings.md).

A deal that ends a rubber reaches the ratings through the worker alone: the deal's write queues
the session's standings, whose refresh queues the club's ratings; the API says `stale` until
the worker has replayed them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scoring.standings import queueing, ratings
from scoring.standings.models import ClubRatingsState
from tests.conftest import wait_for
from tests.factories import make_session
from tests.integration.test_standings import post_deal

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _publish_back_off_closed() -> Iterator[None]:
    """Each test starts with the publish back-off closed (it is per process)."""
    queueing._broker_down_until = 0.0
    yield
    queueing._broker_down_until = 0.0


def test_a_won_rubber_is_rated_by_the_worker(
    api, club, table_of_four, director, celery_worker_process
):
    session = make_session(club, [list(table_of_four.values())])
    rubber = session.rubbers.get().pk
    api.force_authenticate(director)
    post_deal(api, rubber, 1, "4S", "N", 10)
    post_deal(api, rubber, 2, "4S", "N", 10)

    def rated() -> dict[str, Any] | None:
        body = api.get(f"/api/v1/clubs/{club.slug}/ratings").json()
        return body if not body["stale"] and body["ratings"] else None

    body = wait_for(rated, timeout=60)
    assert len(body["ratings"]) == 4
    north_south = {table_of_four["north"].pk, table_of_four["south"].pk}
    winners = {row["player"] for row in body["ratings"] if row["won"] == 1}
    assert winners == north_south
    assert body["ratings"][0]["player"] in north_south  # the winners rank first
    state = ClubRatingsState.objects.get(pk=club.pk)
    assert state.pending_since is None and state.computed_dirty == state.dirty
    assert ratings.ratings_refresh(club_id=club.pk) is False  # the worker's rows are current
