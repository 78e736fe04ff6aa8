"""The scoring rules of Backscore, in pure Python (standard library only; see RULES.md)."""

from scoring.rules.chicago import ChicagoDeal, ChicagoScore, chicago_vulnerability, score_chicago
from scoring.rules.contract import PASS, Contract, Doubling, Honours, Side, Strain
from scoring.rules.deal import (
    PASS_KEY,
    DealInput,
    DealScore,
    deal_key,
    input_key,
    refuse_on_a_pass,
    score_deal,
    score_deals,
)
from scoring.rules.errors import ScoringError
from scoring.rules.explain import TEMPLATES, explain
from scoring.rules.items import ABOVE, BELOW, REASONS, Item
from scoring.rules.options import DEFAULT, PRESETS, HouseRules
from scoring.rules.rubber import (
    STANDARD_BONUS,
    RubberDeal,
    RubberEntry,
    RubberScore,
    hundreds,
    iter_rubbers,
    make_entry,
    play_rubbers,
    points_leader,
    score_rubber,
    score_rubber_keys,
    score_rubbers,
)

__all__ = [
    "ABOVE",
    "BELOW",
    "DEFAULT",
    "PASS",
    "PASS_KEY",
    "PRESETS",
    "REASONS",
    "STANDARD_BONUS",
    "TEMPLATES",
    "ChicagoDeal",
    "ChicagoScore",
    "Contract",
    "DealInput",
    "DealScore",
    "Doubling",
    "Honours",
    "HouseRules",
    "Item",
    "RubberDeal",
    "RubberEntry",
    "RubberScore",
    "ScoringError",
    "Side",
    "Strain",
    "chicago_vulnerability",
    "deal_key",
    "explain",
    "hundreds",
    "input_key",
    "iter_rubbers",
    "make_entry",
    "play_rubbers",
    "points_leader",
    "refuse_on_a_pass",
    "score_chicago",
    "score_deal",
    "score_deals",
    "score_rubber",
    "score_rubber_keys",
    "score_rubbers",
]
