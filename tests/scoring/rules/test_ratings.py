"""The pure rating rules (scoring/rules/ratings.py; docs/ratings.md): ranks from totals, the
replay order, and the model's behaviour that docs/ratings.md promises club members."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring.rules.ratings import Match, ordinal, ranks, replay, replay_order

T0 = datetime.datetime(2026, 11, 30, 20, 0, tzinfo=datetime.UTC)


def at(minutes: int) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("totals", "expected"),
    [((940, 0), [1, 2]), ((50, 100), [2, 1]), ((50, 50), [1, 1]), ((0, 0), [1, 1])],
)
def test_more_points_rank_first_and_equal_totals_draw(totals, expected):
    assert ranks(totals) == expected


def test_the_replay_order_is_end_time_then_key_with_no_end_time_last():
    a = Match(3, at(5), ((1, 2), (3, 4)), (1, 0))
    b = Match(1, at(5), ((1, 2), (3, 4)), (1, 0))
    c = Match(2, at(1), ((1, 2), (3, 4)), (1, 0))
    d = Match(0, None, ((1, 2), (3, 4)), (1, 0))
    assert [m.key for m in replay_order([a, b, c, d])] == [2, 1, 3, 0]


def test_a_new_player_starts_at_the_models_defaults_and_an_ordinal_of_zero():
    model = PlackettLuce()
    assert (model.mu, model.sigma, model.beta, model.tau) == pytest.approx(
        (25, 25 / 3, 25 / 6, 25 / 300)
    )
    assert ordinal(25, 25 / 3) == pytest.approx(0)


def test_winners_go_up_losers_go_down_and_everyone_is_surer():
    final, steps = replay([Match(1, at(0), ((1, 2), (3, 4)), (940, 0))])
    by_player = {r.player: r for r in final}
    assert by_player[1].mu > 25 and by_player[2].mu > 25
    assert by_player[3].mu < 25 and by_player[4].mu < 25
    assert all(r.sigma < 25 / 3 for r in final)
    assert [r.player for r in final][:2] == [1, 2]  # highest ordinal first
    assert {s.outcome for s in steps if s.player in (1, 2)} == {"won"}


def test_a_new_players_rating_rises_as_results_come_in_even_at_even_odds():
    """Draws only: mu stays 25, sigma shrinks, so the ordinal (mu - 3 sigma) climbs from 0."""
    matches = [Match(i, at(i), ((1, 2), (3, 4)), (50, 50)) for i in range(5)]
    _, steps = replay(matches)
    mine = [s.ordinal for s in steps if s.player == 1]
    assert mine == sorted(mine) and mine[0] > 0
    assert all(s.mu == pytest.approx(25) for s in steps)


def _gain(winners: tuple[int, int], losers: tuple[int, int], history: list[Match]) -> float:
    """Player 1's mu gained by winning the last match, after ``history``."""
    before = {r.player: r.mu for r in replay(history)[0]}
    last = Match(999, at(999), (winners, losers), (1, 0))
    after = {r.player: r.mu for r in replay([*history, last])[0]}
    return after[1] - before.get(1, 25.0)


def test_beating_a_stronger_partnership_moves_a_rating_more():
    # Players 5 and 6 won three rubbers against 9 and 10; 7 and 8 lost three to them.
    history = [Match(i, at(i), ((5, 6), (9, 10)), (1, 0)) for i in range(3)]
    history += [Match(10 + i, at(10 + i), ((9, 10), (7, 8)), (1, 0)) for i in range(3)]
    assert _gain((1, 2), (5, 6), history) > _gain((1, 2), (7, 8), history)


def test_a_strong_partner_is_taken_into_account():
    history = [Match(i, at(i), ((5, 6), (9, 10)), (1, 0)) for i in range(3)]
    # Winning beside a proven winner (5) gains less than beside a proven loser (9).
    assert _gain((1, 5), (3, 4), history) < _gain((1, 9), (3, 4), history)


@given(st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 2000)), min_size=1, max_size=8))
def test_records_add_up_and_the_shown_rating_is_mu_minus_three_sigma(totals):
    matches = [Match(i, at(i), ((1, 2), (3, 4)), t) for i, t in enumerate(totals)]
    final, steps = replay(matches)
    for r in final:
        assert r.matches == r.won + r.lost + r.drawn == len(totals)
        assert r.ordinal == r.mu - 3 * r.sigma
    assert len(steps) == 4 * len(totals)
    wins = sum(1 for a, b in totals if a > b)
    assert {r.player: r.won for r in final}[1] == wins


def test_the_margin_does_not_matter_only_who_won():
    big = replay([Match(1, at(0), ((1, 2), (3, 4)), (2000, 0))])[0]
    small = replay([Match(1, at(0), ((1, 2), (3, 4)), (50, 0))])[0]
    assert big == small
