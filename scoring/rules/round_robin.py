"""Who plays whom at the tables of two of a two-player session (RULES 7): a round robin.

The circle method. The tables as the director set them are round 1: table t seats the pair
(top[t], bottom[t]). Each later round keeps the first player of table 1 in place and turns
everyone else one place round the circle top[1] → top[2] → … → top[n-1] → bottom[n-1] → … →
bottom[0] → top[1]. With 2n players, rounds 1 to 2n − 1 pair everyone with everyone once; then
the cycle repeats. Round r at table t is always the same pair, so each table knows its own next
match: the match numbered r at table t is the pairing of round r (see ``pairing``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from scoring.rules.errors import ScoringError

__all__ = ["pairing", "rounds"]

K = TypeVar("K", bound=Hashable)


def rounds(tables: Sequence[tuple[K, K]]) -> int:
    """How many rounds before the pairings repeat: 2n − 1 for n tables (1 for one table)."""
    return max(1, 2 * len(tables) - 1)


def pairing(tables: Sequence[tuple[K, K]], round_number: int, table: int) -> tuple[K, K]:
    """The pair at ``table`` (1-based) in round ``round_number`` (1-based; round 1 is as set).

    Player 0 of the pair is the one in the top row of the circle (with one table, the players
    take turns as player 0, so each deals first in every other match).
    """
    if not tables:
        raise ScoringError("tables", "a round robin needs at least one table", "RULES 7")
    if not 1 <= table <= len(tables):
        raise ScoringError(
            "table", "{table} is not a table of this session", "RULES 7", table=table
        )
    if round_number < 1:
        raise ScoringError(
            "round", "rounds are numbered from 1, not {number}", "RULES 7", number=round_number
        )
    top = [pair[0] for pair in tables]
    bottom = [pair[1] for pair in tables]
    if len(tables) == 1:
        first, second = top[0], bottom[0]
        return (first, second) if round_number % 2 else (second, first)
    ring = top[1:] + bottom[::-1]
    shift = (round_number - 1) % rounds(tables)
    turned = ring[-shift:] + ring[:-shift] if shift else ring
    n = len(tables)
    new_top = [top[0], *turned[: n - 1]]
    new_bottom = turned[n - 1 :][::-1]
    return (new_top[table - 1], new_bottom[table - 1])
