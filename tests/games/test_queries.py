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


def test_entering_a_deal_takes_a_constant_small_number_of_queries(
    api, rubber, enter, django_assert_max_num_queries
):
    """The entry check (one query), the lock and the deals, the deal and its history, the
    standings marked stale and claimed, the players for the answer: the rubber is not read again
    for the answer, so a longer rubber costs no more (docs/benchmarks.md, HTTP)."""
    url = f"/api/v1/rubbers/{rubber.pk}/deals/"
    enter(SIX_DEALS[:1])
    with CaptureQueriesContext(connection) as ctx:
        assert api.post(url, {"number": 2, **SIX_DEALS[1]}, format="json").status_code == 201
    second = len(ctx.captured_queries)
    assert second <= 10  # 8, and a savepoint pair inside the test's transaction
    enter(SIX_DEALS[2:4], start=3)
    with django_assert_max_num_queries(second):
        response = api.post(url, {"number": 5, **SIX_DEALS[4]}, format="json")
    assert response.status_code == 201


def test_a_retried_entry_reads_no_more_than_an_entry(
    api, rubber, enter, django_assert_max_num_queries
):
    url = f"/api/v1/rubbers/{rubber.pk}/deals/"
    enter(SIX_DEALS[:2])
    with django_assert_max_num_queries(7):  # entry check, lock, deals, the players: no write
        assert api.post(url, {"number": 2, **SIX_DEALS[1]}, format="json").status_code == 200
