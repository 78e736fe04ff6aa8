"""factory_boy factories and small builders shared by the suite."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player, Session
from games import services

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
    return services.club_create(
        slug=slug, name=slug.title(), director=director, public=public, **kw
    )


def add_player(club: Club, name: str, *, user: Any = None, role: str = "player") -> Player:
    player = Player.objects.create(club=club, name=name, user=user)
    if user is not None:
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    return player


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
    session = services.session_create(
        club=club,
        date=date or datetime.date(2026, 11, 30),
        kind=kind,
        movement=movement,
        stake_per_hundred=stake,
        tables=tables,
    )
    if start:
        services.session_start(session=session)
    return session
