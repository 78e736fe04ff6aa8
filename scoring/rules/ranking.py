"""Places, table places and the order of prize choices (RULES 4.3, RULES 6.3), in plain Python.

Only ordering lives here: every figure (points, net, hundreds) comes from the engine's
scoresheets, summed by the refresh. No Django, so the rules of the order are tested alone.

RULES 6.3 on ties and early leavers: equal hundreds rank by net points before rounding; players
still equal share the place (shown "=2"; the next place is skipped, "1, =2, =2, 4") and are
never ordered by name (an ``Entry`` has no name); a player who played no deal is listed apart,
unranked; one who left early is ranked by what they played. Who of two tied players chooses a
prize first is decided by a cut at the table: both hold the prize's choice, shared, and
``cut_order`` puts the winners of the cuts the director recorded first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal, NamedTuple

__all__ = [
    "CutOutcome",
    "Entry",
    "Placing",
    "competition_ranks",
    "cut_order",
    "place_label",
    "rank_entries",
    "shared",
    "sort_key",
]

Ranking = Literal["net", "gross"]


class Entry(NamedTuple):
    """A player's session totals over ended rubbers, the table they sit at, and whether they
    played any deal at all (``played``: a rubber in play counts; RULES 6.3: else unranked).

    Entries and placings are named tuples, immutable: a frozen dataclass took 1.7 µs to make,
    a third of the ranking's time in the nightly rebuild (docs/benchmarks.md)."""

    player: int
    table: int | None
    rubbers: int
    points: int
    net: int
    hundreds: int
    played: bool = True


class Placing(NamedTuple):
    """Where a player finished: their place in the room (None: unranked, RULES 6.3), at their
    table, and the choice of their table's prize if they won it. ``tied`` and ``table_tied``:
    the place is shared; ``prize_tied``: the choice is shared (a tie at the top of the table, or
    with another table's winner), until a cut decides it (RULES 6.3)."""

    player: int
    rank: int | None
    tied: bool
    table_rank: int | None
    table_tied: bool
    prize_choice: int | None
    prize_tied: bool

    @property
    def place(self) -> str | None:
        return place_label(self.rank, self.tied)


def place_label(rank: int | None, tied: bool) -> str | None:
    """A place as the standings write it (RULES 6.3): "2", "=2" when shared, None unranked."""
    if rank is None:
        return None
    return f"={rank}" if tied else str(rank)


def shared(ranks: Iterable[int | None]) -> set[int]:
    """The ranks (or choices) held by more than one player."""
    seen: set[int] = set()
    twice: set[int] = set()
    for rank in ranks:
        if rank is not None:
            (twice if rank in seen else seen).add(rank)
    return twice


def competition_ranks(keys: Sequence[object]) -> list[int]:
    """Standard competition ranking ("1224") of keys already in order, best first: equal keys
    share a rank and the next is skipped (RULES 6.3). Who comes first among equal keys is the
    caller's order (by id, never by name)."""
    ranks: list[int] = []
    for position, key in enumerate(keys, start=1):
        ranks.append(ranks[-1] if ranks and keys[position - 2] == key else position)
    return ranks


def sort_key(ranking: Ranking) -> Callable[[Entry], tuple[int, ...]]:
    """The figures players are ranked by, best first when sorted ascending (RULES 4.3, 6.3).

    ``net`` (default): hundreds, then the net points before rounding (RULES 4.1 keeps both).
    ``gross``: each player's side totals added up, nothing deducted (pivot sessions).
    """
    if ranking == "gross":
        return lambda e: (-e.points,)
    return lambda e: (-e.hundreds, -e.net)


