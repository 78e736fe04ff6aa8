"""RULES 6.3 in the standings: shared places ("=2"), never ordered by name; a player who played no
deal listed apart, unranked; one who left early ranked by what they played and marked so. The
API, its CSV and the page show the same."""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

import pytest
from django.utils import translation

from games.sessions.table_changes import table_substitute
from scoring.standings import services
from tests.scoring.standings.conftest import win_rubber

pytestmark = pytest.mark.django_db


def refresh(session: Any) -> None:
    services.standings_refresh(session_id=session.pk)


@pytest.fixture
def one_rubber(room: Any, director: Any) -> Any:
    """Table 1's NS win a rubber (+9 each, EW -9 each); table 2 has played no deal."""
    rubber = room.rubbers.get(table__number=1)
    win_rubber(rubber, "NS", by=director)
    refresh(room)
    return rubber


def body(api: Any, session: Any) -> dict[str, Any]:
    response = api.get(f"/api/v1/sessions/{session.pk}/standings")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def test_rules_6_3_equal_players_share_the_place_and_the_next_is_skipped(api, room, one_rubber):
    seats = one_rubber.seat_ids
    players = body(api, room)["players"]
    ranked = [(p["player"], p["rank"], p["place"], p["place_shared"]) for p in players[:4]]
    north, south = sorted((seats["N"], seats["S"]))
    east, west = sorted((seats["E"], seats["W"]))
    # Partners are equal: "=1", "=1", then "=3", "=3" (no place 2); listed by id among equals.
    assert ranked == [
        (north, 1, "=1", True),
        (south, 1, "=1", True),
        (east, 3, "=3", True),
        (west, 3, "=3", True),
    ]


def test_rules_6_3_equal_players_are_never_ordered_by_name(api, room, one_rubber):
    seats = one_rubber.seat_ids
    before = [p["player"] for p in body(api, room)["players"]]
    north, south = one_rubber.seats["N"], one_rubber.seats["S"]
    # Give each partner the name that sorts on the other side of theirs.
    first, second = sorted([north, south], key=lambda p: p.pk)
    first.name, second.name = "Zuleika", "Aaron"
    first.save(update_fields=["name"])
    second.save(update_fields=["name"])
    refresh(room)
    after = body(api, room)["players"]
    assert [p["player"] for p in after] == before
    assert [p["name"] for p in after[:2]] == ["Zuleika", "Aaron"]
    assert {after[0]["player"], after[1]["player"]} == {seats["N"], seats["S"]}


def test_rules_6_3_a_player_who_played_no_deal_is_listed_apart_unranked(
    api, client, room, one_rubber
):
    players = body(api, room)["players"]
    table2 = [p for p in players if p["table"] == 2]
    assert len(table2) == 4 and players[-4:] == table2  # listed after every ranked player
    assert all(p["rank"] is None and p["place"] is None for p in table2)
    assert all(p["table_rank"] is None for p in table2)
    csv_rows = list(
        csv.DictReader(io.StringIO(api.get(f"/api/v1/sessions/{room.pk}/standings?format=csv")
                                   .content.decode("utf-8-sig")))
    )  # fmt: skip
    assert [r["rank"] for r in csv_rows[-4:]] == [""] * 4
    page = html.unescape(client.get(f"/sessions/{room.pk}/standings/").content.decode())
    room_table = page.split('class="data standings-room"')[1].split("</table>")[0]
    apart = page.split('class="unranked"')[1].split("</ul>")[0]
    for p in table2:
        assert p["name"] not in room_table and p["name"] in apart
    assert "Played no deal" in page and "Listed apart, unranked (RULES 6.3)." in page
    assert re.search(r'<td class="num place">=1</td>', room_table)
    assert re.search(r'<td class="num place">=3</td>', room_table)


def test_rules_6_3_a_player_who_left_early_is_ranked_by_what_they_played_and_marked(
    api, client, room, one_rubber, director
):
    north = one_rubber.seats["N"]
    table_substitute(table=one_rubber.table, leaver=north, new_name="Sub Stitute", by=director)
    # Read with the row: marked at once, before any refresh.
    before = {p["name"]: p for p in body(api, room)["players"]}
    assert before[north.name]["left_early"] is True and before[north.name]["rank"] == 1
    refresh(room)
    players = {p["name"]: p for p in body(api, room)["players"]}
    assert players[north.name]["left_early"] is True
    assert players[north.name]["rank"] == 1 and players[north.name]["hundreds"] == 9
    assert players["Sub Stitute"]["rank"] is None  # has not played a deal yet
    assert not any(p["left_early"] for name, p in players.items() if name != north.name)
    page = html.unescape(client.get(f"/sessions/{room.pk}/standings/").content.decode())
    row = page.split(f">{north.name}</a>")[1].split("</td>")[0]
    assert 'class="badge left-early"' in row and "left early" in row


def test_rules_6_3_a_tie_at_the_top_of_a_table_shares_its_prize_on_the_page(
    api, client, room, one_rubber
):
    data = body(api, room)
    (table1,) = [t for t in data["tables"] if t["number"] == 1]
    seats = one_rubber.seat_ids
    assert table1["winner"] is None and set(table1["winners"]) == {seats["N"], seats["S"]}
    assert [(p["place"], p["shared"], p["table"]) for p in data["prizes"]] == [("=1", True, 1)] * 2
    page = html.unescape(client.get(f"/sessions/{room.pk}/standings/").content.decode())
    assert page.count("table winner, shared") == 2
    assert "A cut at the table decides who of them chooses first; the director records it" in page


def test_rules_6_3_the_italian_page_shows_the_same_places_and_marks(client, room, one_rubber):
    client.cookies["django_language"] = "it"
    page = html.unescape(client.get(f"/sessions/{room.pk}/standings/").content.decode())
    with translation.override("it"):
        apart = translation.gettext("Played no deal")
        shared = translation.gettext("table winner, shared")
    assert apart != "Played no deal" and apart in page
    assert page.count(shared) == 2
    assert '<td class="num place">=1</td>' in page and '<td class="num place">=3</td>' in page
