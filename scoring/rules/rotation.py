"""Seating and rotation at one table: who sits where, and who sits out, rubber by rubber.

RULES 6.1 (pivot, four players) and RULES 6.2 (five or six players cutting in). Seats are
``"N"``, ``"E"``, ``"S"``, ``"W"``, clockwise: a player's left-hand opponent is the next seat
(N's left is E), her right-hand opponent the one before (N's right is W). N-S and E-W are the
partnerships. ``players`` is always the table's order of precedence, first player first.

``plan`` continues from any earlier seatings (``history``), including ones with players who have
since left; it never changes them. Everything it needs is read back from them: who played how
many rubbers in a row, who waited for the last one, who has partnered whom, where each one sat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType
from typing import Final, Generic, TypeVar

from scoring.rules.errors import ScoringError

__all__ = ["MOVEMENTS", "SEATS", "Fairness", "Seating", "fairness", "plan"]

#: The seats, clockwise: each one's left-hand opponent sits in the next.
SEATS: Final = ("N", "E", "S", "W")
#: ``pivot`` (RULES 6.1), ``fixed`` partnerships, and ``cut-in`` (RULES 6.2).
MOVEMENTS: Final = ("pivot", "fixed", "cut-in")

_CUT_IN = "RULES 6.2"
#: How many rubbers ahead cut-in partnerships are planned (see ``_partnerships``); three is
#: enough for every pair to partner equally often from the start, with four, five or six.
LOOKAHEAD = 3

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Seating(Generic[K]):
    """Who sits where for one rubber, and who waits (sits out) for it.

    ``rubber`` is the rubber's number at the table, from 1. ``seats`` maps each of N, E, S, W to a
    player (stored read-only, in that order). ``sitting_out`` lists the players who wait, in order
    of precedence; a table holds at most six (RULES 6.2), so at most two wait.
    """

    rubber: int
    seats: Mapping[str, K]
    sitting_out: tuple[K, ...] = ()

    def __post_init__(self) -> None:
        if self.rubber < 1:
            raise ScoringError(
                "rubber", "rubbers are numbered from 1, not {rubber}", None, rubber=self.rubber
            )
        if sorted(self.seats) != sorted(SEATS):
            raise ScoringError(
                "seats",
                "needs exactly the seats N, E, S, W, not {seats}",
                None,
                seats=list(self.seats),
            )
        seated = [self.seats[seat] for seat in SEATS]
        if len(set(seated)) != len(SEATS):
            raise ScoringError(
                "seats", "needs four different players, not {players}", None, players=seated
            )
        waiting = tuple(self.sitting_out)
        if len(set(waiting)) != len(waiting) or set(waiting) & set(seated):
            raise ScoringError("sitting_out", "a player waits at most once and not while seated")
        if len(waiting) > 2:
            raise ScoringError("sitting_out", "a table holds at most six players", _CUT_IN)
        object.__setattr__(self, "seats", MappingProxyType(dict(zip(SEATS, seated, strict=True))))
        object.__setattr__(self, "sitting_out", waiting)

    def __hash__(self) -> int:
        return hash((self.rubber, self.players(), self.sitting_out))

    def __reduce__(self) -> tuple[type[Seating[K]], tuple[int, dict[str, K], tuple[K, ...]]]:
        # A read-only mapping cannot be pickled; a copy of it as a dict can.
        return (type(self), (self.rubber, dict(self.seats), self.sitting_out))

    def players(self) -> tuple[K, K, K, K]:
        """The four players, seated N, E, S, W."""
        north, east, south, west = (self.seats[seat] for seat in SEATS)
        return north, east, south, west

    def partners(self) -> tuple[frozenset[K], frozenset[K]]:
        """The two partnerships: N-S, then E-W."""
        north, east, south, west = self.players()
        return frozenset((north, south)), frozenset((east, west))


@dataclass(frozen=True, slots=True)
class Fairness(Generic[K]):
    """How evenly some seatings share the play (see ``fairness``)."""

    #: Times each pair partnered (pairs that never did are left out).
    partners: dict[frozenset[K], int]
    #: Rubbers each player played, and sat out; every player who appears is in both.
    played: dict[K, int]
    sat_out: dict[K, int]


def fairness(seatings: Iterable[Seating[K]]) -> Fairness[K]:
    """Count partnerships, rubbers played and rubbers sat out over ``seatings`` (RULES 6.1, 6.2)."""
    partners: Counter[frozenset[K]] = Counter()
    played: dict[K, int] = {}
    sat_out: dict[K, int] = {}
    for seating in seatings:
        for player in seating.players():
            played[player] = played.get(player, 0) + 1
            sat_out.setdefault(player, 0)
        for player in seating.sitting_out:
            sat_out[player] = sat_out.get(player, 0) + 1
            played.setdefault(player, 0)
        partners.update(seating.partners())
    return Fairness(dict(partners), played, sat_out)


def plan(
    players: Sequence[K],
    count: int,
    *,
    movement: str = "pivot",
    history: Sequence[Seating[K]] = (),
) -> list[Seating[K]]:
    """The seatings for the next ``count`` rubbers at a table, after those in ``history``.

    ``players`` are the four to six now at the table, in order of precedence (RULES 6.2); the
    first is the first dealer, and the pivot. Rubbers are numbered on from the history's last.

    - ``pivot``, four players (RULES 6.1): the pivot keeps seat N. The first rubber seats
      ``players`` in order N, E, S, W; after each rubber the other three move one seat round her:
      E passes behind her to W, W moves to S, S to E. Her partners are the player opposite, then
      the one first on her right, then the one first on her left: after three rubbers everyone
      has partnered everyone once, and the cycle repeats. If the last rubber in ``history`` was
      played four-handed by these same four, the cycle goes on from it (whoever sat N stays the
      pivot); otherwise it starts again from ``players``.
    - ``fixed``, four players: the same seats every rubber; those of the last rubber in
      ``history`` if the same four played it, otherwise ``players`` in order N, E, S, W.
    - ``cut-in`` (RULES 6.2), and ``pivot`` with five or six players: after each rubber, those
      who have played the most rubbers in a row sit out and those who waited come in. A newcomer
      has played none in a row, so she comes in at once. Ties go by precedence: the earlier in
      precedence plays on and sits out later, so the first rubber is played by the first four.
      Nobody waits twice in a row, and the same ones sit out in turn, so over any stretch of
      planned rubbers the numbers of rubbers played differ by at most one, whatever the history.
      Among the four who play, the partnerships are those that repeat least over this rubber
      and the next ``LOOKAHEAD - 1`` (a repeat: a pair partnering again, counted once for each
      time before, history included); ties go to repeats coming later, then to the pivot's
      order: the first in precedence partners the third, then the fourth, then the second of
      the four. Seats then move as little as possible from the last rubber (ties: the first in
      precedence at N, her partner at S, the earlier of the other two at E). With four players
      nobody sits out and the partners rotate.

    Refused (``ScoringError``): fewer than four or more than six players, or a player listed
    twice (field ``players``, RULES 6.2); a negative ``count``; an unknown ``movement``, or
    ``fixed`` with five or six; ``history`` rubbers not numbered one after another.
    """
    table = _check(players, count, movement, history)
    first = history[-1].rubber + 1 if history else 1
    last = history[-1] if history else None
    if len(table) == 4 and movement != "cut-in":
        return _four_handed(table, count, first, last, pivot=movement == "pivot")
    return _cut_in(table, count, first, history)


def _check(
    players: Sequence[K], count: int, movement: str, history: Sequence[Seating[K]]
) -> tuple[K, ...]:
    table = tuple(players)
    if not 4 <= len(table) <= 6:
        raise ScoringError(
            "players",
            "a table holds four to six players, not {count}",
            _CUT_IN,
            count=len(table),
        )
    if len(set(table)) != len(table):
        raise ScoringError("players", "each player can be listed only once", _CUT_IN)
    if count < 0:
        raise ScoringError("count", "must be zero or more, not {count}", None, count=count)
    if movement not in MOVEMENTS:
        raise ScoringError(
            "movement",
            "must be one of {movements}, not {movement!r}",
            None,
            movements=", ".join(MOVEMENTS),
            movement=movement,
        )
    if movement == "fixed" and len(table) > 4:
        raise ScoringError("movement", "fixed partnerships need exactly four players", _CUT_IN)
    for before, after in pairwise(history):
        if after.rubber != before.rubber + 1:
            raise ScoringError(
                "history",
                "rubber {after} follows rubber {before}; must be numbered in order",
                None,
                after=after.rubber,
                before=before.rubber,
            )
    return table


def _four_handed(
    table: tuple[K, ...], count: int, first: int, last: Seating[K] | None, *, pivot: bool
) -> list[Seating[K]]:
    """Pivot (RULES 6.1) or fixed partnerships for four players."""
    if last is not None and set(last.players()) == set(table) and not (pivot and last.sitting_out):
        seats = _pivot_step(last.seats) if pivot else dict(last.seats)
    else:
        seats = dict(zip(SEATS, table, strict=True))
    seatings = []
    for rubber in range(first, first + count):
        seatings.append(Seating(rubber, seats))
        if pivot:
            seats = _pivot_step(seats)
    return seatings


def _pivot_step(seats: Mapping[str, K]) -> dict[str, K]:
    """RULES 6.1: N stays; E passes behind her to W, W moves to S, S to E."""
    return {"N": seats["N"], "E": seats["S"], "S": seats["W"], "W": seats["E"]}


def _cut_in(
    table: tuple[K, ...], count: int, first: int, history: Sequence[Seating[K]]
) -> list[Seating[K]]:
    """RULES 6.2: five or six players (or four, rotating partners) cutting in."""
    in_a_row: dict[K, int] = {}
    partnered: Counter[frozenset[K]] = Counter()
    for seating in history:
        in_a_row = _played_on(in_a_row, seating.players())
        partnered.update(seating.partners())
    last = history[-1] if history else None
    waited = frozenset(last.sitting_out) if last else frozenset()
    seatings = []
    for rubber in range(first, first + count):
        upcoming = _foursomes(table, in_a_row, waited)
        pairs = _partnerships(upcoming, partnered)
        out = tuple(player for player in table if player not in upcoming[0])
        last = Seating(rubber, _seat(pairs, last), out)
        in_a_row = _played_on(in_a_row, upcoming[0])
        waited = frozenset(out)
        partnered.update(last.partners())
        seatings.append(last)
    return seatings


def _played_on(in_a_row: Mapping[K, int], playing: Iterable[K]) -> dict[K, int]:
    """Rubbers played in a row after one more; whoever did not play it (waiting or away) has 0."""
    return {player: in_a_row.get(player, 0) + 1 for player in playing}


def _foursomes(
    table: tuple[K, ...], in_a_row: Mapping[K, int], waited: frozenset[K]
) -> list[tuple[K, K, K, K]]:
    """The four who play each of the next ``LOOKAHEAD`` rubbers, in precedence order (RULES 6.2).

    Those who waited for the last rubber come in. Of the rest, those who have played the most
    rubbers in a row sit out, the later in precedence first. Who sits out never depends on who
    partners whom, so it can be worked out ahead of the partnerships.
    """
    rank = {player: i for i, player in enumerate(table)}
    foursomes = []
    for _ in range(LOOKAHEAD):
        order = sorted(
            table,
            key=lambda p: (p not in waited, in_a_row.get(p, 0), rank[p]),
            reverse=True,
        )
        waited = frozenset(order[: len(table) - 4])
        a, b, c, d = (player for player in table if player not in waited)
        foursomes.append((a, b, c, d))
        in_a_row = _played_on(in_a_row, (a, b, c, d))
    return foursomes


def _partnerships(
    foursomes: Sequence[tuple[K, K, K, K]], partnered: Counter[frozenset[K]]
) -> tuple[tuple[K, K], tuple[K, K]]:
    """The partnerships for the first of ``foursomes`` that repeat least over all of them.

    Repeats are counted as the times each chosen pair has partnered before (history included),
    summed over the rubbers; every way of pairing the later foursomes is tried. Looking ahead
    avoids pairings that force repeats later: five players can partner each other exactly once
    in five rubbers, but not if the third rubber pairs them greedily. Ties go in the pivot's
    order (RULES 6.1): the first of the four partners the third, then the fourth, then the second.
    """

    def options(four: tuple[K, K, K, K]) -> list[tuple[tuple[K, K], tuple[K, K]]]:
        a, b, c, d = four
        return [((a, c), (b, d)), ((a, d), (b, c)), ((a, b), (c, d))]

    def now(pairs: tuple[tuple[K, K], tuple[K, K]], counts: Counter[frozenset[K]]) -> int:
        return counts[frozenset(pairs[0])] + counts[frozenset(pairs[1])]

    def repeats(
        pairs: tuple[tuple[K, K], tuple[K, K]], later: int, counts: Counter[frozenset[K]]
    ) -> tuple[int, tuple[int, ...]]:
        """Total repeats and repeats rubber by rubber, choosing ``pairs`` and then the best."""
        if later == len(foursomes):
            return now(pairs, counts), (now(pairs, counts),)
        after = counts + Counter(frozenset(pair) for pair in pairs)
        total, each = min(repeats(o, later + 1, after) for o in options(foursomes[later]))
        return now(pairs, counts) + total, (now(pairs, counts), *each)

    return min(options(foursomes[0]), key=lambda o: repeats(o, 1, partnered))


def _seat(pairs: tuple[tuple[K, K], tuple[K, K]], last: Seating[K] | None) -> dict[str, K]:
    """Seat two partnerships so that as many players as possible keep last rubber's seat."""
    before = {player: seat for seat, player in last.seats.items()} if last else {}
    first, second = pairs
    candidates = [
        {"N": north, "E": east, "S": south, "W": west}
        for north_south, east_west in ((first, second), (second, first))
        for north, south in (north_south, north_south[::-1])
        for east, west in (east_west, east_west[::-1])
    ]
    return max(
        candidates,
        key=lambda seats: sum(before.get(player) == seat for seat, player in seats.items()),
    )
