"""Who may read, enter, correct and confirm deals (one policy for pages and the API).

Reads follow the club (clubs.permissions): a public club's rubbers are readable by anyone, a
members-only club's by its members (404 to everyone else, so its existence does not leak).
Entry: the four players seated in the rubber, or a director of the club. A player sitting out
at the table watches but does not enter (the seated players are the ones who saw the deal).
Corrections: a director of the club, or the user who entered the deal.
Confirmation (Club.confirm_entries): a seated player of the other side (checked by Deal.confirm).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import Http404

from clubs.models import Membership, Player
from clubs.permissions import role_in_club

from .models import Deal, Rubber

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


@dataclass(frozen=True)
class Viewer:
    """The request's user as one rubber sees them (two queries at most, whatever the rubber)."""

    user: Any
    role: str | None
    player: Player | None
    seat: str | None

    @property
    def is_director(self) -> bool:
        return self.role == Membership.Role.DIRECTOR

    @property
    def can_enter(self) -> bool:
        return self.is_director or self.seat is not None

    def can_correct(self, deal: Deal) -> bool:
        if not self.user.is_authenticated:
            return False
        return self.is_director or deal.entered_by_id == self.user.pk


def viewer_of(user: AbstractBaseUser | AnonymousUser, rubber: Rubber) -> Viewer:
    club = rubber.session.club
    role = role_in_club(user, club)
    player = None
    if user.is_authenticated and role is not None:
        player = Player.objects.filter(club=club, user=user).first()
    seat = rubber.seat_of(player) if player is not None else None
    return Viewer(user=user, role=role, player=player, seat=seat)


def get_rubber_for_user(
    user: AbstractBaseUser | AnonymousUser, pk: int, *, with_deals: bool = True
) -> tuple[Rubber, Viewer]:
    """The rubber if the user may read its club, else Http404.

    `with_deals` prefetches its deals and players for reading; a write leaves it off, because
    the write method reads the deals again under its lock (docs/benchmarks.md).
    """
    rubbers = (
        Rubber.objects.with_deals()
        if with_deals
        else Rubber.objects.select_related("session__club")
    )
    rubber = rubbers.filter(pk=pk).first()
    if rubber is None:
        raise Http404("No such rubber.")
    viewer = viewer_of(user, rubber)
    if not rubber.session.club.public and viewer.role is None:
        raise Http404("No such rubber.")
    return rubber, viewer


def get_deal_for_user(user: AbstractBaseUser | AnonymousUser, pk: int) -> tuple[Deal, Viewer]:
    deal = Deal.objects.select_related("rubber__session__club").filter(pk=pk).first()
    if deal is None:
        raise Http404("No such deal.")
    viewer = viewer_of(user, deal.rubber)
    if not deal.rubber.session.club.public and viewer.role is None:
        raise Http404("No such deal.")
    return deal, viewer
