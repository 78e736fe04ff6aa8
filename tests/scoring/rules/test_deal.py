"""One deal (RULES 3.1–3.6) and deal input validation (RULES 1)."""

import pytest

from scoring.rules import (
    PASS,
    Contract,
    DealInput,
    Honours,
    HouseRules,
    ScoringError,
    Side,
    deal_key,
    explain,
    score_deal,
    score_deals,
)


def score(text, tricks, vulnerable=False, **kwargs):
    return score_deal(Contract.parse(text), vulnerable=vulnerable, tricks=tricks, **kwargs)


def reasons(result):
    return {item.reason: item.points for item in result.items}


@pytest.mark.parametrize(
    ("contract", "tricks", "below"),
    [
        ("1C", 7, 20),
        ("1D", 7, 20),
        ("1H", 7, 30),
        ("1S", 7, 30),
        ("1NT", 7, 40),
        ("3NT", 9, 100),
        ("4S", 10, 120),
        ("5D", 11, 100),
        ("7NT", 13, 220),
        ("2SX", 8, 120),
        ("1NTXX", 7, 160),
        ("2CX", 8, 80),
        ("7NTXX", 13, 880),
    ],
)
def test_trick_points_rules_3_1(contract, tricks, below):
    result = score(contract, tricks)
    assert result.declarer_below == below
    assert reasons(result)["trick_points"] == below


def test_doubled_part_score_counts_for_game_rules_3_1():
    assert score("2SX", 8).declarer_below >= 100


@pytest.mark.parametrize(
    ("contract", "tricks", "vulnerable", "overtricks"),
    [
        ("2H", 10, False, 60),
        ("1C", 10, True, 60),
        ("1NT", 9, False, 60),
        ("3NTX", 10, False, 100),
        ("3NTX", 10, True, 200),
        ("3NTXX", 10, False, 200),
        ("3NTXX", 10, True, 400),
        ("1SX", 13, True, 1200),
    ],
)
def test_overtricks_rules_3_2(contract, tricks, vulnerable, overtricks):
    result = score(contract, tricks, vulnerable)
    assert reasons(result)["overtricks"] == overtricks
    assert (
        result.declarer_below
        == score(contract, tricks - (tricks - 6 - int(contract[0]))).declarer_below
    )


@pytest.mark.parametrize(
    ("contract", "options", "insult"),
    [
        ("4SX", HouseRules(), 50),
        ("4SXX", HouseRules(), 100),
        ("4SXX", HouseRules(insult_redoubled=50), 50),
        ("4SX", HouseRules(insult_redoubled=50), 50),
    ],
)
def test_insult_rules_3_3(contract, options, insult):
    assert reasons(score(contract, 10, options=options))["insult"] == insult


def test_no_insult_undoubled_rules_3_3():
    assert "insult" not in reasons(score("4S", 10))


CUMULATIVE = [
    # (doubling suffix, vulnerable, [penalty for 1, 2, 3, ... down])
    ("", False, [50, 100, 150, 200, 250]),
    ("", True, [100, 200, 300, 400, 500]),
    ("X", False, [100, 300, 500, 800, 1100, 1400]),
    ("X", True, [200, 500, 800, 1100, 1400]),
    ("XX", False, [200, 600, 1000, 1600, 2200]),
    ("XX", True, [400, 1000, 1600, 2200, 2800]),
]


@pytest.mark.parametrize(
    ("suffix", "vulnerable", "down", "penalty"),
    [
        (suffix, vulnerable, down, penalty)
        for suffix, vulnerable, penalties in CUMULATIVE
        for down, penalty in enumerate(penalties, 1)
    ],
)
def test_undertricks_cumulative_rules_3_4(suffix, vulnerable, down, penalty):
    result = score(f"7NT{suffix}", 13 - down, vulnerable)
    assert result.defenders_above == penalty
    assert result.declarer_below == result.declarer_above == 0
    (item,) = result.items
    assert (item.side, item.reason, item.count) == (Side.EW, "undertricks", down)


def test_thirteen_down_redoubled_vulnerable_rules_3_4():
    assert score("7NTXX", 0, True).defenders_above == 400 + 600 * 12


@pytest.mark.parametrize(
    ("suffix", "down", "penalty"),
    [("X", 3, 500), ("X", 4, 700), ("X", 5, 900), ("XX", 4, 1400)],
)
def test_old_undertricks_option_rules_3_4(suffix, down, penalty):
    options = HouseRules(old_undertricks=True)
    assert score(f"7S{suffix}", 13 - down, False, options=options).defenders_above == penalty
    # Vulnerable is unchanged by the option.
    assert score("7SX", 9, True, options=options).defenders_above == 1100


