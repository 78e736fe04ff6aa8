"""Places, ties, early leavers, table places and prize choices (RULES 4.3, RULES 6.3), without a
database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.ranking import (
    Entry,
    Placing,
    competition_ranks,
    cut_order,
    place_label,
    rank_entries,
    shared,
    sort_key,
)


def entry(
    player: int,
    table: int | None,
    hundreds: int,
    *,
    net: int | None = None,
    points: int = 0,
    rubbers: int = 1,
    played: bool = True,
) -> Entry:
    net = hundreds * 100 if net is None else net
    return Entry(player, table, rubbers, points, net, hundreds, played)


def by_player(placings):
    return {p.player: p for p in placings}


def test_the_room_is_ranked_by_hundreds_then_net_points_rules_4_1():
    placings = rank_entries([entry(1, 1, 3, net=260), entry(2, 1, 3, net=340), entry(3, 1, -6)])
    assert [(p.player, p.rank) for p in placings] == [(2, 1), (1, 2), (3, 3)]


def test_rules_6_3_equal_hundreds_rank_by_net_points_before_rounding():
    # 250 and 340 are both 3 hundreds (RULES 4.1); the raw 340 ranks first.
    placings = rank_entries([entry(1, 1, 3, net=250), entry(2, 1, 3, net=340)])
    assert [(p.player, p.place) for p in placings] == [(2, "1"), (1, "2")]


def test_rules_6_3_players_still_equal_share_the_place_and_the_next_is_skipped():
    placings = rank_entries([entry(1, 1, 5), entry(2, 1, -4), entry(3, 1, -4), entry(4, 1, -6)])
    assert [(p.player, p.rank, p.tied, p.place) for p in placings] == [
        (1, 1, False, "1"),
        (2, 2, True, "=2"),
        (3, 2, True, "=2"),
        (4, 4, False, "4"),
    ]


def test_rules_6_3_a_player_who_played_no_deal_is_listed_apart_unranked():
    placings = rank_entries(
        [entry(1, 1, 0, rubbers=0, played=False), entry(2, 1, -3), entry(3, 1, 3)]
    )
    assert [(p.player, p.rank, p.place) for p in placings] == [
        (3, 1, "1"),
        (2, 2, "2"),
        (1, None, None),
    ]
    assert placings[-1].table_rank is None and placings[-1].prize_choice is None


def test_rules_6_3_an_early_leaver_is_ranked_by_what_they_played():
    # Ann left after one rubber (+6); Ben played three (+2 in all): Ann places first.
    placings = rank_entries([entry(1, 1, 6, rubbers=1), entry(2, 1, 2, rubbers=3)])
    assert [(p.player, p.rank) for p in placings] == [(1, 1), (2, 2)]


def test_rules_6_3_a_rubber_in_play_is_a_deal_played_though_it_counts_nothing_yet():
    placings = rank_entries([entry(1, 1, 0, rubbers=0), entry(2, 1, -1)])
    assert [(p.player, p.rank) for p in placings] == [(1, 1), (2, 2)]


def test_gross_ranking_uses_points_with_nothing_deducted_rules_4_3():
    entries = [entry(1, 1, 2, points=1500), entry(2, 1, 4, points=900)]
    assert rank_entries(entries, "net")[0].player == 2
    assert rank_entries(entries, "gross")[0].player == 1


def test_each_table_is_ranked_on_its_own_rules_6_3():
    placings = by_player(
        rank_entries([entry(1, 1, 9), entry(2, 1, -9), entry(3, 2, 2), entry(4, 2, -2)])
    )
    assert placings[1].table_rank == 1 and placings[2].table_rank == 2
    assert placings[3].table_rank == 1 and placings[4].table_rank == 2
    assert placings[3].rank == 2


def test_prizes_one_per_table_chosen_in_room_order_highest_score_first_rules_6_3():
    placings = by_player(
        rank_entries(
            [
                entry(1, 1, 4),
                entry(2, 1, -4),
                entry(3, 2, 12),
                entry(4, 2, 8),  # beats player 1 but is 2nd at table 2
                entry(5, 3, 1),
                entry(6, 3, -1),
            ]
        )
    )
    choices = {p.player: p.prize_choice for p in placings.values() if p.prize_choice}
    assert choices == {3: 1, 1: 2, 5: 3}
    assert placings[4].prize_choice is None
    assert not any(p.prize_tied for p in placings.values())


def test_rules_6_3_a_tie_at_the_top_of_a_table_shares_its_prize_until_a_cut():
    placings = by_player(rank_entries([entry(1, 1, 9), entry(2, 1, 9), entry(3, 1, -18)]))
    assert placings[1].table_rank == placings[2].table_rank == 1
    assert placings[1].table_tied and placings[2].table_tied and not placings[3].table_tied
    assert placings[1].prize_choice == placings[2].prize_choice == 1
    assert placings[1].prize_tied and placings[2].prize_tied
    assert placings[3].prize_choice is None


def test_rules_6_3_winners_with_equal_figures_share_a_choice_and_the_next_is_skipped():
    placings = by_player(
        rank_entries(
            [entry(1, 1, 5), entry(2, 1, -5), entry(3, 2, 5), entry(4, 2, -5), entry(5, 3, 1)]
        )
    )
    assert {p: placings[p].prize_choice for p in (1, 3, 5)} == {1: 1, 3: 1, 5: 3}
    assert placings[1].prize_tied and placings[3].prize_tied and not placings[5].prize_tied


def test_a_table_with_no_ended_rubber_has_no_prize_yet():
    placings = rank_entries([entry(1, 1, 0, rubbers=0), entry(2, 2, 0, rubbers=1)])
    assert {p.player: p.prize_choice for p in placings} == {1: None, 2: 1}


def test_place_labels_rules_6_3():
    assert [place_label(2, False), place_label(2, True), place_label(None, False)] == [
        "2",
        "=2",
        None,
    ]


# --- properties ----------------------------------------------------------------------------------

entries_st = st.lists(
    st.builds(
        Entry,
        player=st.integers(1, 10_000),
        table=st.one_of(st.none(), st.integers(1, 4)),
        rubbers=st.integers(0, 3),
        points=st.integers(0, 3000),
        net=st.integers(-2000, 2000),
        hundreds=st.integers(-3, 3),
        played=st.booleans(),
    ),
    max_size=14,
    unique_by=lambda e: e.player,
)


@given(entries_st, st.sampled_from(["net", "gross"]))
def test_property_rules_6_3_ties_share_a_place_and_places_skip_after_them(entries, ranking):
    placings = rank_entries(entries, ranking)
    ranked = [p for p in placings if p.rank is not None]
    figures = {
        e.player: ((e.points,) if ranking == "gross" else (e.hundreds, e.net)) for e in entries
    }
    for position, placing in enumerate(ranked, start=1):
        better = sum(1 for q in ranked if figures[q.player] > figures[placing.player])
        equal = sum(1 for q in ranked if figures[q.player] == figures[placing.player])
        assert placing.rank == better + 1  # "1, =2, =2, 4": the next place skips the tie
        assert placing.tied == (equal > 1)
        assert placing.rank <= position
    assert [p.rank for p in ranked] == sorted(p.rank for p in ranked)


@given(entries_st, st.sampled_from(["net", "gross"]), st.randoms(use_true_random=False))
def test_property_rules_6_3_the_order_never_depends_on_names_or_input_order(entries, ranking, rng):
    # An Entry carries no name; shuffled input and the same figures give the same order.
    assert "name" not in Entry._fields
    shuffled = list(entries)
    rng.shuffle(shuffled)
    assert rank_entries(shuffled, ranking) == rank_entries(entries, ranking)


@given(entries_st)
def test_property_rules_6_3_the_unranked_are_those_who_played_no_deal_listed_last(entries):
    placings = rank_entries(entries)
    assert {p.player for p in placings} == {e.player for e in entries}
    unranked = [p.player for p in placings if p.rank is None]
    assert set(unranked) == {e.player for e in entries if not e.played}
    assert [p.rank is None for p in placings] == sorted(p.rank is None for p in placings)


@given(entries_st)
def test_property_rules_6_3_each_table_with_an_ended_rubber_has_its_prize(entries):
    placings = by_player(rank_entries(entries))
    tables = {e.table for e in entries if e.table is not None and e.played}
    for table in tables:
        seated = [e for e in entries if e.table == table and e.played]
        winners = [e for e in seated if placings[e.player].prize_choice is not None]
        if any(e.rubbers for e in seated):
            assert winners and all(placings[e.player].table_rank == 1 for e in winners)
            assert len(winners) == sum(1 for e in seated if placings[e.player].table_rank == 1)
            assert len({placings[e.player].prize_choice for e in winners}) == 1
        else:
            assert not winners


def test_competition_ranks_share_a_place_and_skip_the_next():
    """RULES 6.3: "1, =2, =2, 4"; the order of equal keys is the caller's (by id)."""
    assert competition_ranks([]) == []
    assert competition_ranks([-9.0, -2.4, -2.4, -1.0]) == [1, 2, 2, 4]
    assert competition_ranks([(1, 2), (1, 2), (1, 2)]) == [1, 1, 1]


