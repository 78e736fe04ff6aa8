"""Who may write a deal: the one write policy (pages, the API, the offline queue and the verbs).

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
The write verbs themselves (`Rubber.record_deal`, `Deal.correct`, `Deal.delete_last`,
`Deal.confirm`, `Deal.dispute`, `Deal.rule`) take the `Actor` who writes and ask the `check_*`
functions here: a caller that forgets a check is refused all the same (`NotAllowed`, 403).
Confirmation and dispute (Club.confirm_entries): a seated player of the other side.
A ruling that a disputed deal stands (Deal.rule), and moving deals into the rubber before (a
correction's move_next_deals): a director of the club.
A table-code phone handed over to the other side (games.codes) confirms and disputes only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext, gettext_lazy

from clubs.models import Club, Membership, Player
from clubs.policy import may_direct

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: The side of each seat (scoring.rules.Side's values), which a confirmation is of the other of.
_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}

#: Why a phone handed over to the other side enters and corrects nothing (`Actor.handed_over`).
HANDED_OVER = gettext_lazy(
    "This phone is handed over to the other side to confirm: give it back to enter or correct "
    "deals."
)


class NotAllowed(PermissionDenied):
    """A write this policy refuses to its actor; the message says why (403, pages and API)."""


class Written(Protocol):
    """A deal as the policy reads it: the seat that last wrote its content (games.models.Deal)."""

    @property
    def written_seat(self) -> str: ...


def reopened_for_director() -> str:
    """Why a player's or a table-code phone's write to a reopened session is refused."""
    return gettext(
        "This session was reopened for the director's corrections only: show the director "
        "what you want changed."
    )


@dataclass(frozen=True)
class Actor:
    """Who writes: a signed-in user (a director, a seated player, a player elsewhere, an
    outsider), a phone holding the table's code (no user: `by_code`, its `seat` and `phone`),
    or the server itself (`server`: the demo loader, the benchmarks, the tests' fixtures)."""

    #: The signed-in user, None for a table-code phone or the server.
    user: User | None = None
    #: The user's player in the club (a table-code phone's is the player in its seat).
    player: Player | None = None
    #: The user's role in the rubber's club (None: not a member).
    role: str | None = None
    #: The seat the writer sits in in this rubber, None when they do not sit in it.
    seat: str | None = None
    #: Sitting out at this rubber's table (a rotation): corrects, does not enter.
    at_table: bool = False
    #: A phone holding the table's code (games.codes), and its id.
    by_code: bool = False
    phone: str = ""
    #: A phone handed over to the other side: it confirms and disputes only.
    handed_over: bool = False
    #: The session was reopened for corrections: only a director writes.
    reopened: bool = False
    #: The server's own write (no request): allowed, kept in the history with no user.
    server: bool = False

    @classmethod
    def system(cls, *, seat: str | None = None, phone: str = "") -> Actor:
        """The server's own write (data loaded by a command, a benchmark, a test's fixture)."""
        return cls(seat=seat, phone=phone, server=True)

    @classmethod
    def in_club(cls, user: User, club: Club) -> Actor:
        """A signed-in user writing to their club as a whole (a payment: no rubber, no seat)."""
        return cls(user=user, role=club.role_of(user))

    @property
    def is_director(self) -> bool:
        return self.role == Membership.Role.DIRECTOR

    @property
    def plays(self) -> bool:
        """Writes as a player at the table: not in a session reopened for corrections."""
        return not self.reopened or self.is_director


def may_enter(actor: Actor) -> bool:
    """Entry: a director of the club, or a player seated in the rubber (not while the session is
    reopened for corrections), or a phone holding the table's code for a seat (not handed over:
    its deal would be saved as the seat it was lent to)."""
    if actor.server:
        return True
    if actor.handed_over:
        return False
    return may_direct(actor.role) or (actor.seat is not None and not actor.reopened)


def may_correct(actor: Actor) -> bool:
    """Corrections: a director; a player at the table (seated, or sitting out there); a phone
    holding the table's code. Not a phone handed over, nor a player in a reopened session."""
    if actor.server:
        return True
    if actor.handed_over or not actor.plays:
        return False
    if actor.by_code:
        return True
    if actor.user is None:
        return False
    return actor.is_director or actor.seat is not None or actor.at_table


def may_delete(actor: Actor) -> bool:
    """Deleting the last deal: the same people as a correction (docs/rules.md, §8 decision 7);
    which deal, and a settled one being the director's, is `Deal.delete_refusal`'s."""
    return may_correct(actor)


def may_move_deals(actor: Actor) -> bool:
    """A correction that moves the next rubber's deals into this one: a director's choice."""
    return actor.server or actor.is_director


def may_confirm(actor: Actor, deal: Written) -> bool:
    """A player seated on the other side from the seat that last wrote the deal (anyone seated
    when a director outside the rubber wrote it), or a phone holding that seat's code."""
    if actor.server:
        return True
    return actor.plays and actor.seat is not None and confirmable_from(deal, actor.seat)


def may_dispute(actor: Actor, deal: Written) -> bool:
    """As a confirmation: the other side disputes."""
    return may_confirm(actor, deal)


def may_rule(actor: Actor) -> bool:
    """A ruling that a disputed deal stands: a director of the club."""
    return actor.server or actor.is_director


def may_record_payment(actor: Actor) -> bool:
    """A payment into or out of a player's season account (RULES 4.4): a director of the club."""
    return actor.server or actor.is_director


def may_record_cut(actor: Actor) -> bool:
    """The cut that orders winners sharing a prize's choice (RULES 6.3): a director of the club."""
    return actor.server or actor.is_director


def confirmable_from(deal: Written, seat: str) -> bool:
    """The player in `seat` sits on the other side from the seat that last wrote the deal."""
    writer = deal.written_seat
    return not writer or _SIDE[writer] != _SIDE[seat]


def _refuse(actor: Actor, words: Any, allowed: Callable[[Actor], bool] | None = None) -> NotAllowed:
    """The refusal: `words`, unless the session was reopened for the director's corrections to
    an actor `allowed` to write were it open, or the phone is handed over to the other side,
    which say so instead (a member who is not at the table reads `words` all the same)."""
    if not actor.plays and (allowed is None or allowed(replace(actor, reopened=False))):
        return NotAllowed(reopened_for_director())
    if actor.handed_over:
        return NotAllowed(str(HANDED_OVER))
    return NotAllowed(str(words))


def check_enter(actor: Actor) -> None:
    if not may_enter(actor):
        raise _refuse(
            actor,
            gettext("Only the players seated in this rubber or a director enter."),
            may_enter,
        )


def check_correct(actor: Actor, *, move_next_deals: bool = False) -> None:
    if not may_correct(actor):
        raise _refuse(
            actor,
            gettext("Only a director or a player at the table corrects a deal."),
            may_correct,
        )
    if move_next_deals and not may_move_deals(actor):
        raise NotAllowed(gettext("Only a director moves deals from one rubber to another."))


def check_delete(actor: Actor) -> None:
    if not may_delete(actor):
        raise _refuse(
            actor,
            gettext("Only a director or a player at the table deletes a deal."),
            may_delete,
        )


def check_confirm(actor: Actor, deal: Written) -> None:
    if may_confirm(actor, deal):
        return
    check_confirms(actor)
    raise NotAllowed(gettext("A deal is confirmed by a player of the other side."))


def check_confirms(actor: Actor) -> None:
    """Whether `actor` may confirm any deal of the rubber at all ("Confirm all" asks first; each
    deal then asks `check_confirm`): a player seated in it, while the session is not reopened."""
    if actor.server:
        return
    if not actor.plays:
        raise NotAllowed(reopened_for_director())
    if actor.seat is None:
        raise NotAllowed(gettext("Only a player seated in this rubber confirms its deals."))


def check_dispute(actor: Actor, deal: Written) -> None:
    if not may_dispute(actor, deal):
        raise _refuse(
            actor,
            gettext("A deal is disputed by a player of the other side."),
            lambda open_actor: may_dispute(open_actor, deal),
        )


def check_rule(actor: Actor) -> None:
    if not may_rule(actor):
        raise NotAllowed(gettext("Only a director of the club rules on a disputed deal."))


def check_record_payment(actor: Actor) -> None:
    if not may_record_payment(actor):
        raise NotAllowed(gettext("Only a director of the club records payments."))


def check_record_cut(actor: Actor) -> None:
    if not may_record_cut(actor):
        raise NotAllowed(gettext("Only a director of the club records a cut."))


@dataclass(frozen=True)
class Viewer:
    """The request's user as one rubber sees them (two queries at most, whatever the rubber):
    what the pages show them, and the `actor` their writes are made as."""

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
    #: That player has left the table (a substitute took their place, or they moved table):
    #: the phone is no longer theirs to use here, unlike one whose player sits out a rubber.
    code_left: bool = False
    #: A phone handed over to the other side to confirm (games.codes): the player it goes
    #: back to, and their name. It only confirms and disputes meanwhile.
    back_id: int | None = None
    handed_over_by: str = ""
    #: The session was reopened for corrections: only a director writes (`may_enter`).
    reopened: bool = False

    @property
    def actor(self) -> Actor:
        """Who this viewer's writes are made as (the policy above decides what they may do)."""
        return Actor(
            user=self.user if self.user is not None and self.user.is_authenticated else None,
            player=self.player,
            role=self.role,
            seat=self.seat,
            at_table=self.at_table,
            by_code=self.by_code,
            phone=self.phone,
            handed_over=bool(self.handed_over_by),
            reopened=self.reopened,
        )

    @property
    def is_director(self) -> bool:
        return self.role == Membership.Role.DIRECTOR

    @property
    def can_enter(self) -> bool:
        return may_enter(self.actor)

    @property
    def plays(self) -> bool:
        """Writes as a player at the table (enters, corrects, confirms, disputes): not in a
        session reopened for corrections, which is the director's alone."""
        return self.actor.plays

    @property
    def we_side(self) -> str | None:
        """The viewer's own side at this table ("NS" or "EW"), which their pad calls We."""
        return None if self.seat is None else _SIDE[self.seat]

    def can_correct(self, deal: Written | None = None) -> bool:
        """May correct (and delete) the rubber's deals (`may_correct`)."""
        return may_correct(self.actor)
