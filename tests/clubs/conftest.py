"""Fixtures of the clubs tests: a club night with a planned and a running session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club, Player, Session
from tests.factories import UserFactory, club_night, make_club


@dataclass
class Night:
    club: Club
    players: dict[str, Player]
    planned: Session
    running: Session
    users: dict[str, Any]


def build_night(*, director: Any, public: bool) -> Night:
    """The club night of tests/factories.py (`club_night`), the other director's club, and the
    personas by name."""
    base = club_night(director=director, public=public)
    make_club(director=base.other_director, slug="lakeside")
    users = {
        "anonymous": None,
        "outsider": UserFactory(username="outsider"),
        "player": base.players["north"].user,
        "other_director": base.other_director,
        "director": director,
    }
    return Night(
        club=base.club,
        players=base.players,
        planned=base.planned,
        running=base.running,
        users=users,
    )


@pytest.fixture
def night(director: Any) -> Night:
    return build_night(director=director, public=True)


@pytest.fixture
def private_night(director: Any) -> Night:
    return build_night(director=director, public=False)