@pytest.mark.parametrize(
    ("contract", "tricks", "vulnerable", "slam"),
    [
        ("6S", 12, False, 500),
        ("6S", 12, True, 750),
        ("6NTX", 13, True, 750),
        ("7C", 13, False, 1000),
        ("7NTXX", 13, True, 1500),
    ],
)
def test_slams_not_changed_by_doubling_rules_3_5(contract, tricks, vulnerable, slam):
    assert reasons(score(contract, tricks, vulnerable))["slam"] == slam


def test_no_slam_bonus_when_slam_made_but_not_bid_rules_3_5():
    assert "slam" not in reasons(score("4S", 12))


def test_honours_to_defenders_even_when_made_rules_3_6():
    result = score("4S", 10, honours=Honours(Side.EW, 100))
    assert result.defenders_above == 100
    assert result.declarer_above == 0
    assert reasons(result)["honours"] == 100


def test_honours_to_declarer_even_when_failing_rules_3_6():
    result = score("4SX", 8, True, honours=Honours(Side.NS, 150))
    assert result.declarer_above == 150
    assert result.defenders_above == 500


def test_four_aces_at_no_trumps_rules_3_6():
    result = score("3NTXX", 9, honours=Honours(Side.NS, 150))
    honours = [item for item in result.items if item.reason == "honours"]
    assert honours[0].points == 150
    assert "four aces" in explain(honours[0])


@pytest.mark.parametrize(("contract", "points"), [("3NT", 100)])
def test_invalid_honours_refused_rules_3_6(contract, points):
    with pytest.raises(ScoringError) as caught:
        score(contract, 9, honours=Honours(Side.NS, points))
    assert caught.value.rule == "RULES 3.6"


def test_passed_out_deal_scores_nothing_rules_2_5():
    result = score_deal(PASS, vulnerable=False, tricks=None)
    assert (result.declarer_below, result.declarer_above, result.defenders_above) == (0, 0, 0)
    assert result.items == ()
    with pytest.raises(ScoringError) as caught:
        score_deal(PASS, vulnerable=False, tricks=7)
    assert caught.value.field == "tricks"


@pytest.mark.parametrize(
    ("kwargs", "field", "rule"),
    [
        ({"contract": "4S", "declarer": "NS", "tricks": 14}, "tricks", "RULES 1"),
        ({"contract": "4S", "declarer": "NS", "tricks": -1}, "tricks", "RULES 1"),
        ({"contract": "4S", "declarer": "NS", "tricks": "9"}, "tricks", "RULES 1"),
        ({"contract": "4S", "declarer": "NS"}, "tricks", "RULES 1"),
        ({"contract": "4S", "tricks": 10}, "declarer", "RULES 1"),
        ({"contract": "4S", "declarer": "N", "tricks": 10}, "declarer", "RULES 1"),
        ({"contract": "pass", "declarer": "NS"}, "declarer", "RULES 3.8"),
        ({"contract": "pass", "tricks": 7}, "tricks", "RULES 3.8"),
        (
            {"contract": "pass", "honours": {"side": "NS", "points": 100}},
            "honours",
            "RULES 3.8",
        ),
        ({"contract": "4Q", "declarer": "NS", "tricks": 10}, "contract", "RULES 1"),
        ({"declarer": "NS", "tricks": 10}, "contract", "RULES 1"),
    ],
)
def test_deal_input_validation_rules_1(kwargs, field, rule):
    with pytest.raises(ScoringError) as caught:
        DealInput.from_dict(kwargs)
    assert (caught.value.field, caught.value.rule) == (field, rule)


def test_deal_input_round_trip():
    data = {
        "contract": "4SX",
        "declarer": "EW",
        "tricks": 9,
        "honours": {"side": "NS", "points": 100},
    }
    deal = DealInput.from_dict(data)
    assert deal.to_dict() == data
    assert DealInput.from_dict({"contract": "pass"}).to_dict() == {"contract": "pass"}


def test_batch_matches_single_calls():
    cases = [("4SX", 9, True), ("3NT", 10, False), ("1C", 3, True), ("7NTXX", 13, True)]
    keys = [deal_key(Contract.parse(c), vulnerable=v, tricks=t) for c, t, v in cases]
    assert score_deals(keys) == [score(c, t, v) for c, t, v in cases]
    with pytest.raises(ScoringError):
        score_deals([-1])


def test_deal_json_shape():
    data = score("4SX", 9, True).to_dict()
    assert data["declarer"] == {"below": 0, "above": 0}
    assert data["defenders"] == {"above": 200}
    assert data["items"][0]["explanation"] == (
        "4♠ doubled down one, vulnerable: 200 to the defenders for the undertrick (RULES 3.4)"
    )


def test_explanations_read_like_a_player_would_say_them():
    result = score("4SX", 11, True)
    sentences = [explain(item) for item in result.items]
    assert (
        "4♠ doubled made with an overtrick, vulnerable: 200 for the overtrick (RULES 3.2)"
        in sentences
    )
    assert all(item.to_dict()["explanation"] for item in result.items)


