"""The two-player games (RULES 7): Bridge for Two (7.1), Misery Bridge (7.2), Turnover (7.3),
Draw and Discard (7.4); their explanations, and properties of the scoresheets.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import REASONS, TEMPLATES, HouseRules, ScoringError, Strain
from scoring.rules.two_player import (
    Declaration,
    DrawDiscardDeal,
    PlayerHonours,
    PlayerItem,
    TwoPlayerDeal,
    explain_player_item,
    score_bridge_for_two,
    score_draw_discard,
    score_draw_discard_deal,
    score_misery,
    score_turnover,
    score_two_player_deal,
    turnover_from_json,
    two_player_deals_from_json,
)

TWO_PLAYER_REASONS = [
    "two_player_declarer_tricks",
    "two_player_opponent_tricks",
    "two_player_honours",
    "two_player_rubber_bonus",
    "two_player_unfinished_game",
    "two_player_unfinished_partscore",
    "eight_tricks",
    "eight_tricks_failed",
    "misery_penalty",
    "misery_made",
    "draw_discard_tricks",
]


def b2(declarer, strain, tricks, doubled=False, honours=None):
    return TwoPlayerDeal.create(declarer, strain, tricks, doubled=doubled, honours=honours)


def mis(declarer, declaration, tricks, strain="NT", honours=None):
    return TwoPlayerDeal.create(declarer, strain, tricks, declaration=declaration, honours=honours)


def lines(score):
    return [(item.player, item.line, item.points, item.reason) for item in score.items]


def refused(call, *args, **kwargs):
    with pytest.raises(ScoringError) as caught:
        call(*args, **kwargs)
    return caught.value.field, caught.value.rule


# --- RULES 7.1 Bridge for Two: one deal -----------------------------------------------------


@pytest.mark.parametrize(
    ("strain", "doubled", "tricks", "player", "odd", "points"),
    [
        # The declarer (player 0) wins seven tricks or more: their odd tricks score.
        ("C", False, 7, 0, 1, 20),
        ("D", False, 9, 0, 3, 60),
        ("H", False, 10, 0, 4, 120),
        ("S", True, 8, 0, 2, 120),
        ("NT", False, 7, 0, 1, 40),
        ("NT", False, 9, 0, 3, 100),
        ("NT", False, 13, 0, 7, 220),
        ("NT", True, 13, 0, 7, 440),
        # Six or fewer: the opponent (player 1) scores 13 − tricks − 6 odd tricks, same values.
        ("H", False, 6, 1, 1, 30),
        ("S", False, 3, 1, 4, 120),
        ("C", True, 4, 1, 3, 120),
        ("NT", False, 0, 1, 7, 220),
        ("NT", True, 5, 1, 2, 140),
    ],
)
def test_odd_tricks_score_for_whoever_wins_them_rules_7_1(
    strain, doubled, tricks, player, odd, points
):
    score = score_two_player_deal(b2(0, strain, tricks, doubled))
    (item,) = score.items
    assert (item.player, item.line, item.points, item.count) == (player, "below", points, odd)
    assert item.reason == (
        "two_player_declarer_tricks" if player == 0 else "two_player_opponent_tricks"
    )
    assert score.points == ((points, 0) if player == 0 else (0, points))
    assert score.below == (player, points)


@pytest.mark.parametrize("tricks", range(14))
def test_every_deal_gives_odd_tricks_to_exactly_one_player_rules_7_1(tricks):
    score = score_two_player_deal(b2(1, "H", tricks))
    (item,) = score.items
    assert item.player == (1 if tricks >= 7 else 0)
    assert item.count == abs(tricks - 6.5) + 0.5


@pytest.mark.parametrize(
    ("strain", "doubled", "honours", "holder_points"),
    [
        ("H", False, (0, 100), (0, 100)),
        ("H", True, (1, 100), (1, 100)),  # never doubled, and the opponent may hold them
        ("S", False, (1, 150), (1, 150)),
        ("NT", True, (0, 150), (0, 150)),  # the four aces at no trumps
    ],
)
def test_honours_to_the_holder_never_doubled_rules_7_1_rules_3_6(
    strain, doubled, honours, holder_points
):
    # Player 0 declares and loses (4 tricks): honours still score to whoever holds them.
    score = score_two_player_deal(b2(0, strain, 4, doubled, honours))
    item = score.items[-1]
    assert (item.player, item.points, item.line, item.reason) == (
        *holder_points,
        "above",
        "two_player_honours",
    )


def test_honours_at_no_trumps_only_the_four_aces_rules_3_6():
    assert refused(b2, 0, "NT", 9, honours=(0, 100)) == ("honours.points", "RULES 3.6")
    assert refused(PlayerHonours, 0, 120) == ("honours.points", "RULES 3.6")
    assert refused(PlayerHonours, 2, 100) == ("honours.player", "RULES 3.6")


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        ({"declarer": 0, "strain": "H", "tricks": 14}, "tricks", "RULES 1"),
        ({"declarer": 0, "strain": "H", "tricks": -1}, "tricks", "RULES 1"),
        ({"declarer": 0, "strain": "H", "tricks": "9"}, "tricks", "RULES 1"),
        ({"declarer": 0, "strain": "X", "tricks": 9}, "strain", "RULES 7.1"),
        ({"declarer": 0, "strain": "4S", "tricks": 9}, "strain", "RULES 7.1"),
        ({"declarer": 2, "strain": "H", "tricks": 9}, "declarer", "RULES 7.1"),
        ({"declarer": True, "strain": "H", "tricks": 9}, "declarer", "RULES 7.1"),
        ({"declarer": 0, "strain": "H", "tricks": 9, "doubled": 2}, "doubled", "RULES 7.1"),
        ({"strain": "H", "tricks": 9}, "declarer", "RULES 7.1"),
        ({"declarer": 0, "tricks": 9}, "strain", "RULES 7.1"),
        ({"declarer": 0, "strain": "H"}, "tricks", "RULES 1"),
        ({"declarer": 0, "strain": "H", "tricks": 9, "level": 2}, "level", None),
        (
            {"declarer": 0, "strain": "H", "tricks": 9, "declaration": "misery"},
            "declaration",
            None,
        ),
        (
            {"declarer": 0, "strain": "NT", "tricks": 9, "honours": {"player": 0, "points": 100}},
            "honours.points",
            "RULES 3.6",
        ),
        (
            {"declarer": 0, "strain": "H", "tricks": 9, "honours": {"player": 0}},
            "honours.points",
            "RULES 3.6",
        ),
    ],
)
def test_bad_bridge_for_two_deals_are_refused_rules_7_1(data, field, rule):
    assert refused(TwoPlayerDeal.from_dict, data) == (field, rule)


def test_errors_name_the_deal_rules_7_1():
    raw = [{"declarer": 0, "strain": "H", "tricks": 9}, {"declarer": 0, "strain": "Z", "tricks": 9}]
    assert refused(two_player_deals_from_json, raw) == ("deals[1].strain", "RULES 7.1")
    assert refused(two_player_deals_from_json, {"declarer": 0}) == ("deals", None)


def test_strains_are_read_loosely_rules_7_1():
    deals = two_player_deals_from_json(
        [
            {"declarer": 0, "strain": "nt", "tricks": 7, "doubled": True},
            {"declarer": 1, "strain": "N", "tricks": 7, "doubled": 0},
        ]
    )
    assert [(deal.strain, deal.doubled) for deal in deals] == [
        (Strain.NT, True),
        (Strain.NT, False),
    ]


# --- RULES 7.1 Bridge for Two: the rubber ----------------------------------------------------


def test_part_scores_add_up_to_game_and_do_not_carry_rules_7_1_rules_2_2():
    rubber = score_bridge_for_two([b2(0, "H", 9), b2(1, "S", 10), b2(0, "H", 8)])
    # 90 for player 0, then 120 is game for player 1; player 0's 90 does not carry.
    assert rubber.games == (0, 1)
    assert rubber.game_ends == ((1, 2),)
    assert rubber.totals == (150, 120)
    assert not rubber.rubber_complete
    assert rubber.winner is None


def test_the_opponent_can_win_a_game_with_the_declarers_strain_rules_7_1():
    rubber = score_bridge_for_two([b2(0, "NT", 3)])  # player 1 takes 10 tricks: 4 odd at NT
    assert rubber.games == (0, 1)
    assert rubber.below[1][0].points == 130


@pytest.mark.parametrize(
    ("deals", "option", "winner", "bonus", "count"),
    [
        ([b2(0, "S", 10), b2(0, "NT", 9)], 100, 0, 100, 0),
        ([b2(0, "S", 10), b2(1, "D", 11), b2(0, "NT", 9)], 100, 0, 100, 1),
        ([b2(1, "S", 10), b2(1, "NT", 9)], "standard", 1, 700, 0),
        ([b2(0, "S", 10), b2(1, "D", 11), b2(0, "NT", 9)], "standard", 0, 500, 1),
    ],
)
def test_rubber_bonus_100_or_standard_rules_7_1_rules_2_4(deals, option, winner, bonus, count):
    options = HouseRules(rubber_bonus_two_player=option)
    rubber = score_bridge_for_two(deals, options=options)
    assert rubber.rubber_complete
    assert rubber.winner == winner
    assert rubber.rubber_bonus == bonus
    (end,) = rubber.end_items
    assert (end.player, end.points, end.reason, end.count) == (
        winner,
        bonus,
        "two_player_rubber_bonus",
        count,
    )
    assert rubber.totals[winner] == sum(i.points for i in rubber.items if i.player == winner)


def test_vulnerability_is_reported_but_changes_no_value_rules_7_1_rules_2_3():
    not_vulnerable = score_two_player_deal(b2(0, "H", 10, True, (1, 100)))
    rubber = score_bridge_for_two([b2(0, "S", 10), b2(0, "H", 10, True, (1, 100))])
    assert [deal.vulnerable for deal in rubber.deals] == [(False, False), (True, False)]
    assert rubber.deals[1].points == not_vulnerable.points
    assert [i.points for i in rubber.deals[1].items] == [240, 100]


@pytest.mark.parametrize(
    ("deals", "option", "bonus"),
    [
        ([b2(0, "S", 10)], 100, (300, 0)),
        ([b2(0, "S", 10), b2(1, "H", 8)], 100, (300, 100)),
        ([b2(0, "S", 10), b2(1, "H", 8)], 50, (300, 50)),
        ([b2(0, "S", 10), b2(1, "H", 10)], 100, (0, 0)),  # one game each
        ([b2(0, "S", 8), b2(1, "H", 8)], 100, (0, 0)),  # a part score each
    ],
)
def test_unfinished_rubber_closed_rules_7_1_rules_2_6(deals, option, bonus):
    # With the RULES 2.4 rubber bonus, RULES 2.6 as written (RULES 7.1).
    options = HouseRules(unfinished_partscore=option, rubber_bonus_two_player="standard")
    rubber = score_bridge_for_two(deals, closed=True, options=options)
    assert rubber.unfinished_bonus == bonus
    assert sum(i.points for i in rubber.end_items) == sum(bonus)
    still_playing = score_bridge_for_two(deals, options=options)
    assert still_playing.unfinished_bonus == (0, 0)
    assert still_playing.end_items == ()


def test_a_deal_after_the_rubber_ended_is_refused_rules_8_1():
    deals = [b2(0, "S", 10), b2(0, "NT", 9), b2(1, "C", 7)]
    assert refused(score_bridge_for_two, deals) == ("deals[2]", "RULES 8.1")


def test_misery_declarations_are_refused_in_bridge_for_two_rules_7_1():
    deals = [b2(0, "S", 10), mis(1, "eight", 9, "H")]
    assert refused(score_bridge_for_two, deals) == ("deals[1].declaration", "RULES 7.1")
    assert refused(score_bridge_for_two, [b2(0, "S", 10)], closed=1) == ("closed", "RULES 8.4")


def test_back_score_in_hundreds_rules_7_1_rules_4_1():
    rubber = score_bridge_for_two([b2(0, "S", 10), b2(1, "C", 8), b2(0, "NT", 9)])
    # Player 0: 120 + 100 + 100 bonus = 320; player 1: 40.
    assert rubber.totals == (320, 40)
    assert rubber.net == (280, -280)
    assert rubber.back_score_hundreds == (3, -3)
    assert rubber.points_leader == 0


def test_an_empty_rubber_rules_7_1():
    rubber = score_bridge_for_two([], closed=True)
    assert rubber.totals == (0, 0)
    assert rubber.to_dict()["players"] == [
        {"above": [], "below": [], "total": 0},
        {"above": [], "below": [], "total": 0},
    ]


# --- RULES 7.2 Misery Bridge ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "strain", "tricks", "expected"),
    [
        # ordinary: as Bridge for Two
        ("ordinary", "H", 9, [(0, "below", 90, "two_player_declarer_tricks")]),
        ("ordinary", "C", 5, [(1, "below", 40, "two_player_opponent_tricks")]),
        # eight tricks: made → odd tricks at double value, below the line
        ("eight", "H", 8, [(0, "below", 120, "eight_tricks")]),
        ("eight", "D", 10, [(0, "below", 160, "eight_tricks")]),
        ("eight", "NT", 9, [(0, "below", 200, "eight_tricks")]),
        ("eight", "C", 13, [(0, "below", 280, "eight_tricks")]),
        # eight tricks failed → the dealer scores nothing, the opponent 10, whatever the strain
        ("eight", "S", 7, [(1, "above", 10, "eight_tricks_failed")]),
        ("eight", "NT", 0, [(1, "above", 10, "eight_tricks_failed")]),
        ("eight", "C", 3, [(1, "above", 10, "eight_tricks_failed")]),
        # misery: one trick or none → 5 per opponent's trick over six, to the dealer
        ("misery", "NT", 0, [(0, "above", 35, "misery_made")]),
        ("misery", "NT", 1, [(0, "above", 30, "misery_made")]),
        # more than one → 5 per trick the dealer took, to the opponent
        ("misery", "NT", 2, [(1, "above", 10, "misery_penalty")]),
        ("misery", "NT", 7, [(1, "above", 35, "misery_penalty")]),
        ("misery", "NT", 13, [(1, "above", 65, "misery_penalty")]),
    ],
)
def test_misery_declarations_rules_7_2(declaration, strain, tricks, expected):
    assert lines(score_two_player_deal(mis(0, declaration, tricks, strain))) == expected


def test_eight_tricks_made_counts_toward_game_misery_does_not_rules_7_2():
    rubber = score_misery([mis(0, "eight", 8, "S"), mis(1, "misery", 0), mis(0, "misery", 13)])
    assert rubber.games == (1, 0)  # 8 tricks in spades: 2 odd × 30 × 2 = 120
    assert rubber.below == (rubber.deals[0].items, ())
    assert rubber.totals == (120, 35 + 65)  # misery made by player 1, lost by player 0


def test_misery_rubber_as_bridge_for_two_rules_7_2():
    rubber = score_misery(
        [mis(0, "eight", 10, "H"), mis(1, "ordinary", 10, "NT"), mis(0, "ordinary", 10, "S")]
    )
    assert rubber.rubber_complete
    assert rubber.game_ends == ((0, 1), (1, 2), (0, 3))
    assert (rubber.winner, rubber.rubber_bonus) == (0, 100)
    assert rubber.totals == (240 + 120 + 100, 130)


def test_honours_on_an_eight_tricks_deal_rules_7_2_rules_3_6():
    # The opponent's honours count when the eight tricks fail; the dealer's do not (RULES 7.2).
    score = score_two_player_deal(mis(0, "eight", 6, "S", honours=(1, 100)))
    assert lines(score) == [
        (1, "above", 10, "eight_tricks_failed"),
        (1, "above", 100, "two_player_honours"),
    ]


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        (
            {"declarer": 0, "declaration": "misery", "tricks": 1, "doubled": 1},
            "doubled",
            "RULES 7.2",
        ),
        (
            {"declarer": 0, "declaration": "ordinary", "strain": "H", "tricks": 9, "doubled": 1},
            "doubled",
            "RULES 7.2",
        ),
        (
            {"declarer": 0, "declaration": "eight", "strain": "H", "tricks": 9, "doubled": True},
            "doubled",
            "RULES 7.2",
        ),
        ({"declarer": 0, "strain": "H", "tricks": 9}, "declaration", "RULES 7.2"),
        (
            {"declarer": 0, "declaration": "nine", "strain": "H", "tricks": 9},
            "declaration",
            "RULES 7.2",
        ),
        (
            {"declarer": 0, "declaration": "misery", "strain": "S", "tricks": 1},
            "strain",
            "RULES 7.2",
        ),
        (
            {
                "declarer": 0,
                "declaration": "misery",
                "tricks": 1,
                "honours": {"player": 1, "points": 150},
            },
            "honours",
            "RULES 7.2",
        ),
        ({"declarer": 0, "declaration": "eight", "tricks": 9}, "strain", "RULES 7.2"),
        (
            {"declarer": 0, "declaration": "eight", "strain": "Q", "tricks": 9},
            "strain",
            "RULES 7.2",
        ),
        ({"declarer": 0, "declaration": "eight", "strain": "H", "tricks": 14}, "tricks", "RULES 1"),
    ],
)
def test_bad_misery_deals_are_refused_rules_7_2(data, field, rule):
    assert refused(TwoPlayerDeal.from_dict, data, misery=True) == (field, rule)


@pytest.mark.parametrize("holder", [0, 1])
@pytest.mark.parametrize("points", [100, 150])
def test_rules_7_2_a_misery_deal_scores_no_honours(holder, points):
    # RULES 7.2: a misery deal scores its 5-point items and nothing else, whoever holds what.
    assert refused(mis, 0, "misery", 1, honours=(holder, points)) == ("honours", "RULES 7.2")
    data = {"declarer": 0, "declaration": "misery", "tricks": 1}
    honours = {"player": holder, "points": points}
    assert refused(TwoPlayerDeal.from_dict, {**data, "honours": honours}, misery=True) == (
        "honours",
        "RULES 7.2",
    )
    with pytest.raises(ScoringError) as caught:
        two_player_deals_from_json([data, {**data, "honours": honours}], misery=True)
    assert str(caught.value) == "deals[1].honours: a misery deal scores no honours (RULES 7.2)"
    # The other declarations of Misery Bridge keep their honours (RULES 7.2: ordinary as 7.1).
    ordinary = score_two_player_deal(mis(0, "ordinary", 9, "S", honours=(holder, points)))
    assert (holder, "above", points, "two_player_honours") in [
        (i.player, i.line, i.points, i.reason) for i in ordinary.items
    ]


def test_a_misery_deal_may_leave_out_its_strain_rules_7_2():
    deal = TwoPlayerDeal.from_dict(
        {"declarer": 1, "declaration": "misery", "tricks": 0}, misery=True
    )
    assert (deal.strain, deal.declaration) == (Strain.NT, Declaration.MISERY)


def test_a_doubled_deal_is_refused_by_score_misery_rules_7_2():
    deals = [mis(0, "ordinary", 9, "H"), b2(1, "H", 9, doubled=True)]
    assert refused(score_misery, deals) == ("deals[1].doubled", "RULES 7.2")


# --- RULES 7.3 Turnover Bridge ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("tricks", "winner"),
    [*(((14, n), 0) for n in range(13)), *(((n, 14), 1) for n in range(13)), ((13, 13), None)],
)
def test_valid_turnover_results_rules_7_3(tricks, winner):
    result = score_turnover(*tricks)
    assert result.winner == winner
    assert result.tie is (winner is None)
    assert result.to_dict() == {"tricks": list(tricks), "winner": winner, "tie": winner is None}


@pytest.mark.parametrize(
    "tricks",
    [(15, 10), (14, 13), (13, 14), (14, 14), (12, 12), (13, 12), (0, 0), (27, -1), (14, -1)],
)
def test_impossible_turnover_results_are_refused_rules_7_3(tricks):
    assert refused(score_turnover, *tricks) == ("tricks", "RULES 7.3")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"tricks": [14, True]}, "tricks[1]"),
        ({"tricks": ["14", 3]}, "tricks[0]"),
        ({"tricks": [14]}, "tricks"),
        ({}, "tricks"),
    ],
)
def test_bad_turnover_input_rules_7_3(data, field):
    assert refused(turnover_from_json, data) == (field, "RULES 7.3")


# --- RULES 7.4 Draw and Discard Bridge --------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "tricks", "points"),
    [
        ("1C", 7, 20),
        ("1D", 9, 60),
        ("2H", 8, 60),
        ("4S", 10, 120),
        ("4S", 11, 150),  # every trick over six counts, overtricks too
        ("1NT", 7, 40),
        ("3NT", 9, 100),
        ("3NT", 10, 130),
        ("1NT", 13, 220),
        ("2HX", 8, 120),
        ("2HXX", 8, 240),
        ("3NTX", 10, 260),
        ("7NTXX", 13, 880),
        ("4S", 9, 0),  # failed: nothing, to either player
        ("7C", 12, 0),
        ("3NTXX", 0, 0),
    ],
)
def test_draw_discard_deal_rules_7_4(contract, tricks, points):
    score = score_draw_discard_deal(DrawDiscardDeal.create(contract, 1, tricks))
    assert score.points == (0, points)
    assert [item.reason for item in score.items] == (["draw_discard_tricks"] if points else [])


def test_a_passed_deal_scores_nothing_rules_7_4():
    assert score_draw_discard_deal(DrawDiscardDeal.create("pass")).points == (0, 0)
    assert refused(DrawDiscardDeal.create, "pass", 0) == ("declarer", "RULES 3.8")
    assert refused(DrawDiscardDeal.create, "pass", None, 7) == ("tricks", "RULES 3.8")


def test_scores_add_up_until_the_target_rules_7_4():
    deals = [
        DrawDiscardDeal.create("4S", 0, 10),
        DrawDiscardDeal.create("3NTX", 1, 9),
        DrawDiscardDeal.create("pass"),
        DrawDiscardDeal.create("6H", 0, 11),
        DrawDiscardDeal.create("5D", 0, 11),
    ]
    game = score_draw_discard(deals)
    assert game.scores == (220, 200)
    assert [deal.points for deal in game.deals] == [(120, 0), (0, 200), (0, 0), (0, 0), (100, 0)]
    assert (game.finished, game.winner) == (False, None)
    won = score_draw_discard([*deals, DrawDiscardDeal.create("7NTX", 1, 13)])
    assert (won.scores, won.finished, won.winner) == ((220, 640), True, 1)


def test_reaching_the_target_ends_the_game_rules_7_4():
    deals = [DrawDiscardDeal.create("4S", 0, 10), DrawDiscardDeal.create("3NTX", 1, 9)]
    game = score_draw_discard(deals, target=200)
    assert (game.scores, game.finished, game.winner) == ((120, 200), True, 1)
    later = [*deals, DrawDiscardDeal.create("1C", 0, 7)]
    assert refused(score_draw_discard, later, target=200) == ("deals[2]", "RULES 7.4")


def test_the_default_target_is_500_or_the_option_rules_7_4():
    deals = [DrawDiscardDeal.create("7NTX", 0, 13), DrawDiscardDeal.create("2C", 0, 8)]
    assert score_draw_discard(deals).winner is None  # 440 + 40 = 480 < 500
    assert score_draw_discard(deals[:1], options=HouseRules(draw_and_discard_target=400)).finished
    assert score_draw_discard(deals).target == 500
    for bad in (0, -5, "500", True):
        assert refused(score_draw_discard, deals, target=bad) == ("target", "RULES 7.4")


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        ({"declarer": 0, "contract": "4Z", "tricks": 9}, "contract", "RULES 1"),
        ({"declarer": 0, "contract": "8S", "tricks": 9}, "contract", "RULES 1"),
        ({"declarer": 0, "contract": "4S", "tricks": 14}, "tricks", "RULES 1"),
        ({"declarer": 2, "contract": "4S", "tricks": 9}, "declarer", "RULES 7.4"),
        ({"contract": "4S", "tricks": 9}, "declarer", "RULES 7.4"),
        ({"declarer": 0, "contract": "4S"}, "tricks", "RULES 1"),
        ({"declarer": 0, "tricks": 9}, "contract", "RULES 1"),
        ({"contract": "pass", "tricks": 9}, "tricks", "RULES 3.8"),
    ],
)
def test_bad_draw_discard_deals_are_refused_rules_7_4(data, field, rule):
    assert refused(DrawDiscardDeal.from_dict, data) == (field, rule)


# --- Explanations -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "sentence"),
    [
        (
            PlayerItem(0, "below", 90, "two_player_declarer_tricks", 3, Strain.H),
            "Player 0 declared ♥ and won 3 odd tricks: 90 below the line (RULES 7.1)",
        ),
        (
            score_two_player_deal(b2(0, "NT", 5, doubled=True)).items[0],
            "Player 1 won 2 odd tricks against NT doubled: 140 below the line (RULES 7.1)",
        ),
        (
            score_two_player_deal(b2(0, "C", 7)).items[0],
            "Player 0 declared ♣ and won the odd trick: 20 below the line (RULES 7.1)",
        ),
        (
            score_two_player_deal(b2(0, "NT", 7, honours=(1, 150))).items[1],
            "Player 1 held all four aces in one hand at no trumps: 150 for honours (RULES 3.6)",
        ),
        (
            score_two_player_deal(b2(0, "S", 7, honours=(1, 150))).items[1],
            "Player 1 held all five trump honours in one hand: 150 for honours (RULES 3.6)",
        ),
        (
            score_two_player_deal(mis(1, "eight", 7, "S")).items[0],
            "Eight tricks in ♠ declared, only 7 taken: 10 to player 0, whatever the strain "
            "(RULES 7.2)",
        ),
        (
            score_two_player_deal(mis(1, "misery", 3)).items[0],
            "Misery lost, the dealer took 3 tricks: 15 to player 0, 5 a trick (RULES 7.2)",
        ),
        (
            score_two_player_deal(mis(1, "misery", 1)).items[0],
            "Misery made, player 1 took one trick or none: 30 for the 6 tricks the opponent "
            "took over six (RULES 7.2)",
        ),
        (
            score_draw_discard_deal(DrawDiscardDeal.create("4SX", 0, 11)).items[0],
            "4♠ doubled made: 300 to player 0 for 5 tricks over six (RULES 7.4)",
        ),
        (
            score_draw_discard_deal(DrawDiscardDeal.create("1NTXX", 1, 7)).items[0],
            "1NT redoubled made: 160 to player 1 for the trick over six (RULES 7.4)",
        ),
    ],
)
def test_explanations_rules_7(item, sentence):
    assert item.explanation == sentence
    assert item.to_dict()["explanation"] == sentence


def test_every_two_player_reason_has_templates_rules_7():
    assert set(TWO_PLAYER_REASONS) <= set(REASONS)
    assert set(TWO_PLAYER_REASONS) <= set(TEMPLATES)
    for reason in TWO_PLAYER_REASONS:
        for count in (0, 1, 2, 5):
            for strain in (Strain.H, Strain.NT):
                item = PlayerItem(1, "above", 10, reason, count, strain, level=3)
                assert explain_player_item(item).strip()


def test_explanations_use_a_translated_table_rules_7():
    table = {reason: dict(forms) for reason, forms in TEMPLATES.items()}
    table["misery_penalty"] = {"other": "Miseria persa: {points} al giocatore {player}"}
    item = score_two_player_deal(mis(0, "misery", 5)).items[0]
    assert explain_player_item(item, table) == "Miseria persa: 25 al giocatore 1 (RULES 7.2)"


# --- Properties -------------------------------------------------------------------------------

STRAINS = st.sampled_from(list(Strain))


@st.composite
def two_player_deals(draw, misery=False):
    strain = draw(STRAINS)
    declaration = Declaration.ORDINARY
    if misery:
        declaration = draw(st.sampled_from(list(Declaration)))
    if declaration is Declaration.MISERY:
        strain = Strain.NT
    declarer, tricks = draw(st.sampled_from([0, 1])), draw(st.integers(0, 13))
    honours = None
    if declaration is not Declaration.MISERY and draw(st.booleans()):
        points = 150 if strain is Strain.NT else draw(st.sampled_from([100, 150]))
        holder = draw(st.sampled_from([0, 1]))
        # Only what the play allows (RULES 3.7): a Misery hand plays one card a trick, a Bridge
        # for Two player two.
        minimum = (
            (1 if strain is Strain.NT else {100: 3, 150: 5}[points])
            if misery
            else (1 if strain is Strain.NT or points == 100 else 3)
        )
        if (tricks if holder == declarer else 13 - tricks) >= minimum:
            honours = PlayerHonours(holder, points)
    return TwoPlayerDeal(
        declarer,
        strain,
        tricks,
        doubled=(not misery) and draw(st.booleans()),
        honours=honours,
        declaration=declaration,
    )


def one_rubber(deals, score):
    """The deals up to the end of the first rubber (later ones belong to the next)."""
    for end in range(1, len(deals) + 1):
        if score(deals[:end]).rubber_complete:
            return deals[:end]
    return deals


RUBBERS = st.lists(two_player_deals(), max_size=10).map(
    lambda deals: one_rubber(deals, score_bridge_for_two)
)
MISERY_RUBBERS = st.lists(two_player_deals(misery=True), max_size=10).map(
    lambda deals: one_rubber(deals, score_misery)
)


@given(
    st.one_of(
        RUBBERS.map(lambda d: (score_bridge_for_two, d)),
        MISERY_RUBBERS.map(lambda d: (score_misery, d)),
    ),
    st.booleans(),
    st.sampled_from([100, "standard"]),
)
def test_totals_are_the_sum_of_the_items_rules_7_1_rules_7_2(game, closed, bonus):
    score, deals = game
    rubber = score(deals, closed=closed, options=HouseRules(rubber_bonus_two_player=bonus))
    for player in (0, 1):
        column = rubber.above[player] + rubber.below[player]
        assert rubber.totals[player] == sum(item.points for item in column)
    assert rubber.totals == tuple(
        sum(deal.points[p] for deal in rubber.deals)
        + sum(i.points for i in rubber.end_items if i.player == p)
        for p in (0, 1)
    )
    assert all(item.reason in REASONS and item.explanation for item in rubber.items)
    data = rubber.to_dict()
    assert [p["total"] for p in data["players"]] == list(rubber.totals)


@given(
    st.one_of(
        RUBBERS.map(lambda d: (score_bridge_for_two, d)),
        MISERY_RUBBERS.map(lambda d: (score_misery, d)),
    ),
    st.booleans(),
)
def test_swapping_the_players_swaps_the_result_rules_7_1_rules_7_2(game, closed):
    score, deals = game
    rubber = score(deals, closed=closed)
    swapped = score([deal.swapped() for deal in deals], closed=closed)
    assert swapped.totals == rubber.totals[::-1]
    assert swapped.games == rubber.games[::-1]
    assert swapped.unfinished_bonus == rubber.unfinished_bonus[::-1]
    assert swapped.back_score_hundreds == rubber.back_score_hundreds[::-1]
    assert swapped.winner == (None if rubber.winner is None else 1 - rubber.winner)
    assert swapped.rubber_complete == rubber.rubber_complete


@given(RUBBERS, st.booleans())
def test_back_scores_sum_to_zero_rules_4_1(deals, closed):
    rubber = score_bridge_for_two(deals, closed=closed)
    assert sum(rubber.net) == 0
    assert sum(rubber.back_score_hundreds) == 0
    assert (rubber.points_leader is None) == (rubber.totals[0] == rubber.totals[1])


@st.composite
def draw_discard_deals(draw):
    contract = draw(
        st.one_of(
            st.just("pass"),
            st.builds(
                lambda level, strain, x: f"{level}{strain.value}{x}",
                st.integers(1, 7),
                STRAINS,
                st.sampled_from(["", "X", "XX"]),
            ),
        )
    )
    if contract == "pass":
        return DrawDiscardDeal.create(contract)
    return DrawDiscardDeal.create(contract, draw(st.sampled_from([0, 1])), draw(st.integers(0, 13)))


def until_finished(deals, target):
    for end in range(1, len(deals) + 1):
        if score_draw_discard(deals[:end], target=target).finished:
            return deals[:end]
    return deals


@given(st.lists(draw_discard_deals(), max_size=12), st.integers(1, 1000))
def test_draw_discard_scores_and_swapping_rules_7_4(deals, target):
    deals = until_finished(deals, target)
    game = score_draw_discard(deals, target=target)
    for player in (0, 1):
        assert game.scores[player] == sum(i.points for i in game.items if i.player == player)
    assert game.finished == (max(game.scores) >= target)
    swapped = score_draw_discard([deal.swapped() for deal in deals], target=target)
    assert swapped.scores == game.scores[::-1]
    assert swapped.winner == (None if game.winner is None else 1 - game.winner)


@given(st.integers(-2, 28), st.integers(-2, 28))
def test_turnover_is_symmetric_rules_7_3(t0, t1):
    try:
        result = score_turnover(t0, t1)
    except ScoringError as error:
        assert error.rule == "RULES 7.3"
        with pytest.raises(ScoringError):
            score_turnover(t1, t0)
        return
    assert t0 + t1 == 26 or max(t0, t1) == 14
    swapped = score_turnover(t1, t0)
    assert swapped.winner == (None if result.winner is None else 1 - result.winner)


# --- The audit's findings (issue 15) ------------------------------------------------------------


@pytest.mark.parametrize("strain", ["S", "H", "C"])
def test_rules_7_2_eight_tricks_failed_scores_nothing(strain):
    # Seed 001: "his adversary scores ten points penalty, the dealer scoring nothing at all":
    # not even the honours the dealer holds.
    score = score_two_player_deal(mis(0, "eight", 6, strain, honours=(0, 150)))
    assert lines(score) == [(1, "above", 10, "eight_tricks_failed")]
    assert score.points == (0, 10)
    rubber = score_misery([mis(0, "eight", 7, strain, honours=(0, 100))])
    assert rubber.totals == (0, 10)
    # The opponent's own honours still count; a made eight tricks keeps the dealer's.
    theirs = score_two_player_deal(mis(0, "eight", 4, strain, honours=(1, 150)))
    assert theirs.points == (0, 160)
    made = score_two_player_deal(mis(0, "eight", 8, strain, honours=(0, 150)))
    assert made.points[0] == made.items[0].points + 150


@pytest.mark.parametrize(
    ("tricks", "winner"),
    [((16, 10), 0), ((10, 16), 1), ((15, 11), 0), ((26, 0), 0), ((0, 26), 1), ((14, 12), 0)],
)
def test_rules_7_3_turnover_played_out_is_a_valid_result(tricks, winner):
    result = score_turnover(*tricks)
    assert (result.tricks, result.winner, result.tie) == (tricks, winner, False)


@pytest.mark.parametrize("tricks", [(15, 10), (16, 9), (14, 13), (27, 0), (12, 12), (13, 14)])
def test_rules_7_3_anything_but_all_26_or_14_against_0_to_12_is_still_refused(tricks):
    assert refused(score_turnover, *tricks) == ("tricks", "RULES 7.3")


@pytest.mark.parametrize(
    ("deals", "rubber_bonus", "partscore", "bonus"),
    [
        # The 100 rubber bonus: 50 for the only game, nothing for a part score.
        ([b2(0, "S", 10)], 100, 100, (50, 0)),
        ([b2(0, "S", 10), b2(1, "H", 8)], 100, 100, (50, 0)),
        ([b2(0, "S", 8)], 100, 100, (0, 0)),
        # The RULES 2.4 values: RULES 2.6 as written.
        ([b2(0, "S", 10)], "standard", 100, (300, 0)),
        ([b2(0, "S", 10), b2(1, "H", 8)], "standard", 100, (300, 100)),
        ([b2(0, "S", 10), b2(1, "H", 8)], "standard", 50, (300, 50)),
        ([b2(0, "S", 10), b2(1, "H", 10)], "standard", 100, (0, 0)),
    ],
)
def test_rules_7_1_unfinished_bonus_scales_with_the_rubber_bonus(
    deals, rubber_bonus, partscore, bonus
):
    options = HouseRules(rubber_bonus_two_player=rubber_bonus, unfinished_partscore=partscore)
    for scorer in (score_bridge_for_two, score_misery):
        rubber = scorer(deals, closed=True, options=options)
        assert rubber.unfinished_bonus == bonus
        assert [(i.player, i.points) for i in rubber.end_items] == [
            (player, points) for player, points in enumerate(bonus) if points
        ]


def test_rules_7_1_stopping_is_never_worth_more_than_finishing():
    for rubber_bonus in (100, "standard"):
        options = HouseRules(rubber_bonus_two_player=rubber_bonus)
        won = score_bridge_for_two([b2(0, "S", 10), b2(0, "S", 10)], options=options)
        stopped = score_bridge_for_two([b2(0, "S", 10)], closed=True, options=options)
        assert stopped.unfinished_bonus[0] < won.rubber_bonus


@pytest.mark.parametrize(
    ("deal", "misery", "holder_took", "minimum"),
    [
        # Bridge for Two: each player plays two cards to every trick, so five honours in a
        # player's hand win at least three tricks, four of them or the four aces at least one.
        ({"declarer": 0, "strain": "S", "tricks": 11, "honours": {"player": 1, "points": 150}},
         False, 2, 3),
        ({"declarer": 0, "strain": "H", "tricks": 13, "honours": {"player": 1, "points": 100}},
         False, 0, 1),
        ({"declarer": 1, "strain": "NT", "tricks": 0, "honours": {"player": 1, "points": 150}},
         False, 0, 1),
        # Misery Bridge: each hand plays one card a trick, so RULES 3.7 as written.
        ({"declarer": 0, "declaration": "eight", "strain": "S", "tricks": 4,
          "honours": {"player": 0, "points": 150}}, True, 4, 5),
        ({"declarer": 0, "declaration": "ordinary", "strain": "D", "tricks": 11,
          "honours": {"player": 1, "points": 100}}, True, 2, 3),
    ],
)  # fmt: skip
def test_rules_3_7_impossible_honours_are_refused_in_two_player_games(
    deal, misery, holder_took, minimum
):
    with pytest.raises(ScoringError) as caught:
        TwoPlayerDeal.from_dict(deal, misery=misery)
    assert (caught.value.field, caught.value.rule) == ("honours", "RULES 3.7")
    assert caught.value.params["tricks"] == holder_took
    assert caught.value.params["minimum"] == minimum
    scorer = score_misery if misery else score_bridge_for_two
    with pytest.raises(ScoringError) as again:
        scorer(two_player_deals_from_json([deal], misery=misery))
    assert (again.value.field, again.value.rule) == ("deals[0].honours", "RULES 3.7")


def test_rules_3_7_possible_honours_are_accepted_in_two_player_games():
    # Bridge for Two: three tricks are enough for all five honours, one for four of them.
    score_bridge_for_two([b2(0, "S", 10, honours=(1, 150)), b2(1, "H", 1, honours=(1, 100))])
    score_misery([mis(0, "eight", 5, "S", honours=(0, 150)), mis(1, "ordinary", 3, "C")])


def test_rules_3_8_a_passed_draw_and_discard_deal_is_refused_alike():
    for data, field, message in (
        ({"contract": "pass", "declarer": 0}, "declarer", "a passed-out deal has no declarer"),
        ({"contract": "pass", "tricks": 0}, "tricks", "a passed-out deal has no tricks"),
    ):
        with pytest.raises(ScoringError) as caught:
            DrawDiscardDeal.from_dict(data)
        assert (caught.value.field, caught.value.message, caught.value.rule) == (
            field,
            message,
            "RULES 3.8",
        )
    assert DrawDiscardDeal.from_dict({"contract": "pass", "declarer": None}).declarer is None


@pytest.mark.parametrize(
    ("item", "sentence"),
    [
        (score_two_player_deal(b2(0, "C", 7)).items[0],
         "Player 0 declared ♣ and won the odd trick: 20 below the line (RULES 7.1)"),
        (score_two_player_deal(b2(0, "S", 7, honours=(1, 150))).items[1],
         "Player 1 held all five trump honours in one hand: 150 for honours (RULES 3.6)"),
        (score_two_player_deal(mis(1, "eight", 7, "S")).items[0],
         "Eight tricks in ♠ declared, only 7 taken: 10 to player 0, whatever the strain "
         "(RULES 7.2)"),
        (score_two_player_deal(mis(1, "misery", 3)).items[0],
         "Misery lost, the dealer took 3 tricks: 15 to player 0, 5 a trick (RULES 7.2)"),
        (score_draw_discard_deal(DrawDiscardDeal.create("4SX", 0, 11)).items[0],
         "4♠ doubled made: 300 to player 0 for 5 tricks over six (RULES 7.4)"),
        (score_bridge_for_two([b2(0, "S", 10), b2(0, "S", 10)]).end_items[0],
         "Player 0 won the rubber by two games to none: 100 rubber bonus (RULES 7.1)"),
        (score_bridge_for_two([b2(0, "S", 10)], closed=True).end_items[0],
         "Rubber unfinished: 50 to player 0 for the only completed game (RULES 7.1)"),
    ],
)  # fmt: skip
def test_rules_explanations_of_two_player_items_name_their_section(item, sentence):
    assert item.explanation == sentence
    assert item.to_dict()["explanation"] == sentence


def test_rules_2_3_a_completed_two_player_rubber_reports_nobody_vulnerable():
    rubber = score_bridge_for_two([b2(0, "S", 10), b2(0, "S", 10)])
    assert rubber.rubber_complete
    assert rubber.vulnerable == (False, False)  # the next deal opens the next rubber
    assert rubber.to_dict()["vulnerable"] == [False, False]
    assert score_bridge_for_two([b2(0, "S", 10)]).vulnerable == (True, False)


def test_rules_2_3_nobody_is_vulnerable_in_a_two_player_rubber_closed_unfinished():
    deals = [b2(0, "S", 10), b2(1, "H", 10)]
    assert score_bridge_for_two(deals).vulnerable == (True, True)
    closed = score_bridge_for_two(deals, closed=True)
    assert closed.vulnerable == (False, False)
    assert closed.to_dict()["vulnerable"] == [False, False]
    assert [deal.vulnerable for deal in closed.deals] == [(False, False), (True, False)]
    misery = score_misery([mis(0, "ordinary", 10, "S")], closed=True)
    assert misery.vulnerable == (False, False)
