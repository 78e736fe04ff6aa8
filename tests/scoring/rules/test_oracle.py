"""Every single-deal outcome against two independent scorers (RULES 3.1–3.5).

2,940 combinations: level 1–7 × 5 strains × 3 doublings × tricks 0–13 × vulnerable or not.
Duplicate score = below + above + duplicate game (300/500) or part-score (50) bonus, or minus the
defenders' points. Honours are not part of duplicate scoring, so they are excluded here.
"""

import itertools

# Plain imports: the oracles are dev requirements, so a missing one fails the run (never a skip).
import bridgebots.deal_enums as deal_enums
import bridgebots.play_utils as play_utils
import endplay.types as endplay_types

from scoring.rules import Contract, Doubling, Side, Strain, score_deal

DENOMS = {
    Strain.C: endplay_types.Denom.clubs,
    Strain.D: endplay_types.Denom.diamonds,
    Strain.H: endplay_types.Denom.hearts,
    Strain.S: endplay_types.Denom.spades,
    Strain.NT: endplay_types.Denom.nt,
}
PENALTIES = {
    Doubling.NONE: endplay_types.Penalty.passed,
    Doubling.DOUBLED: endplay_types.Penalty.doubled,
    Doubling.REDOUBLED: endplay_types.Penalty.redoubled,
}
SUITS = {
    Strain.C: deal_enums.BiddingSuit.CLUBS,
    Strain.D: deal_enums.BiddingSuit.DIAMONDS,
    Strain.H: deal_enums.BiddingSuit.HEARTS,
    Strain.S: deal_enums.BiddingSuit.SPADES,
    Strain.NT: deal_enums.BiddingSuit.NO_TRUMP,
}
COMBINATIONS = list(itertools.product(range(1, 8), Strain, Doubling, range(14), (False, True)))


def duplicate_score(level, strain, doubling, tricks, vulnerable):
    result = score_deal(
        Contract(level, strain, doubling), vulnerable=vulnerable, tricks=tricks, declarer=Side.NS
    )
    below = result.declarer_below
    bonus = 0 if below == 0 else ((500 if vulnerable else 300) if below >= 100 else 50)
    return result.declarer_below + result.declarer_above + bonus - result.defenders_above


def test_every_deal_agrees_with_endplay_rules_3():
    disagreements = []
    for level, strain, doubling, tricks, vulnerable in COMBINATIONS:
        contract = endplay_types.Contract(
            level=level,
            denom=DENOMS[strain],
            declarer=endplay_types.Player.north,
            penalty=PENALTIES[doubling],
            result=tricks - 6 - level,
        )
        vul = endplay_types.Vul.ns if vulnerable else endplay_types.Vul.none
        expected = contract.score(vul)
        ours = duplicate_score(level, strain, doubling, tricks, vulnerable)
        if ours != expected:
            disagreements.append((level, strain, doubling, tricks, vulnerable, ours, expected))
    assert disagreements == []


def test_every_deal_agrees_with_bridgebots_rules_3():
    disagreements = []
    for level, strain, doubling, tricks, vulnerable in COMBINATIONS:
        expected = play_utils.calculate_score(
            level, SUITS[strain], doubling.index, tricks, vulnerable
        )
        ours = duplicate_score(level, strain, doubling, tricks, vulnerable)
        if ours != expected:
            disagreements.append((level, strain, doubling, tricks, vulnerable, ours, expected))
    assert disagreements == []
