"""Seating and rotation at a table: pivot (RULES 6.1) and five or six cutting in (RULES 6.2)."""

from __future__ import annotations

import pickle
from itertools import combinations, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.errors import ScoringError
from scoring.rules.rotation import SEATS, Fairness, Seating, fairness, plan

ANN, BOB, CAT, DAN, EVE, FAY, GUS = "ann", "bob", "cat", "dan", "eve", "fay", "gus"
FOUR = [ANN, BOB, CAT, DAN]
FIVE = [*FOUR, EVE]
SIX = [*FIVE, FAY]


def seats(seating: Seating[str]) -> str:
    """The seating as 'N E S W' players."""
    return " ".join(seating.seats[seat] for seat in SEATS)


def partner_of(player: str, seating: Seating[str]) -> str:
    (pair,) = [pair for pair in seating.partners() if player in pair]
    (partner,) = pair - {player}
    return partner


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def played_spread(seatings: list[Seating[str]]) -> int:
    played = fairness(seatings).played
    return max(played.values()) - min(played.values())


# --- Seating ---------------------------------------------------------------------------------


def test_a_seating_has_two_partnerships_north_south_first() -> None:
    seating = Seating(1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}, (EVE,))
    assert seating.partners() == (pair(ANN, CAT), pair(BOB, DAN))
    assert seating.players() == (ANN, BOB, CAT, DAN)


def test_a_seating_is_a_frozen_value() -> None:
    given_seats = {"W": DAN, "S": CAT, "E": BOB, "N": ANN}
    seating = Seating(1, given_seats)
    given_seats["N"] = EVE
    assert list(seating.seats.items()) == [("N", ANN), ("E", BOB), ("S", CAT), ("W", DAN)]
    with pytest.raises(TypeError):
        seating.seats["N"] = EVE  # type: ignore[index]
    assert seating == Seating(1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN})
    assert hash(seating) == hash(Seating(1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}))
    assert pickle.loads(pickle.dumps(seating)) == seating


@pytest.mark.parametrize(
    ("rubber", "seat_map", "sitting_out", "field"),
    [
        (0, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}, (), "rubber"),
        (1, {"N": ANN, "E": BOB, "S": CAT}, (), "seats"),
        (1, {"N": ANN, "E": BOB, "S": CAT, "X": DAN}, (), "seats"),
        (1, {"N": ANN, "E": BOB, "S": CAT, "W": ANN}, (), "seats"),
        (1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}, (ANN,), "sitting_out"),
        (1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}, (EVE, EVE), "sitting_out"),
        (1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}, (EVE, FAY, GUS), "sitting_out"),
    ],
)
def test_a_seating_refuses_impossible_tables(
    rubber: int, seat_map: dict[str, str], sitting_out: tuple[str, ...], field: str
) -> None:
    with pytest.raises(ScoringError) as refused:
        Seating(rubber, seat_map, sitting_out)
    assert refused.value.field == field


# --- pivot, four players (RULES 6.1) ---------------------------------------------------------


def test_pivot_first_rubber_seats_the_players_in_order() -> None:
    assert seats(plan(FOUR, 1)[0]) == "ann bob cat dan"


def test_pivot_the_others_move_one_seat_round_the_pivot() -> None:
    # RULES 6.1: E passes behind N to W; W moves to S; S moves to E.
    assert [seats(s) for s in plan(FOUR, 3)] == [
        "ann bob cat dan",
        "ann cat dan bob",
        "ann dan bob cat",
    ]


def test_pivot_never_moves() -> None:
    assert {s.seats["N"] for s in plan(FOUR, 9)} == {ANN}


def test_pivot_partners_opposite_then_right_then_left() -> None:
    # RULES 6.1: at rubber 1 cat is opposite ann, dan on her right (W), bob on her left (E).
    assert [partner_of(ANN, s) for s in plan(FOUR, 3)] == [CAT, DAN, BOB]


def test_pivot_everyone_partners_everyone_once_in_three_rubbers() -> None:
    report = fairness(plan(FOUR, 3))
    assert report.partners == {pair(a, b): 1 for a, b in combinations(FOUR, 2)}
    assert report.played == dict.fromkeys(FOUR, 3)
    assert report.sat_out == dict.fromkeys(FOUR, 0)


