"""The club leaderboard's response cache: served without the standings queries, under a version
every write changes with the rows it writes (scoring/shared/cache.py). On with Redis; here forced
on with the local cache."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from games.sessions import lifecycle
from scoring.shared.cache import leaderboard_cache_seconds
from scoring.standings import queries, queueing, services
from scoring.standings.models import LeaderboardRevision, SessionStandingsState
from scoring.standings.tasks import refresh_session_standings
from tests.factories import acting, add_player, make_session
from tests.scoring.standings.conftest import down_one, win_rubber

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
    # Queued to a broker nobody consumes yet: the refresh does not run.
    monkeypatch.setattr(refresh_session_standings, "apply_async", lambda args, **kw: None)
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


# --- every write verb gives the board a new version (docs/architecture.md, "The read boundary")
#
# The board is cached under a version read with the club
# (scoring.standings.queries.leaderboard_version), which the writes change with the rows they
# write: nothing is invalidated after commit, so these tests run no on-commit callback at all.


def _changes_the_cached_board(
    api: Any, club: Any, settings: Any, write: Callable[[], Any]
) -> dict[str, Any]:
    """Cache the board, `write()`, and check the board served next is the new one (equal to one
    made with no cache, unlike the cached one); return it."""
    before = api.get(_url(club)).json()
    assert api.get(_url(club)).json() == before  # served from the cache
    version = queries.leaderboard_version(club.slug)
    write()
    after = api.get(_url(club)).json()
    assert queries.leaderboard_version(club.slug) != version
    settings.LEADERBOARD_CACHE_SECONDS = 0
    assert after == api.get(_url(club)).json()
    settings.LEADERBOARD_CACHE_SECONDS = 60
    assert after != before
    return after


@pytest.fixture
def counted(club: Any, room: Any, director: Any, cached: Any) -> Any:
    """The room with a rubber won and counted, the cache on: the board is fresh."""
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    return room


def test_an_entry_changes_the_cached_board(
    api: Any, club: Any, counted: Any, director: Any, cached: Any, settings: Any
) -> None:
    rubber = counted.rubbers.get(table__number=2)
    after = _changes_the_cached_board(api, club, settings, lambda: down_one(rubber, 1, by=director))
    assert after["stale"] is True


def test_a_refresh_changes_the_cached_board(
    api: Any, club: Any, room: Any, director: Any, cached: Any, settings: Any
) -> None:
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    after = _changes_the_cached_board(
        api, club, settings, lambda: services.standings_refresh(session_id=room.pk)
    )
    assert [p["hundreds"] for p in after["players"]] == [9, 9, -9, -9]


def test_a_correction_changes_the_cached_board(
    api: Any, club: Any, counted: Any, director: Any, cached: Any, settings: Any
) -> None:
    deal = counted.rubbers.get(table__number=1, number=1).deals.get(number=1)

    def correct() -> None:
        deal.correct(version=deal.version, tricks=11, actor=acting(deal, director))
        services.standings_refresh(session_id=counted.pk)

    after = _changes_the_cached_board(api, club, settings, correct)
    assert [p["hundreds"] for p in after["players"]] != [9, 9, -9, -9]


def test_closing_an_unfinished_rubber_changes_the_cached_board(
    api: Any, club: Any, counted: Any, director: Any, cached: Any, settings: Any
) -> None:
    rubber = counted.rubbers.get(table__number=2)
    down_one(rubber, 1, by=director)
    services.standings_refresh(session_id=counted.pk)
    after = _changes_the_cached_board(api, club, settings, rubber.close_unfinished)
    assert after["stale"] is True


def test_starting_and_closing_a_session_change_the_cached_board(
    api: Any, club: Any, counted: Any, cached: Any, settings: Any
) -> None:
    others = [add_player(club, name) for name in ("Erin", "Finn", "Gail", "Hugo")]
    planned = make_session(club, [others], start=False)
    started = _changes_the_cached_board(
        api, club, settings, lambda: lifecycle.session_start(session=planned)
    )
    assert started["stale"] is True
    services.standings_refresh(session_id=planned.pk)
    closed = _changes_the_cached_board(
        api, club, settings, lambda: lifecycle.session_close(session=counted)
    )
    assert closed["stale"] is True


def test_the_admins_queued_refresh_changes_the_cached_board(
    api: Any, club: Any, counted: Any, cached: Any, settings: Any
) -> None:
    """The admin action "Queue a refresh" (scoring/admin.py) calls queue_session_refresh."""
    after = _changes_the_cached_board(
        api, club, settings, lambda: queueing.queue_session_refresh(counted.pk)
    )
    assert after["stale"] is True


def test_a_database_made_again_is_not_answered_from_the_old_ones_cache(
    api: Any, club: Any, room: Any, director: Any, cached: Any
) -> None:
    """The cache outlives the database: another incarnation (a test run, a restore) hands out the
    same ids and change counts again, but not at the same times (scoring/shared/cache.py)."""
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    before = api.get(_url(club)).json()
    revision = LeaderboardRevision.objects.get(club=club).revision
    # The other incarnation: the same count of changes, its rows computed at another time.
    SessionStandingsState.objects.filter(session_id=room.pk).update(
        computed_at=F("computed_at") + timedelta(seconds=1)
    )
    LeaderboardRevision.objects.filter(club=club).update(
        revised_at=F("revised_at") + timedelta(seconds=1)
    )
    assert LeaderboardRevision.objects.get(club=club).revision == revision
    after = api.get(_url(club)).json()
    assert after["computed_at"] != before["computed_at"]
    # A club made again with the same id and no change yet: its creation time tells.
    LeaderboardRevision.objects.filter(club=club).delete()
    SessionStandingsState.objects.filter(session_id=room.pk).update(
        computed_at=F("computed_at") + timedelta(seconds=1)
    )
    first = api.get(_url(club)).json()
    club.created_at += timedelta(seconds=1)
    club.save()
    SessionStandingsState.objects.filter(session_id=room.pk).update(
        computed_at=F("computed_at") + timedelta(seconds=1)
    )
    again = api.get(_url(club)).json()
    assert again["computed_at"] != first["computed_at"] != after["computed_at"]


def test_a_write_is_counted_in_its_own_transaction(
    api: Any, club: Any, counted: Any, director: Any, cached: Any
) -> None:
    """No invalidation after commit to lose: the transaction that marks the board stale revises it
    (no on-commit callback runs here), and a rolled-back write revises nothing."""
    revision = LeaderboardRevision.objects.get(club=club).revision
    with pytest.raises(RuntimeError), transaction.atomic():
        down_one(counted.rubbers.get(table__number=2), 1, by=director)
        raise RuntimeError
    assert LeaderboardRevision.objects.get(club=club).revision == revision
    down_one(counted.rubbers.get(table__number=2), 1, by=director)
    assert LeaderboardRevision.objects.get(club=club).revision == revision + 1
