"""Ranks, ties, table ranks and prize choices (RULES 4.3, RULES 6.3), without a database."""

from __future__ import annotations

from scoring.rules.ranking import Entry, rank_entries


def entry(
    player: int,
    name: str,
    table: int | None,
    hundreds: int,
    *,
    net: int = 0,
    points: int = 0,
    rubbers: int = 1,
) -> Entry:
    return Entry(player, name, table, rubbers, points, net or hundreds * 100, hundreds)


def by_player(placings):
    return {p.player: p for p in placings}


def test_the_room_is_ranked_by_hundreds_then_net_points_rules_4_1():
    placings = rank_entries(
        [entry(1, "Ann", 1, 3, net=260), entry(2, "Ben", 1, 3, net=340), entry(3, "Cy", 1, -6)]
    )
    assert [(p.player, p.rank) for p in placings] == [(2, 1), (1, 2), (3, 3)]


def test_equal_figures_share_a_rank_and_the_next_rank_is_skipped():
    placings = rank_entries(
        [entry(1, "Ann", 1, 5), entry(2, "Ben", 1, 5), entry(3, "Cy", 1, -4), entry(4, "Di", 1, -6)]
    )
    assert [(p.player, p.rank) for p in placings] == [(1, 1), (2, 1), (3, 3), (4, 4)]


def test_gross_ranking_uses_points_with_nothing_deducted_rules_4_3():
    entries = [
        entry(1, "Ann", 1, 2, points=1500),  # fewer hundreds, more gross points
        entry(2, "Ben", 1, 4, points=900),
    ]
    assert rank_entries(entries, "net")[0].player == 2
    assert rank_entries(entries, "gross")[0].player == 1


def test_each_table_is_ranked_on_its_own():
    placings = by_player(
        rank_entries(
            [
                entry(1, "Ann", 1, 9),
                entry(2, "Ben", 1, -9),
                entry(3, "Cy", 2, 2),
                entry(4, "Di", 2, -2),
            ]
        )
    )
    assert placings[1].table_rank == 1 and placings[2].table_rank == 2
    assert placings[3].table_rank == 1 and placings[4].table_rank == 2
    assert placings[3].rank == 2


def test_prizes_one_per_table_chosen_in_room_order_highest_score_first_rules_6_3():
    placings = by_player(
        rank_entries(
            [
                entry(1, "Ann", 1, 4),
                entry(2, "Ben", 1, -4),
                entry(3, "Cy", 2, 12),
                entry(4, "Di", 2, 8),  # Di beats Ann but is 2nd at table 2
                entry(5, "Eve", 3, 1),
                entry(6, "Fay", 3, -1),
            ]
        )
    )
    choices = {p.player: p.prize_choice for p in placings.values() if p.prize_choice}
    assert choices == {3: 1, 1: 2, 5: 3}
    assert placings[4].prize_choice is None


def test_a_tie_at_the_top_of_a_table_gives_one_prize_by_name():
    placings = by_player(rank_entries([entry(1, "Zoe", 1, 9), entry(2, "Amy", 1, 9)]))
    assert placings[1].table_rank == placings[2].table_rank == 1
    assert placings[2].prize_choice == 1 and placings[1].prize_choice is None


def test_a_table_with_no_ended_rubber_has_no_prize_yet():
    placings = rank_entries([entry(1, "Ann", 1, 0, rubbers=0), entry(2, "Ben", 2, 0, rubbers=1)])
    assert {p.player: p.prize_choice for p in placings} == {1: None, 2: 1}


def test_ranking_is_the_same_whatever_the_input_order():
    entries = [entry(i, f"P{i}", i % 2, (i * 7) % 5 - 2) for i in range(1, 9)]
    assert rank_entries(entries) == rank_entries(list(reversed(entries)))
