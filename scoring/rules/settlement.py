"""Settling a session's back score in money, with the fewest payments (RULES 4.2).

A player's money is their hundreds times the session's stake per hundred. Settlement turns those
balances into payments: who pays whom. A set of payments is a graph on the players, and every
connected part of it must sum to zero and needs at least one payment fewer than it has players.
So the fewest payments is ``n - g``, where ``n`` counts the players with a non-zero balance and
``g`` is the largest number of disjoint zero-sum groups they can be split into; each group then
settles with one payment fewer than its size.

Finding ``g`` is hard in general (it contains subset-sum), so it is searched exactly for up to
``EXACT_LIMIT`` players, and settled greedily above that (see ``settle``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from heapq import heapify, heappop, heapreplace
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from scoring.rules.errors import ScoringError

__all__ = ["EXACT_LIMIT", "Payment", "PlayerKey", "most_zero_sum_groups", "player_money", "settle"]

_RULE = "RULES 4.2"

#: Up to this many players (left after exact opposite pairs are matched) the fewest payments are
#: found exactly: about 2 ms at the limit for a seeded session's balances (docs/benchmarks.md);
#: the worst case still grows exponentially with the players.
EXACT_LIMIT = 20


class PlayerKey(Protocol):
    """What settlement needs of a player key: hashable and ordered (ints in practice)."""

    def __hash__(self) -> int: ...

    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=PlayerKey)


class Payment(NamedTuple, Generic[K]):
    """``payer`` pays ``payee`` a positive ``amount`` (in the stake's currency, to the cent).
    A named tuple, immutable (a frozen dataclass cost 1.7 µs a payment to make)."""

    payer: K
    payee: K
    amount: Decimal


def player_money(hundreds: Mapping[K, int], stake_per_hundred: Decimal) -> dict[K, Decimal]:
    """Each player's money: hundreds × stake per hundred, to the cent (RULES 4.2).

    Amounts are rounded to the cent half up (away from zero: 0.125 → 0.13, -0.125 → -0.13).
    Whole-cent stakes never round. With a stake in fractions of a cent, rounding each player can
    leave the session a few cents off zero; those cents are taken back one each from the players
    that rounding moved furthest the same way (largest remainder; ties by player key), so the
    amounts always sum to exactly zero and each stays within a cent of its exact value.

    Refused (``ScoringError``): hundreds that do not sum to zero, or that are not whole numbers;
    a stake that is negative or not a finite ``Decimal``.
    """
    return {player: _money(cents) for player, cents in _balances(hundreds, stake_per_hundred)}


def settle(hundreds: Mapping[K, int], stake_per_hundred: Decimal) -> list[Payment[K]]:
    """Who pays whom to settle a session (RULES 4.2): the fewest payments that clear every balance.

    Balances are ``player_money``. Players with a zero balance take no part. Any debtor and
    creditor whose balances are exact opposites settle with each other: some fewest-payment
    settlement always does so. If at most ``EXACT_LIMIT`` players are left, they are split into
    the largest number of zero-sum groups (an exact search over subsets), which gives the fewest
    payments. Above the limit they are settled as one group, a fallback that is not always optimal.
    Within a group, repeatedly the largest debtor pays the largest creditor as much as one of them
    needs (ties by player key), so a group of ``m`` players needs at most ``m - 1`` payments.

    Every amount is positive, each player's payments net to their balance, and there are never
    more than ``n - 1`` payments for ``n`` players with a balance. The result is the same for the
    same balances whatever the mapping's order: payments are sorted by amount (largest first),
    then payer, then payee.

    >>> [(p.payer, p.payee, p.amount) for p in settle({1: 5, 2: -3, 3: -2}, Decimal("0.50"))]
    [(2, 1, Decimal('1.50')), (3, 1, Decimal('1.00'))]
    """
    owing = sorted((player, cents) for player, cents in _balances(hundreds, stake_per_hundred))
    # (minus the cents, payer, payee): sorted as the payments are listed, then made.
    payments = [
        payment for group in _zero_sum_groups([b for b in owing if b[1]]) for payment in _pay(group)
    ]
    payments.sort()
    return [Payment(payer, payee, _money(-cents)) for cents, payer, payee in payments]


def _balances(hundreds: Mapping[K, int], stake: Decimal) -> list[tuple[K, int]]:
    """Each player's balance in whole cents, in the mapping's order (see ``player_money``)."""
    if not isinstance(stake, Decimal) or not stake.is_finite() or stake < 0:
        raise ScoringError(
            "stake_per_hundred",
            "must be a finite Decimal of zero or more, not {value!r}",
            _RULE,
            value=stake,
        )
    for player, count in hundreds.items():
        if isinstance(count, bool) or not isinstance(count, int):
            raise ScoringError(
                f"hundreds[{player!r}]", "must be a whole number, not {value!r}", None, value=count
            )
    total = sum(hundreds.values())
    if total:
        raise ScoringError(
            "hundreds", "must sum to zero, but they sum to {total:+d}", _RULE, total=total
        )
    per_hundred = stake * 100
    if per_hundred == per_hundred.to_integral_value():  # whole cents (the usual stake): exact
        whole = int(per_hundred)
        return [(player, count * whole) for player, count in hundreds.items()]
    exact = {player: count * stake * 100 for player, count in hundreds.items()}
    cents = {p: int(x.quantize(Decimal(1), rounding=ROUND_HALF_UP)) for p, x in exact.items()}
    excess = sum(cents.values())
    if excess:
        sign = 1 if excess > 0 else -1
        furthest = sorted(cents, key=lambda p: (sign * (exact[p] - cents[p]), p))
        for player in furthest[: abs(excess)]:
            cents[player] -= sign
    return list(cents.items())


def _money(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


def _zero_sum_groups(balances: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    """Split non-zero balances (sorted by key) into zero-sum groups, as many as feasible."""
    by_size: dict[int, tuple[list[tuple[K, int]], list[tuple[K, int]]]] = {}
    for balance in balances:
        cents = balance[1]
        sides = by_size.get(abs(cents))
        if sides is None:
            sides = by_size[abs(cents)] = ([], [])
        sides[cents < 0].append(balance)
    groups: list[list[tuple[K, int]]] = []
    rest: list[tuple[K, int]] = []
    for creditors, debtors in by_size.values():
        pairs = min(len(creditors), len(debtors))
        groups.extend([c, d] for c, d in zip(creditors[:pairs], debtors[:pairs], strict=True))
        rest.extend(creditors[pairs:] + debtors[pairs:])
    if len(rest) > EXACT_LIMIT:
        return [*groups, sorted(rest)]
    rest.sort()
    for mask in most_zero_sum_groups([cents for _, cents in rest]):
        group = []
        while mask:  # the members, lowest bit first
            lowest = mask & -mask
            group.append(rest[lowest.bit_length() - 1])
            mask ^= lowest
        groups.append(group)
    return groups


def most_zero_sum_groups(values: list[int]) -> list[int]:
    """Partition ``values`` (non-zero, summing to zero) into the most zero-sum groups, as masks.

    A subset of the ``n`` values is an ``n``-bit mask. Groups are taken off one at a time: each
    is the zero-sum subset of the largest mask whose removal leaves a set that still splits into
    one group fewer (so it holds the highest value left), and the last group is what remains.
    Whether a set splits into ``t`` groups is a depth-first search (``_Search.splits``).

    These are the groups the earlier search over every subset at once (a ``2**n``-bit int, layer
    by layer) picked, so stored payments did not change; tests/scoring/rules/test_settlement.py
    keeps that search as the oracle. It took ~20 ms at 20 players; this one ~2 ms on the seeded
    data.
    """
    if not values:
        return []
    everyone = (1 << len(values)) - 1
    creditors = sum(1 for value in values if value > 0)
    if _most_groups(len(values), creditors, _smallest_group(values)) <= 1:
        # One group at most (say three to five values with no opposites, as ``settle`` leaves
        # them): the whole set, with no subsets to make.
        return [everyone]
    search = _Search(values)
    most = 1
    for count in range(search.upper_bound(everyone), 1, -1):
        # No smaller set in the search has a larger limit (each group taken off has at least
        # ``smallest`` members), so what is made for the whole set serves all of it.
        search.make(search.size_limit(everyone, count))
        if search.splits(everyone, count):
            most = count
            break
    groups = []
    rest = everyone
    for count in range(most, 1, -1):
        largest = search.size_limit(rest, count)
        group = next(
            group
            for group in sorted(search.holding_highest(rest, largest), reverse=True)
            if search.splits(rest ^ group, count - 1)
        )
        groups.append(group)
        rest ^= group
    groups.append(rest)
    return groups


class _Search:
    """Can a zero-sum set of values (a bit mask) split into ``count`` zero-sum groups?

    The group holding the set's highest value is one of the zero-sum subsets holding it; the
    rest must then split into ``count - 1``. Bounds cut the search short: every group needs a
    creditor and a debtor and, when no two values are opposites (``_zero_sum_groups`` has
    matched those), three members; so a set holds at most ``upper_bound`` groups, and a group
    may take only as many members as leave enough for the others (``size_limit``). Answers are
    remembered per set as the most groups known possible and the fewest known impossible.

    The zero-sum subsets come from a meet in the middle: a subset of the low half of the values
    (by sum, smallest first) joined to a subset of the high half summing to minus it. They are
    filed by highest member and size, and made only up to the largest size asked for
    (``make``): the search wants small groups, and most zero-sum subsets are large.
    """

    def __init__(self, values: list[int]) -> None:
        n = len(values)
        self.smallest = _smallest_group(values)
        self.creditors = sum(1 << i for i, value in enumerate(values) if value > 0)
        low = n // 2
        self.low_sizes = _sizes(low)
        #: lows[total]: the low-half subsets summing to ``total``, smallest first (ascending
        #: masks within a size, as ``_by_size`` lists them).
        lows: dict[int, list[int]] = {}
        known = lows.get
        by_size = _by_size(low)
        sums = map(_subset_sums(values[:low]).__getitem__, by_size)
        for mask, total in zip(by_size, sums, strict=True):
            found = known(total)
            if found is None:
                lows[total] = [mask]
            else:
                found.append(mask)
        # (high-half subset, the low halves completing it to zero, its size, its highest
        # member), smallest first: ``make`` stops at the first too large.
        wanted = _subset_sums([-value for value in values[low:]])  # minus each one's sum
        self.halves = [
            (mask << low, lows_, size, top + low)
            for mask, size, top in _nonempty_by_size(n - low)
            if (lows_ := known(wanted[mask])) is not None
        ]
        self.low_only = [mask for mask in lows.get(0, ()) if mask]
        #: filed[i * 32 + k]: the zero-sum subsets of size ``k`` (at most 20: ``EXACT_LIMIT``)
        #: whose highest member is value ``i``.
        self.filed: defaultdict[int, list[int]] = defaultdict(list)
        self.made = 0  # subsets are filed up to this size
        self.known: dict[int, list[int]] = {}

    def upper_bound(self, rest: int) -> int:
        creditors = (rest & self.creditors).bit_count()
        return _most_groups(rest.bit_count(), creditors, self.smallest)

    def size_limit(self, rest: int, count: int) -> int:
        """The most members a group of ``rest`` may take if the others make ``count - 1``."""
        return rest.bit_count() - self.smallest * (count - 1)

    def make(self, largest: int) -> None:
        """File the zero-sum subsets of up to ``largest`` members."""
        first = self.made + 1
        if largest < first:
            return
        self.made = largest
        filed = self.filed
        for mask in self.low_only:
            if first <= mask.bit_count() <= largest:
                filed[(mask.bit_length() - 1) * 32 + mask.bit_count()].append(mask)
        low_sizes = self.low_sizes
        for high, lows, size, top in self.halves:
            if size > largest:
                break
            key, fewest, most = top * 32 + size, first - size, largest - size
            for mask in lows:
                low_size = low_sizes[mask]
                if low_size > most:
                    break
                if low_size >= fewest:
                    filed[key + low_size].append(high | mask)

    def holding_highest(self, rest: int, largest: int) -> list[int]:
        """The zero-sum subsets of ``rest`` holding its highest value, up to ``largest`` members
        (as far as ``make`` has filed them)."""
        top, filed = (rest.bit_length() - 1) * 32, self.filed
        return [
            group
            for size in range(self.smallest, largest + 1)
            for group in filed.get(top + size, ())
            if group & rest == group
        ]

    def splits(self, rest: int, count: int) -> bool:
        """Whether the zero-sum set ``rest`` splits into at least ``count`` zero-sum groups."""
        if count <= 1:
            return True
        known = self.known.get(rest)
        size, smallest = rest.bit_count(), self.smallest
        if known is None:  # ``upper_bound``, inlined (``_most_groups``)
            creditors = (rest & self.creditors).bit_count()
            known = self.known[rest] = [1, min(creditors, size - creditors, size // smallest) + 1]
        if count <= known[0]:
            return True
        if count >= known[1]:
            return False
        # ``holding_highest``, inlined: most of the search's time is spent here.
        top, filed = (rest.bit_length() - 1) * 32, self.filed
        for key in range(top + smallest, top + size - smallest * (count - 1) + 1):
            for group in filed.get(key, ()):
                if group & rest == group and self.splits(rest ^ group, count - 1):
                    known[0] = count
                    return True
        known[1] = count
        return False


def _smallest_group(values: list[int]) -> int:
    """The fewest members a zero-sum group of ``values`` can have: two if some values are
    opposites, else three (a group needs a creditor and a debtor)."""
    present = set(values)
    return 2 if any(-value in present for value in present) else 3


def _most_groups(size: int, creditors: int, smallest: int) -> int:
    """The most zero-sum groups ``size`` values (``creditors`` of them positive) can split into:
    each group needs a creditor, a debtor and ``smallest`` members."""
    return min(creditors, size - creditors, size // smallest)


@cache
def _sizes(count: int) -> list[int]:
    """The number of members of each subset of ``count`` values, indexed by its bit mask."""
    return [mask.bit_count() for mask in range(1 << count)]


@cache
def _by_size(count: int) -> list[int]:
    """The bit masks of the subsets of ``count`` values, smallest subsets first."""
    return sorted(range(1 << count), key=_sizes(count).__getitem__)


@cache
def _nonempty_by_size(count: int) -> list[tuple[int, int, int]]:
    """(mask, size, highest member) of the non-empty subsets of ``count`` values, smallest
    subsets first."""
    return [(mask, mask.bit_count(), mask.bit_length() - 1) for mask in _by_size(count) if mask]


def _subset_sums(values: list[int]) -> list[int]:
    """The sum of every subset of ``values``, indexed by its bit mask."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


def _pay(group: list[tuple[K, int]]) -> list[tuple[int, K, K]]:
    """Settle one zero-sum group: the largest debtor pays the largest creditor (ties by player
    key), until all clear. Each payment as (minus its cents, payer, payee)."""
    if len(group) == 2:  # an opposite pair (most groups): one payment
        (first, cents), (second, _) = group
        return [(-cents, second, first)] if cents > 0 else [(cents, first, second)]
    # Heaps by (minus what is owed, player): the top of each is the largest, ties by key.
    debtors = [(cents, player) for player, cents in group if cents < 0]
    creditors = [(-cents, player) for player, cents in group if cents > 0]
    heapify(debtors)
    heapify(creditors)
    payments: list[tuple[int, K, K]] = []
    while debtors:
        debt, debtor = debtors[0]
        credit, creditor = creditors[0]
        if debt < credit:  # the creditor is paid in full
            payments.append((credit, debtor, creditor))
            heapreplace(debtors, (debt - credit, debtor))
            heappop(creditors)
        else:  # the debtor pays all they owe, and the creditor may still be owed
            payments.append((debt, debtor, creditor))
            heappop(debtors)
            if debt == credit:
                heappop(creditors)
            else:
                heapreplace(creditors, (credit - debt, creditor))
    return payments
