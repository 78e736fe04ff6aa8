"""Each game keeps its own ladder (issue 18): rubber bridge (with Chicago) is one, each two-player
game of RULES 7 another, in the leaderboard's API (`?kind=`), its CSV and its page. A hundred of
Bridge for Two (RULES 7.1) is not a hundred of rubber bridge (RULES 4.1)."""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

import pytest
from django.core.cache import cache

from games.sessions import lifecycle
from scoring.standings import services
from tests.factories import make_session
from tests.games.two_player.conftest import engine, play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO
from tests.scoring.standings.conftest import win_rubber

pytestmark = pytest.mark.django_db

BOARD = "/api/v1/clubs/riverside/leaderboard"


@pytest.fixture
def two_games(api: Any, club: Any, table_of_four: dict[str, Any], director: Any) -> Any:
    """The same four players: a rubber of rubber bridge won by N–S (4♠ made twice, 940: 9
    hundreds each, RULES 4.1) on 1 December, then Bridge for Two on 2 December, North beating
    East at table 1 (RULES 7.1)."""
    p = table_of_four
    rubber_night = make_session(club, [list(p.values())], date=datetime.date(2026, 12, 1))
    win_rubber(rubber_night.rubbers.get(table__number=1), "NS", by=director)
    lifecycle.session_close(session=rubber_night)
    services.standings_refresh(session_id=rubber_night.pk)
    two_night = make_session(
        club,
        [[p["north"], p["east"]], [p["south"], p["west"]]],
        kind="bridge_for_two",
        date=datetime.date(2026, 12, 2),
    )
    play(api, two_night.rubbers.get(table__number=1, number=1), BRIDGE_FOR_TWO, as_user=director)
    services.standings_refresh(session_id=two_night.pk)
    api.force_authenticate(None)
    return rubber_night, two_night


def by_name(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in body["players"]}


def two_player_hundreds() -> list[int]:
    """North's and East's back score of the Bridge for Two rubber, as the engine gives it."""
    sheet = engine("bridge-for-two", {"deals": BRIDGE_FOR_TWO, "preset": "acbl"})
    hundreds: list[int] = sheet["back_score_hundreds"]
    assert hundreds[0] > 0 and hundreds[0] != 9  # a figure that tells the ladders apart
    return hundreds


def test_the_default_ladder_is_rubber_bridge_only(api, two_games):
    body = api.get(BOARD).json()
    assert body["kind"] == "bridge"
    rows = by_name(body)
    assert {name: row["hundreds"] for name, row in rows.items()} == {
        "North": 9,
        "South": 9,
        "East": -9,
        "West": -9,
    }
    assert all(row["sessions"] == 1 and row["rubbers"] == 1 for row in rows.values())
    assert api.get(f"{BOARD}?kind=bridge").json() == body
    assert api.get(f"{BOARD}?kind=").json() == body  # an empty field is the default, as dates


def test_a_two_player_game_has_a_ladder_of_its_own(api, two_games):
    north, east = two_player_hundreds()
    body = api.get(f"{BOARD}?kind=bridge_for_two").json()
    assert body["kind"] == "bridge_for_two"
    rows = by_name(body)
    # Only the match that ended counts: South and West never finished theirs.
    assert set(rows) == {"North", "East"}
    assert (rows["North"]["hundreds"], rows["East"]["hundreds"]) == (north, east)
    assert (rows["North"]["won"], rows["East"]["lost"]) == (1, 1)
    assert (rows["North"]["rank"], rows["East"]["rank"]) == (1, 2)


def test_a_ladder_no_session_played_is_empty(api, two_games):
    body = api.get(f"{BOARD}?kind=turnover").json()
    assert body["kind"] == "turnover" and body["players"] == []


