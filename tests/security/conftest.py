"""The security tests' world: a members-only club night seen by six personas (docs/security.md).

- anonymous: nobody signed in
- outsider: signed in, in no club
- member: a player of the club (with a login) who does not sit in the rubber
- seated: North, sitting in the rubber in play
- other_director: the director of another club
- director: the club's director
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import caches

from clubs.models import Club, Player, Session
from config.throttling import CountingThrottle
from games.models import Deal, Rubber
from tests.factories import UserFactory, acting, add_players, club_night, make_club, make_session

PERSONAS = ("anonymous", "outsider", "member", "seated", "other_director", "director")


@dataclass
class World:
    club: Club
    players: dict[str, Player]
    planned: Session
    running: Session
    rubber: Rubber
    deal: Deal
    other_club: Club
    other_session: Session
    other_rubber: Rubber
    other_deal: Deal
    users: dict[str, Any]


def build_world(director: Any, *, public: bool = False) -> World:
    night = club_night(director=director, public=public, logins=("mate",))
    club, players, planned, running = night.club, night.players, night.planned, night.running
    club.confirm_entries = True
    club.save(update_fields=["confirm_entries"])
    rubber = running.rubbers.get(number=1)
    deal, _ = rubber.record_deal(
        number=1,
        contract="2H",
        declarer="N",
        tricks=9,
        actor=acting(rubber, director),
    )

    other_director = night.other_director
    other_club = make_club(director=other_director, slug="lakeside", public=False)
    others = add_players(other_club, "Lake")
    other_session = make_session(other_club, [others])
    other_rubber = other_session.rubbers.get(number=1)
    other_deal, _ = other_rubber.record_deal(
        number=1,
        contract="3NT",
        declarer="E",
        tricks=9,
        actor=acting(other_rubber, other_director),
    )
    users = {
        "anonymous": None,
        "outsider": UserFactory(username="outsider"),
        "member": players["mate"].user,
        "seated": players["north"].user,
        "other_director": other_director,
        "director": director,
    }
    return World(
        club=club,
        players=players,
        planned=planned,
        running=running,
        rubber=rubber,
        deal=deal,
        other_club=other_club,
        other_session=other_session,
        other_rubber=other_rubber,
        other_deal=other_deal,
        users=users,
    )


@pytest.fixture
def world(director: Any) -> World:
    return build_world(director)


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Any:
    """Throttle counts live in a cache, which outlives a test: start and end each test clean."""
    for alias in ("default", "throttle"):
        caches[alias].clear()
    yield
    for alias in ("default", "throttle"):
        caches[alias].clear()


@pytest.fixture(autouse=True)
def _throttle_clock_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """The throttles count in windows aligned to the clock (config/throttling.py): a test's few
    requests must not fall into two windows by chance, so the throttles' clock stands still."""
    held = time.time()
    monkeypatch.setattr(CountingThrottle, "timer", staticmethod(lambda: held))
