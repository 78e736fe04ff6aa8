"""Query-count guards: list and detail endpoints and pages read a number of queries that does
not grow with the data (no N+1). Those guarded elsewhere: the session list and detail API
(tests/games/test_session_api.py), the session page (tests/clubs/test_pages.py), the rubber API
and scoresheet page (tests/games/test_queries.py), the standings API and live standings
(tests/scoring/standings/). Benchmarks, not tests, measure time (bench/, docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.sessions.lifecycle import session_close
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db


def _queries(get: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = get()
    assert response.status_code == 200, response
    return len(ctx.captured_queries)


def _play_night(club: Any, tag: str, entered_by: Any = None) -> Any:
    """A session of two tables of new players; a rubber won at table 1, one down at table 2.
    The deals' entrant is shown by name, which costs one query however many there are."""
    tables = [[add_player(club, f"{tag} T{t} P{i}") for i in range(4)] for t in (1, 2)]
    session = make_session(club, tables)
    first, second = session.rubbers.order_by("table__number")
    for number in (1, 2):
        first.record_deal(
            number=number,
            contract="4S",
            declarer="N",
            tricks=10,
            actor=acting(first, entered_by),
        )
    second.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(second, entered_by)
    )
    return session


@pytest.fixture
def federation(club: Any, director: Any) -> dict[str, Any]:
    """One played night (still running) to start from; ``grow`` adds three closed ones (more
    players, sessions, rubbers, deals, results, standings and payments) and a correction."""
    first = _play_night(club, "A", entered_by=director)
    deal = first.rubbers.order_by("table__number").first().deals.first()

    def grow() -> None:
        # Past nights, closed: the director's console lists only the planned and running ones
        # (guarded on its own below).
        for tag in ("B", "C", "D"):
            session_close(session=_play_night(club, tag))
        deal.refresh_from_db()
        deal.correct(version=deal.version, tricks=11, actor=acting(deal, director))

    return {"session": first, "deal": deal, "player": deal.rubber.north, "grow": grow}


API = {
    "club detail": lambda f, slug: f"/api/v1/clubs/{slug}/",
    "club leaderboard": lambda f, slug: f"/api/v1/clubs/{slug}/leaderboard",
    "club ratings": lambda f, slug: f"/api/v1/clubs/{slug}/ratings",
    "deal detail": lambda f, slug: f"/api/v1/deals/{f['deal'].pk}/",
    "deal history": lambda f, slug: f"/api/v1/deals/{f['deal'].pk}/history",
    "table rotation": lambda f, slug: f"/api/v1/sessions/{f['session'].pk}/tables/1/rotation",
}
PAGES = {
    "home": lambda f, slug: "/",
    "club home": lambda f, slug: f"/clubs/{slug}/",
    "players": lambda f, slug: f"/clubs/{slug}/players/",
    "console": lambda f, slug: f"/clubs/{slug}/console/",
    "session standings": lambda f, slug: f"/sessions/{f['session'].pk}/standings/",
    "settlement": lambda f, slug: f"/sessions/{f['session'].pk}/settlement/",
    "leaderboard": lambda f, slug: f"/clubs/{slug}/leaderboard/",
    "player history": lambda f, slug: f"/players/{f['player'].pk}/history/",
    "player page": lambda f, slug: f"/players/{f['player'].pk}/",
    "ratings": lambda f, slug: f"/clubs/{slug}/ratings/",
}


