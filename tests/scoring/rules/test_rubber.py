"""A rubber (RULES 2), the back score (RULES 4.1) and the scorer's decisions (RULES 8)."""

import pytest

from scoring.rules import (
    DealInput,
    Honours,
    HouseRules,
    ScoringError,
    Side,
    hundreds,
    iter_rubbers,
    score_rubber,
    score_rubbers,
)

NS, EW = Side.NS, Side.EW


def d(contract, declarer=None, tricks=None, honours=None):
    return DealInput.create(contract, declarer, tricks, honours)


def reasons(rubber, side, line="above"):
    column = rubber.above[side] if line == "above" else rubber.below[side]
    return [(item.reason, item.points) for item in column]


def test_only_declarer_scores_trick_points_rules_2_1():
    rubber = score_rubber([d("4S", "NS", 9)])
    assert rubber.below == {NS: (), EW: ()}
    assert rubber.totals == {NS: 0, EW: 50}


def test_part_scores_add_up_to_game_rules_2_2():
    rubber = score_rubber([d("2H", "NS", 8), d("2S", "NS", 8)])
    assert rubber.games == {NS: 1, EW: 0}
    assert rubber.game_ends == ((NS, 2),)


def test_part_scores_do_not_carry_into_a_new_game_rules_2_2():
    rubber = score_rubber([d("2H", "NS", 8), d("4S", "EW", 10), d("2H", "NS", 8)])
    assert rubber.games == {NS: 0, EW: 1}
    # NS's first 60 stays in the totals but not in the new game.
    assert rubber.totals[NS] == 120
    closed = score_rubber([d("2H", "NS", 8), d("4S", "EW", 10), d("2H", "NS", 8)], closed=True)
    assert ("unfinished_partscore", 100) in reasons(closed, NS)


def test_vulnerability_fixed_at_start_of_deal_rules_2_3():
    rubber = score_rubber([d("4SX", "NS", 11), d("4SX", "EW", 8), d("4SX", "NS", 11)])
    vulnerable = [deal.vulnerable for deal in rubber.deals]
    assert vulnerable == [(False, False), (True, False), (True, False)]
    overtricks = [i.points for i in rubber.items if i.reason == "overtricks"]
    assert overtricks == [100, 200]  # first scored not vulnerable, the second vulnerable
    assert reasons(rubber, NS)[2] == ("undertricks", 300)  # EW not vulnerable, down 2 doubled


@pytest.mark.parametrize(
    ("deals", "winner", "bonus"),
    [
        ([d("4S", "NS", 10), d("3NT", "NS", 9)], NS, 700),
        ([d("4S", "NS", 10), d("5D", "EW", 11), d("3NT", "NS", 9)], NS, 500),
        ([d("4S", "EW", 10), d("pass"), d("6C", "EW", 12)], EW, 700),
    ],
)
def test_rubber_bonus_rules_2_4(deals, winner, bonus):
    rubber = score_rubber(deals)
    assert rubber.rubber_complete
    assert rubber.winner is winner
    assert rubber.rubber_bonus == bonus
    assert ("rubber_bonus", bonus) in reasons(rubber, winner)
    assert rubber.unfinished_bonus == {NS: 0, EW: 0}


def test_a_deal_after_the_rubber_ended_is_refused_rules_8_1():
    with pytest.raises(ScoringError) as caught:
        score_rubber([d("4S", "NS", 10), d("3NT", "NS", 9), d("1C", "EW", 7)])
    assert (caught.value.field, caught.value.rule) == ("deals[2]", "RULES 8.1")


def test_totals_include_bonuses_and_points_leader_may_lose_on_games_rules_2_5():
    rubber = score_rubber([d("4S", "NS", 10), d("7NTXX", "NS", 6), d("3NT", "NS", 9)])
    assert rubber.winner is NS
    assert rubber.points_leader is EW
    assert rubber.totals == {NS: 120 + 100 + 700, EW: 400 + 600 * 6}  # down 7 XX vulnerable
    assert rubber.back_score_hundreds == {NS: -31, EW: 31}


