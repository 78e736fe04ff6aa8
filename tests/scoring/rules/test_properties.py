"""Properties of the engine over random deals (hypothesis): RULES 2, RULES 4.1, RULES 8."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    PASS,
    Contract,
    DealInput,
    Doubling,
    Honours,
    HouseRules,
    ScoringError,
    Side,
    Strain,
    hundreds,
    score_chicago,
    score_deal,
    score_rubber,
    score_rubbers,
)
from scoring.rules.games import game
from scoring.rules.rubber import score_rubber_keys
from scoring.rules.rubber_totals import rubber_totals_keys

PROPERTY = settings(max_examples=60, deadline=None)
contracts = st.builds(
    Contract, st.integers(1, 7), st.sampled_from(list(Strain)), st.sampled_from(list(Doubling))
)
options = st.builds(
    HouseRules,
    unfinished_partscore=st.sampled_from([100, 50]),
    insult_redoubled=st.sampled_from([100, 50]),
    old_undertricks=st.booleans(),
)


@st.composite
def deals(draw):
    if draw(st.integers(0, 19)) == 0:
        return DealInput(PASS)
    contract = draw(contracts)
    # Mostly near the contract, so that rubbers progress as they do at the table.
    tricks = draw(
        st.one_of(
            st.integers(0, 13),
            st.integers(-3, 2).map(lambda d: max(0, min(13, contract.level + 6 + d))),
        )
    )
    declarer = draw(st.sampled_from(list(Side)))
    honours = None
    if draw(st.booleans()) and draw(st.booleans()):
        points = 150 if contract.strain is Strain.NT else draw(st.sampled_from([100, 150]))
        holder = draw(st.sampled_from(list(Side)))
        # Only what the play allows (RULES 3.7): all five honours take 5 tricks, four take 3,
        # the four aces 1.
        minimum = 1 if contract.strain is Strain.NT else {100: 3, 150: 5}[points]
        if (tricks if holder is declarer else 13 - tricks) >= minimum:
            honours = Honours(holder, points)
    return DealInput(contract, declarer, tricks, honours)


deal_lists = st.lists(deals(), max_size=20)


def swapped(deal):
    if deal.declarer is None:
        return deal
    honours = deal.honours and Honours(deal.honours.side.other, deal.honours.points)
    return DealInput(deal.contract, deal.declarer.other, deal.tricks, honours)


def first_rubber(deal_list):
    """The deals of the first rubber in a stream (RULES 8.1)."""
    rubbers = score_rubbers([deal.key for deal in deal_list])
    return deal_list[: rubbers[0].deal_count] if rubbers else []


@PROPERTY
@given(deal_lists, st.booleans(), options)
def test_totals_equal_the_sum_of_items_rules_2_5(deal_list, closed, rules):
    for rubber in score_rubbers([d.key for d in deal_list], closed=closed, options=rules):
        for side in Side:
            column_sum = sum(i.points for i in rubber.above[side] + rubber.below[side])
            item_sum = sum(i.points for i in rubber.items if i.side is side)
            assert rubber.totals[side] == column_sum == item_sum
        assert sum(len(items) for items in rubber.deal_items) == len(rubber.played)


@PROPERTY
@given(deal_lists, st.booleans(), options)
def test_each_deal_in_a_rubber_scores_as_on_its_own_rules_2_3_and_3(deal_list, closed, rules):
    """The replay's items (built from the rubber table's rows) are, deal by deal, the items the
    single-deal scorer gives at the vulnerability the rubber had reached (RULES 2.3), with the
    deal's number; the end items are all bonuses (RULES 2.4, 2.6)."""
    position = 0
    for rubber in score_rubbers([d.key for d in deal_list], closed=closed, options=rules):
        for number, (deal, played) in enumerate(
            zip(deal_list[position:], rubber.deals, strict=False), 1
        ):
            assert played.number == number
            if deal.declarer is None:
                assert played.items == ()
                continue
            vulnerable = played.vulnerable[0 if deal.declarer is Side.NS else 1]
            alone = score_deal(
                deal.contract,
                vulnerable=vulnerable,
                tricks=deal.tricks,
                honours=deal.honours,
                declarer=deal.declarer,
                options=rules,
            )
            assert played.items == tuple(item._replace(deal=number) for item in alone.items)
        assert {item.reason for item in rubber.end_items} <= {
            "rubber_bonus",
            "unfinished_game",
            "unfinished_partscore",
        }
        position += rubber.deal_count
    assert position == len(deal_list)


