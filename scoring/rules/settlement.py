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
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from itertools import groupby
from typing import Any, Generic, Protocol, TypeVar

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


@dataclass(frozen=True, slots=True)
class Payment(Generic[K]):
    """``payer`` pays ``payee`` a positive ``amount`` (in the stake's currency, to the cent)."""

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
    by_size: dict[int, tuple[list[tuple[K, int]], list[tuple[K, int]]]] = defaultdict(
        lambda: ([], [])
    )
    for balance in balances:
        by_size[abs(balance[1])][balance[1] < 0].append(balance)
    groups: list[list[tuple[K, int]]] = []
    rest: list[tuple[K, int]] = []
    for creditors, debtors in by_size.values():
        pairs = min(len(creditors), len(debtors))
        groups.extend([c, d] for c, d in zip(creditors[:pairs], debtors[:pairs], strict=True))
        rest.extend(creditors[pairs:] + debtors[pairs:])
    rest.sort()
    if len(rest) > EXACT_LIMIT:
        return [*groups, rest]
    for mask in most_zero_sum_groups([cents for _, cents in rest]):
        groups.append([rest[i] for i in range(len(rest)) if mask >> i & 1])
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
    search = _Search(values)
    everyone = (1 << len(values)) - 1
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
    (by sum and size) joined to a subset of the high half summing to minus it. They are filed by
    highest member and size, and made only up to the largest size asked for (``make``): the
    search wants small groups, and most zero-sum subsets are large.
    """

    def __init__(self, values: list[int]) -> None:
        n = len(values)
        present = set(values)
        self.smallest = 2 if any(-value in present for value in present) else 3
        self.creditors = sum(1 << i for i, value in enumerate(values) if value > 0)
        low = n // 2
        # Each low-half subset by (sum, size) as one int (sum * 32 + size: a size is at most
        # 10), its masks sorted by it (a stable sort: ascending masks within), grouped: sorting
        # and grouping run in C, Python loops only over the distinct (sum, size) pairs.
        sums = _subset_sums(values[:low])
        keys = [total * 32 + size for total, size in zip(sums, _sizes(low), strict=True)]
        #: lows[total]: the low-half subsets summing to ``total``, as (size, masks) by size.
        lows: dict[int, list[tuple[int, list[int]]]] = {}
        for key, masks in groupby(sorted(range(len(keys)), key=keys.__getitem__), keys.__getitem__):
            lows.setdefault(key >> 5, []).append((key & 31, list(masks)))
        # (high-half subset, the low halves completing it to zero, its size, its highest
        # member), smallest first: ``make`` stops at the first too large.
        highs = _subset_sums(values[low:])
        self.halves = [
            (mask << low, lows[-highs[mask]], mask.bit_count(), mask.bit_length() + low - 1)
            for mask in _by_size(n - low)
            if mask and -highs[mask] in lows
        ]
        self.low_only = [mask for _, masks in lows.get(0, []) for mask in masks if mask]
        #: filed[i, k]: the zero-sum subsets of size ``k`` whose highest member is value ``i``.
        self.filed: dict[tuple[int, int], list[int]] = {}
        self.made = 0  # subsets are filed up to this size
        self.known: dict[int, list[int]] = {}

    def upper_bound(self, rest: int) -> int:
        size, creditors = rest.bit_count(), (rest & self.creditors).bit_count()
        return min(creditors, size - creditors, size // self.smallest)

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
                filed.setdefault((mask.bit_length() - 1, mask.bit_count()), []).append(mask)
        for high, lows, size, top in self.halves:
            if size > largest:
                break
            for low_size, masks in lows:
                total = size + low_size
                if total > largest:
                    break
                if total >= first:
                    filed.setdefault((top, total), []).extend([high | mask for mask in masks])

    def holding_highest(self, rest: int, largest: int) -> list[int]:
        """The zero-sum subsets of ``rest`` holding its highest value, up to ``largest`` members
        (as far as ``make`` has filed them)."""
        top, filed = rest.bit_length() - 1, self.filed
        return [
            group
            for size in range(self.smallest, largest + 1)
            for group in filed.get((top, size), ())
            if group & rest == group
        ]

    def splits(self, rest: int, count: int) -> bool:
        """Whether the zero-sum set ``rest`` splits into at least ``count`` zero-sum groups."""
        if count <= 1:
            return True
        known = self.known.get(rest)
        if known is None:
            known = self.known[rest] = [1, self.upper_bound(rest) + 1]
        if count <= known[0]:
            return True
        if count >= known[1]:
            return False
        for group in self.holding_highest(rest, self.size_limit(rest, count)):
            if self.splits(rest ^ group, count - 1):
                known[0] = count
                return True
        known[1] = count
        return False


@cache
def _sizes(count: int) -> list[int]:
    """The number of members of each subset of ``count`` values, indexed by its bit mask."""
    return [mask.bit_count() for mask in range(1 << count)]


@cache
def _by_size(count: int) -> list[int]:
    """The bit masks of the subsets of ``count`` values, smallest subsets first."""
    return sorted(range(1 << count), key=_sizes(count).__getitem__)


def _subset_sums(values: list[int]) -> list[int]:
    """The sum of every subset of ``values``, indexed by its bit mask."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


def _pay(group: list[tuple[K, int]]) -> list[tuple[int, K, K]]:
    """Settle one zero-sum group: the largest debtor pays the largest creditor (ties by player
    key), until all clear. Each payment as (minus its cents, payer, payee)."""
    owed = dict(group)
    payments: list[tuple[int, K, K]] = []
    while owed:
        debt, debtor = min([(cents, player) for player, cents in owed.items()])
        credit, creditor = min([(-cents, player) for player, cents in owed.items()])
        amount = min(-debt, -credit)
        payments.append((-amount, debtor, creditor))
        owed[debtor] += amount
        owed[creditor] -= amount
        owed = {player: cents for player, cents in owed.items() if cents}
    return payments