def test_passed_out_deal_scores_nothing_rules_2_5():
    rubber = score_rubber([d("pass"), d("pass")])
    assert rubber.totals == {NS: 0, EW: 0}
    assert [deal.items for deal in rubber.deals] == [(), ()]


@pytest.mark.parametrize(
    ("deals", "options", "ns", "ew"),
    [
        ([d("4S", "NS", 10)], HouseRules(), 300, 0),
        ([d("4S", "NS", 10), d("4S", "EW", 10)], HouseRules(), 0, 0),
        ([d("2S", "NS", 8)], HouseRules(), 100, 0),
        ([d("2S", "NS", 8)], HouseRules(unfinished_partscore=50), 50, 0),
        ([d("2S", "NS", 8), d("2C", "EW", 8)], HouseRules(), 0, 0),
        ([d("4S", "NS", 10), d("1NT", "NS", 7)], HouseRules(), 400, 0),
        ([d("4S", "NS", 10), d("1NT", "EW", 7)], HouseRules(), 300, 100),
        ([d("4S", "NS", 10), d("4H", "EW", 10), d("2D", "EW", 8)], HouseRules(), 0, 100),
        ([], HouseRules(), 0, 0),
    ],
)
def test_unfinished_rubber_rules_2_6(deals, options, ns, ew):
    rubber = score_rubber(deals, closed=True, options=options)
    assert not rubber.rubber_complete
    assert rubber.winner is None
    assert rubber.unfinished_bonus == {NS: ns, EW: ew}
    end_points = {NS: 0, EW: 0}
    for item in rubber.end_items:
        end_points[item.side] += item.points
    assert end_points == {NS: ns, EW: ew}


def test_rubber_still_in_play_has_no_unfinished_bonus_rules_8_4():
    rubber = score_rubber([d("4S", "NS", 10), d("2H", "NS", 8)])
    assert rubber.unfinished_bonus == {NS: 0, EW: 0}
    assert rubber.vulnerable == {NS: True, EW: False}


@pytest.mark.parametrize(
    ("margin", "expected"),
    [
        (0, 0),
        (49, 0),
        (50, 1),
        (940, 9),
        (950, 10),
        (1050, 11),
        (1049, 10),
        (-940, -9),
        (-950, -10),
        (-1050, -11),
        (-50, -1),
        (-49, 0),
    ],
)
def test_back_score_rounding_rules_4_1(margin, expected):
    assert hundreds(margin) == expected


def test_back_score_and_net_rules_4_1():
    rubber = score_rubber([d("4S", "NS", 10), d("3NT", "NS", 9)])
    assert rubber.totals == {NS: 920, EW: 0}
    assert rubber.net == {NS: 920, EW: -920}
    assert rubber.back_score_hundreds == {NS: 9, EW: -9}
    rubber = score_rubber([d("4S", "NS", 11), d("3NT", "NS", 9)])
    assert rubber.totals == {NS: 950, EW: 0}
    assert rubber.back_score_hundreds == {NS: 10, EW: -10}


def test_tie_on_points_rules_8_3():
    rubber = score_rubber([d("1NT", "NS", 6), d("1NT", "EW", 6)])
    assert rubber.totals == {NS: 50, EW: 50}
    assert rubber.points_leader is None
    assert rubber.back_score_hundreds == {NS: 0, EW: 0}


def test_correcting_an_earlier_deal_rescores_later_deals_rules_8_2():
    before = score_rubber([d("4S", "NS", 10), d("4SX", "NS", 11)])
    after = score_rubber([d("4S", "NS", 9), d("4SX", "NS", 11)])
    assert before.deals[1].vulnerable == (True, False)
    assert after.deals[1].vulnerable == (False, False)
    assert score_rubber([d("4S", "NS", 10), d("4SX", "NS", 11)]) == before


def test_stream_of_deals_as_consecutive_rubbers_rules_8_1():
    keys = [d(*args).key for args in [("4S", "NS", 10), ("3NT", "NS", 9), ("1C", "EW", 7)]]
    rubbers = score_rubbers(keys, closed=True)
    assert [r.rubber_complete for r in rubbers] == [True, False]
    assert rubbers[1].unfinished_bonus == {NS: 0, EW: 100}
    assert list(iter_rubbers(keys, closed=True)) == rubbers


