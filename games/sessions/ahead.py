"""What is ahead at the tables: the rotation of a table (RULES 6) and the round robin of a
two-player session (RULES 7), as the console and the table cards show them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clubs.models import Session, Table
from scoring.rules.rotation import plan
from scoring.rules.round_robin import pairing
from scoring.rules.seating import MIN_AT_TABLE

from ..rotation import Pairing, table_history, table_pairs


def _two_player_rotation(table: Table, ahead: int) -> list[Any]:
    """The match in play (or the last one) at a table of two, then the next `ahead` pairings of
    the round robin (RULES 7; `scoring.rules.round_robin`)."""
    history = table_history(table)
    current = history[-1:]
    if table.session.status == Session.Status.CLOSED:
        return current
    pairs = table_pairs(table.session)
    last = history[-1].rubber if history else 0
    planned = []
    for number in range(last + 1, last + 1 + ahead):
        zero, one = pairing(pairs, number, table.number)
        planned.append(Pairing(number, {"N": zero, "E": one}))
    return current + planned


def round_robin_opponents(*, session: Session, rounds: Sequence[int]) -> dict[int, dict[int, Any]]:
    """Each player's opponent and table in each of ``rounds`` of a two-player session's round
    robin (RULES 7; `scoring.rules.round_robin`): ``{round: {player id: (opponent id, table
    number)}}``. One read of the tables as first set, none when the page prefetched them."""
    pairs = table_pairs(session)
    found: dict[int, dict[int, Any]] = {}
    for number in rounds:
        found[number] = {}
        for table_number in range(1, len(pairs) + 1):
            zero, one = pairing(pairs, number, table_number)
            found[number][zero] = (one, table_number)
            found[number][one] = (zero, table_number)
    return found


def table_rotation(*, table: Table, ahead: int = 3) -> list[Any]:
    """The rubbers in play and ahead at a table: the current one, then `ahead` planned ones."""
    if table.session.is_two_player:
        return _two_player_rotation(table, ahead)
    history = table_history(table)
    players = [p.pk for p in table.present_players()]
    session = table.session
    current = [s for s in history if s.rubber == history[-1].rubber] if history else []
    if session.status == Session.Status.CLOSED or len(players) < MIN_AT_TABLE:
        # Closed, or a table broken up for an early leaver (`table_changes`): nothing ahead.
        return current
    planned = plan(players, ahead, movement=session.movement, history=history)
    return current + planned
