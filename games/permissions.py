"""Who may read, enter, correct and confirm deals (one policy for pages and the API).

Reads follow the club (THE rule: clubs.policy.may_read): a public club's rubbers are readable by
anyone, a members-only club's by its members and a table's by a phone holding its code (404 to
everyone else, so its existence does not leak). The selectors in games.selectors apply it.
Entry: the four players seated in the rubber, or a director of the club. A player sitting out
at the table watches but does not enter (the seated players are the ones who saw the deal).
Corrections: a director of the club always; a player at the rubber's table (seated in it, or
sitting out at that table) while the session runs. The history keeps who changed what.
A session reopened for corrections (`Session.is_reopened`) is its directors' alone: no player,
and no table-code phone, enters, corrects, deletes, confirms or disputes there (`reopened`;
the writes check it again, `games.models.check_reopened_writer`; docs/security.md, issue 26).
Confirmation (Club.confirm_entries): a seated player of the other side (checked by Deal.confirm).
A ruling that a disputed deal stands (Deal.rule): a director of the club (`Viewer.is_director`).
A table-code phone handed over to the other side (games.codes) confirms and disputes only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clubs.models import Membership, Player, TableSeat
from clubs.permissions import role_in_club
from clubs.policy import may_direct

from .models import SEAT_SIDE, Deal, Rubber

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


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
    #: The id of the phone holding the table's code (games.codes.phone_id), else "".
    phone: str = ""
    #: The table code that phone holds (its seat page hands the phone to another seat).
    code: str = ""
    #: The name of the player whose phone holds the code (in their seat, or sitting out).
    code_name: str = ""
    #: A phone handed over to the other side to confirm (games.codes): the player it goes
    #: back to, and their name. It only confirms and disputes meanwhile.
    back_id: int | None = None
    handed_over_by: str = ""
    #: The session was reopened for corrections: only a director writes (`may_enter`).
    reopened: bool = False

    @property
    def is_director(self) -> bool:
        return self.role == Membership.Role.DIRECTOR

    @property
    def can_enter(self) -> bool:
        """A phone handed over to the other side enters nothing: a deal would be saved as the
        seat it was lent to (games.codes)."""
        return may_enter(self.role, self.seat, reopened=self.reopened) and not self.handed_over_by

    @property
    def plays(self) -> bool:
        """Writes as a player at the table (enters, corrects, confirms, disputes): not in a
        session reopened for corrections, which is the director's alone."""
        return not self.reopened or self.is_director

    @property
    def we_side(self) -> str | None:
        """The viewer's own side at this table ("NS" or "EW"), which their pad calls We."""
        return None if self.seat is None else SEAT_SIDE[self.seat].value

    def can_correct(self, deal: Deal) -> bool:
        if self.handed_over_by:  # lent to confirm or dispute only, as can_enter
            return False
        if not self.plays:
            return False
        if self.by_code:
            return True
        if not self.user.is_authenticated:
            return False
        return self.is_director or self.seat is not None or self.at_table


def may_enter(role: str | None, seat: str | None, *, reopened: bool = False) -> bool:
    """Entry: a director of the club, or a player seated in the rubber (not while the session is
    reopened for corrections)."""
    return may_direct(role) or (seat is not None and not reopened)


def viewer_of(user: User | AnonymousUser, rubber: Rubber) -> Viewer:
    club = rubber.session.club
    role = role_in_club(user, club)
    player = None
    if user.is_authenticated and role is not None:
        player = Player.objects.filter(club=club, user=user).first()
    seat = rubber.seat_of(None if player is None else player.pk)
    # At the table now (sitting out of this rubber in a rotation): a player who has left the
    # table (their seat made inactive) no longer is, and no longer corrects its rubbers.
    at_table = (
        seat is None
        and player is not None
        and TableSeat.objects.filter(table_id=rubber.table_id, player=player, active=True).exists()
    )
    return Viewer(
        user=user,
        role=role,
        player=player,
        seat=seat,
        at_table=at_table,
        reopened=rubber.session.is_reopened,
    )
