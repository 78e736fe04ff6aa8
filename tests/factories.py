"""factory_boy factories and small builders shared by the suite."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import factory
from django.contrib.auth import get_user_model

from clubs import services as club_services
from clubs.models import Club, Membership, Player, Session
from games.models import Rubber
from games.permissions import Actor
from games.selectors import actor_of
from games.sessions import lifecycle

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    slug = factory.Sequence(lambda n: f"club-{n}")
    name = factory.Sequence(lambda n: f"Club {n}")
    public = True
    default_stake = Decimal("0.10")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


def make_club(*, director: Any, slug: str = "riverside", public: bool = True, **kw: Any) -> Club:
    return club_services.club_create(
        slug=slug, name=slug.title(), director=director, public=public, **kw
    )


def add_player(club: Club, name: str, *, user: Any = None, role: str = "player") -> Player:
    player = PlayerFactory(club=club, name=name, user=user)
    if user is not None:
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    return player


def add_players(club: Club, prefix: str, count: int = 4) -> list[Player]:
    """`count` players without logins: "<prefix> 1", "<prefix> 2", ..."""
    return [add_player(club, f"{prefix} {i}") for i in range(1, count + 1)]


def make_session(
    club: Club,
    tables: list[list[Player]],
    *,
    start: bool = True,
    movement: str = "pivot",
    kind: str = "rubber",
    stake: Decimal | None = None,
    date: datetime.date | None = None,
) -> Session:
    session = lifecycle.session_create(
        club=club,
        date=date or datetime.date(2026, 11, 30),
        kind=kind,
        movement=movement,
        stake_per_hundred=stake,
        tables=tables,
    )
    if start:
        # Data for a test, not a director's evening: nights of other days left running may
        # share players (the refusal is tested through the API and the pages).
        lifecycle.session_start(session=session, anyway=True)
    return session


@dataclass
class ClubNight:
    """A club night (the clubs and security tests' world): north..west and any further `logins`
    (players with logins), Eve and Fay (without), a planned session with a table of five and a
    running one with north..west at table 1; and the director of another club."""

    club: Club
    players: dict[str, Player]
    planned: Session
    running: Session
    other_director: Any


def club_night(*, director: Any, public: bool, logins: tuple[str, ...] = ()) -> ClubNight:
    home = make_club(director=director, slug="riverside", public=public)
    players = {
        name: add_player(home, name.title(), user=UserFactory(username=name))
        for name in ("north", "east", "south", "west", *logins)
    }
    players["eve"] = add_player(home, "Eve")
    players["fay"] = add_player(home, "Fay")
    # The planned table is other players: one player sits in one running session at a time,
    # so a session sharing the running one's players could not start (issue 18).
    later = [add_player(home, name) for name in ("Kim", "Lou", "Max", "Ned")]
    planned = make_session(home, [[*later, players["eve"]]], start=False)
    running = make_session(home, [[players[n] for n in ("north", "east", "south", "west")]])
    return ClubNight(
        club=home,
        players=players,
        planned=planned,
        running=running,
        other_director=UserFactory(username="other-director"),
    )


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


def acting(
    where: Any,
    user: Any = None,
    *,
    player: Player | None = None,
    seat: str | None = None,
    phone: str = "",
    director: bool = False,
) -> Actor:
    """The writer of a test's direct call of a write verb on `where` (a rubber, or a deal of it).

    `user`: a signed-in user, as a request would read them (their role, player and seat; `seat`
    overrides it, "" for none). `player` alone: that player, seated, without a login (their
    confirmation). Neither: a phone holding the table's code for `seat` when `phone` is given,
    else the server's own write (`Actor.system`, the fixtures' deals; `director` says nothing
    more). The session's reopening is left to the verb's own check under its lock
    (`check_reopened_writer`), which is what these tests exercise.
    """
    rubber: Rubber = where if isinstance(where, Rubber) else where.rubber
    if user is not None:
        actor = replace(actor_of(user, rubber), reopened=False)
        if player is not None:
            actor = replace(actor, player=player, seat=rubber.seat_of(player.pk))
        if seat is not None:
            actor = replace(actor, seat=seat or None)
        return replace(actor, phone=phone) if phone else actor
    if player is not None:
        return Actor(player=player, seat=rubber.seat_of(player.pk))
    if phone:
        return Actor(by_code=True, seat=seat or None, phone=phone)
    return Actor.system(seat=seat or None)
