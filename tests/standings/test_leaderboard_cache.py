"""The club leaderboard's response cache: served without the standings queries, replaced after
every committed change (scoring/shared/cache.py). On with Redis; here forced on with the local
cache."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from scoring.shared.cache import leaderboard_cache_seconds
from scoring.standings import services
from tests.standings.conftest import down_one, win_rubber

pytestmark = pytest.mark.django_db


@pytest.fixture
def cached(settings: Any) -> Any:
    settings.LEADERBOARD_CACHE_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


def _url(club: Any) -> str:
    return f"/api/v1/clubs/{club.slug}/leaderboard"


def test_off_without_a_shared_cache(settings: Any) -> None:
    assert "locmem" in settings.CACHES["default"]["BACKEND"].lower()
    assert leaderboard_cache_seconds() == 0


def test_a_cached_board_costs_only_the_club_lookup(
    api: Any, club: Any, room: Any, director: Any, cached: Any, django_assert_num_queries: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    first = api.get(_url(club)).json()
    with django_assert_num_queries(1):
        assert api.get(_url(club)).json() == first


def test_a_refresh_replaces_the_cached_board(
    api: Any,
    club: Any,
    room: Any,
    director: Any,
    cached: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    before = api.get(_url(club)).json()
    assert before["players"] == []
    with django_capture_on_commit_callbacks(execute=True):
        win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
        services.standings_refresh(session_id=room.pk)
    after = api.get(_url(club)).json()
    assert [p["hundreds"] for p in after["players"]] == [9, 9, -9, -9]
    assert after["stale"] is False


def test_a_write_shows_the_board_stale_until_its_refresh(
    api: Any,
    club: Any,
    room: Any,
    director: Any,
    cached: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
        services.standings_refresh(session_id=room.pk)
    assert api.get(_url(club)).json()["stale"] is False
    monkeypatch.setattr(services, "_publish_refresh", lambda session_id: True)
    with django_capture_on_commit_callbacks(execute=True):
        down_one(room.rubbers.get(table__number=2), 1, by=director)
    assert api.get(_url(club)).json()["stale"] is True


def test_a_cached_board_is_the_json_drf_renders(
    api: Any, club: Any, room: Any, director: Any, cached: Any, settings: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    first = api.get(_url(club))
    again = api.get(_url(club))  # the bytes kept by the first
    settings.LEADERBOARD_CACHE_SECONDS = 0
    fresh = api.get(_url(club))
    assert again.content == first.content == fresh.content
    assert again["Content-Type"] == fresh["Content-Type"] == "application/json"
    assert again["Vary"] == fresh["Vary"]


def test_each_period_and_the_browsable_api_have_their_own_answer(
    api: Any, club: Any, room: Any, director: Any, cached: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    assert api.get(_url(club)).json()["players"]
    assert api.get(_url(club) + "?to=2000-01-01").json()["players"] == []
    assert api.get(_url(club) + "?from=2001-01-01&to=2000-01-01").status_code == 400
    page = api.get(_url(club), HTTP_ACCEPT="text/html")
    assert page["Content-Type"].startswith("text/html")
