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
from typing import Any, Generic, Protocol, TypeVar

from scoring.rules.errors import ScoringError

__all__ = ["EXACT_LIMIT", "Payment", "PlayerKey", "player_money", "settle"]

_RULE = "RULES 4.2"

#: Up to this many players (left after exact opposite pairs are matched) the fewest payments are
#: found exactly; it takes a few tens of milliseconds at the limit, and doubles with each player.
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
    payments = [
        payment for group in _zero_sum_groups([b for b in owing if b[1]]) for payment in _pay(group)
    ]
    return sorted(payments, key=lambda p: (-p.amount, p.payer, p.payee))


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
    for mask in _most_zero_sum_groups([cents for _, cents in rest]):
        groups.append([rest[i] for i in range(len(rest)) if mask >> i & 1])
    return groups


def _most_zero_sum_groups(values: list[int]) -> list[int]:
    """Partition ``values`` (which sum to zero) into the most zero-sum groups, as bit masks.

    A subset of the ``n`` values is an ``n``-bit mask; a set of subsets is an int of ``2**n``
    bits, bit ``m`` standing for subset ``m``, so each ``|``, ``&`` and ``<<`` below works on all
    subsets at once. ``layers[k]`` holds the zero-sum subsets that split into ``k + 1`` zero-sum
    groups: a zero-sum subset strictly containing a member of ``layers[k - 1]`` (the difference of
    two zero-sum subsets sums to zero too). The whole set is in ``layers[0]``; the deepest layer
    holding it gives the answer, and walking back down the layers recovers the groups.
    """
    n = len(values)
    if n == 0:
        return []
    everyone = (1 << n) - 1
    # without[i]: the subsets that leave out value i; shifting one left by 2**i adds value i.
    without = []
    for i in range(n):
        bits, width = (1 << (1 << i)) - 1, 1 << (i + 1)
        while width < 1 << n:
            bits |= bits << width
            width *= 2
        without.append(bits)

    def grown(subsets: int) -> int:
        """Every strict superset of the given subsets."""
        bigger = 0
        for i in range(n):
            bigger |= (subsets & without[i]) << (1 << i)
        for i in range(n):
            bigger |= (bigger & without[i]) << (1 << i)
        return bigger

    zero_sum = _zero_sum_subsets(values) & ~1
    layers = [zero_sum]
    while True:
        deeper = zero_sum & grown(layers[-1])
        if not deeper >> everyone & 1:
            break
        layers.append(deeper)
    groups = []
    rest = everyone
    for layer in reversed(layers[:-1]):
        within = layer & ~(1 << rest)
        for i in range(n):
            if not rest >> i & 1:
                within &= without[i]
        smaller = (within & -within).bit_length() - 1
        groups.append(rest ^ smaller)
        rest = smaller
    groups.append(rest)
    return groups


def _zero_sum_subsets(values: list[int]) -> int:
    """The set (one bit per subset, as in ``_most_zero_sum_groups``) of zero-sum subsets.

    Meet in the middle: a subset is a low half (the first ``low`` values) plus a high half, and
    sums to zero when the low half's sum is minus the high half's. For each high half, the
    matching low halves form one ``2**low``-bit block of the answer; the blocks are joined as
    bytes, hence at least three low values (a whole byte) whenever there is a high half.
    """
    low = min(len(values), max(3, len(values) // 2))
    low_halves: dict[int, int] = defaultdict(int)
    for mask, total in enumerate(_subset_sums(values[:low])):
        low_halves[total] |= 1 << mask
    size = max(1, (1 << low) // 8)
    blocks = (
        low_halves.get(-total, 0).to_bytes(size, "little") for total in _subset_sums(values[low:])
    )
    return int.from_bytes(b"".join(blocks), "little")


def _subset_sums(values: list[int]) -> list[int]:
    """The sum of every subset of ``values``, indexed by its bit mask."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


def _pay(group: list[tuple[K, int]]) -> list[Payment[K]]:
    """Settle one zero-sum group: the largest debtor pays the largest creditor, until all clear."""
    owed = dict(group)
    payments = []
    while owed:
        debtor = min(owed, key=lambda p: (owed[p], p))
        creditor = min(owed, key=lambda p: (-owed[p], p))
        amount = min(-owed[debtor], owed[creditor])
        payments.append(Payment(debtor, creditor, _money(amount)))
        owed[debtor] += amount
        owed[creditor] -= amount
        owed = {player: cents for player, cents in owed.items() if cents}
    return payments
