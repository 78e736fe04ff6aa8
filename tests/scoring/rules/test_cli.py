"""``python -m scoring deal|rubber|chicago``: JSON in, JSON out, exit 2 on bad input."""

import io
import json
import subprocess
import sys

import pytest

from scoring.rules.cli import COMMANDS, main
from tests.conftest import ROOT


def run(command, text, *flags):
    return subprocess.run(
        [sys.executable, *flags, "-m", "scoring", command],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def call(command, text):
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main([command], io.StringIO(text), stdout, stderr)
    return status, stdout.getvalue(), stderr.getvalue()


def test_deal_subprocess_rules_3_4():
    result = run("deal", '{"contract": "4SX", "vulnerable": true, "tricks": 9, "options": {}}')
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["declarer"] == {"below": 0, "above": 0}
    assert data["defenders"] == {"above": 200}
    assert data["items"][0]["reason"] == "undertricks"


def test_rubber_subprocess_rules_2_6():
    request = {
        "deals": [
            {
                "contract": "4S",
                "declarer": "NS",
                "tricks": 10,
                "honours": {"side": "EW", "points": 100},
            },
            {"contract": "pass"},
        ],
        "closed": True,
        "options": {},
    }
    result = run("rubber", json.dumps(request))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == {"NS": 1, "EW": 0}
    assert data["unfinished_bonus"] == {"NS": 300, "EW": 0}
    # RULES 2.3: closed unfinished, nobody is vulnerable in it; the deals keep theirs.
    assert data["vulnerable"] == {"NS": False, "EW": False}
    assert data["deals"][1] == {"vulnerable": {"NS": True, "EW": False}, "items": []}


def test_runs_without_django():
    """-S: no site-packages, so Django cannot be imported; the engine must not need it."""
    result = run("deal", '{"contract": "3NT", "vulnerable": false, "tricks": 9}', "-S")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["declarer"]["below"] == 100
    probe = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "import scoring.rules.cli, sys; print('django' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert probe.stdout.strip() == "False"


def test_bad_input_exit_2_one_line_rules_1():
    request = {"deals": [{"contract": "1C", "declarer": "NS", "tricks": 7}] * 3}
    request["deals"] = [*request["deals"], {"contract": "4S", "declarer": "NS", "tricks": 14}]
    result = run("rubber", json.dumps(request))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "deals[3].tricks: 14 is not between 0 and 13 (RULES 1)\n"


def test_invalid_json_exit_2():
    status, out, err = call("deal", "{nope")
    assert status == 2
    assert out == ""
    assert err.startswith("line 1: invalid JSON")
    assert call("deal", "")[0] == 2
    assert call("deal", "[1, 2]")[2] == "input: expected a JSON object\n"


def test_batch_mode_keeps_going_and_exits_2():
    lines = [
        '{"contract": "4S", "vulnerable": false, "tricks": 10}',
        '{"contract": "4S", "vulnerable": false, "tricks": 10, "options": {"colour": 1}}',
        "",
        '{"contract": "pass", "vulnerable": true}',
    ]
    status, out, err = call("deal", "\n".join(lines) + "\n")
    assert status == 2
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["declarer"]["below"] for a in answers] == [120, 0]
    assert err.splitlines() == [
        "line 2: options.colour: unknown option (known: chicago_honours, chicago_vulnerable, "
        "draw_and_discard_target, insult_redoubled, old_undertricks, pivot_ranking, "
        "rubber_bonus_two_player, unfinished_partscore)"
    ]


def test_batch_mode_all_good_exits_0():
    lines = ['{"deals": []}', '{"deals": [{"contract": "pass"}], "preset": "club_50"}']
    status, out, err = call("rubber", "\n".join(lines))
    assert (status, err) == (0, "")
    assert len(out.splitlines()) == 2
    assert json.loads(out.splitlines()[1])["options"]["unfinished_partscore"] == 50


