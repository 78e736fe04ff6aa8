"""The phone's scorer (static/js/scorer.js) against the engine (scoring/rules), figure by figure
(docs/offline.md, "A score offline").

The cases are made here (every single-deal outcome, and seeded random matches of every game),
scored by the Python engine, then scored in Chromium by the JavaScript scorer in one
``page.evaluate`` for the whole batch, and compared: every item's side, line, points, reason and
count, each deal's vulnerability, the totals, games, bonuses and the winner.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from scoring.rules import (
    DealInput,
    HouseRules,
    ScoringError,
    score_chicago,
    score_deal,
    score_rubber,
)
from scoring.rules.contract import CONTRACTS, Honours, Side
from scoring.rules.two_player import (
    DrawDiscardDeal,
    TwoPlayerDeal,
    score_bridge_for_two,
    score_draw_discard,
    score_misery,
    score_turnover,
)
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

SCORER = Path(ROOT / "static" / "js" / "scorer.js")
MATCHES = 1000
HONOURS = (None, ("NS", 100), ("NS", 150), ("EW", 100), ("EW", 150))
#: The options a club may pick that change a figure (RULES 2.6, 3.3, 3.4, 5, 7.1, 7.4).
OPTION_SETS = (
    HouseRules(),
    HouseRules(
        unfinished_partscore=50,
        insult_redoubled=50,
        old_undertricks=True,
        chicago_vulnerable="non_dealer",
        rubber_bonus_two_player="standard",
        draw_and_discard_target=300,
    ),
)


def plain(item: Any, side: Any) -> list[Any]:
    """An item as both scorers give it: who, line, points, reason, count, deal."""
    who = side(item)
    return [who, item.line, item.points, item.reason, item.count, item.deal]


def four(item: Any) -> list[Any]:
    return plain(item, lambda i: Side(i.side).value)


def two(item: Any) -> list[Any]:
    return plain(item, lambda i: i.player)


def options_json(options: HouseRules) -> dict[str, Any]:
    return options.to_dict()


# --- the cases, scored by the engine -------------------------------------------------------


def single_deals() -> list[dict[str, Any]]:
    """Every contract, result, declaring side, honours claim and vulnerability (RULES 3): the
    engine's score, or None where it refuses the deal (RULES 3.6, 3.7)."""
    cases = []
    for contract in CONTRACTS[:-1]:
        for tricks in range(14):
            for declarer in (Side.NS, Side.EW):
                for claim in HONOURS:
                    honours = None if claim is None else Honours(Side(claim[0]), claim[1])
                    for vulnerable in (False, True):
                        deal = {"contract": str(contract), "declarer": declarer.value}
                        deal["tricks"] = tricks
                        if claim is not None:
                            deal["honours"] = {"side": claim[0], "points": claim[1]}
                        try:
                            score = score_deal(
                                contract,
                                vulnerable=vulnerable,
                                tricks=tricks,
                                honours=honours,
                                declarer=declarer,
                            )
                        except ScoringError:
                            expected = None
                        else:
                            expected = [four(item) for item in score.items]
                        cases.append({"deal": deal, "vulnerable": vulnerable, "expected": expected})
    cases.append({"deal": {"contract": "pass"}, "vulnerable": False, "expected": []})
    return cases


def random_bridge_deal(rng: random.Random) -> DealInput:
    """A deal a table may record: mostly contracts, now and then a pass, honours now and then."""
    while True:
        if rng.random() < 0.05:
            return DealInput.create("pass")
        contract = rng.choice(CONTRACTS[:-1])
        tricks = min(
            13, max(0, contract.level + 6 + rng.choice((-3, -2, -1, -1, 0, 0, 0, 1, 1, 2)))
        )
        claim = rng.choice(HONOURS) if rng.random() < 0.2 else None
        honours = None if claim is None else Honours(Side(claim[0]), claim[1])
        try:
            return DealInput.create(contract, rng.choice(("NS", "EW")), tricks, honours)
        except ScoringError:
            continue


def four_player_sheet(score: Any, deals: Any) -> dict[str, Any]:
    return {
        "items": [[four(item) for item in deal.items] for deal in deals],
        "vulnerable": [list(deal.vulnerable) for deal in deals],
        "totals": [score.totals[Side.NS], score.totals[Side.EW]],
        "games": [score.games[Side.NS], score.games[Side.EW]],
    }


