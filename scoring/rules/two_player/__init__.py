"""The two-player games of RULES 7: Bridge for Two, Misery Bridge, Turnover and Draw and Discard.

Players are numbered 0 and 1, in JSON as in Python. Every score is a ``PlayerItem`` with a reason
code and an English sentence from ``explain.TEMPLATES`` (``explain_player_item``).

Bridge for Two (RULES 7.1) and Misery Bridge (RULES 7.2) are rubbers: their games, vulnerability
and bonuses are played by the generic ``rubber.play_rubbers`` with player 0 in the place of NS
and player 1 in the place of EW, each deal a ``RubberEntry`` (built with ``make_entry``) and the
rubber bonus of option ``rubber_bonus_two_player`` (100, or the §2.4 700/500).

What vulnerability changes here: no value. A player who has won a game is vulnerable (RULES 2.3)
and every deal reports the vulnerability it was played at, but nothing these games score depends
on it: odd tricks count at the declared strain's value whoever wins them (RULES 7.1), honours are
the same vulnerable or not (RULES 3.6), the eight-tricks penalty (10) and the misery points (5 a
trick) are fixed (RULES 7.2), and there are no overtricks, undertricks, slam or insult bonuses
(the seed scores "tricks and honours"). The rubber bonus depends on games (RULES 2.4), not on
vulnerability.

Turnover Bridge (RULES 7.3) has a result, not a score; Draw and Discard Bridge (RULES 7.4) is a
race to a target score (no lines, no games: its items are written below the line, as trick
points).

One module per game: ``bridge_for_two`` (RULES 7.1), ``misery`` (RULES 7.2), ``turnover``
(RULES 7.3), ``draw_discard`` (RULES 7.4); ``deal`` holds the deal Bridge for Two and Misery
Bridge share, ``common`` the players, the scoresheet line and the input checks. This package
re-exports what callers import.
"""

from scoring.rules.two_player.bridge_for_two import (
    TwoPlayerRubber,
    score_bridge_for_two,
    two_player_unfinished_bonuses,
)
from scoring.rules.two_player.common import PLAYERS, PlayerItem, explain_player_item
from scoring.rules.two_player.deal import (
    Declaration,
    PlayerHonours,
    TwoPlayerDeal,
    TwoPlayerDealScore,
    score_two_player_deal,
    two_player_deals_from_json,
)
from scoring.rules.two_player.draw_discard import (
    DrawDiscardDeal,
    DrawDiscardDealScore,
    DrawDiscardScore,
    draw_discard_deals_from_json,
    score_draw_discard,
    score_draw_discard_deal,
)
from scoring.rules.two_player.misery import score_misery
from scoring.rules.two_player.turnover import TurnoverResult, score_turnover, turnover_from_json

__all__ = [
    "PLAYERS",
    "Declaration",
    "DrawDiscardDeal",
    "DrawDiscardDealScore",
    "DrawDiscardScore",
    "PlayerHonours",
    "PlayerItem",
    "TurnoverResult",
    "TwoPlayerDeal",
    "TwoPlayerDealScore",
    "TwoPlayerRubber",
    "draw_discard_deals_from_json",
    "explain_player_item",
    "score_bridge_for_two",
    "score_draw_discard",
    "score_draw_discard_deal",
    "score_misery",
    "score_turnover",
    "score_two_player_deal",
    "turnover_from_json",
    "two_player_deals_from_json",
    "two_player_unfinished_bonuses",
]
