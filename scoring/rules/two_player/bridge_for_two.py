"""Bridge for Two (RULES 7.1): the rubber, played by the generic ``rubber.play_rubbers`` with
player 0 in the place of NS and player 1 in the place of EW; Misery Bridge (RULES 7.2) plays
its rubber the same way (``misery``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.rules.contract import Side
from scoring.rules.errors import ScoringError
from scoring.rules.items import ABOVE, BELOW, Item
from scoring.rules.options import DEFAULT, HouseRules
from scoring.rules.rubber import (
    STANDARD_BONUS,
    RubberEntry,
    hundreds,
    make_entry,
    play_rubbers,
    unfinished_bonuses,
)
from scoring.rules.two_player.common import _R71, PLAYERS, PlayerItem
from scoring.rules.two_player.deal import (
    Declaration,
    TwoPlayerDeal,
    TwoPlayerDealScore,
    score_two_player_deal,
)

#: The side of the generic rubber engine that stands for each player.
_SIDE_OF = (Side.NS, Side.EW)

#: Reasons of the rubber engine's end-of-rubber items → their two-player reasons.
_END_REASONS = {
    "rubber_bonus": "two_player_rubber_bonus",
    "unfinished_game": "two_player_unfinished_game",
    "unfinished_partscore": "two_player_unfinished_partscore",
}


def two_player_unfinished_bonuses(options: HouseRules) -> tuple[int, int]:
    """RULES 7.1: what a two-player rubber closed before two games gives the player with the
    only completed game and a player with a lone part score. The bonuses scale with the rubber
    bonus, so that stopping is never worth more than finishing: with 100, 50 for the only game
    and nothing for a part score; with the RULES 2.4 values, RULES 2.6 as written."""
    if options.rubber_bonus_two_player == 100:
        return (50, 0)
    return unfinished_bonuses(options)


@dataclass(frozen=True, slots=True)
class TwoPlayerRubber:
    """The scoresheet of a rubber of Bridge for Two or Misery Bridge (RULES 7.1, RULES 7.2),
    derived from its ordered deals (RULES 8.2). Pairs are (player 0, player 1).

    ``winner`` wins by games (None until a player has two); ``points_leader`` by points
    (RULES 2.5; None on a tie, RULES 8.3). ``vulnerable`` is the vulnerability the next deal
    would be played at (RULES 2.3; nobody's once the rubber is complete or closed unfinished, as
    no deal follows in it; it changes no value in these games, see the module notes).
    ``game_ends``: (player, deal number) of each game won.
    """

    deals: tuple[TwoPlayerDealScore, ...]
    end_items: tuple[PlayerItem, ...]
    totals: tuple[int, int]
    games: tuple[int, int]
    game_ends: tuple[tuple[int, int], ...]
    vulnerable: tuple[bool, bool]
    rubber_complete: bool
    closed: bool
    winner: int | None
    rubber_bonus: int
    unfinished_bonus: tuple[int, int]
    options: HouseRules

    @property
    def items(self) -> tuple[PlayerItem, ...]:
        """Every item in playing order, end-of-rubber items last."""
        return tuple(item for deal in self.deals for item in deal.items) + self.end_items

    def column(self, player: int, line: str) -> tuple[PlayerItem, ...]:
        return tuple(item for item in self.items if item.player == player and item.line == line)

    @property
    def above(self) -> tuple[tuple[PlayerItem, ...], tuple[PlayerItem, ...]]:
        return (self.column(0, ABOVE), self.column(1, ABOVE))

    @property
    def below(self) -> tuple[tuple[PlayerItem, ...], tuple[PlayerItem, ...]]:
        return (self.column(0, BELOW), self.column(1, BELOW))

    @property
    def net(self) -> tuple[int, int]:
        """Each player's total minus the other's (antisymmetric)."""
        margin = self.totals[0] - self.totals[1]
        return (margin, -margin)

    @property
    def back_score_hundreds(self) -> tuple[int, int]:
        """The net margin in hundreds (RULES 4.1); 0 each on a tie (RULES 8.3)."""
        first = hundreds(self.totals[0] - self.totals[1])
        return (first, -first)

    @property
    def points_leader(self) -> int | None:
        if self.totals[0] == self.totals[1]:
            return None
        return 0 if self.totals[0] > self.totals[1] else 1

    def to_dict(self) -> dict[str, Any]:
        above, below = self.above, self.below
        return {
            "players": [
                {
                    "above": [item.to_dict() for item in above[player]],
                    "below": [item.to_dict() for item in below[player]],
                    "total": self.totals[player],
                }
                for player in PLAYERS
            ],
            "games": list(self.games),
            "vulnerable": list(self.vulnerable),
            "rubber_complete": self.rubber_complete,
            "winner": self.winner,
            "rubber_bonus": self.rubber_bonus,
            "unfinished_bonus": list(self.unfinished_bonus),
            "net": list(self.net),
            "back_score_hundreds": list(self.back_score_hundreds),
            "points_leader": self.points_leader,
            "deals": [deal.to_dict() for deal in self.deals],
            "options": self.options.to_dict(),
        }


def _entry(score: TwoPlayerDealScore) -> RubberEntry:
    """The deal as the generic rubber engine reads it: player 0 as NS, player 1 as EW."""
    items = [
        Item(_SIDE_OF[item.player], item.line, item.points, item.reason) for item in score.items
    ]
    player, points = score.below
    return make_entry(items, None if player is None else _SIDE_OF[player], points)


def _play(deals: Sequence[TwoPlayerDeal], *, closed: bool, options: HouseRules) -> TwoPlayerRubber:
    _check_arguments(closed, options)
    scores = [score_two_player_deal(deal) for deal in deals]
    # Nothing here depends on vulnerability: the entry is the same in all four states.
    table = [entry for score in scores for entry in (_entry(score),) * 4]
    bonus = (100, 100) if options.rubber_bonus_two_player == 100 else STANDARD_BONUS
    unfinished = two_player_unfinished_bonuses(options)
    rubber = next(
        play_rubbers(
            range(len(scores)),
            table,
            closed=closed,
            bonus=bonus,
            unfinished=unfinished,
            options=options,
        ),
        None,
    )
    if rubber is None:
        return TwoPlayerRubber(
            (), (), (0, 0), (0, 0), (), (False, False), False, closed, None, 0, (0, 0), options
        )
    used = rubber.deal_count
    if used < len(scores):
        raise ScoringError(
            f"deals[{used}]",
            "the rubber ended at deal {number}; this deal belongs to the next rubber",
            "RULES 8.1",
            number=used,
        )
    played = tuple(
        replace(
            score,
            items=tuple(replace(item, deal=number) for item in score.items),
            number=number,
            vulnerable=record.vulnerable,
        )
        for number, (score, record) in enumerate(zip(scores, rubber.deals, strict=True), 1)
    )
    end_items = tuple(
        PlayerItem(item.side.ordinal, item.line, item.points, _END_REASONS[item.reason], item.count)
        for item in rubber.end_items
    )
    vulnerable = rubber.vulnerable
    return TwoPlayerRubber(
        played,
        end_items,
        (rubber.total_ns, rubber.total_ew),
        (rubber.games_ns, rubber.games_ew),
        tuple((side.ordinal, number) for side, number in rubber.game_ends),
        (vulnerable[Side.NS], vulnerable[Side.EW]),
        rubber.rubber_complete,
        closed,
        None if rubber.winner is None else rubber.winner.ordinal,
        rubber.rubber_bonus,
        (rubber.unfinished_ns, rubber.unfinished_ew),
        options,
    )


def _check_arguments(closed: object, options: object) -> None:
    if type(closed) is not bool:
        raise ScoringError("closed", "{value!r} is not true or false", "RULES 8.4", value=closed)
    if not isinstance(options, HouseRules):
        raise ScoringError("options", "{value!r} is not house rules", None, value=options)


def _check_deals(deals: Sequence[TwoPlayerDeal], *, misery: bool) -> None:
    for i, deal in enumerate(deals):
        if not isinstance(deal, TwoPlayerDeal):
            raise ScoringError(
                f"deals[{i}]", "{value!r} is not a two-player deal", None, value=deal
            )
        try:
            deal.check_play(misery=misery)
        except ScoringError as error:
            raise error.within(f"deals[{i}]") from None


def score_bridge_for_two(
    deals: Sequence[TwoPlayerDeal], *, closed: bool = False, options: HouseRules = DEFAULT
) -> TwoPlayerRubber:
    """Score a rubber of Bridge for Two from its ordered deals (RULES 7.1).

    Each deal as ``score_two_player_deal`` (ordinary declarations only; a Misery declaration is
    refused). Games and the rubber as RULES 2: 100 below the line wins a game, part scores do not
    carry into the next game, two games win the rubber, with a bonus of 100 (option
    ``rubber_bonus_two_player``: ``"standard"`` for the §2.4 700/500). ``closed``: play has
    stopped, so an unfinished rubber gets the RULES 2.6 bonuses. A deal after the rubber ended is
    refused (RULES 8.1).
    """
    _check_deals(deals, misery=False)
    for i, deal in enumerate(deals):
        if deal.declaration is not Declaration.ORDINARY:
            raise ScoringError(
                f"deals[{i}].declaration",
                "{value!r} is a Misery Bridge declaration (RULES 7.2)",
                _R71,
                value=deal.declaration.value,
            )
    return _play(deals, closed=closed, options=options)