@PROPERTY
@given(deal_lists, st.booleans())
def test_swapping_sides_swaps_the_result_rules_2(deal_list, closed):
    deal_list = first_rubber(deal_list)
    rubber = score_rubber(deal_list, closed=closed)
    mirror = score_rubber([swapped(d) for d in deal_list], closed=closed)
    for side in Side:
        assert mirror.totals[side.other] == rubber.totals[side]
        assert mirror.games[side.other] == rubber.games[side]
        assert mirror.unfinished_bonus[side.other] == rubber.unfinished_bonus[side]
        assert mirror.vulnerable[side.other] == rubber.vulnerable[side]
        assert mirror.back_score_hundreds[side.other] == rubber.back_score_hundreds[side]
    assert mirror.winner == (rubber.winner and rubber.winner.other)
    assert mirror.points_leader == (rubber.points_leader and rubber.points_leader.other)


@PROPERTY
@given(deal_lists, st.booleans())
def test_net_antisymmetric_and_back_scores_sum_to_zero_rules_4_1(deal_list, closed):
    for rubber in score_rubbers([d.key for d in deal_list], closed=closed):
        net, back = rubber.net, rubber.back_score_hundreds
        assert net[Side.NS] == -net[Side.EW]
        assert back[Side.NS] + back[Side.EW] == 0
        assert back[Side.NS] == hundreds(net[Side.NS])
        assert (rubber.points_leader is None) == (net[Side.NS] == 0)


@PROPERTY
@given(deal_lists, st.booleans(), options)
def test_rescoring_is_deterministic_rules_8_2(deal_list, closed, rules):
    deal_list = first_rubber(deal_list)
    first = score_rubber(deal_list, closed=closed, options=rules)
    again = score_rubber(list(deal_list), closed=closed, options=rules)
    assert first == again
    assert first.to_dict() == again.to_dict()


@PROPERTY
@given(deal_lists, deals())
def test_a_rubber_ends_at_a_sides_second_game_and_refuses_more_rules_2_4(deal_list, extra):
    rubbers = score_rubbers([d.key for d in deal_list])
    assert sum(r.deal_count for r in rubbers) == len(deal_list)
    for rubber in rubbers[:-1]:
        assert rubber.rubber_complete
    for rubber in rubbers:
        if rubber.rubber_complete:
            assert max(rubber.games.values()) == 2
            assert min(rubber.games.values()) in (0, 1)
            assert rubber.game_ends[-1][1] == rubber.deal_count
            assert rubber.rubber_bonus == (700 if min(rubber.games.values()) == 0 else 500)
        else:
            assert max(rubber.games.values()) < 2
    if rubbers and rubbers[0].rubber_complete:
        played = deal_list[: rubbers[0].deal_count]
        with pytest.raises(ScoringError) as caught:
            score_rubber([*played, extra])
        assert caught.value.rule == "RULES 8.1"


@PROPERTY
@given(st.lists(deals(), max_size=8))
def test_chicago_totals_and_net_rules_5(deal_list):
    try:
        chicago = score_chicago(deal_list)
    except ScoringError as error:
        assert error.rule == "RULES 5"
        return
    assert chicago.counted == sum(1 for d in deal_list if not d.contract.is_pass)
    for side in Side:
        items = chicago.above[side] + chicago.below[side]
        assert chicago.totals[side] == sum(i.points for i in items)
    assert chicago.net[Side.NS] == -chicago.net[Side.EW]
    assert sum(chicago.back_score_hundreds.values()) == 0


class _Recorded:
    """A recorded deal as the registry's scorers read it (`DealLike`)."""

    data = None

    def __init__(self, deal):
        self.deal = deal

    def as_input(self):
        return self.deal


@PROPERTY
@given(deal_lists, st.booleans(), options)
def test_a_rubbers_result_from_keys_equals_its_sheets_rules_2_and_4_1(deal_list, closed, rules):
    """The rebuild scores rubbers from their deals' keys: the same figures as the sheet."""
    rubber_game = game("rubber")
    played = first_rubber(deal_list)
    keys = [d.key for d in played]
    sheet = rubber_game.score([_Recorded(d) for d in played], closed, rules)
    assert rubber_game.result_of_keys(keys, closed, rules) == sheet.result


@settings(max_examples=300, deadline=None)
@given(deal_lists, st.booleans(), options)
def test_a_rubbers_totals_from_keys_equal_its_replay_rules_2_and_8_1(deal_list, closed, rules):
    """`rubber_totals_keys` (the rebuild's replay without items) gives the totals of
    `score_rubber_keys`, and refuses what it refuses: a deal after the rubber ended (RULES 8.1)
    or a key that is no deal."""
    keys = [d.key for d in deal_list]
    for stream in (keys, keys[: len(first_rubber(deal_list))], [*keys[:3], -1]):
        try:
            rubber = score_rubber_keys(stream, closed=closed, options=rules)
        except ScoringError as error:
            with pytest.raises(ScoringError) as refused:
                rubber_totals_keys(stream, closed=closed, options=rules)
            assert str(refused.value) == str(error)
            assert (refused.value.field, refused.value.rule) == (error.field, error.rule)
        else:
            totals = (rubber.total_ns, rubber.total_ew)
            assert rubber_totals_keys(stream, closed=closed, options=rules) == totals