def rubbers(rng: random.Random) -> list[dict[str, Any]]:
    """Random rubbers to their end, and unfinished ones closed or still in play (RULES 2, 8.4)."""
    cases = []
    for n in range(MATCHES):
        options = OPTION_SETS[n % 2]
        deals: list[DealInput] = []
        stop = rng.randint(1, 12) if n % 3 == 0 else 40
        closed = n % 6 == 0
        while len(deals) < stop:
            deals.append(random_bridge_deal(rng))
            if score_rubber(deals, options=options).rubber_complete:
                break
        score = score_rubber(deals, closed=closed, options=options)
        expected = four_player_sheet(score, score.deals)
        expected.update(
            end=[four(item) for item in score.end_items],
            complete=score.rubber_complete,
            winner=None if score.winner is None else score.winner.value,
            hundreds=score.back_score_hundreds[Side.NS],
        )
        cases.append(
            {
                "deals": [deal.to_dict() for deal in deals],
                "closed": closed,
                "options": options_json(options),
                "expected": expected,
            }
        )
    return cases


def chicagos(rng: random.Random) -> list[dict[str, Any]]:
    """Random Chicagos: four counted deals, passed-out deals redealt (RULES 5)."""
    cases = []
    for n in range(MATCHES):
        options = OPTION_SETS[n % 2]
        deals: list[DealInput] = []
        stop = rng.randint(1, 4) if n % 4 == 0 else 4
        while sum(deal.declarer is not None for deal in deals) < stop:
            deals.append(random_bridge_deal(rng))
        score = score_chicago(deals, options=options)
        expected = four_player_sheet(score, score.deals)
        expected.update(counted=score.counted, hundreds=score.back_score_hundreds[Side.NS])
        cases.append(
            {
                "deals": [deal.to_dict() for deal in deals],
                "options": options_json(options),
                "expected": expected,
            }
        )
    return cases


def random_two_player_deal(rng: random.Random, misery: bool) -> TwoPlayerDeal:
    while True:
        declaration = "ordinary"
        if misery:
            declaration = rng.choice(("ordinary", "ordinary", "eight", "misery"))
        strain = "NT" if declaration == "misery" else rng.choice(("C", "D", "H", "S", "NT"))
        claim = None
        if rng.random() < 0.2 and declaration != "misery":
            claim = (rng.randint(0, 1), rng.choice((100, 150)))
        try:
            deal = TwoPlayerDeal.create(
                rng.randint(0, 1),
                strain,
                rng.randint(0, 13),
                doubled=not misery and rng.random() < 0.2,
                honours=claim,
                declaration=declaration,
            )
            deal.check_play(misery=misery)
        except ScoringError:
            continue
        return deal


def two_player_rubbers(rng: random.Random, misery: bool) -> list[dict[str, Any]]:
    """Random rubbers of Bridge for Two (RULES 7.1) or Misery Bridge (RULES 7.2)."""
    score_match = score_misery if misery else score_bridge_for_two
    cases = []
    for n in range(MATCHES):
        options = OPTION_SETS[n % 2]
        deals: list[TwoPlayerDeal] = []
        stop = rng.randint(1, 8) if n % 3 == 0 else 40
        closed = n % 6 == 0
        while len(deals) < stop:
            deals.append(random_two_player_deal(rng, misery))
            if score_match(deals, options=options).rubber_complete:
                break
        score = score_match(deals, closed=closed, options=options)
        expected = {
            "items": [[two(item) for item in deal.items] for deal in score.deals],
            "vulnerable": [list(deal.vulnerable or ()) for deal in score.deals],
            "totals": list(score.totals),
            "games": list(score.games),
            "end": [two(item) for item in score.end_items],
            "complete": score.rubber_complete,
            "winner": score.winner,
            "hundreds": score.back_score_hundreds[0],
        }
        cases.append(
            {
                "deals": [deal.to_dict() for deal in deals],
                "closed": closed,
                "options": options_json(options),
                "expected": expected,
            }
        )
    return cases


def turnovers(rng: random.Random) -> list[dict[str, Any]]:
    """Turnover results (RULES 7.3): every stopped and played-out split, then random ones."""
    pairs = [(14, k) for k in range(13)] + [(k, 14) for k in range(13)]
    pairs += [(k, 26 - k) for k in range(27)]
    pairs += [(rng.randint(0, 14), rng.randint(0, 14)) for _ in range(MATCHES)]
    cases = []
    for first, second in pairs:
        try:
            result = score_turnover(first, second)
        except ScoringError:
            expected = None
        else:
            expected = {"tricks": list(result.tricks), "winner": result.winner}
        cases.append({"tricks": [first, second], "expected": expected})
    return cases