# --- the cut for a shared prize choice (RULES 6.3) -------------------------------------------


def test_without_a_cut_players_sharing_a_choice_stay_undecided_by_id():
    assert cut_order([7, 3], {}) == [(3, "undecided"), (7, "undecided")]


def test_a_recorded_cut_puts_its_winner_first_whatever_the_ids():
    assert cut_order([3, 7], {frozenset({3, 7}): 7}) == [(7, "won"), (3, "lost")]


def test_three_equal_winners_cut_twice():
    first = {frozenset({1, 2, 3}): 2}
    assert cut_order([1, 2, 3], first) == [(2, "won"), (1, "undecided"), (3, "undecided")]
    both = {**first, frozenset({1, 3}): 3}
    assert cut_order([1, 2, 3], both) == [(2, "won"), (3, "won"), (1, "lost")]


def test_a_cut_among_other_players_decides_nothing():
    # The standings changed since the cut: 4 now shares the choice too.
    stale = {frozenset({1, 2}): 2}
    assert cut_order([1, 2, 4], stale) == [(1, "undecided"), (2, "undecided"), (4, "undecided")]
    assert cut_order([1, 2], {frozenset({1, 2}): 9}) == [(1, "undecided"), (2, "undecided")]


def test_one_player_alone_needs_no_cut():
    assert cut_order([5], {}) == [(5, "undecided")]


