"""House rules: every RULES.md option with its default, validated, round-tripping."""

import pytest

from scoring.rules import DEFAULT, PRESETS, HouseRules, ScoringError


def test_defaults_are_the_acbl_laws():
    assert DEFAULT.to_dict() == {
        "unfinished_partscore": 100,  # RULES 2.6
        "insult_redoubled": 100,  # RULES 3.3
        "old_undertricks": False,  # RULES 3.4
        "pivot_ranking": "net",  # RULES 4.3
        "chicago_vulnerable": "dealer",  # RULES 5
        "chicago_honours": True,  # RULES 5
        "rubber_bonus_two_player": 100,  # RULES 7.1
        "draw_and_discard_target": 500,  # RULES 7.4
    }
    assert PRESETS["acbl"] == DEFAULT


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_round_trip(preset):
    options = PRESETS[preset]
    assert HouseRules.from_dict(options.to_dict()) == options


def test_from_dict_partial_and_none():
    assert HouseRules.from_dict({}) == DEFAULT
    assert HouseRules.from_dict(None) == DEFAULT
    assert HouseRules.from_dict({"unfinished_partscore": 50}).unfinished_partscore == 50


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        ({"honors": True}, "options.honors", None),
        ({"unfinished_partscore": 75}, "options.unfinished_partscore", "RULES 2.6"),
        ({"insult_redoubled": "100"}, "options.insult_redoubled", "RULES 3.3"),
        ({"old_undertricks": 1}, "options.old_undertricks", "RULES 3.4"),
        ({"pivot_ranking": "points"}, "options.pivot_ranking", "RULES 4.3"),
        ({"chicago_vulnerable": "both"}, "options.chicago_vulnerable", "RULES 5"),
        ({"chicago_honours": "yes"}, "options.chicago_honours", "RULES 5"),
        ({"rubber_bonus_two_player": 700}, "options.rubber_bonus_two_player", "RULES 7.1"),
        ({"draw_and_discard_target": 0}, "options.draw_and_discard_target", "RULES 7.4"),
        ({"unfinished_partscore": True}, "options.unfinished_partscore", "RULES 2.6"),
    ],
)
def test_bad_options_are_refused_naming_the_option(data, field, rule):
    with pytest.raises(ScoringError) as caught:
        HouseRules.from_dict(data)
    assert (caught.value.field, caught.value.rule) == (field, rule)


def test_presets():
    old = HouseRules.from_preset("old_code")
    assert old.old_undertricks is True
    assert old.insult_redoubled == 50
    assert HouseRules.from_preset("club_50").unfinished_partscore == 50
    changed = HouseRules.from_preset("old_code", {"unfinished_partscore": 50})
    assert (changed.old_undertricks, changed.unfinished_partscore) == (True, 50)
    with pytest.raises(ScoringError) as caught:
        HouseRules.from_preset("nope")
    assert caught.value.field == "options.preset"


def test_options_are_frozen_and_hashable():
    with pytest.raises(AttributeError):
        DEFAULT.old_undertricks = True  # type: ignore[misc]
    assert hash(DEFAULT) == hash(HouseRules())