def draw_discards(rng: random.Random) -> list[dict[str, Any]]:
    """Random games of Draw and Discard (RULES 7.4), to the target or stopped before it."""
    cases = []
    for n in range(MATCHES):
        options = OPTION_SETS[n % 2]
        deals: list[DrawDiscardDeal] = []
        stop = rng.randint(1, 6) if n % 3 == 0 else 60
        while len(deals) < stop:
            if rng.random() < 0.05:
                deals.append(DrawDiscardDeal.create("pass"))
            else:
                contract = rng.choice(CONTRACTS[:-1])
                tricks = min(13, max(0, contract.level + 6 + rng.randint(-2, 2)))
                deals.append(DrawDiscardDeal(contract, rng.randint(0, 1), tricks))
            if score_draw_discard(deals, options=options).finished:
                break
        score = score_draw_discard(deals, options=options)
        expected = {
            "items": [[two(item) for item in deal.items] for deal in score.deals],
            "totals": list(score.scores),
            "winner": score.winner,
        }
        cases.append(
            {
                "deals": [deal.to_dict() for deal in deals],
                "options": options_json(options),
                "expected": expected,
            }
        )
    return cases


# --- the same cases, scored in the browser ---------------------------------------------------

#: The cases, scored by the phone's scorer: a function of their JSON text.
IN_THE_BROWSER = (Path(__file__).parent / "scorer_compare.js").read_text()


@pytest.fixture(scope="module")
def cases() -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(29)
    return {
        "single": single_deals(),
        "rubbers": rubbers(rng),
        "chicagos": chicagos(rng),
        "bridge_for_two": two_player_rubbers(rng, misery=False),
        "misery": two_player_rubbers(rng, misery=True),
        "turnover": turnovers(rng),
        "draw_discard": draw_discards(rng),
    }


def run_in_chromium(browser: Any, cases: dict[str, Any], source: str) -> dict[str, Any]:
    """Every case's input through the JavaScript scorer, in one page and one call (as JSON text:
    Playwright's own serialisation of a large argument is slow)."""
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><title>scorer</title>")
        page.add_script_tag(content=source)
        inputs = {
            name: [{k: v for k, v in case.items() if k != "expected"} for case in group]
            for name, group in cases.items()
        }
        return json.loads(page.evaluate(IN_THE_BROWSER, json.dumps(inputs)))
    finally:
        page.close()


def differences(cases: dict[str, Any], got: dict[str, Any]) -> list[str]:
    found = []
    for name, group in cases.items():
        assert len(got[name]) == len(group), name
        for i, (case, answer) in enumerate(zip(group, got[name], strict=True)):
            if answer != case["expected"]:
                found.append(f"{name}[{i}] {case}: the phone says {answer}")
    return found


def test_the_phones_scorer_gives_the_engines_figures(browser: Any, cases: dict[str, Any]) -> None:
    """All single-deal outcomes in both vulnerabilities (RULES 3) and, per game, 1,000 random
    rubbers (RULES 2), Chicagos (RULES 5), Bridge for Two and Misery rubbers (RULES 7.1, 7.2),
    Turnover results (RULES 7.3) and Draw and Discard games (RULES 7.4), under the default
    options and their alternatives: the phone's figures are the engine's."""
    assert len(cases["single"]) > 14_000
    for name in ("rubbers", "chicagos", "bridge_for_two", "misery", "turnover", "draw_discard"):
        assert len(cases[name]) >= MATCHES
    assert sum(case["expected"]["complete"] for case in cases["rubbers"]) > MATCHES // 2
    got = run_in_chromium(browser, cases, SCORER.read_text())
    found = differences(cases, got)
    assert not found, f"{len(found)} differ, first: {found[:3]}"


@pytest.mark.parametrize(
    ("broken", "fixed", "where"),
    [
        # RULES 3.4: the third undertrick not vulnerable doubled at 300.
        ("else if (n <= 3) total += 200;", "else if (n <= 3) total += 300;", "single"),
        # RULES 2.4: a rubber bonus of 700 whatever the loser's games.
        (
            "bonus: [700, 500],\n      unfinished: [300,",
            "bonus: [700, 700],\n      unfinished: [300,",
            "rubbers",
        ),
        # RULES 5: no part-score bonus on the fourth deal.
        ("if (ours === 4) items.push", "if (ours === 5) items.push", "chicagos"),
        # RULES 7.2: a failed "eight tricks" gives 20.
        (
            'items.push(pitem(opponent, ABOVE, 10, "eight_tricks_failed"',
            'items.push(pitem(opponent, ABOVE, 20, "eight_tricks_failed"',
            "misery",
        ),
    ],
)
def test_a_rule_broken_in_the_phones_scorer_is_caught(
    browser: Any, cases: dict[str, Any], broken: str, fixed: str, where: str
) -> None:
    """The comparison can fail: the scorer with one rule broken disagrees with the engine."""
    source = SCORER.read_text()
    assert broken in source
    got = run_in_chromium(browser, {where: cases[where]}, source.replace(broken, fixed, 1))
    assert differences({where: cases[where]}, got)
