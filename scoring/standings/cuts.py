"""The cut for a shared prize choice (RULES 6.3): winners with equal figures share a choice of
prize until a cut at the table, which the director records, says who chooses first.

The stored standings say who shares a choice (``SessionStanding.prize_choice``); the recorded
cuts (``clubs.models.PrizeCut``) order them (``scoring.rules.ranking.cut_order``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player, PrizeCut, Session
from games.permissions import Actor, check_record_cut
from scoring.rules.ranking import cut_order

from .models import SessionStanding, SessionStandingsState

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def recorded_cuts(session_id: int) -> dict[int, dict[frozenset[int], int]]:
    """The session's cuts: for each choice, the players who cut and the winner. One query."""
    cuts: dict[int, dict[frozenset[int], int]] = {}
    for cut in PrizeCut.objects.filter(session_id=session_id):
        cuts.setdefault(cut.choice, {})[cut.players] = cut.winner_id
    return cuts


def shared_choices(
    choices: Iterable[tuple[int, int | None]],
) -> dict[int, list[int]]:
    """The choices of prize held by more than one player (player, choice): each one's players."""
    holders: dict[int, list[int]] = {}
    for player, choice in choices:
        if choice is not None:
            holders.setdefault(choice, []).append(player)
    return {choice: players for choice, players in holders.items() if len(players) > 1}


def undecided(session_id: int) -> dict[int, list[int]]:
    """The shared choices a cut has still to decide, with the players who would cut. Two
    queries."""
    shared = shared_choices(
        SessionStanding.objects.filter(session_id=session_id).values_list(
            "player_id", "prize_choice"
        )
    )
    cuts = recorded_cuts(session_id) if shared else {}
    open_: dict[int, list[int]] = {}
    for choice, players in shared.items():
        left = [
            p for p, outcome in cut_order(players, cuts.get(choice, {})) if outcome == "undecided"
        ]
        if len(left) > 1:
            open_[choice] = left
    return open_


def recorded(session_id: int) -> dict[int, list[tuple[int, str]]]:
    """The shared choices a recorded cut has decided (at least its first place), each with its
    players in the order they choose and what the cuts made of them. Two queries."""
    shared = shared_choices(
        SessionStanding.objects.filter(session_id=session_id).values_list(
            "player_id", "prize_choice"
        )
    )
    cuts = recorded_cuts(session_id) if shared else {}
    found: dict[int, list[tuple[int, str]]] = {}
    for choice, players in shared.items():
        order = cut_order(players, cuts.get(choice, {}))
        if any(outcome == "won" for _player, outcome in order):
            found[choice] = [(player, str(outcome)) for player, outcome in order]
    return found


def prize_cut_record(
    *, actor: Actor, session: Session, winner: Player, by: User | None, again: bool = False
) -> PrizeCut:
    """Record that ``winner`` won the cut among the players still sharing their prize's choice
    (RULES 6.3). Directors only (``NotAllowed``). Refused (``ValidationError`` on ``winner``):
    a player who shares no choice, or whose cut is already recorded.

    ``again`` (issue 31): the cut among all the players sharing the winner's choice is recorded
    again, a slip corrected; it replaces the one recorded (the latest for a group is the cut,
    `recorded_cuts`), which stays in the session's history. Refused for a choice no cut has
    decided yet.

    Reads the stored standings, then writes: under the lock of the session's standings state,
    the row a refresh locks to store new standings, so the tie checked is the tie stored, and
    two directors recording the same cut at once are served one after the other (the second is
    refused, as had it come later)."""
    check_record_cut(actor)
    with transaction.atomic():
        locked = SessionStandingsState.objects.select_for_update().filter(pk=session.pk)
        if not list(locked.values_list("pk", flat=True)):
            raise ValidationError({"winner": [_("No prize is decided yet.")]})
        groups = (
            {choice: [p for p, _outcome in order] for choice, order in recorded(session.pk).items()}
            if again
            else undecided(session.pk)
        )
        for choice, players in groups.items():
            if winner.pk in players:
                return PrizeCut.objects.create(
                    session=session,
                    choice=choice,
                    among=PrizeCut.key(players),
                    winner=winner,
                    by=by,
                )
    refusal = (
        _("%(name)s shares no choice of prize whose cut is recorded.")
        if again
        else _("%(name)s shares no choice of prize that a cut has still to decide.")
    )
    raise ValidationError({"winner": [refusal % {"name": winner.name}]})