# --- RULES 3.7: results the laws of play make impossible --------------------------------------


@pytest.mark.parametrize(
    ("contract", "declarer", "tricks", "honours", "holder_took", "minimum"),
    [
        # 7NT made: the defenders took no trick, so they cannot hold the four aces.
        ("7NT", "NS", 13, ("EW", 150), 0, 1),
        # 1S with no trick: the declaring side cannot hold all five trump honours ...
        ("1S", "NS", 0, ("NS", 150), 0, 5),
        # ... nor four of them with two tricks; nor the defenders five with nine taken.
        ("4H", "EW", 2, ("EW", 100), 2, 3),
        ("2D", "NS", 9, ("EW", 150), 4, 5),
    ],
)
def test_rules_3_7_impossible_honours_are_refused(
    contract, declarer, tricks, honours, holder_took, minimum
):
    side, points = honours
    data = {
        "contract": contract,
        "declarer": declarer,
        "tricks": tricks,
        "honours": {"side": side, "points": points},
    }
    with pytest.raises(ScoringError) as caught:
        DealInput.from_dict(data)
    assert (caught.value.field, caught.value.rule) == ("honours", "RULES 3.7")
    assert caught.value.params == {"side": side, "tricks": holder_took, "minimum": minimum}
    with pytest.raises(ScoringError) as single:
        score(contract, tricks, declarer=Side(declarer), honours=Honours(Side(side), points))
    assert (single.value.field, single.value.rule) == ("honours", "RULES 3.7")


@pytest.mark.parametrize(
    ("contract", "declarer", "tricks", "honours"),
    [
        ("7NT", "NS", 12, ("EW", 150)),  # the defenders' ace took the one trick they won
        ("1S", "NS", 5, ("NS", 150)),
        ("1S", "NS", 3, ("NS", 100)),
        ("4H", "EW", 10, ("NS", 100)),
        ("3NT", "NS", 1, ("NS", 150)),
    ],
)
def test_rules_3_7_possible_honours_are_accepted(contract, declarer, tricks, honours):
    side, points = honours
    deal = DealInput.create(contract, declarer, tricks, Honours(Side(side), points))
    result = score(contract, tricks, declarer=Side(declarer), honours=deal.honours)
    assert reasons(result)["honours"] == points


# --- Every explanation names the RULES section it applies (README: "citing the rule") ---------


@pytest.mark.parametrize(
    ("contract", "tricks", "vulnerable", "honours", "reason", "sentence"),
    [
        ("4S", 10, False, None, "trick_points",
         "4♠ made, not vulnerable: 120 below the line for 4 odd tricks bid (RULES 3.1)"),
        ("4SX", 11, True, None, "overtricks",
         "4♠ doubled made with an overtrick, vulnerable: 200 for the overtrick (RULES 3.2)"),
        ("4SX", 10, True, None, "insult",
         "4♠ doubled made: 50 for making a doubled contract (RULES 3.3)"),
        ("4SX", 9, True, None, "undertricks",
         "4♠ doubled down one, vulnerable: 200 to the defenders for the undertrick (RULES 3.4)"),
        ("6H", 12, False, None, "slam",
         "6♥ made, not vulnerable: 500 for a small slam (RULES 3.5)"),
        ("3NT", 9, False, Honours(Side.EW, 150), "honours",
         "EW held all four aces in one hand at no trumps: 150 for honours (RULES 3.6)"),
    ],
)  # fmt: skip
def test_rules_explanations_name_the_section_they_apply(
    contract, tricks, vulnerable, honours, reason, sentence
):
    result = score(contract, tricks, vulnerable, honours=honours)
    item = next(item for item in result.items if item.reason == reason)
    assert explain(item) == sentence
    assert item.to_dict()["explanation"] == sentence


def test_an_items_json_is_kept_by_its_fields_and_their_types() -> None:
    """`Item.to_dict` keeps each item's JSON (a rubber's sheet is written out again after each
    deal): an equal item gets an equal copy, never the same dict, and `1` is not `True`."""
    from scoring.rules.contract import Contract, Side
    from scoring.rules.items import Item

    item = Item(Side.EW, "above", 500, "undertricks", Contract.parse("4HX"), True, 2, 2)
    first = item.to_dict()
    first["points"] = 0
    again = Item(Side.EW, "above", 500, "undertricks", Contract.parse("4HX"), True, 2, 2)
    assert again.to_dict() == again._dict() and again.to_dict()["points"] == 500
    assert again.to_dict() is not again.to_dict()
    as_one = item._replace(vulnerable=1)
    assert as_one == item and as_one.to_dict()["vulnerable"] is not True