def test_pivot_cycle_repeats() -> None:
    seatings = plan(FOUR, 7)
    assert [s.rubber for s in seatings] == [1, 2, 3, 4, 5, 6, 7]
    assert [seats(s) for s in seatings[3:6]] == [seats(s) for s in seatings[:3]]
    assert seats(seatings[6]) == seats(seatings[0])


def test_pivot_continues_the_cycle_from_its_history() -> None:
    whole = plan(FOUR, 7)
    assert plan(FOUR, 5, history=whole[:2]) == whole[2:]
    # The cycle goes on round whoever sat N, even if the precedence is now given differently.
    assert plan([DAN, CAT, BOB, ANN], 5, history=whole[:2]) == whole[2:]


def test_pivot_with_no_rubbers_to_plan() -> None:
    assert plan(FOUR, 0) == []


# --- fixed partnerships ----------------------------------------------------------------------


def test_fixed_keeps_the_same_seats() -> None:
    seatings = plan(FOUR, 4, movement="fixed")
    assert [seats(s) for s in seatings] == ["ann bob cat dan"] * 4
    assert fairness(seatings).partners == {pair(ANN, CAT): 4, pair(BOB, DAN): 4}


def test_fixed_keeps_the_seats_of_the_last_rubber() -> None:
    history = plan(FOUR, 2)
    assert [seats(s) for s in plan(FOUR, 2, movement="fixed", history=history)] == [
        "ann cat dan bob"
    ] * 2


# --- five or six players (RULES 6.2) ---------------------------------------------------------


def test_five_the_first_four_play_first_and_the_last_waits() -> None:
    first = plan(FIVE, 1)[0]
    assert seats(first) == "ann bob cat dan"
    assert first.sitting_out == (EVE,)


def test_five_the_later_in_precedence_sits_out_sooner() -> None:
    # RULES 6.2: after rubber 1, ann…dan have each played one in a row; the tie goes by
    # precedence, dan (the latest of them) sitting out first. The order then rolls on.
    assert [s.sitting_out for s in plan(FIVE, 7)] == [
        (EVE,),
        (DAN,),
        (CAT,),
        (BOB,),
        (ANN,),
        (EVE,),
        (DAN,),
    ]


def test_five_over_five_rubbers_each_sits_out_once_and_partners_each_other_once() -> None:
    report = fairness(plan(FIVE, 5))
    assert report.sat_out == dict.fromkeys(FIVE, 1)
    assert report.played == dict.fromkeys(FIVE, 4)
    assert report.partners == {pair(a, b): 1 for a, b in combinations(FIVE, 2)}


def test_six_over_three_rubbers_each_sits_out_once() -> None:
    seatings = plan(SIX, 3)
    assert [s.sitting_out for s in seatings] == [(EVE, FAY), (CAT, DAN), (ANN, BOB)]
    assert fairness(seatings).sat_out == dict.fromkeys(SIX, 1)


def test_six_over_six_rubbers_each_sits_out_twice() -> None:
    assert fairness(plan(SIX, 6)).sat_out == dict.fromkeys(SIX, 2)


def test_six_over_fifteen_rubbers_each_pair_partners_twice() -> None:
    partners = fairness(plan(SIX, 15)).partners
    assert partners == {pair(a, b): 2 for a, b in combinations(SIX, 2)}


@pytest.mark.parametrize("table", [FIVE, SIX])
def test_played_rubbers_never_differ_by_more_than_one(table: list[str]) -> None:
    seatings = plan(table, 12)
    assert all(played_spread(seatings[:n]) <= 1 for n in range(1, 13))


@pytest.mark.parametrize("table", [FIVE, SIX])
def test_nobody_sits_out_two_rubbers_in_a_row(table: list[str]) -> None:
    seatings = plan(table, 12)
    for before, after in pairwise(seatings):
        assert not set(before.sitting_out) & set(after.sitting_out)


def test_pivot_with_five_cuts_in() -> None:
    assert plan(FIVE, 6, movement="pivot") == plan(FIVE, 6, movement="cut-in")


