"""Two-player standings: wins, losses, ties, points and back score, all from the engine."""

from __future__ import annotations

import pytest

from scoring.standings import services
from tests.two_player.conftest import engine, play
from tests.two_player.test_api import BRIDGE_FOR_TWO, first_match

pytestmark = pytest.mark.django_db


def by_name(rows: list[dict]) -> dict[str, dict]:
    return {row["name"]: row for row in rows}


def test_turnover_standings_count_wins_losses_and_ties(api, two_player_session, north, south):
    session = two_player_session("turnover")
    table_1, table_2 = (session.rubbers.get(table__number=n) for n in (1, 2))
    play(api, table_1, [{"tricks": [3, 14]}], as_user=north)
    play(api, table_2, [{"tricks": [13, 13]}], as_user=south)
    services.standings_refresh(session_id=session.pk)
    rows = by_name(api.get(f"/api/v1/sessions/{session.pk}/standings").json()["players"])
    assert (rows["East"]["won"], rows["East"]["lost"], rows["East"]["tied"]) == (1, 0, 0)
    assert (rows["North"]["won"], rows["North"]["lost"], rows["North"]["tied"]) == (0, 1, 0)
    assert (rows["South"]["won"], rows["South"]["lost"], rows["South"]["tied"]) == (0, 0, 1)
    assert rows["East"]["points"] == 14 and rows["North"]["points"] == 3  # tricks won
    assert all(row["hundreds"] == 0 for row in rows.values())  # Turnover has no back score

    board = by_name(api.get("/api/v1/clubs/riverside/leaderboard").json()["players"])
    assert (board["West"]["won"], board["West"]["lost"], board["West"]["tied"]) == (0, 0, 1)
    assert (board["North"]["lost"], board["East"]["won"]) == (1, 1)


def test_bridge_for_two_standings_carry_the_engines_back_score(api, two_player_session, north):
    session = two_player_session("bridge_for_two")
    play(api, first_match(session), BRIDGE_FOR_TWO, as_user=north)
    services.standings_refresh(session_id=session.pk)
    sheet = engine("bridge-for-two", {"deals": BRIDGE_FOR_TWO, "preset": "acbl"})
    rows = by_name(api.get(f"/api/v1/sessions/{session.pk}/standings").json()["players"])
    assert rows["North"]["hundreds"] == sheet["back_score_hundreds"][0]
    assert rows["East"]["hundreds"] == sheet["back_score_hundreds"][1]
    assert rows["North"]["points"] == sheet["players"][0]["total"]
    assert (rows["North"]["won"], rows["East"]["lost"]) == (1, 1)
    board = by_name(api.get("/api/v1/clubs/riverside/leaderboard").json()["players"])
    assert board["North"]["hundreds"] == sheet["back_score_hundreds"][0]
