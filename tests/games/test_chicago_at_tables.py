"""Chicago at tables (RULES 5): chukkers of four counted deals, scored by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.standings import services
from tests.factories import make_session
from tests.two_player.conftest import engine

pytestmark = pytest.mark.django_db

SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
# A pass (redealt, not counted), then four counted deals: a part score, a game, a vulnerable
# game and a part score on deal 4 (100 bonus).
CHUKKER: list[dict[str, Any]] = [
    {"contract": "pass"},
    {"contract": "1NT", "declarer": "N", "tricks": 8},
    {"contract": "4S", "declarer": "E", "tricks": 10, "honours": {"side": "EW", "points": 100}},
    {"contract": "3NT", "declarer": "S", "tricks": 9},
    {"contract": "2H", "declarer": "W", "tricks": 8},
]


def as_engine_input(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**d, "declarer": SIDE[d["declarer"]]} if "declarer" in d else d for d in deals]


@pytest.fixture
def chicago(club: Any, table_of_four: dict[str, Any]) -> Any:
    return make_session(club, [list(table_of_four.values())], kind="chicago")


def enter(api: Any, chukker: Any, deals: list[dict[str, Any]], *, start: int = 1) -> Any:
    api.force_authenticate(chukker.north.user)
    response = None
    for number, deal in enumerate(deals, start=start):
        response = api.post(
            f"/api/v1/rubbers/{chukker.pk}/deals/", {"number": number, **deal}, format="json"
        )
        assert response.status_code == 201, response.json()
    return response


def test_a_chicago_at_a_table_is_scored_by_the_engine_and_ends_after_four_counted_deals(
    api, chicago
):
    chukker = chicago.rubbers.get(number=1)
    assert chukker.kind == "chicago"
    response = enter(api, chukker, CHUKKER[:4])
    data = response.json()
    assert data["rubber"]["status"] == "in_play" and data["next_rubber"] is None
    sheet = data["rubber"]["scoresheet"]
    assert sheet["next"] == {"dealer": "EW", "vulnerable": {"NS": True, "EW": True}}
    data = enter(api, chukker, CHUKKER[4:], start=5).json()
    expected = engine("chicago", {"deals": as_engine_input(CHUKKER), "preset": "acbl"})
    assert data["rubber"]["scoresheet"] == expected
    assert expected["complete"] and expected["deals_counted"] == 4
    assert data["rubber"]["status"] == "complete"
    nxt = chicago.rubbers.get(pk=data["next_rubber"])
    assert nxt.kind == "chicago" and nxt.number == 2 and nxt.status == "in_play"
    assert nxt.seat_ids != chukker.seat_ids  # the pivot moved the other three (RULES 6.1)


def test_a_deal_after_the_fourth_counted_deal_is_a_conflict(api, chicago):
    chukker = chicago.rubbers.get(number=1)
    enter(api, chukker, CHUKKER)
    extra = {"number": 6, "contract": "1C", "declarer": "N", "tricks": 7}
    response = api.post(f"/api/v1/rubbers/{chukker.pk}/deals/", extra, format="json")
    assert response.status_code == 409


def test_chicago_standings_use_the_engines_back_score(api, chicago):
    chukker = chicago.rubbers.get(number=1)
    enter(api, chukker, CHUKKER)
    services.standings_refresh(session_id=chicago.pk)
    expected = engine("chicago", {"deals": as_engine_input(CHUKKER), "preset": "acbl"})
    rows = {
        row["player"]: row
        for row in api.get(f"/api/v1/sessions/{chicago.pk}/standings").json()["players"]
    }
    for seat, player_id in chukker.seat_ids.items():
        assert rows[player_id]["hundreds"] == expected["back_score_hundreds"][SIDE[seat]]
        assert rows[player_id]["points"] == expected[SIDE[seat]]["total"]


def test_the_pad_shows_the_next_dealer_and_vulnerability(client, api, chicago):
    chukker = chicago.rubbers.get(number=1)
    enter(api, chukker, CHUKKER[:2])
    client.force_login(chukker.north.user)
    page = client.get(f"/rubbers/{chukker.pk}/").content.decode()
    # One counted deal so far (the pass was redealt): deal 2 is East's, EW vulnerable (RULES 5).
    assert 'id="next-deal" data-dealer="E"' in page
    assert f"({chukker.east.name})" in page and "EW vulnerable" in page