def test_cut_in_keeps_seats_where_it_can() -> None:
    # Rubber 2: dan waits and eve comes in. ann partners eve (ann has partnered cat already),
    # ann and bob keep their seats, and eve sits opposite ann.
    first, second = plan(FIVE, 2)
    assert seats(first) == "ann bob cat dan"
    assert seats(second) == "ann bob eve cat"


def test_cut_in_with_four_rotates_partners() -> None:
    seatings = plan(FOUR, 6, movement="cut-in")
    assert all(not s.sitting_out for s in seatings)
    assert fairness(seatings).partners == {pair(a, b): 2 for a, b in combinations(FOUR, 2)}


# --- re-planning: late arrivals and early leavers --------------------------------------------


def test_a_late_arrival_cuts_in_at_once() -> None:
    history = plan(FOUR, 3)
    kept = list(history)
    seatings = plan(FIVE, 5, history=history)
    assert history == kept
    assert [s.rubber for s in seatings] == [4, 5, 6, 7, 8]
    # RULES 6.2: eve has played no rubbers in a row, ann…dan three; dan (latest) sits out first.
    assert seatings[0].sitting_out == (DAN,)
    assert EVE in seatings[0].players()
    assert fairness(seatings).sat_out == dict.fromkeys(FIVE, 1)
    assert all(played_spread(seatings[:n]) <= 1 for n in range(1, 6))


def test_an_early_leaver_restarts_the_pivot_with_the_four_left() -> None:
    history = plan(FIVE, 3)
    kept = list(history)
    left = [ANN, CAT, DAN, EVE]  # bob goes home
    seatings = plan(left, 3, history=history)
    assert history == kept
    assert [s.rubber for s in seatings] == [4, 5, 6]
    assert [seats(s) for s in seatings] == [
        "ann cat dan eve",
        "ann dan eve cat",
        "ann eve cat dan",
    ]
    report = fairness(seatings)
    assert report.partners == {pair(a, b): 1 for a, b in combinations(left, 2)}
    assert report.played == dict.fromkeys(left, 3)


def test_the_pivot_restarts_when_the_four_change() -> None:
    history = plan(FOUR, 2)
    newcomers = [EVE, BOB, CAT, DAN]
    assert seats(plan(newcomers, 1, history=history)[0]) == "eve bob cat dan"


def test_a_waiting_player_comes_in_even_when_the_table_changes() -> None:
    # eve waited for rubber 1; ann leaves and gus arrives: eve still comes in for rubber 2.
    history = plan(FIVE, 1)
    seatings = plan([BOB, CAT, DAN, EVE, GUS], 5, history=history)
    assert EVE in seatings[0].players()
    assert seatings[0].sitting_out == (DAN,)
    assert fairness(seatings).sat_out == dict.fromkeys([BOB, CAT, DAN, EVE, GUS], 1)


def test_six_down_to_five_stays_fair() -> None:
    history = plan(SIX, 4)
    five = [ANN, BOB, DAN, EVE, FAY]
    seatings = plan(five, 10, history=history)
    assert fairness(seatings).sat_out == dict.fromkeys(five, 2)
    assert not set(history[-1].sitting_out) & set(seatings[0].sitting_out)


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [[ANN, BOB, CAT], [*SIX, GUS], []])
def test_a_table_holds_four_to_six(players: list[str]) -> None:
    with pytest.raises(ScoringError) as refused:
        plan(players, 1)
    assert refused.value.field == "players"
    assert refused.value.rule == "RULES 6.2"


def test_a_player_is_listed_once() -> None:
    with pytest.raises(ScoringError) as refused:
        plan([ANN, BOB, CAT, ANN, EVE], 1)
    assert refused.value.field == "players"


@pytest.mark.parametrize(
    ("players", "count", "movement", "field"),
    [
        (FOUR, -1, "pivot", "count"),
        (FOUR, 1, "howell", "movement"),
        (FIVE, 1, "fixed", "movement"),
    ],
)
def test_refuses_bad_requests(players: list[str], count: int, movement: str, field: str) -> None:
    with pytest.raises(ScoringError) as refused:
        plan(players, count, movement=movement)
    assert refused.value.field == field


