"""Rotations end to end through the API (RULES 6.1 pivot, RULES 6.2 five or six at a table).

Rubbers are driven to completion with game-winning deals (4S by N, ten tricks, twice).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from clubs.models import Club, Player, Table
from games.models import Rubber
from tests.factories import acting, add_players


def _plan_and_start(api: Any, club: Club, players: list[Player], movement: str = "pivot") -> int:
    body = {
        "date": "2026-12-01",
        "kind": "rubber",
        "movement": movement,
        "stake_per_hundred": "0.50",
        "tables": [{"players": [p.pk for p in players]}],
    }
    created = api.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")
    assert created.status_code == 201, created.data
    assert created.data["status"] == "planned"
    assert created.data["stake_per_hundred"] == "0.50"
    # The table's code is fixed at planning, as its card shows it (issue 31).
    code = Table.objects.get(session_id=created.data["id"]).code
    assert code
    assert created.data["tables"] == [
        {"number": 1, "players": [p.pk for p in players], "current_rubber": None, "code": code}
    ]
    session_id = created.data["id"]
    started = api.post(f"/api/v1/sessions/{session_id}/start")
    assert started.status_code == 200
    return session_id


def _finish_current_rubber(session_id: int) -> None:
    rubber = Rubber.objects.get(session_id=session_id, status=Rubber.Status.IN_PLAY)
    for number in (1, 2):
        rubber.record_deal(
            number=number, contract="4S", declarer="N", tricks=10, actor=acting(rubber, None)
        )
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.COMPLETE


def _current(api: Any, session_id: int) -> dict[str, Any]:
    detail = api.get(f"/api/v1/sessions/{session_id}/")
    assert detail.status_code == 200
    return detail.data["tables"][0]["current_rubber"]


def _play(api: Any, session_id: int, rubbers: int) -> list[dict[str, Any]]:
    """Play `rubbers` rubbers; return the seating of each as the API showed it when in play."""
    played = []
    for _ in range(rubbers):
        current = _current(api, session_id)
        rotation = api.get(f"/api/v1/sessions/{session_id}/tables/1/rotation").data
        # The rotation starts with the rubber in play, exactly as seated.
        assert rotation[0] == {
            "rubber": current["number"],
            "seats": current["seats"],
            "sitting_out": current["sitting_out"],
        }
        played.append(current)
        _finish_current_rubber(session_id)
    return played


def test_pivot_four_everyone_partners_everyone_and_the_pivot_never_moves(
    api: Any, director: Any, club: Club, table_of_four: dict[str, Player]
) -> None:
    api.force_authenticate(director)
    players = list(table_of_four.values())
    session_id = _plan_and_start(api, club, players)

    ahead = api.get(f"/api/v1/sessions/{session_id}/tables/1/rotation").data
    assert [s["rubber"] for s in ahead] == [1, 2, 3, 4]

    played = _play(api, session_id, 3)
    pivot = players[0].pk
    assert [r["number"] for r in played] == [1, 2, 3]
    assert all(r["seats"]["N"] == pivot for r in played)  # RULES 6.1
    assert all(r["sitting_out"] == [] for r in played)
    partnerships = Counter(
        frozenset(pair)
        for r in played
        for pair in ((r["seats"]["N"], r["seats"]["S"]), (r["seats"]["E"], r["seats"]["W"]))
    )
    assert set(partnerships) == {frozenset(p) for p in combinations([p.pk for p in players], 2)}
    assert set(partnerships.values()) == {1}
    # The pivot's partners: opposite, then first on her right, then first on her left.
    first = played[0]["seats"]
    assert [r["seats"]["S"] for r in played] == [first["S"], first["W"], first["E"]]
    # The cycle then repeats (the fourth rubber is seated like the first).
    assert _current(api, session_id)["seats"] == first


@pytest.mark.parametrize("movement", ["pivot", "cut-in"])
@pytest.mark.parametrize("count", [5, 6])
def test_five_and_six_players_sit_out_evenly(
    api: Any, director: Any, club: Club, count: int, movement: str
) -> None:
    api.force_authenticate(director)
    players = add_players(club, "Cut", count)
    session_id = _plan_and_start(api, club, players, movement=movement)
    rubbers = count * (2 if count == 5 else 3) // (count - 4)  # each sits out equally often
    played = _play(api, session_id, rubbers)
    outs = Counter(pk for r in played for pk in r["sitting_out"])
    assert all(len(r["sitting_out"]) == count - 4 for r in played)
    assert set(outs) == {p.pk for p in players}
    assert max(outs.values()) - min(outs.values()) <= 1
    plays = Counter(pk for r in played for pk in r["seats"].values())
    assert max(plays.values()) - min(plays.values()) <= 1


def test_late_arrival_joins_the_rotation_from_the_next_rubber(
    api: Any, director: Any, club: Club, table_of_four: dict[str, Player]
) -> None:
    api.force_authenticate(director)
    session_id = _plan_and_start(api, club, list(table_of_four.values()))
    in_play = _current(api, session_id)
    late = add_players(club, "Late", 1)[0]
    url = f"/api/v1/sessions/{session_id}/tables/1/players"
    joined = api.post(url, {"player": late.pk}, format="json")
    assert joined.status_code == 201
    assert joined.data["players"][-1] == late.pk
    assert joined.data["current_rubber"] == in_play  # the rubber in play is not touched
    _finish_current_rubber(session_id)
    plan = api.get(f"/api/v1/sessions/{session_id}/tables/1/rotation?ahead=4").data
    assert any(late.pk in s["seats"].values() for s in plan)

    left = api.delete(url, {"player": late.pk}, format="json")
    assert left.status_code == 200
    assert late.pk not in left.data["players"]


def test_closing_a_session_ends_its_rotation(
    api: Any, director: Any, club: Club, table_of_four: dict[str, Player]
) -> None:
    api.force_authenticate(director)
    session_id = _plan_and_start(api, club, list(table_of_four.values()))
    rubber = Rubber.objects.get(session_id=session_id, status=Rubber.Status.IN_PLAY)
    rubber.record_deal(number=1, contract="2H", declarer="E", tricks=8, actor=acting(rubber, None))
    closed = api.post(f"/api/v1/sessions/{session_id}/close")
    assert closed.status_code == 200
    assert closed.data["status"] == "closed"
    assert closed.data["tables"][0]["current_rubber"] is None
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.UNFINISHED  # RULES 2.6
    rotation = api.get(f"/api/v1/sessions/{session_id}/tables/1/rotation").data
    assert [s["rubber"] for s in rotation] == [1]
