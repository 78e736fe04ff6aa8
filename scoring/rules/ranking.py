"""Ranks, table ranks and the order of prize choices (RULES 4.3, RULES 6.3), in plain Python.

Only ordering lives here: every figure (points, net, hundreds) comes from the engine's
scoresheets, summed by the refresh. No Django, so the rules of the order are tested alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Entry", "Placing", "rank_entries", "sort_key"]

Ranking = Literal["net", "gross"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's session totals over ended rubbers, and the table they sit at."""

    player: int
    name: str
    table: int | None
    rubbers: int
    points: int
    net: int
    hundreds: int


@dataclass(frozen=True, slots=True)
class Placing:
    """Where a player finished: in the room, at their table, and their prize choice if any."""

    player: int
    rank: int
    table_rank: int | None
    prize_choice: int | None


def sort_key(ranking: Ranking) -> Callable[[Entry], tuple[int, ...]]:
    """The figures players are ranked by, best first when sorted ascending (RULES 4.3).

    ``net`` (default): hundreds, then the raw net points (RULES 4.1 keeps both).
    ``gross``: each player's side totals added up, nothing deducted (pivot sessions).
    """
    if ranking == "gross":
        return lambda e: (-e.points,)
    return lambda e: (-e.hundreds, -e.net)


def _ranked(
    entries: Sequence[Entry], key: Callable[[Entry], tuple[int, ...]]
) -> list[tuple[int, Entry]]:
    """Standard competition ranking ("1224"): equal figures share a rank; listed by name."""
    ordered = sorted(entries, key=lambda e: (key(e), e.name, e.player))
    ranked: list[tuple[int, Entry]] = []
    for position, entry in enumerate(ordered, start=1):
        if ranked and key(ranked[-1][1]) == key(entry):
            ranked.append((ranked[-1][0], entry))
        else:
            ranked.append((position, entry))
    return ranked


def rank_entries(entries: Iterable[Entry], ranking: Ranking = "net") -> list[Placing]:
    """Rank the room, each table on its own, and order the prizes (RULES 6.3).

    Each table has one prize, won by the first player at that table (ties at the top: by
    name). The winners choose in room order: the highest score in the room chooses first.
    A table where no rubber has ended yet has no winner. The result is in room order.
    """
    entries = list(entries)
    key = sort_key(ranking)
    room = _ranked(entries, key)
    table_rank: dict[int, int] = {}
    winners: list[Entry] = []
    tables: dict[int, list[Entry]] = {}
    for entry in entries:
        if entry.table is not None:
            tables.setdefault(entry.table, []).append(entry)
    for _number, players in sorted(tables.items()):
        ranked = _ranked(players, key)
        for rank, entry in ranked:
            table_rank[entry.player] = rank
        top = ranked[0][1]
        if any(e.rubbers for e in players):
            winners.append(top)
    room_position = {entry.player: i for i, (_rank, entry) in enumerate(room)}
    choice = {
        entry.player: n
        for n, entry in enumerate(sorted(winners, key=lambda e: room_position[e.player]), start=1)
    }
    return [
        Placing(
            player=entry.player,
            rank=rank,
            table_rank=table_rank.get(entry.player),
            prize_choice=choice.get(entry.player),
        )
        for rank, entry in room
    ]