@pytest.mark.parametrize("kind", ["chess", "rubber", "BRIDGE", "bridge_for_two,misery"])
def test_an_unknown_ladder_is_400_with_a_field_error(api, two_games, kind):
    response = api.get(f"{BOARD}?kind={kind}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["kind"]


def test_the_csv_of_a_ladder_has_the_json_rows(api, two_games):
    body = api.get(f"{BOARD}?kind=bridge_for_two&from=2026-12-01").json()
    response = api.get(f"{BOARD}?kind=bridge_for_two&from=2026-12-01&format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(r["name"], int(r["hundreds"])) for r in rows] == [
        (p["name"], p["hundreds"]) for p in body["players"]
    ]
    default = list(csv.DictReader(io.StringIO(api.get(f"{BOARD}?format=csv").content.decode())))
    assert sorted(int(r["hundreds"]) for r in default) == [-9, -9, 9, 9]


def test_a_ladder_reads_in_as_few_queries_as_the_default(api, two_games, django_assert_num_queries):
    # The club, the freshness, the rows: whatever the ladder and the number of players.
    for query in ("", "?kind=bridge_for_two", "?kind=misery&from=2026-01-01"):
        with django_assert_num_queries(3):
            assert api.get(f"{BOARD}{query}").status_code == 200


def test_the_cache_keeps_each_ladder_apart(api, two_games, settings):
    settings.LEADERBOARD_CACHE_SECONDS = 60
    cache.clear()
    try:
        rubber = api.get(BOARD).json()
        two = api.get(f"{BOARD}?kind=bridge_for_two").json()
        assert api.get(BOARD).json() == rubber
        assert api.get(f"{BOARD}?kind=bridge_for_two").json() == two != rubber
    finally:
        cache.clear()


def test_the_schema_documents_the_kind_parameter(api):
    board = api.get("/api/schema/?format=json").json()["paths"]["/api/v1/clubs/{slug}/leaderboard"][
        "get"
    ]
    kind = next(p for p in board["parameters"] if p["name"] == "kind")
    assert set(kind["schema"]["enum"]) == {
        "bridge",
        "bridge_for_two",
        "misery",
        "turnover",
        "draw_discard",
    }


# --- the page -------------------------------------------------------------------------------


def test_the_page_shows_rubber_bridge_first_with_a_tab_per_game_played(client, two_games):
    page = client.get("/clubs/riverside/leaderboard/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'aria-current="page" data-kind="bridge"' in html
    assert 'href="?kind=bridge_for_two"' in html
    assert "?kind=turnover" not in html  # no Turnover night in this club
    assert page.context["board"]["kind"] == "bridge"
    assert [p["hundreds"] for p in page.context["board"]["players"]] == [9, 9, -9, -9]
    assert 'leaderboard?format=csv" download' in html  # the default ladder's CSV


def test_the_page_of_a_two_player_ladder(client, two_games):
    north, east = two_player_hundreds()
    page = client.get("/clubs/riverside/leaderboard/?kind=bridge_for_two")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'aria-current="page" data-kind="bridge_for_two"' in html
    assert "Matches" in html and "Hundreds" in html
    assert [(p["name"], p["hundreds"]) for p in page.context["board"]["players"]] == [
        ("North", north),
        ("East", east),
    ]
    assert 'leaderboard?format=csv&amp;kind=bridge_for_two" download' in html
    # The season links stay on this ladder.
    assert "?from=2026-01-01&amp;to=2026-12-31&amp;kind=bridge_for_two" in html


def test_a_game_without_a_back_score_shows_the_margin(
    api, client, club, table_of_four, director, two_games
):
    lifecycle.session_close(session=two_games[1])
    p = table_of_four
    night = make_session(
        club,
        [[p["north"], p["east"]], [p["south"], p["west"]]],
        kind="turnover",
        date=datetime.date(2026, 12, 3),
    )
    play(api, night.rubbers.get(table__number=1), [{"tricks": [9, 14]}], as_user=director)
    services.standings_refresh(session_id=night.pk)
    page = client.get("/clubs/riverside/leaderboard/?kind=turnover")
    html = page.content.decode()
    assert "Margin" in html and "Hundreds" not in html  # RULES 7.3: no back score
    rows = [(p["name"], p["net"], p["won"]) for p in page.context["board"]["players"]]
    assert rows == [("East", 5, 1), ("North", -5, 0)]


def test_an_unknown_ladder_on_the_page_is_a_form_error(client, two_games):
    page = client.get("/clubs/riverside/leaderboard/?kind=chess")
    assert page.status_code == 400
    assert page.context["form"].errors["kind"]
    assert page.context["board"] is None


def test_the_page_reads_in_a_constant_number_of_queries(
    client, two_games, club, table_of_four, django_assert_max_num_queries
):
    from tests.factories import add_player

    with django_assert_max_num_queries(12) as few:
        client.get("/clubs/riverside/leaderboard/?kind=bridge")
    before = len(few.captured_queries)
    more = [add_player(club, f"Extra {n}") for n in range(4)]
    night = make_session(club, [more], date=datetime.date(2026, 12, 3))
    win_rubber(night.rubbers.get(table__number=1), "EW")
    services.standings_refresh(session_id=night.pk)
    with django_assert_max_num_queries(before):
        page = client.get("/clubs/riverside/leaderboard/?kind=bridge")
    assert len(page.context["board"]["players"]) == 8