@pytest.mark.parametrize("name", sorted(API))
def test_api_reads_do_not_grow_with_the_data(
    name: str, api: Any, club: Any, federation: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    url = API[name](federation, club.slug)
    before = _queries(lambda: api.get(url))
    federation["grow"]()
    with django_assert_max_num_queries(before):
        assert api.get(url).status_code == 200


@pytest.mark.parametrize("name", sorted(PAGES))
def test_pages_do_not_grow_with_the_data(
    name: str,
    client: Any,
    club: Any,
    director: Any,
    federation: dict[str, Any],
    django_assert_max_num_queries: Any,
) -> None:
    client.force_login(director)
    url = PAGES[name](federation, club.slug)
    before = _queries(lambda: client.get(url))
    federation["grow"]()
    with django_assert_max_num_queries(before):
        assert client.get(url).status_code == 200


def test_console_does_not_grow_with_active_sessions(
    client: Any, club: Any, director: Any, django_assert_max_num_queries: Any
) -> None:
    """The director's console reads all planned and running sessions with shared queries: more
    sessions, tables, rubbers played and a two-player night (RULES 7) cost no more queries."""
    client.force_login(director)
    url = f"/clubs/{club.slug}/console/"
    _play_night(club, "A")
    before = _queries(lambda: client.get(url))
    _play_night(club, "B")
    _play_night(club, "C")
    make_session(club, [[add_player(club, f"P{i}") for i in range(5)]], start=False)
    pairs = [[add_player(club, f"T{t}a"), add_player(club, f"T{t}b")] for t in range(3)]
    make_session(club, pairs, kind="misery")
    with django_assert_max_num_queries(before):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.count(b'class="session-block"') == 5


def test_the_room_does_not_grow_with_tables_and_deals(
    client: Any, club: Any, director: Any, django_assert_max_num_queries: Any
) -> None:
    """The room at a glance reads every running session's tables, seats, rubbers and deals
    with shared queries: more sessions, tables, deals and a two-player night cost no more."""
    client.force_login(director)
    url = f"/clubs/{club.slug}/room/live/"
    _play_night(club, "A")
    before = _queries(lambda: client.get(url))
    _play_night(club, "B")
    _play_night(club, "C")
    pairs = [[add_player(club, f"T{t}a"), add_player(club, f"T{t}b")] for t in range(3)]
    make_session(club, pairs, kind="misery")
    with django_assert_max_num_queries(before):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.count(b'class="card tile') == 9


#: What every signed-in request reads before its view: its session, its user, its language.
_BEFORE_THE_VIEW = ('SELECT "django_session"', 'SELECT "auth_user"')


def test_the_console_poll_answers_304_in_one_query(client: Any, club: Any, director: Any) -> None:
    """Who reads the console and whether it changed are one query (`console_state`): a 304
    reads nothing else, however many sessions and tables there are."""
    client.force_login(director)
    _play_night(club, "A")
    _play_night(club, "B")
    url = f"/clubs/{club.slug}/console/live/"
    etag = client.get(url)["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    view = [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(_BEFORE_THE_VIEW) and '"language"' not in q["sql"]
    ]
    assert len(view) == 1, view
    assert view[0].startswith("WITH c AS")


def test_the_console_after_a_deal_at_one_table_does_not_grow_with_the_room(
    client: Any, club: Any, director: Any, django_assert_max_num_queries: Any
) -> None:
    """After a deal, the console reads the facts of every card in one query and only the
    changed table with the ORM (games.club.cards): more sessions and tables cost no more."""
    client.force_login(director)
    url = f"/clubs/{club.slug}/console/live/"

    def deal_at_one_table(session: Any, number: int) -> None:
        client.get(url)  # every card kept
        rubber = session.rubbers.in_play().get(table__number=2)
        rubber.record_deal(
            number=number, contract="2H", declarer="S", tricks=8, actor=acting(rubber)
        )

    first = _play_night(club, "A")
    deal_at_one_table(first, 2)
    before = _queries(lambda: client.get(url))
    _play_night(club, "B")
    _play_night(club, "C")
    make_session(club, [[add_player(club, f"P{i}") for i in range(5)]], start=False)
    deal_at_one_table(first, 3)
    with django_assert_max_num_queries(before):
        response = client.get(url)
    assert response.status_code == 200
    assert b"Deal 3: 2" in response.content