@pytest.mark.parametrize(
    ("command", "request_", "message"),
    [
        (
            "deal",
            {
                "contract": "3NT",
                "vulnerable": True,
                "tricks": 9,
                "honours": {"side": "NS", "points": 100},
            },
            "honours.points: at no trumps only the four aces count (150) (RULES 3.6)",
        ),
        ("deal", {"contract": "3NT", "tricks": 9}, "vulnerable: is required (RULES 2.3)"),
        (
            "deal",
            {"contract": "9NT", "vulnerable": True, "tricks": 9},
            "contract: '9NT' is not a contract (like 4S, 3NTX, 6HXX or pass) (RULES 1)",
        ),
        (
            "rubber",
            {"deals": [{"contract": "4S", "declarer": "NS", "tricks": 10}] * 3},
            "deals[2]: the rubber ended at deal 2; this deal belongs to the next rubber"
            " (RULES 8.1)",
        ),
        (
            "rubber",
            {"deals": [{"contract": "pass", "tricks": 3}]},
            "deals[0].tricks: a passed-out deal has no tricks (RULES 3.8)",
        ),
        (
            "rubber",
            {"deals": [], "closed": "yes"},
            "closed: 'yes' is not true or false (RULES 8.4)",
        ),
        (
            "chicago",
            {"deals": [{"contract": "1C", "declarer": "NS", "tricks": 7}] * 5},
            "deals[4]: the Chicago ended after four counted deals (RULES 5)",
        ),
        (
            "chicago",
            {"deals": [], "preset": "nope"},
            "preset: unknown preset 'nope' (known: acbl, old_code, club_50, pivot_gross)",
        ),
    ],
)
def test_errors_name_the_field_and_rule(command, request_, message):
    status, out, err = call(command, json.dumps(request_))
    assert (status, out, err) == (2, "", message + "\n")


def test_chicago_command_rules_5():
    request = {"deals": [{"contract": "pass"}, {"contract": "4S", "declarer": "NS", "tricks": 10}]}
    status, out, _ = call("chicago", json.dumps(request))
    assert status == 0
    data = json.loads(out)
    assert data["NS"]["total"] == 420
    assert data["next"]["dealer"] == "EW"


def test_commands_are_a_registry():
    assert {"deal", "rubber", "chicago"} <= set(COMMANDS)


def test_unknown_command_exits_2():
    assert run("bogus", "{}").returncode == 2


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        ({"declarer": "NS"}, "declarer: a passed-out deal has no declarer (RULES 3.8)"),
        ({"tricks": 7}, "tricks: a passed-out deal has no tricks (RULES 3.8)"),
        (
            {"honours": {"side": "EW", "points": 100}},
            "honours: no honours on a passed-out deal (RULES 3.8)",
        ),
    ],
)
def test_rules_3_8_a_passed_out_deal_is_refused_alike_in_every_command(extra, line):
    deal = {"contract": "pass", **extra}
    status, out, err = call("deal", json.dumps({**deal, "vulnerable": False}))
    assert (status, out, err) == (2, "", line + "\n")
    for command in ("rubber", "chicago"):
        status, out, err = call(command, json.dumps({"deals": [deal]}))
        assert (status, out, err) == (2, "", f"deals[0].{line}\n")


def test_rules_3_8_null_or_absent_is_accepted_everywhere():
    absent = {"contract": "pass"}
    nulls = {"contract": "pass", "declarer": None, "tricks": None, "honours": None}
    for deal in (absent, nulls):
        status, out, _ = call("deal", json.dumps({**deal, "vulnerable": True}))
        assert status == 0
        assert json.loads(out)["items"] == []
        for command in ("rubber", "chicago"):
            status, out, _ = call(command, json.dumps({"deals": [deal]}))
            assert status == 0


def test_rules_3_7_impossible_honours_are_refused_by_every_command():
    deal = {"contract": "7NT", "declarer": "NS", "tricks": 13}
    honours = {"side": "EW", "points": 150}
    line = "honours: EW took 0 tricks, but the side holding these honours takes at least 1"
    status, _, err = call("deal", json.dumps({**deal, "vulnerable": False, "honours": honours}))
    assert (status, err) == (2, f"{line} (RULES 3.7)\n")
    for command in ("rubber", "chicago"):
        status, _, err = call(command, json.dumps({"deals": [{**deal, "honours": honours}]}))
        assert (status, err) == (2, f"deals[0].{line} (RULES 3.7)\n")


def test_rules_2_3_vulnerable_after_a_completed_rubber_is_the_next_deals():
    deals = [{"contract": "4S", "declarer": "NS", "tricks": 10}] * 2
    status, out, _ = call("rubber", json.dumps({"deals": deals}))
    assert status == 0
    data = json.loads(out)
    assert data["rubber_complete"] is True
    assert data["vulnerable"] == {"NS": False, "EW": False}
    status, out, _ = call("rubber", json.dumps({"deals": deals[:1]}))
    assert json.loads(out)["vulnerable"] == {"NS": True, "EW": False}


def test_rules_2_3_nobody_is_vulnerable_in_a_rubber_closed_unfinished_on_the_command_line():
    deals = [{"contract": "4S", "declarer": "NS", "tricks": 10}]
    status, out, _ = call("rubber", json.dumps({"deals": deals, "closed": True}))
    assert status == 0
    assert json.loads(out)["vulnerable"] == {"NS": False, "EW": False}
    status, out, _ = call("rubber", json.dumps({"deals": deals, "closed": False}))
    assert json.loads(out)["vulnerable"] == {"NS": True, "EW": False}
