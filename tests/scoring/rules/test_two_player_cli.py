"""``python -m scoring bridge-for-two|misery|turnover|draw-discard`` (RULES 7): JSON in, JSON out,
JSON Lines batches, exit status 2 with one line naming the field and the rule on bad input.
"""

import json
import subprocess
import sys

import pytest

from scoring.rules.cli import COMMANDS
from tests.conftest import ROOT


def run(command, text):
    return subprocess.run(
        [sys.executable, "-m", "scoring", command],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def ok(command, request):
    result = run(command, json.dumps(request))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def test_the_two_player_subcommands_are_registered_rules_7():
    assert {"bridge-for-two", "misery", "turnover", "draw-discard"} <= set(COMMANDS)


def test_bridge_for_two_rules_7_1():
    data = ok(
        "bridge-for-two",
        {
            "deals": [
                {"declarer": 0, "strain": "H", "tricks": 9},
                {
                    "declarer": 1,
                    "strain": "NT",
                    "doubled": 1,
                    "tricks": 5,
                    "honours": {"player": 0, "points": 150},
                },
                {"declarer": 0, "strain": "S", "tricks": 11},
            ],
            "closed": False,
            "options": {},
        },
    )
    assert data["games"] == [2, 0]
    assert data["rubber_complete"] is True
    assert data["winner"] == 0
    assert data["rubber_bonus"] == 100
    assert data["unfinished_bonus"] == [0, 0]
    # 90 + 140 (player 0 took 8 tricks against NT doubled) + 150 + 150 honours + 100 bonus.
    assert [p["total"] for p in data["players"]] == [630, 0]
    assert data["net"] == [630, -630]
    assert data["back_score_hundreds"] == [6, -6]
    below = data["players"][0]["below"]
    assert [item["points"] for item in below] == [90, 140, 150]
    assert below[1]["reason"] == "two_player_opponent_tricks"
    assert below[1]["explanation"] == (
        "Player 0 won 2 odd tricks against NT doubled: 140 below the line (RULES 7.1)"
    )
    assert [deal["vulnerable"] for deal in data["deals"]] == [
        [False, False],
        [False, False],
        [True, False],
    ]
    assert data["deals"][1]["points"] == [290, 0]


def test_bridge_for_two_standard_bonus_and_unfinished_rules_7_1_rules_2_6():
    data = ok(
        "bridge-for-two",
        {
            "deals": [{"declarer": 1, "strain": "S", "tricks": 10}],
            "closed": True,
            "options": {"rubber_bonus_two_player": "standard"},
        },
    )
    assert data["unfinished_bonus"] == [0, 300]
    assert data["winner"] is None
    assert data["players"][1]["above"][0]["explanation"] == (
        "Rubber unfinished: 300 to player 1 for the only completed game (RULES 7.1)"
    )


def test_misery_rules_7_2():
    data = ok(
        "misery",
        {
            "deals": [
                {"declarer": 0, "declaration": "eight", "strain": "S", "tricks": 7},
                {"declarer": 1, "declaration": "misery", "tricks": 1},
                {"declarer": 0, "declaration": "ordinary", "strain": "D", "tricks": 8},
            ]
        },
    )
    assert [deal["points"] for deal in data["deals"]] == [[0, 10], [0, 30], [40, 0]]
    assert [p["total"] for p in data["players"]] == [40, 40]
    assert data["points_leader"] is None
    assert data["back_score_hundreds"] == [0, 0]


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        ([14, 12], {"tricks": [14, 12], "winner": 0, "tie": False}),
        ([3, 14], {"tricks": [3, 14], "winner": 1, "tie": False}),
        ([13, 13], {"tricks": [13, 13], "winner": None, "tie": True}),
    ],
)
def test_turnover_rules_7_3(tricks, expected):
    assert ok("turnover", {"tricks": tricks}) == expected


def test_draw_discard_rules_7_4():
    data = ok(
        "draw-discard",
        {
            "target": 300,
            "deals": [
                {"declarer": 0, "contract": "4S", "tricks": 11},
                {"declarer": 1, "contract": "3NTX", "tricks": 8},
                {"contract": "pass"},
                {"declarer": 0, "contract": "2HXX", "tricks": 8},
            ],
        },
    )
    assert data["scores"] == [390, 0]
    assert (data["finished"], data["winner"], data["target"]) == (True, 0, 300)
    assert [deal["points"] for deal in data["deals"]] == [[150, 0], [0, 0], [0, 0], [240, 0]]
    assert data["deals"][3]["items"][0]["explanation"] == (
        "2♥ redoubled made: 240 to player 0 for 2 tricks over six (RULES 7.4)"
    )


def test_draw_discard_default_target_rules_7_4():
    data = ok("draw-discard", {"deals": [{"declarer": 1, "contract": "1C", "tricks": 7}]})
    assert (data["target"], data["scores"], data["finished"]) == (500, [0, 20], False)


def test_json_lines_batch_rules_7():
    lines = [
        {"tricks": [14, 0]},
        {"tricks": [15, 10]},
        {"tricks": [13, 13]},
    ]
    result = run("turnover", "\n".join(json.dumps(line) for line in lines) + "\n")
    assert result.returncode == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["winner"] for line in out] == [0, None]
    assert result.stdout.splitlines()[0] == '{"tricks":[14,0],"winner":0,"tie":false}'
    (error,) = result.stderr.splitlines()
    assert error.startswith("line 2: tricks: 15–10")
    assert error.endswith("(RULES 7.3)")