def test_honours_scored_in_a_rubber_rules_3_6():
    rubber = score_rubber([d("4S", "NS", 10, Honours(EW, 100))])
    assert ("honours", 100) in reasons(rubber, EW)
    assert rubber.games == {NS: 1, EW: 0}


def test_json_shape():
    rubber = score_rubber([d("4S", "NS", 10, Honours(EW, 100)), d("pass")], closed=True)
    data = rubber.to_dict()
    assert set(data) == {
        "NS",
        "EW",
        "games",
        "vulnerable",
        "rubber_complete",
        "winner",
        "rubber_bonus",
        "unfinished_bonus",
        "net",
        "back_score_hundreds",
        "points_leader",
        "deals",
        "options",
    }
    assert data["NS"]["total"] == 420
    assert data["EW"]["total"] == 100
    assert data["games"] == {"NS": 1, "EW": 0}
    assert data["vulnerable"] == {"NS": False, "EW": False}  # closed unfinished (RULES 2.3)
    assert data["unfinished_bonus"] == {"NS": 300, "EW": 0}
    assert data["back_score_hundreds"] == {"NS": 3, "EW": -3}
    assert data["points_leader"] == "NS"
    assert data["deals"][1] == {"vulnerable": {"NS": True, "EW": False}, "items": []}
    assert [item["reason"] for item in data["NS"]["above"]] == ["unfinished_game"]
    assert data["NS"]["below"][0]["deal"] == 1
    assert data["options"] == HouseRules().to_dict()


def test_rules_2_3_a_completed_rubber_reports_the_next_deals_vulnerability():
    # RULES 2.3, 8.1: after the rubber the next deal opens a new rubber, nobody vulnerable.
    rubber = score_rubber([d("4S", "NS", 10), d("3NT", "NS", 9)])
    assert rubber.rubber_complete
    assert rubber.vulnerable == {NS: False, EW: False}
    assert rubber.to_dict()["vulnerable"] == {"NS": False, "EW": False}
    assert [deal.vulnerable for deal in rubber.deals] == [(False, False), (True, False)]
    still_playing = score_rubber([d("4S", "NS", 10)])
    assert still_playing.vulnerable == {NS: True, EW: False}


@pytest.mark.parametrize(
    "deals",
    [
        [d("4S", "NS", 10)],  # NS won the only game
        [d("4S", "NS", 10), d("3NT", "EW", 9)],  # one game each
        [d("4S", "NS", 10), d("3NT", "EW", 9), d("2H", "NS", 8)],  # and a part score
    ],
)
def test_rules_2_3_nobody_is_vulnerable_in_a_rubber_closed_unfinished(deals):
    # RULES 2.3: once closed unfinished (RULES 2.6) no deal follows in the rubber, so nobody is
    # vulnerable in it; each deal keeps the vulnerability it was played at.
    in_play = score_rubber(deals)
    closed = score_rubber(deals, closed=True)
    assert any(in_play.vulnerable.values())
    assert closed.vulnerable == {NS: False, EW: False}
    assert closed.to_dict()["vulnerable"] == {"NS": False, "EW": False}
    assert closed.deals == in_play.deals
    assert [r.vulnerable for r in score_rubbers([deal.key for deal in deals], closed=True)] == [
        {NS: False, EW: False}
    ]


def test_rules_explanations_of_rubber_bonuses_name_their_section():
    won = score_rubber([d("4S", "NS", 10), d("3NT", "NS", 9)])
    assert won.end_items[0].explanation == (
        "NS won the rubber by two games to none: 700 rubber bonus (RULES 2.4)"
    )
    stopped = score_rubber([d("4S", "NS", 10), d("2H", "EW", 8)], closed=True)
    assert [item.explanation for item in stopped.end_items] == [
        "Rubber unfinished: 300 to NS for the only completed game (RULES 2.6)",
        "Rubber unfinished: 100 to EW for a part score in the unfinished game (RULES 2.6)",
    ]
