"""The match API reads a constant number of queries, whatever the game and the deals."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.two_player.conftest import play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO, DRAW_DISCARD, MISERY, first_match

pytestmark = pytest.mark.django_db


def count(api, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert api.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    ("kind", "deals"),
    [("bridge_for_two", BRIDGE_FOR_TWO), ("misery", MISERY), ("draw_discard", DRAW_DISCARD)],
)
def test_match_api_queries_do_not_grow_with_deals(
    api, two_player_session, north, kind, deals, django_assert_num_queries
):
    match = first_match(two_player_session(kind))
    play(api, match, deals[:1], as_user=north)
    api.force_authenticate(None)
    url = f"/api/v1/rubbers/{match.pk}/"
    one = count(api, url)
    play_rest = deals[1:]
    for number, fields in enumerate(play_rest, start=2):
        api.force_authenticate(north)
        assert (
            api.post(
                f"/api/v1/rubbers/{match.pk}/deals/", {"number": number, **fields}, format="json"
            ).status_code
            == 201
        )
    api.force_authenticate(None)
    with django_assert_num_queries(one):
        api.get(url)


def test_entering_a_deal_takes_a_bounded_number_of_queries(
    api, two_player_session, north, django_assert_max_num_queries
):
    match = first_match(two_player_session("misery"))
    play(api, match, MISERY[:1], as_user=north)
    with django_assert_max_num_queries(30):
        api.post(f"/api/v1/rubbers/{match.pk}/deals/", {"number": 2, **MISERY[1]}, format="json")