def test_a_good_batch_exits_0_rules_7():
    lines = [
        {"deals": [{"declarer": 0, "strain": "C", "tricks": 7}]},
        {"deals": [{"declarer": 1, "strain": "NT", "tricks": 13}], "closed": True},
    ]
    result = run("bridge-for-two", "\n".join(json.dumps(line) for line in lines))
    assert result.returncode == 0, result.stderr
    totals = [
        [p["total"] for p in json.loads(line)["players"]] for line in result.stdout.splitlines()
    ]
    assert totals == [[20, 0], [0, 270]]  # 220 game + 50 for the only completed game


@pytest.mark.parametrize(
    ("command", "request_", "message"),
    [
        ("turnover", {"tricks": [15, 10]}, "tricks: 15–10 is not a Turnover result"),
        ("turnover", {"tricks": [14, 13]}, "tricks: 14–13 is not a Turnover result"),
        ("turnover", {"tricks": [12, 12]}, "tricks: 12–12 is not a Turnover result"),
        (
            "misery",
            {"deals": [{"declarer": 0, "declaration": "misery", "tricks": 0, "doubled": 1}]},
            "deals[0].doubled: there is no doubling in Misery Bridge (RULES 7.2)",
        ),
        (
            "bridge-for-two",
            {"deals": [{"declarer": 0, "strain": "H", "tricks": 14}]},
            "deals[0].tricks: 14 is not between 0 and 13 (RULES 1)",
        ),
        (
            "bridge-for-two",
            {
                "deals": [
                    {"declarer": 0, "strain": "H", "tricks": 9},
                    {"declarer": 1, "strain": "Q", "tricks": 9},
                ]
            },
            "deals[1].strain: 'Q' is not a strain (C, D, H, S or NT) (RULES 7.1)",
        ),
        (
            "bridge-for-two",
            {
                "deals": [
                    {"declarer": 0, "strain": "NT", "tricks": 10},
                    {"declarer": 0, "strain": "NT", "tricks": 10},
                    {"declarer": 0, "strain": "NT", "tricks": 10},
                ]
            },
            "deals[2]: the rubber ended at deal 2; this deal belongs to the next rubber",
        ),
        (
            "draw-discard",
            {
                "target": 100,
                "deals": [
                    {"declarer": 0, "contract": "3NT", "tricks": 9},
                    {"declarer": 1, "contract": "1C", "tricks": 7},
                ],
            },
            "deals[1]: player 0 reached the target of 100 at deal 1; the game is over (RULES 7.4)",
        ),
        (
            "draw-discard",
            {"deals": [{"declarer": 0, "contract": "4Z", "tricks": 9}]},
            "deals[0].contract: '4Z' is not a contract",
        ),
        (
            "bridge-for-two",
            {"deals": [], "options": {"rubber_bonus_two_player": 200}},
            "options.rubber_bonus_two_player: 200 is not 100 or 'standard' (RULES 7.1)",
        ),
        (
            "misery",
            {"deals": [], "closed": "yes"},
            "closed: 'yes' is not true or false (RULES 8.4)",
        ),
        ("turnover", {"tricks": [14, 0], "winner": 0}, "winner: unknown field"),
    ],
)
def test_bad_input_exits_2_with_one_line_rules_7(command, request_, message):
    result = run(command, json.dumps(request_))
    assert result.returncode == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(message), line
    assert "Traceback" not in result.stderr


def test_rules_7_2_eight_tricks_failed_scores_nothing_on_the_command_line():
    deal = {"declaration": "eight", "declarer": 0, "strain": "S", "tricks": 6}
    data = ok("misery", {"deals": [{**deal, "honours": {"player": 0, "points": 150}}]})
    assert [p["total"] for p in data["players"]] == [0, 10]
    assert data["players"][0] == {"above": [], "below": [], "total": 0}


def test_rules_7_3_turnover_played_out_on_the_command_line():
    assert ok("turnover", {"tricks": [16, 10]}) == {"tricks": [16, 10], "winner": 0, "tie": False}
    result = run("turnover", json.dumps({"tricks": [15, 10]}))
    assert result.returncode == 2
    assert result.stderr.startswith("tricks: 15–10 is not a Turnover result")


def test_rules_7_1_unfinished_two_player_bonus_on_the_command_line():
    deals = [
        {"declarer": 1, "strain": "S", "tricks": 10},
        {"declarer": 0, "strain": "C", "tricks": 8},
    ]
    data = ok("bridge-for-two", {"deals": deals, "closed": True})
    assert data["unfinished_bonus"] == [0, 50]
    assert [p["total"] for p in data["players"]] == [40, 170]


@pytest.mark.parametrize("command", ["bridge-for-two", "misery"])
def test_rules_2_3_nobody_is_vulnerable_in_a_two_player_rubber_closed_on_the_command_line(command):
    deal = {"declarer": 1, "strain": "S", "tricks": 10}
    if command == "misery":
        deal["declaration"] = "ordinary"
    assert ok(command, {"deals": [deal]})["vulnerable"] == [False, True]
    assert ok(command, {"deals": [deal], "closed": True})["vulnerable"] == [False, False]


def test_rules_7_2_a_misery_deal_scores_no_honours_on_the_command_line():
    deal = {"declarer": 0, "declaration": "misery", "tricks": 0}
    assert ok("misery", {"deals": [deal]})["players"][0]["total"] == 35
    aces = {"player": 0, "points": 150}
    result = run("misery", json.dumps({"deals": [{**deal, "honours": aces}]}))
    assert result.returncode == 2
    assert result.stderr == "deals[0].honours: a misery deal scores no honours (RULES 7.2)\n"
