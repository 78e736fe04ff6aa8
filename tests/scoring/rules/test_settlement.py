"""Settlement of a session's back score in money, with the fewest payments (RULES 4.2)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from decimal import Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.rules.errors import ScoringError
from scoring.rules.settlement import (
    EXACT_LIMIT,
    Payment,
    most_zero_sum_groups,
    player_money,
    settle,
)

D = Decimal


def nets(payments: list[Payment[int]]) -> dict[int, Decimal]:
    """Each player's net from the payments: received minus paid."""
    net: dict[int, Decimal] = defaultdict(Decimal)
    for payment in payments:
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    return {player: amount for player, amount in net.items() if amount}


def most_groups_brute_force(values: list[int]) -> int:
    """Brute force: the most groups summing to zero that the values split into."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for size in range(len(rest) + 1):
        for chosen in itertools.combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in chosen) == 0:
                left = [v for i, v in enumerate(rest) if i not in chosen]
                best = max(best, 1 + most_groups_brute_force(left))
    return best


def fewest_payments(money: dict[int, Decimal]) -> int:
    cents = [int(amount * 100) for amount in money.values() if amount]
    return len(cents) - most_groups_brute_force(cents)


# --- examples --------------------------------------------------------------------------------


def test_one_debtor_pays_one_creditor() -> None:
    assert settle({1: 12, 2: -12}, D("0.25")) == [Payment(2, 1, D("3.00"))]


def test_a_rubber_of_four_settles_in_two_payments() -> None:
    # RULES 4.1: winners +N each, losers -N each.
    payments = settle({1: 9, 2: -9, 3: 9, 4: -9}, D("0.10"))
    assert payments == [Payment(2, 1, D("0.90")), Payment(4, 3, D("0.90"))]


def test_one_creditor_is_paid_by_each_debtor_largest_first() -> None:
    payments = settle({1: 5, 2: -3, 3: -2}, D("0.50"))
    assert payments == [Payment(2, 1, D("1.50")), Payment(3, 1, D("1.00"))]


def test_player_money_is_hundreds_times_stake_to_the_cent() -> None:
    money = player_money({1: 14, 2: -6, 3: -8, 4: 0}, D("0.20"))
    assert money == {1: D("2.80"), 2: D("-1.20"), 3: D("-1.60"), 4: D("0")}
    assert [str(amount) for amount in money.values()] == ["2.80", "-1.20", "-1.60", "0.00"]


def test_players_level_at_zero_take_no_part() -> None:
    assert settle({1: 0, 2: 4, 3: -4, 4: 0}, D("1")) == [Payment(3, 2, D("4.00"))]


def test_zero_stake_means_no_payments() -> None:
    assert settle({1: 9, 2: -4, 3: -5}, D("0")) == []
    assert set(player_money({1: 9, 2: -9}, D("0")).values()) == {D("0")}


def test_no_hundreds_means_no_payments() -> None:
    assert settle({}, D("1.00")) == []
    assert settle({1: 0, 2: 0}, D("1.00")) == []


def test_opposite_balances_settle_pairwise() -> None:
    # Three debtor/creditor pairs cancel exactly: 3 payments, one per pair.
    a, b, c, d, e, f = range(1, 7)
    payments = settle({a: 3, b: -3, c: 7, d: -7, e: 2, f: -2}, D("1"))
    assert payments == [
        Payment(d, c, D("7.00")),
        Payment(b, a, D("3.00")),
        Payment(f, e, D("2.00")),
    ]


def test_fewer_payments_than_largest_debtor_to_largest_creditor() -> None:
    # Largest debtor to largest creditor pays c→d 7, f→a 5, c→b 2, e→a 1, e→b 1: five payments.
    # But {a, b, c} and {d, e, f} each sum to zero, so four payments are enough.
    a, b, c, d, e, f = range(1, 7)
    payments = settle({a: 6, b: 3, c: -9, d: 7, e: -2, f: -5}, D("1"))
    assert payments == [
        Payment(c, a, D("6.00")),
        Payment(f, d, D("5.00")),
        Payment(c, b, D("3.00")),
        Payment(e, d, D("2.00")),
    ]


def test_order_does_not_depend_on_the_mapping() -> None:
    hundreds = {1: 6, 2: 3, 3: -9, 4: 7, 5: -2, 6: -5}
    backwards = dict(reversed(hundreds.items()))
    assert settle(backwards, D("0.5")) == settle(hundreds, D("0.5"))


def test_string_keys_work_too() -> None:
    assert settle({"ann": -2, "bob": 2}, D("1")) == [Payment("ann", "bob", D("2.00"))]


def test_ties_between_largest_debtors_go_by_player_key() -> None:
    # RULES 4.2: 1 and 2 owe 5 each, so 1 (the lower key) pays the largest creditor first.
    payments = settle({1: -5, 2: -5, 3: 4, 4: 6}, D("1"))
    assert payments == [
        Payment(1, 4, D("5.00")),
        Payment(2, 3, D("4.00")),
        Payment(2, 4, D("1.00")),
    ]


def test_up_to_five_balances_with_no_opposites_are_one_group() -> None:
    # RULES 4.2: no zero-sum group has fewer than three members when no two balances are
    # opposites, so five make one group (the search is skipped) and settle in four payments.
    assert most_zero_sum_groups([6, 1, -2, -2, -3]) == [0b11111]
    assert len(settle({1: 6, 2: 1, 3: -2, 4: -2, 5: -3}, D("1"))) == 4


# --- rounding: to the cent, half up, still summing to zero ----------------------------------


def test_rounds_half_up_away_from_zero() -> None:
    assert player_money({1: 1, 2: -1}, D("0.125")) == {1: D("0.13"), 2: D("-0.13")}
    assert player_money({1: 3, 2: -3}, D("0.0015")) == {1: D("0.00"), 2: D("0.00")}


def test_rounding_leftover_cents_are_taken_back_so_money_sums_to_zero() -> None:
    # Exactly 0.005, 0.005, -0.010: rounding each half up would give +0.01 in all; the leftover
    # cent comes back from the first (by key) of the two players rounded furthest up.
    money = player_money({1: 1, 2: 1, 3: -2}, D("0.005"))
    assert money == {1: D("0.00"), 2: D("0.01"), 3: D("-0.01")}
    assert settle({1: 1, 2: 1, 3: -2}, D("0.005")) == [Payment(3, 2, D("0.01"))]


def test_rounding_leftover_goes_to_the_player_rounded_furthest() -> None:
    # Exactly 0.00333…, 0.00666…, -0.01: rounded 0.00, 0.01, -0.01 already sums to zero.
    assert player_money({1: 1, 2: 2, 3: -3}, D("0.00333")) == {
        1: D("0.00"),
        2: D("0.01"),
        3: D("-0.01"),
    }
    # Exactly -0.015 ×2 and +0.03: rounded -0.02, -0.02, +0.03 is a cent short; the first
    # (by key) of the two rounded furthest down gets it back.
    assert player_money({1: -1, 2: -1, 3: 2}, D("0.015")) == {
        1: D("-0.01"),
        2: D("-0.02"),
        3: D("0.03"),
    }


# --- refusals ------------------------------------------------------------------------------


def test_hundreds_must_sum_to_zero() -> None:
    with pytest.raises(ScoringError) as refused:
        settle({1: 5, 2: -4}, D("1"))
    assert refused.value.field == "hundreds"
    assert refused.value.rule == "RULES 4.2"
    with pytest.raises(ScoringError):
        player_money({1: 1}, D("1"))


@pytest.mark.parametrize("stake", [D("-0.10"), D("NaN"), D("Infinity"), 1])
def test_stake_must_be_a_finite_decimal_of_zero_or_more(stake: Decimal) -> None:
    with pytest.raises(ScoringError) as refused:
        settle({1: 1, 2: -1}, stake)
    assert refused.value.field == "stake_per_hundred"
    assert refused.value.rule == "RULES 4.2"


@pytest.mark.parametrize("count", [1.0, True, D("1")])
def test_hundreds_must_be_whole_numbers(count: object) -> None:
    with pytest.raises(ScoringError) as refused:
        settle({1: count, 2: -1}, D("1"))  # type: ignore[dict-item]
    assert refused.value.field == "hundreds[1]"


# --- beyond the exact search ---------------------------------------------------------------


def test_at_the_exact_limit_the_search_is_still_exact() -> None:
    # Twenty players in six zero-sum groups, each at its own scale so no zero-sum subset mixes
    # them: twice the six of the test above (4 payments each, where greedy needs 5), and twice
    # {+1, +2, +4, -7} (3 payments each). Fewest: 20 - 6 = 14.
    values = [
        *(v for v in (6, 3, -9, 7, -2, -5)),
        *(v * 100 for v in (6, 3, -9, 7, -2, -5)),
        *(v * 100**2 for v in (1, 2, 4, -7)),
        *(v * 100**3 for v in (1, 2, 4, -7)),
    ]
    hundreds = {(7 * i) % 20: value for i, value in enumerate(values)}
    assert len(hundreds) == EXACT_LIMIT
    payments = settle(hundreds, D("1"))
    assert len(payments) == 14
    assert nets(payments) == player_money(hundreds, D("1"))


def test_above_the_exact_limit_falls_back_to_a_valid_settlement() -> None:
    # 2 × 11 distinct balances with no opposite pairs: more than the exact search takes.
    creditors = {i: 2 * i + 1 for i in range(1, 12)}
    debtors = {100 + i: -(2 * i) for i in range(1, 12)}
    debtors[111] -= sum(creditors.values()) + sum(debtors.values())
    hundreds = creditors | debtors
    assert len(hundreds) > EXACT_LIMIT
    payments = settle(hundreds, D("0.10"))
    assert nets(payments) == {p: m for p, m in player_money(hundreds, D("0.10")).items() if m}
    assert len(payments) <= len(hundreds) - 1


def test_above_the_exact_limit_opposite_pairs_still_settle_pairwise() -> None:
    hundreds = {i: i for i in range(1, 16)} | {-i: -i for i in range(1, 16)}
    assert len(settle(hundreds, D("1"))) == 15


# --- properties ----------------------------------------------------------------------------

STAKES = st.sampled_from([D("0"), D("0.01"), D("0.10"), D("0.25"), D("1"), D("0.005"), D("0.125")])


@st.composite
def hundreds_st(draw: st.DrawFn, max_players: int = 12) -> dict[int, int]:
    """Back scores of a session: whole hundreds that sum to zero."""
    players = draw(st.lists(st.integers(0, 40), min_size=1, max_size=max_players, unique=True))
    counts = draw(st.lists(st.integers(-30, 30), min_size=len(players), max_size=len(players)))
    counts[-1] -= sum(counts)
    return dict(zip(players, counts, strict=True))


@given(hundreds_st(), STAKES)
def test_payments_net_to_each_players_money(hundreds: dict[int, int], stake: Decimal) -> None:
    money = player_money(hundreds, stake)
    payments = settle(hundreds, stake)
    assert sum(money.values()) == 0
    assert all(abs(money[p] - hundreds[p] * stake) <= D("0.01") for p in hundreds)
    assert nets(payments) == {player: amount for player, amount in money.items() if amount}
    assert all(p.amount > 0 and p.amount == p.amount.quantize(D("0.01")) for p in payments)
    assert all(p.payer != p.payee for p in payments)
    assert len(payments) <= max(0, sum(1 for amount in money.values() if amount) - 1)


@given(hundreds_st(max_players=8), STAKES)
def test_payments_are_the_fewest_possible(hundreds: dict[int, int], stake: Decimal) -> None:
    assert len(settle(hundreds, stake)) == fewest_payments(player_money(hundreds, stake))


@given(hundreds_st(), STAKES)
def test_payments_are_sorted_and_deterministic(hundreds: dict[int, int], stake: Decimal) -> None:
    payments = settle(hundreds, stake)
    assert payments == sorted(payments, key=lambda p: (-p.amount, p.payer, p.payee))
    assert settle(dict(reversed(hundreds.items())), stake) == payments


@given(hundreds_st(max_players=30), STAKES)
def test_any_size_settles_every_balance(hundreds: dict[int, int], stake: Decimal) -> None:
    money = player_money(hundreds, stake)
    payments = settle(hundreds, stake)
    assert nets(payments) == {player: amount for player, amount in money.items() if amount}
    assert len(payments) <= max(0, sum(1 for amount in money.values() if amount) - 1)


# --- the search against the one it replaced ------------------------------------------------
#
# Stored payments are compared row by row (scoring/standings/services.py), so the search must
# pick the very groups the earlier one picked, not just as many. That search, over every subset
# at once (one bit per subset of an int of 2**n bits), is kept here as the oracle.


def bitset_groups(values: list[int]) -> list[int]:
    """The earlier ``most_zero_sum_groups``: layer ``k`` holds the zero-sum subsets that split
    into ``k + 1`` zero-sum groups; the groups are walked back down the layers."""
    n = len(values)
    if n == 0:
        return []
    everyone = (1 << n) - 1
    without = []
    for i in range(n):
        bits, width = (1 << (1 << i)) - 1, 1 << (i + 1)
        while width < 1 << n:
            bits |= bits << width
            width *= 2
        without.append(bits)

    def grown(subsets: int) -> int:
        bigger = 0
        for i in range(n):
            bigger |= (subsets & without[i]) << (1 << i)
        for i in range(n):
            bigger |= (bigger & without[i]) << (1 << i)
        return bigger

    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    # One bit per zero-sum subset, set in a byte array (summing 2**n ints of 2**n bits is slow).
    bitmap = bytearray((len(sums) + 7) // 8)
    for mask, total in enumerate(sums):
        if total == 0:
            bitmap[mask >> 3] |= 1 << (mask & 7)
    zero_sum = int.from_bytes(bitmap, "little") & ~1
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


@st.composite
def balances_st(draw: st.DrawFn, max_size: int = 16) -> list[int]:
    """Non-zero balances summing to zero; small scales give many zero-sum subsets."""
    scale = draw(st.sampled_from([2, 3, 6, 20, 300]))
    values = draw(
        st.lists(
            st.integers(-scale, scale).filter(bool),
            min_size=1,
            max_size=max_size - 1,
        )
    )
    last = -sum(values)
    assume(last != 0)
    return [*values, last]


def without_opposites(values: list[int]) -> list[int]:
    """What ``settle`` searches: the values left once exact opposites are matched in pairs."""
    rest = list(values)
    for value in values:
        if value in rest and -value in rest:
            rest.remove(value)
            rest.remove(-value)
    return rest


@settings(max_examples=300, deadline=None)
@given(balances_st())
def test_the_search_finds_the_groups_the_bitset_search_found(values: list[int]) -> None:
    assert most_zero_sum_groups(values) == bitset_groups(values)
    rest = without_opposites(values)
    assert most_zero_sum_groups(rest) == bitset_groups(rest)


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_small_sets_find_the_groups_the_bitset_search_found(size: int) -> None:
    """RULES 4.2: every small set of balances (opposites or not), where a bound may end the
    search before it starts."""
    for head in itertools.product([-3, -2, -1, 1, 2, 3], repeat=size - 1):
        values = [*head, -sum(head)]
        if values[-1]:
            assert most_zero_sum_groups(values) == bitset_groups(values), values


@settings(max_examples=40, deadline=None)
@given(balances_st(max_size=EXACT_LIMIT))
def test_the_search_finds_the_same_groups_at_the_limit(values: list[int]) -> None:
    rest = without_opposites(values)
    assert most_zero_sum_groups(rest) == bitset_groups(rest)


@settings(max_examples=100, deadline=None)
@given(hundreds_st(max_players=EXACT_LIMIT), STAKES)
def test_settle_makes_as_few_payments_as_the_bitset_search_allows(
    hundreds: dict[int, int], stake: Decimal
) -> None:
    """RULES 4.2: a zero-sum group of ``m`` players settles in ``m - 1`` payments, so the fewest
    payments are the players with a balance less the most groups they split into."""
    cents = [int(money * 100) for money in player_money(hundreds, stake).values() if money]
    rest = without_opposites(cents)  # matched pairs are groups of a most-groups split
    most_groups = (len(cents) - len(rest)) // 2 + (len(bitset_groups(rest)) if rest else 0)
    assert len(settle(hundreds, stake)) == len(cents) - most_groups