def rank_entries(entries: Iterable[Entry], ranking: Ranking = "net") -> list[Placing]:
    """Place the room, each table on its own, and order the prizes (RULES 6.3).

    Players who played a deal are ranked; the others follow, unranked. Each table has one prize,
    won by the first at that table; players sharing the first place share it. The prizes are
    chosen in room order, the highest score in the room first; tables whose winners' figures
    are equal share a choice and the next is skipped. A table where no rubber has ended yet has
    no winner. The result is in room order, the unranked last.

    Equal figures share a place ("1224"); players who share one are listed by their id, which
    says nothing of their names (RULES 6.3). The room is sorted once: each table's players
    keep the room's order, which is their order by figures and id. One entry a player.
    """
    entries = list(entries)
    key = sort_key(ranking)
    room = sorted(
        [(key(e), e.player, position, e) for position, e in enumerate(entries) if e.played]
    )
    room_rank = competition_ranks([figures for figures, *_ in room])
    table_rank, table_tied, choice = _tables([(figures, e) for figures, _, _, e in room])
    room_tied = shared(room_rank)
    prize_tied = shared(choice.values())
    placed = []
    for rank, (_, player, _, _) in zip(room_rank, room, strict=True):
        prize = choice.get(player)
        placed.append(
            Placing(
                player,
                rank,
                rank in room_tied,
                table_rank.get(player),
                player in table_tied,
                prize,
                prize in prize_tied,
            )
        )
    unranked = sorted(e.player for e in entries if not e.played)
    return placed + [Placing(player, None, False, None, False, None, False) for player in unranked]


def _tables(
    room: list[tuple[tuple[int, ...], Entry]],
) -> tuple[dict[int, int], set[int], dict[int, int]]:
    """Each table's places, who shares theirs, and each winner's prize choice (RULES 6.3),
    from the room in order, each player with their figures: a table's players keep it."""
    tables: dict[int, list[tuple[tuple[int, ...], Entry]]] = {}
    for figures, entry in room:
        if entry.table is not None:
            seated = tables.get(entry.table)
            if seated is None:
                tables[entry.table] = [(figures, entry)]
            else:
                seated.append((figures, entry))
    table_rank: dict[int, int] = {}
    table_tied: set[int] = set()
    tops: list[tuple[tuple[int, ...], list[int]]] = []  # (the winners' figures, their ids)
    for _number, seated in sorted(tables.items()):
        ranks = competition_ranks([figures for figures, _ in seated])
        twice = shared(ranks)
        for rank, (_, entry) in zip(ranks, seated, strict=True):
            table_rank[entry.player] = rank
            if rank in twice:
                table_tied.add(entry.player)
        if any(entry.rubbers for _, entry in seated):
            winners = [e.player for rank, (_, e) in zip(ranks, seated, strict=True) if rank == 1]
            tops.append((seated[0][0], winners))
    choice: dict[int, int] = {}
    for figures, winners in tops:
        better = sum(1 for other, _ in tops if other < figures)
        for player in winners:
            choice[player] = better + 1
    return table_rank, table_tied, choice


#: Where a cut left a player sharing a prize's choice: ``won`` a cut (chooses before those it
#: was cut against), ``lost`` every cut (the last of a group the cuts ordered), or ``undecided``
#: (no cut recorded yet: the choice stays shared).
CutOutcome = Literal["won", "lost", "undecided"]


def cut_order(
    players: Iterable[int], cuts: Mapping[frozenset[int], int]
) -> list[tuple[int, CutOutcome]]:
    """Players sharing a prize's choice in the order they choose it (RULES 6.3), each with what
    the cuts made of them.

    ``cuts`` maps the players who cut to the winner. A cut among all of them puts its winner
    first; a further cut among the rest puts the next, and so on (three equal winners cut
    twice). Those no cut decides stay last, by id, undecided. A cut whose players are not the
    ones still undecided (the standings changed since) decides nothing.
    """
    undecided = sorted(set(players))
    order: list[tuple[int, CutOutcome]] = []
    while len(undecided) > 1:
        winner = cuts.get(frozenset(undecided))
        if winner not in undecided:
            break
        order.append((winner, "won"))
        undecided.remove(winner)
    if len(undecided) == 1 and order:
        return [*order, (undecided[0], "lost")]
    return order + [(player, "undecided") for player in undecided]
