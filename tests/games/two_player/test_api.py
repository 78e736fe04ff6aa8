"""Each two-player game played through the API, its figures the engine's (RULES 7.1–7.4)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import unchanged
from tests.games.two_player.conftest import engine, named, play, post_deal

pytestmark = pytest.mark.django_db

# RULES 7.1: a part score to player 1, then two games to player 0 (one of them the opponent's
# odd tricks against a doubled declaration), with honours to player 1.
BRIDGE_FOR_TWO = [
    {"declarer": 1, "strain": "C", "tricks": 8},
    {"declarer": 0, "strain": "S", "tricks": 10, "honours": {"player": 1, "points": 100}},
    {"declarer": 1, "strain": "H", "tricks": 5, "doubled": 1},
]
# RULES 7.2: eight tricks made, a misery made, an ordinary part score, an ordinary game.
MISERY = [
    {"declarer": 0, "declaration": "eight", "strain": "NT", "tricks": 9},
    {"declarer": 1, "declaration": "misery", "tricks": 1},
    {"declarer": 1, "declaration": "ordinary", "strain": "D", "tricks": 6},
    {"declarer": 0, "declaration": "ordinary", "strain": "H", "tricks": 10},
]
TURNOVER = [{"tricks": [14, 9]}]
# RULES 7.4: to 500; a pass and a failed contract score nothing; player 1 reaches 500 exactly.
DRAW_DISCARD = [
    {"declarer": 1, "contract": "4S", "tricks": 10},
    {"contract": "pass"},
    {"declarer": 0, "contract": "3NTX", "tricks": 8},
    {"declarer": 1, "contract": "5HX", "tricks": 12},
    {"declarer": 1, "contract": "1C", "tricks": 7},
]


def first_match(session: Any) -> Any:
    return session.rubbers.get(table__number=1, number=1)


def test_bridge_for_two_through_the_api_equals_the_engine(api, two_player_session, north):
    session = two_player_session("bridge_for_two")
    match = first_match(session)
    data = play(api, match, BRIDGE_FOR_TWO, as_user=north)
    rubber = data["rubber"]
    assert rubber["kind"] == "bridge_for_two"
    assert [p["name"] for p in rubber["match_players"]] == ["North", "East"]
    expected = engine("bridge-for-two", {"deals": BRIDGE_FOR_TWO, "preset": "acbl"})
    assert rubber["scoresheet"] == named(expected)
    assert expected["winner"] == 0 and expected["rubber_complete"]
    assert rubber["status"] == "complete"


def test_misery_through_the_api_equals_the_engine(api, two_player_session, east):
    session = two_player_session("misery")
    match = first_match(session)
    data = play(api, match, MISERY, as_user=east)
    expected = engine("misery", {"deals": MISERY, "preset": "acbl"})
    assert data["rubber"]["scoresheet"] == named(expected)
    assert data["rubber"]["status"] == "complete"
    assert [d["data"]["declaration"] for d in data["rubber"]["deals"]] == [
        "eight",
        "misery",
        "ordinary",
        "ordinary",
    ]


def test_turnover_through_the_api_equals_the_engine(api, two_player_session, north):
    session = two_player_session("turnover")
    match = first_match(session)
    before = api.get(f"/api/v1/rubbers/{match.pk}/").json()
    assert before["scoresheet"] == {"tricks": None, "winner": None, "tie": False}
    data = play(api, match, TURNOVER, as_user=north)
    assert data["rubber"]["scoresheet"] == engine("turnover", TURNOVER[0])
    assert data["rubber"]["status"] == "complete"


def test_draw_and_discard_through_the_api_equals_the_engine(api, two_player_session, north):
    session = two_player_session("draw_discard")
    match = first_match(session)
    data = play(api, match, DRAW_DISCARD, as_user=north)
    expected = engine("draw-discard", {"deals": DRAW_DISCARD, "preset": "acbl"})
    assert data["rubber"]["scoresheet"] == named(expected)
    assert expected["scores"] == [0, 500] and expected["winner"] == 1
    assert data["rubber"]["status"] == "complete"


def test_a_retried_deal_changes_nothing_and_other_content_is_a_conflict(
    api, two_player_session, north
):
    match = first_match(two_player_session("bridge_for_two"))
    deal = BRIDGE_FOR_TWO[0]
    assert post_deal(api, match, 1, deal, as_user=north).status_code == 201
    assert post_deal(api, match, 1, deal, as_user=north).status_code == 200
    other = {**deal, "tricks": 9}
    assert post_deal(api, match, 1, other, as_user=north).status_code == 409
    assert post_deal(api, match, 3, deal, as_user=north).status_code == 409


def test_a_correction_rescores_the_match(api, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    data = play(api, match, BRIDGE_FOR_TWO[:1], as_user=north)
    response = api.patch(f"/api/v1/deals/{data['id']}/", {"version": 1, "tricks": 9}, format="json")
    assert response.status_code == 200, response.json()
    corrected = [{**BRIDGE_FOR_TWO[0], "tricks": 9}]
    sheet = response.json()["rubber"]["scoresheet"]
    assert sheet == named(engine("bridge-for-two", {"deals": corrected, "preset": "acbl"}))
    history = api.get(f"/api/v1/deals/{data['id']}/history").json()
    assert [entry["kind"] for entry in history] == ["entered", "changed"]


def test_the_round_robin_rotates_opponents_when_the_round_ends(
    api, two_player_session, north, south
):
    """Table 1's next pair (North v West) waits for West to finish at table 2."""
    session = two_player_session("turnover")
    table_1, table_2 = (session.rubbers.get(table__number=n) for n in (1, 2))
    done = play(api, table_1, [{"tricks": [14, 3]}], as_user=north)
    assert done["next_rubber"] is None
    done = play(api, table_2, [{"tricks": [13, 13]}], as_user=south)
    assert done["next_rubber"] is not None
    in_play = {
        r.table.number: (r.north.name, r.east.name)
        for r in session.rubbers.filter(status="in_play")
    }
    assert in_play == {1: ("North", "West"), 2: ("East", "South")}
    rotation = api.get(f"/api/v1/sessions/{session.pk}/tables/1/rotation").json()
    assert rotation[0]["rubber"] == 2 and set(rotation[0]["seats"]) == {"N", "E"}