def test_history_must_be_numbered_in_order() -> None:
    one, _, three = plan(FOUR, 3)
    with pytest.raises(ScoringError) as refused:
        plan(FOUR, 1, history=[one, three])
    assert refused.value.field == "history"


# --- fairness ---------------------------------------------------------------------------------


def test_fairness_counts_partnerships_and_turns() -> None:
    seatings = [
        Seating(1, {"N": ANN, "E": BOB, "S": CAT, "W": DAN}, (EVE,)),
        Seating(2, {"N": ANN, "E": BOB, "S": CAT, "W": EVE}, (DAN,)),
    ]
    assert fairness(seatings) == Fairness(
        partners={pair(ANN, CAT): 2, pair(BOB, DAN): 1, pair(BOB, EVE): 1},
        played={ANN: 2, BOB: 2, CAT: 2, DAN: 1, EVE: 1},
        sat_out={ANN: 0, BOB: 0, CAT: 0, DAN: 1, EVE: 1},
    )
    assert fairness([]) == Fairness({}, {}, {})


# --- properties --------------------------------------------------------------------------------

TABLES = st.integers(5, 6).map(lambda n: list(range(1, n + 1)))


@given(TABLES, st.integers(1, 24))
def test_played_counts_stay_within_one(players: list[int], count: int) -> None:
    seatings = plan(players, count)
    for n in range(1, count + 1):
        played = fairness(seatings[:n]).played
        assert max(played.values()) - min(played.values()) <= 1


@st.composite
def replans(draw: st.DrawFn) -> tuple[list[int], list[Seating[int]], list[int]]:
    """A table's history, then the players at it now (some left, some new)."""
    before = draw(st.lists(st.integers(1, 9), min_size=4, max_size=6, unique=True))
    history = plan(
        before, draw(st.integers(0, 8)), movement=draw(st.sampled_from(["pivot", "cut-in"]))
    )
    stay = draw(st.lists(st.sampled_from(before), unique=True, max_size=len(before)))
    new = [p for p in range(1, 10) if p not in before]
    arrive = draw(st.lists(st.sampled_from(new), unique=True, max_size=6 - len(stay)))
    now = draw(st.permutations(stay + arrive)) if len(stay + arrive) >= 4 else before
    return before, history, list(now)


@given(replans(), st.integers(1, 15), st.sampled_from(["pivot", "cut-in"]))
def test_replanning_seats_the_present_players_fairly(
    replan: tuple[list[int], list[Seating[int]], list[int]], count: int, movement: str
) -> None:
    _, history, players = replan
    kept = list(history)
    seatings = plan(players, count, movement=movement, history=history)
    assert history == kept
    assert [s.rubber for s in seatings] == list(range(len(history) + 1, len(history) + count + 1))
    last_out = set(history[-1].sitting_out) if history else set()
    for seating in seatings:
        # Four different players at the table now; the others wait.
        assert len(set(seating.players())) == 4
        assert set(seating.players()) | set(seating.sitting_out) == set(players)
        assert len(seating.sitting_out) == len(players) - 4
        # RULES 6.2: nobody waits twice in a row.
        assert not set(seating.sitting_out) & last_out
        last_out = set(seating.sitting_out)
    for start in range(count):
        for end in range(start + 1, count + 1):
            assert played_spread_ints(seatings[start:end], players) <= 1


def played_spread_ints(seatings: list[Seating[int]], players: list[int]) -> int:
    played = fairness(seatings).played
    counts = [played.get(p, 0) for p in players]
    return max(counts) - min(counts)


@given(
    st.integers(4, 6).map(lambda n: list(range(n, 0, -1))),
    st.integers(0, 10),
    st.integers(0, 10),
    st.sampled_from(["pivot", "cut-in", "fixed"]),
)
def test_planning_in_steps_is_planning_at_once(
    players: list[int], first: int, then: int, movement: str
) -> None:
    if movement == "fixed" and len(players) > 4:
        movement = "pivot"
    start = plan(players, first, movement=movement)
    assert start + plan(players, then, movement=movement, history=start) == plan(
        players, first + then, movement=movement
    )
