"""Fixtures of the clubs tests: a club night with a planned and a running session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club, Player, Session
from tests.factories import UserFactory, add_player, make_club, make_session


@dataclass
class Night:
    club: Club
    players: dict[str, Player]
    planned: Session
    running: Session
    users: dict[str, Any]


def build_night(*, director: Any, public: bool) -> Night:
    """A club with north..west (logins) plus Eve and Fay (no logins); a planned session with a
    table of five, a running one with a table of four; and a director of another club."""
    club = make_club(director=director, slug="riverside", public=public)
    players = {
        name: add_player(club, name.title(), user=UserFactory(username=name))
        for name in ("north", "east", "south", "west")
    }
    players["eve"] = add_player(club, "Eve")
    players["fay"] = add_player(club, "Fay")
    order = ["north", "east", "south", "west"]
    # The planned table is other players: one player sits in one running session at a time,
    # so a session sharing the running one's players could not start (issue 18).
    later = [add_player(club, name) for name in ("Kim", "Lou", "Max", "Ned")]
    planned = make_session(club, [[*later, players["eve"]]], start=False)
    running = make_session(club, [[players[n] for n in order]])
    other_director = UserFactory(username="other-director")
    make_club(director=other_director, slug="lakeside")
    users = {
        "anonymous": None,
        "outsider": UserFactory(username="outsider"),
        "player": players["north"].user,
        "other_director": other_director,
        "director": director,
    }
    return Night(club=club, players=players, planned=planned, running=running, users=users)


@pytest.fixture
def night(director: Any) -> Night:
    return build_night(director=director, public=True)


@pytest.fixture
def private_night(director: Any) -> Night:
    return build_night(director=director, public=False)


def four(club: Club, prefix: str, count: int = 4) -> list[Player]:
    return [add_player(club, f"{prefix} {i}") for i in range(1, count + 1)]