def test_a_session_of_two_player_tables_needs_exactly_two_at_each(api, director, club):
    from tests.factories import add_player

    players = [add_player(club, f"P{i}") for i in range(3)]
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            f"/api/v1/clubs/{club.slug}/sessions/",
            {
                "date": "2026-12-01",
                "kind": "misery",
                "tables": [{"players": [p.pk for p in players]}],
            },
            format="json",
        )
    assert response.status_code == 400
    assert "RULES 7" in response.json()["errors"]["tables"][0]


def test_closing_the_session_closes_a_match_in_play_as_unfinished(
    api, two_player_session, north, director
):
    session = two_player_session("bridge_for_two")
    match = first_match(session)
    play(api, match, BRIDGE_FOR_TWO[:2], as_user=north)
    api.force_authenticate(director)
    assert api.post(f"/api/v1/sessions/{session.pk}/close").status_code == 200
    data = api.get(f"/api/v1/rubbers/{match.pk}/").json()
    assert data["status"] == "unfinished"
    closed = engine(
        "bridge-for-two", {"deals": BRIDGE_FOR_TWO[:2], "closed": True, "preset": "acbl"}
    )
    assert data["scoresheet"] == named(closed)
    # RULES 2.3: player 0 won a game, but no deal follows in a closed rubber: nobody vulnerable.
    assert data["scoresheet"]["games"] == [1, 0]
    assert data["scoresheet"]["vulnerable"] == [False, False]
    with unchanged():
        assert post_deal(api, match, 3, BRIDGE_FOR_TWO[2], as_user=north).status_code == 409
