"""Who may read, enter, correct and confirm deals (one policy for pages and the API).

Reads follow the club (clubs.permissions): a public club's rubbers are readable by anyone, a
members-only club's by its members (404 to everyone else, so its existence does not leak).
Entry: the four players seated in the rubber, or a director of the club. A player sitting out
at the table watches but does not enter (the seated players are the ones who saw the deal).
Corrections: a director of the club always; a player at the rubber's table (seated in it, or
sitting out at that table) while the session runs. The history keeps who changed what.
Confirmation (Club.confirm_entries): a seated player of the other side (checked by Deal.confirm).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.http import Http404

from clubs.models import Membership, Player, TableSeat
from clubs.permissions import check_club_id_readable, may_read, role_in_club

from .models import SEAT_SIDE, Deal, EntryCheck, Rubber

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_stubs_ext import WithAnnotations


@dataclass(frozen=True)
class Viewer:
    """The request's user as one rubber sees them (two queries at most, whatever the rubber)."""

    user: Any
    role: str | None
    player: Player | None
    seat: str | None
    at_table: bool = False
    #: The seat comes from a table code (games.codes), not from a signed-in player.
    by_code: bool = False

    @property
    def is_director(self) -> bool:
        return self.role == Membership.Role.DIRECTOR

    @property
    def can_enter(self) -> bool:
        return may_enter(self.role, self.seat)

    @property
    def we_side(self) -> str | None:
        """The viewer's own side at this table ("NS" or "EW"), which their pad calls We."""
        return None if self.seat is None else SEAT_SIDE[self.seat].value

    def can_correct(self, deal: Deal) -> bool:
        if self.by_code:
            return True
        if not self.user.is_authenticated:
            return False
        return self.is_director or self.seat is not None or self.at_table


def may_enter(role: str | None, seat: str | None) -> bool:
    """Entry: a director of the club, or a player seated in the rubber."""
    return role == Membership.Role.DIRECTOR or seat is not None


def viewer_of(user: User | AnonymousUser, rubber: Rubber) -> Viewer:
    club = rubber.session.club
    role = role_in_club(user, club)
    player = None
    if user.is_authenticated and role is not None:
        player = Player.objects.filter(club=club, user=user).first()
    seat = rubber.seat_of(None if player is None else player.pk)
    at_table = (
        seat is None
        and player is not None
        and TableSeat.objects.filter(table_id=rubber.table_id, player=player).exists()
    )
    return Viewer(user=user, role=role, player=player, seat=seat, at_table=at_table)


def get_rubber_for_user(user: User | AnonymousUser, pk: int) -> tuple[Rubber, Viewer]:
    """The rubber, with its deals and players, if the user may read its club, else Http404."""
    rubber = Rubber.objects.with_deals().filter(pk=pk).first()
    if rubber is None:
        raise Http404("No such rubber.")
    viewer = viewer_of(user, rubber)
    if not may_read(rubber.session.club.public, viewer.role):
        raise Http404("No such rubber.")
    rubber.fetch_players()
    return rubber, viewer


def get_rubber_for_entry(user: User, pk: int) -> tuple[Rubber, bool]:
    """The rubber if the (signed-in) user may read its club, else Http404, and whether they may
    enter its deals (`may_enter`). One query (`Rubber.objects.for_entry`) where
    `get_rubber_for_user` takes three: entry is the API's busiest write (docs/benchmarks.md)."""
    # Typed here rather than on for_entry: written there, in games.models, django-stubs left the
    # attributes off the type.
    rubber = cast(
        "WithAnnotations[Rubber, EntryCheck] | None", Rubber.objects.for_entry(pk, user.pk)
    )
    if rubber is None or not may_read(rubber.club_public, rubber.viewer_role):
        raise Http404("No such rubber.")
    # As viewer_of: a login's player counts only while the login is a member of the club.
    player_id = rubber.viewer_player_id if rubber.viewer_role is not None else None
    seat = rubber.seat_of(player_id)
    return rubber, may_enter(rubber.viewer_role, seat)


def get_rubber_state_for_user(user: User | AnonymousUser, pk: int) -> tuple[Any, ...]:
    """`Rubber.objects.answer_state(pk)` if the user may read the rubber's club, else Http404:
    one query for a public club, as the API's cached read needs."""
    state = Rubber.objects.answer_state(pk)
    if state is None:
        raise Http404("No such rubber.")
    try:
        check_club_id_readable(user, state[0], public=state[1])
    except Http404:
        raise Http404("No such rubber.") from None
    return state


def get_deal_for_user(user: User | AnonymousUser, pk: int) -> tuple[Deal, Viewer]:
    deal = Deal.objects.select_related("rubber__session__club").filter(pk=pk).first()
    if deal is None:
        raise Http404("No such deal.")
    viewer = viewer_of(user, deal.rubber)
    if not may_read(deal.rubber.session.club.public, viewer.role):
        raise Http404("No such deal.")
    return deal, viewer