# The earlier ``rank_entries`` (each table sorted on its own, each tie found by counting), kept
# as the oracle of the one that sorts the room once.
def earlier_rank_entries(entries, ranking="net"):
    key = sort_key(ranking)

    def ranked(group):
        ordered = sorted(group, key=lambda e: (key(e), e.player))
        return list(zip(competition_ranks([key(e) for e in ordered]), ordered, strict=True))

    players = [e for e in entries if e.played]
    room = ranked(players)
    tables: dict[int, list[Entry]] = {}
    for e in players:
        if e.table is not None:
            tables.setdefault(e.table, []).append(e)
    table_rank, tops = {}, []
    for _, seated in sorted(tables.items()):
        for rank, e in ranked(seated):
            table_rank[e.player] = rank
        if any(e.rubbers for e in seated):
            tops.append([e for rank, e in ranked(seated) if rank == 1])
    choice = {}
    for top in tops:
        for e in top:
            choice[e.player] = 1 + sum(1 for other in tops if key(other[0]) < key(top[0]))
    room_tied = shared(rank for rank, _ in room)
    table_tied = {
        e.player
        for seated in tables.values()
        for e in seated
        if [table_rank[o.player] for o in seated].count(table_rank[e.player]) > 1
    }
    prize_tied = shared(choice.values())
    return [
        Placing(
            e.player,
            rank,
            rank in room_tied,
            table_rank.get(e.player),
            e.player in table_tied,
            choice.get(e.player),
            choice.get(e.player) in prize_tied,
        )
        for rank, e in room
    ] + [
        Placing(e.player, None, False, None, False, None, False)
        for e in sorted((e for e in entries if not e.played), key=lambda e: e.player)
    ]


rooms = st.lists(
    st.builds(
        Entry,
        player=st.integers(1, 60),
        table=st.none() | st.integers(1, 5),
        rubbers=st.integers(0, 3),
        points=st.integers(-5, 5).map(lambda p: p * 10),
        net=st.integers(-3, 3),
        hundreds=st.integers(-3, 3),
        played=st.booleans(),
    ),
    max_size=24,
    unique_by=lambda e: e.player,
)


@given(entries=rooms, ranking=st.sampled_from(["net", "gross"]))
def test_the_room_sorted_once_places_everyone_as_the_earlier_ranking_did(entries, ranking):
    assert rank_entries(entries, ranking) == earlier_rank_entries(entries, ranking)
