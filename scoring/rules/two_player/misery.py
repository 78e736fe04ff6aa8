"""Misery Bridge (RULES 7.2): the rubber of ordinary, "eight tricks" and misery deals, played
as Bridge for Two's (RULES 7.1, ``bridge_for_two``)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.rules.errors import ScoringError
from scoring.rules.options import DEFAULT, HouseRules
from scoring.rules.two_player.bridge_for_two import TwoPlayerRubber, _check_deals, _play
from scoring.rules.two_player.common import _R72
from scoring.rules.two_player.deal import TwoPlayerDeal


def score_misery(
    deals: Sequence[TwoPlayerDeal], *, closed: bool = False, options: HouseRules = DEFAULT
) -> TwoPlayerRubber:
    """Score a rubber of Misery Bridge from its ordered deals (RULES 7.2): ordinary, "eight
    tricks" and misery declarations as ``score_two_player_deal``, no doubling (a doubled deal is
    refused), and the rubber as Bridge for Two (RULES 7.1).
    """
    _check_deals(deals, misery=True)
    for i, deal in enumerate(deals):
        if deal.doubled:
            raise ScoringError(f"deals[{i}].doubled", "there is no doubling in Misery Bridge", _R72)
    return _play(deals, closed=closed, options=options)
