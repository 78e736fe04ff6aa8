"""The rubber API and the scoresheet page use a constant number of queries, whatever the deals."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.conftest import SIX_DEALS


def count(fn: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = fn()
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_rubber_api_queries_do_not_grow_with_deals(api, rubber, enter, django_assert_num_queries):
    enter(SIX_DEALS[:1])
    api.force_authenticate(None)
    url = f"/api/v1/rubbers/{rubber.pk}/"
    one = count(lambda: api.get(url))
    enter(SIX_DEALS[1:5], start=2)
    enter(SIX_DEALS[5:], start=6)
    api.force_authenticate(None)
    with django_assert_num_queries(one):
        api.get(url)


def test_scoresheet_page_queries_do_not_grow_with_deals(
    client, rubber, enter, north, django_assert_num_queries
):
    enter(SIX_DEALS[:1])
    client.force_login(north)
    url = f"/rubbers/{rubber.pk}/"
    one = count(lambda: client.get(url))
    enter(SIX_DEALS[1:], start=2)
    with django_assert_num_queries(one + 1):  # + the next rubber's id, once the rubber is over
        client.get(url)
