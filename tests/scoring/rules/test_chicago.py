"""Chicago (RULES 5): four counted deals, fixed vulnerability, game and part-score bonuses."""

import pytest

from scoring.rules import (
    DealInput,
    Honours,
    HouseRules,
    ScoringError,
    Side,
    chicago_vulnerability,
    score_chicago,
)

NS, EW = Side.NS, Side.EW


def d(contract, declarer=None, tricks=None, honours=None):
    return DealInput.create(contract, declarer, tricks, honours)


def bonuses(chicago, side):
    return [(i.reason, i.points) for i in chicago.above[side] if i.reason.endswith("_bonus")]


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("dealer", [(False, False), (False, True), (True, False), (True, True)]),
        ("non_dealer", [(False, False), (True, False), (False, True), (True, True)]),
    ],
)
def test_vulnerability_by_deal_rules_5(option, expected):
    options = HouseRules(chicago_vulnerable=option)
    assert [chicago_vulnerability(k, options) for k in (1, 2, 3, 4)] == expected


def test_passed_out_deal_is_redealt_and_does_not_count_rules_5():
    chicago = score_chicago([d("pass"), d("pass"), d("1NT", "NS", 7)])
    assert [deal.counted for deal in chicago.deals] == [None, None, 1]
    assert [deal.dealer for deal in chicago.deals] == [NS, NS, NS]
    assert chicago.counted == 1
    assert chicago.next_dealer is EW
    assert chicago.next_vulnerable == (False, True)


def test_game_bonus_300_not_vulnerable_500_vulnerable_rules_5():
    chicago = score_chicago(
        [d("4S", "NS", 10), d("4H", "EW", 10), d("3NT", "NS", 9), d("5C", "EW", 11)]
    )
    assert bonuses(chicago, NS) == [("game_bonus", 300), ("game_bonus", 500)]
    assert bonuses(chicago, EW) == [("game_bonus", 500), ("game_bonus", 500)]
    assert chicago.complete
    assert chicago.totals == {NS: 120 + 300 + 100 + 500, EW: 120 + 500 + 100 + 500}
    assert chicago.points_leader is EW


def test_part_scores_add_up_until_a_game_rules_5():
    chicago = score_chicago([d("2H", "NS", 8), d("2S", "EW", 8), d("2D", "NS", 8)])
    # Deal 3 is dealt by South: NS vulnerable, so NS's 60 + 40 completes a vulnerable game.
    assert chicago.deals[2].vulnerable == (True, False)
    assert bonuses(chicago, NS) == [("game_bonus", 500)]
    chicago = score_chicago([d("2H", "NS", 8), d("2S", "EW", 8), d("4S", "EW", 10)])
    # EW's game on deal 3 wipes NS's 60; EW not vulnerable on deal 3.
    assert bonuses(chicago, EW) == [("game_bonus", 300)]


def test_vulnerable_game_bonus_uses_the_declarers_vulnerability_rules_5():
    chicago = score_chicago([d("pass"), d("3NT", "NS", 9), d("3NT", "EW", 9), d("3NT", "EW", 9)])
    # Counted deals: 1 (nobody vulnerable), 2 (dealer EW vulnerable), 3 (dealer NS vulnerable).
    assert bonuses(chicago, NS) == [("game_bonus", 300)]
    assert bonuses(chicago, EW) == [("game_bonus", 500), ("game_bonus", 300)]


def test_part_score_on_deal_four_earns_100_rules_5():
    chicago = score_chicago(
        [d("1C", "NS", 6), d("1C", "NS", 6), d("1C", "NS", 6), d("2S", "EW", 8)]
    )
    assert bonuses(chicago, EW) == [("partscore_bonus", 100)]
    # A part score on deal 4 that completes a game earns the game bonus instead.
    chicago = score_chicago(
        [d("1C", "NS", 6), d("1C", "NS", 6), d("2S", "EW", 8), d("2S", "EW", 8)]
    )
    assert bonuses(chicago, EW) == [("game_bonus", 500)]


def test_no_rubber_bonus_and_no_more_than_four_deals_rules_5():
    deals = [d("4S", "NS", 10)] * 4
    chicago = score_chicago(deals)
    assert not [i for i in chicago.above[NS] if i.reason == "rubber_bonus"]
    with pytest.raises(ScoringError) as caught:
        score_chicago([*deals, d("1C", "EW", 7)])
    assert (caught.value.field, caught.value.rule) == ("deals[4]", "RULES 5")


def test_values_as_rules_3_rules_5():
    chicago = score_chicago([d("4SX", "NS", 8)])
    assert chicago.totals == {NS: 0, EW: 300}  # NV doubled down 2


def test_honours_option_rules_5():
    deals = [d("4S", "NS", 10, Honours(EW, 100))]
    assert score_chicago(deals).totals[EW] == 100
    with pytest.raises(ScoringError) as caught:
        score_chicago(deals, options=HouseRules(chicago_honours=False))
    assert (caught.value.field, caught.value.rule) == ("deals[0].honours", "RULES 5")


def test_json_shape():
    data = score_chicago([d("pass"), d("4S", "NS", 10)]).to_dict()
    assert data["NS"]["total"] == 420
    assert data["deals_counted"] == 1
    assert data["complete"] is False
    assert data["next"] == {"dealer": "EW", "vulnerable": {"NS": False, "EW": True}}
    assert data["deals"][0]["counted"] is None
    assert data["net"] == {"NS": 420, "EW": -420}
    assert data["back_score_hundreds"] == {"NS": 4, "EW": -4}


def test_rules_explanations_of_chicago_bonuses_name_their_section():
    chicago = score_chicago([d("4S", "NS", 10), d("1C", "EW", 7), d("pass"), d("2H", "NS", 8),
                             d("2D", "EW", 8)])  # fmt: skip
    sentences = [item.explanation for side in (NS, EW) for item in chicago.above[side]]
    assert "4♠ completed a game, not vulnerable: 300 game bonus (RULES 5)" in sentences
    assert "2♦ made a part score on the fourth deal: 100 part-score bonus (RULES 5)" in sentences
    assert "1♣ made, vulnerable: 20 below the line for the odd trick bid (RULES 3.1)" in [
        item.explanation for item in chicago.below[EW]
    ]
