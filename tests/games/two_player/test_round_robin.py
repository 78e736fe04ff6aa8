"""The round robin of tables of two (circle method; docs/rules.md, RULES 7)."""

from __future__ import annotations

from itertools import combinations

import pytest

from scoring.rules import ScoringError
from scoring.rules.round_robin import pairing, rounds


@pytest.mark.parametrize("tables", [1, 2, 3, 4, 5])
def test_every_pair_meets_once_in_a_cycle_and_nobody_plays_twice_a_round(tables):
    first = [(2 * t, 2 * t + 1) for t in range(tables)]
    met = []
    for r in range(1, rounds(first) + 1):
        pairs = [pairing(first, r, t) for t in range(1, tables + 1)]
        players = [p for pair in pairs for p in pair]
        assert sorted(players) == list(range(2 * tables))
        met += [frozenset(pair) for pair in pairs]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in combinations(range(2 * tables), 2)), key=sorted
    )


def test_round_one_is_the_tables_as_set_and_the_cycle_repeats():
    first = [(1, 2), (3, 4), (5, 6)]
    assert [pairing(first, 1, t) for t in (1, 2, 3)] == first
    assert [pairing(first, 6, t) for t in (1, 2, 3)] == first
    assert pairing(first, 2, 1) == (1, 4)


def test_at_one_table_the_players_take_turns_as_player_0():
    assert [pairing([(1, 2)], r, 1) for r in (1, 2, 3)] == [(1, 2), (2, 1), (1, 2)]


def test_a_table_that_does_not_exist_is_refused():
    with pytest.raises(ScoringError):
        pairing([(1, 2)], 1, 2)
