"""Contracts, sides and honours claims (RULES 1, RULES 3.6)."""

import pickle

import pytest

from scoring.rules import PASS, Contract, Doubling, Honours, ScoringError, Side, Strain


@pytest.mark.parametrize(
    ("text", "level", "strain", "doubling", "canonical"),
    [
        ("4S", 4, Strain.S, Doubling.NONE, "4S"),
        ("4SX", 4, Strain.S, Doubling.DOUBLED, "4SX"),
        ("3NTXX", 3, Strain.NT, Doubling.REDOUBLED, "3NTXX"),
        ("3ntxx", 3, Strain.NT, Doubling.REDOUBLED, "3NTXX"),
        ("1N", 1, Strain.NT, Doubling.NONE, "1NT"),
        ("7cx", 7, Strain.C, Doubling.DOUBLED, "7CX"),
        (" 2h ", 2, Strain.H, Doubling.NONE, "2H"),
        ("6DR", 6, Strain.D, Doubling.REDOUBLED, "6DXX"),
    ],
)
def test_parse_and_format_contracts_rules_1(text, level, strain, doubling, canonical):
    contract = Contract.parse(text)
    assert (contract.level, contract.strain, contract.doubling) == (level, strain, doubling)
    assert str(contract) == canonical
    assert Contract.parse(str(contract)) == contract
    assert not contract.is_pass


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass"])
def test_passed_out_deal_rules_1(text):
    contract = Contract.parse(text)
    assert contract is PASS
    assert contract.is_pass
    assert str(contract) == "pass"


@pytest.mark.parametrize("text", ["", "0S", "8NT", "4", "4Z", "4SXXX", "NT4", "4 spades", None, 4])
def test_anything_else_is_refused_rules_1(text):
    with pytest.raises(ScoringError) as caught:
        Contract.parse(text)
    assert caught.value.field == "contract"
    assert caught.value.rule == "RULES 1"
    assert str(caught.value).startswith("contract: ")


def test_contract_constructor_validates_rules_1():
    with pytest.raises(ScoringError):
        Contract(8, Strain.S)
    with pytest.raises(ScoringError):
        Contract(3, None, Doubling.DOUBLED)


def test_display_for_people():
    assert Contract.parse("4SX").display == "4♠ doubled"
    assert Contract.parse("3NTXX").display == "3NT redoubled"
    assert Contract.parse("2H").display == "2♥"


def test_sides():
    assert Side.NS.other is Side.EW
    assert Side.EW.other is Side.NS
    assert Side.parse("ew") is Side.EW
    with pytest.raises(ScoringError):
        Side.parse("N")


def test_doubling_multiplies_rules_3_1():
    assert [int(d) for d in Doubling] == [1, 2, 4]


@pytest.mark.parametrize("points", [0, 50, 200, True, 100.0, "100"])
def test_honours_are_100_or_150_rules_3_6(points):
    with pytest.raises(ScoringError) as caught:
        Honours(Side.NS, points)
    assert caught.value.field == "honours.points"
    assert caught.value.rule == "RULES 3.6"


def test_honours_at_no_trumps_are_only_the_four_aces_rules_3_6():
    Honours(Side.NS, 150).check(Contract.parse("3NT"))
    with pytest.raises(ScoringError) as caught:
        Honours(Side.NS, 100).check(Contract.parse("3NT"))
    assert caught.value.rule == "RULES 3.6"


def test_no_honours_on_a_passed_out_deal_rules_3_6_rules_3_8():
    with pytest.raises(ScoringError) as caught:
        Honours(Side.EW, 100).check(PASS)
    assert (caught.value.field, caught.value.rule) == ("honours", "RULES 3.8")


def test_honours_from_dict():
    assert Honours.from_dict({"side": "EW", "points": 150}) == Honours(Side.EW, 150)
    with pytest.raises(ScoringError):
        Honours.from_dict({"side": "EW"})
    with pytest.raises(ScoringError):
        Honours.from_dict([100])


def test_error_string_is_one_line_with_field_and_rule():
    error = ScoringError("deals[3].tricks", "14 is not between 0 and 13", "RULES 1")
    assert str(error) == "deals[3].tricks: 14 is not between 0 and 13 (RULES 1)"
    assert isinstance(error, ValueError)
    assert str(ScoringError("tricks", "bad").within("deals[2]")) == "deals[2].tricks: bad"


def test_error_keeps_its_template_and_params_for_translation():
    error = ScoringError("tricks", "{tricks} is not between 0 and 13", "RULES 1", tricks=14)
    assert error.message == "14 is not between 0 and 13"
    moved = pickle.loads(pickle.dumps(error.within("deals[3]")))
    assert str(moved) == "deals[3].tricks: 14 is not between 0 and 13 (RULES 1)"
    assert (moved.template, moved.params) == ("{tricks} is not between 0 and 13", {"tricks": 14})
    # Without params a template is the message as it is: its braces need no escaping.
    assert ScoringError("", "expected an object {side, points}").message == (
        "expected an object {side, points}"
    )
