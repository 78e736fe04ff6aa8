"""What the rotation reads from a session's tables: the seatings played at a table and the
round robin's first pairs (RULES 6, 7; `scoring.rules.rotation`, `scoring.rules.round_robin`).

Below `games.models`, which seats the next rubber from them (`RubberQuerySet.start_next`), and
below `games.sessions.ahead`, which shows the rotation ahead (`table_rotation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clubs.models import Session, Table, is_prefetched
from scoring.rules.rotation import Seating


@dataclass(frozen=True)
class Pairing:
    """A match at a table of two, shaped like a `Seating`: player 0 at N, player 1 at E."""

    rubber: int
    seats: dict[str, int]
    sitting_out: tuple[int, ...] = ()


def table_pairs(session: Session) -> list[tuple[int, int]]:
    """Each table's two players, by table number: the round robin's first set."""
    pairs = []
    if is_prefetched(session, "tables"):  # the console read them with their seats
        tables = sorted(session.tables.all(), key=lambda t: t.number)
    else:
        tables = list(session.tables.order_by("number").prefetch_related("seats"))
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        pairs.append((seats[0].player_id, seats[1].player_id))
    return pairs


def table_history(table: Table) -> list[Any]:
    """The seatings already played (or in play) at a table, as the rotation sees them (from
    ``table.rubbers_in_order`` when a page prefetched it)."""
    rubbers = getattr(table, "rubbers_in_order", None)
    if rubbers is None:
        rubbers = table.rubbers.order_by("number")
    if table.session.is_two_player:
        return [Pairing(r.number, r.seat_ids) for r in rubbers]
    return [
        Seating(rubber=r.number, seats=r.seat_ids, sitting_out=tuple(r.sitting_out))
        for r in rubbers
    ]
