"""One deal of Bridge for Two (RULES 7.1) or Misery Bridge (RULES 7.2): the declaration,
the honours claim (RULES 3.6, RULES 3.7), the deal and its score; both games' rubbers
(``bridge_for_two``, ``misery``) are made of these deals."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from scoring.rules.contract import (
    ONE_CARD_A_TRICK,
    TWO_CARDS_A_TRICK,
    Doubling,
    Strain,
    honours_minimum,
)
from scoring.rules.errors import ScoringError
from scoring.rules.items import ABOVE, BELOW
from scoring.rules.two_player.common import (
    _R71,
    _R72,
    PlayerItem,
    _check_fields,
    _check_player,
    _check_tricks,
    _deals_from_json,
    _parse_doubled,
    _parse_strain,
    _require,
    _trick_value,
)


class Declaration(StrEnum):
    """The dealer's declaration in Misery Bridge (RULES 7.2); Bridge for Two has only
    ``ORDINARY`` (RULES 7.1).
    """

    ORDINARY = "ordinary"
    EIGHT = "eight"
    MISERY = "misery"


@dataclass(frozen=True, slots=True)
class PlayerHonours:
    """An honours claim (RULES 3.6, as RULES 7.1 applies it): 100 for four trump honours in one
    hand, 150 for all five, 150 for the four aces at no trumps; to the player holding them,
    whoever wins the tricks, never doubled.
    """

    player: int
    points: int

    def __post_init__(self) -> None:
        _check_player(self.player, "honours.player", "RULES 3.6")
        points: object = self.points
        if type(points) is not int or points not in (100, 150):
            raise ScoringError(
                "honours.points", "{value!r} is not 100 or 150", "RULES 3.6", value=points
            )

    def check(self, strain: Strain) -> None:
        """Refuse 100 at no trumps, where only the four aces count (RULES 3.6)."""
        if strain is Strain.NT and self.points != 150:
            raise ScoringError(
                "honours.points", "at no trumps only the four aces count (150)", "RULES 3.6"
            )

    def check_play(self, strain: Strain, declarer: int, tricks: int, *, misery: bool) -> None:
        """Refuse a claim the play makes impossible (RULES 3.7, as it applies here): the holder
        takes at least ``honours_minimum`` tricks. In Misery Bridge each hand plays one card to
        a trick, so RULES 3.7 as written (5, 3, 1); in Bridge for Two each player plays two
        cards to every trick from one hand, so fewer (3, 1, 1: ``TWO_CARDS_A_TRICK``).
        """
        taken = tricks if self.player == declarer else 13 - tricks
        minima = ONE_CARD_A_TRICK if misery else TWO_CARDS_A_TRICK
        minimum = honours_minimum(strain, self.points, minima)
        if taken < minimum:
            raise ScoringError(
                "honours",
                "player {player} took {tricks} tricks, but the player holding these honours "
                "takes at least {minimum}",
                "RULES 3.7",
                player=self.player,
                tricks=taken,
                minimum=minimum,
            )

    def held(self, strain: Strain) -> int:
        """How many honours the claim counts: 4 trump honours or the four aces, or all 5."""
        return 5 if self.points == 150 and strain is not Strain.NT else 4

    @classmethod
    def from_dict(cls, data: object) -> PlayerHonours:
        try:
            checked = _check_fields(data, ("player", "points"), "honours")
            player = _require(checked, "player", "RULES 3.6")
            points = _require(checked, "points", "RULES 3.6")
        except ScoringError as error:
            raise error.within("honours") from None
        return cls(player, points)

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "points": self.points}


@dataclass(frozen=True, slots=True)
class TwoPlayerDeal:
    """A deal of Bridge for Two (RULES 7.1) or Misery Bridge (RULES 7.2): the dealer who
    declared (``declarer``, 0 or 1), the strain (no level; NT allowed), whether the opponent
    doubled, the tricks the declarer won (0–13, RULES 1), an honours claim, and the declaration.

    Validated on construction: an "eight tricks" or misery declaration is never doubled
    (RULES 7.2); misery is played at no trumps and carries no honours (it scores only the
    5-point items of RULES 7.2); honours as ``PlayerHonours.check`` (RULES 3.6).
    """

    declarer: int
    strain: Strain
    tricks: int
    doubled: bool = False
    honours: PlayerHonours | None = None
    declaration: Declaration = Declaration.ORDINARY

    def __post_init__(self) -> None:
        _check_player(self.declarer, "declarer", _R71)
        if not isinstance(self.strain, Strain):
            raise ScoringError("strain", "{value!r} is not a strain", _R71, value=self.strain)
        _check_tricks(self.tricks)
        if type(self.doubled) is not bool:
            raise ScoringError(
                "doubled", "{value!r} is not true or false", _R71, value=self.doubled
            )
        if not isinstance(self.declaration, Declaration):
            raise ScoringError(
                "declaration",
                "{value!r} is not ordinary, eight or misery",
                _R72,
                value=self.declaration,
            )
        if self.declaration is not Declaration.ORDINARY and self.doubled:
            raise ScoringError("doubled", "there is no doubling in Misery Bridge", _R72)
        if self.declaration is Declaration.MISERY:
            if self.strain is not Strain.NT:
                raise ScoringError("strain", "misery is played at no trumps (NT)", _R72)
            if self.honours is not None:
                raise ScoringError("honours", "a misery deal scores no honours", _R72)
        if self.honours is not None:
            if not isinstance(self.honours, PlayerHonours):
                raise ScoringError(
                    "honours", "{value!r} is not honours", "RULES 3.6", value=self.honours
                )
            self.honours.check(self.strain)

    @classmethod
    def create(
        cls,
        declarer: int,
        strain: Strain | str,
        tricks: int,
        *,
        doubled: bool = False,
        honours: PlayerHonours | tuple[int, int] | None = None,
        declaration: Declaration | str = Declaration.ORDINARY,
    ) -> TwoPlayerDeal:
        """Build from loose values: ``TwoPlayerDeal.create(0, "H", 9, honours=(1, 100))``."""
        if isinstance(honours, tuple):
            honours = PlayerHonours(*honours)
        return cls(
            declarer,
            _parse_strain(strain, _R71),
            tricks,
            doubled,
            honours,
            _parse_declaration(declaration),
        )

    @classmethod
    def from_dict(cls, data: object, *, misery: bool = False) -> TwoPlayerDeal:
        """From JSON ``{declarer, strain, tricks, doubled?, honours?}`` (Bridge for Two), or with
        ``declaration`` (required) and no doubling when ``misery`` (RULES 7.2); fields named on
        error. A misery deal may leave out its strain: it is played at no trumps.
        """
        fields: tuple[str, ...] = ("declarer", "strain", "tricks", "doubled", "honours")
        if misery:
            fields += ("declaration",)
        checked = _check_fields(data, fields, "a deal")
        rule = _R72 if misery else _R71
        declaration = Declaration.ORDINARY
        if misery:
            declaration = _parse_declaration(_require(checked, "declaration", _R72))
        declarer = _require(checked, "declarer", rule)
        if declaration is Declaration.MISERY and "strain" not in checked:
            strain = Strain.NT
        else:
            strain = _parse_strain(_require(checked, "strain", rule), rule)
        tricks = _require(checked, "tricks", "RULES 1")
        doubled = _parse_doubled(checked.get("doubled", False), rule)
        if misery and doubled:
            raise ScoringError("doubled", "there is no doubling in Misery Bridge", _R72)
        raw_honours = checked.get("honours")
        honours = None if raw_honours is None else PlayerHonours.from_dict(raw_honours)
        deal = cls(declarer, strain, tricks, doubled, honours, declaration)
        deal.check_play(misery=misery)
        return deal

    def check_play(self, *, misery: bool) -> None:
        """Refuse honours the play makes impossible (RULES 3.7) in Bridge for Two or, with
        ``misery``, Misery Bridge (``PlayerHonours.check_play``)."""
        if self.honours is not None:
            self.honours.check_play(self.strain, self.declarer, self.tricks, misery=misery)

    def swapped(self) -> TwoPlayerDeal:
        """The same deal with the players' places exchanged."""
        honours = self.honours
        if honours is not None:
            honours = PlayerHonours(1 - honours.player, honours.points)
        return replace(self, declarer=1 - self.declarer, honours=honours)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "declarer": self.declarer,
            "strain": self.strain.value,
            "tricks": self.tricks,
            "doubled": int(self.doubled),
        }
        if self.declaration is not Declaration.ORDINARY:
            data["declaration"] = self.declaration.value
        if self.honours is not None:
            data["honours"] = self.honours.to_dict()
        return data


def _parse_declaration(value: object) -> Declaration:
    if isinstance(value, Declaration):
        return value
    if isinstance(value, str) and value in Declaration.__members__.values():
        return Declaration(value)
    raise ScoringError(
        "declaration", "{value!r} is not ordinary, eight or misery", _R72, value=value
    )


@dataclass(frozen=True, slots=True)
class TwoPlayerDealScore:
    """A scored deal of Bridge for Two or Misery Bridge: the input, its items, and, within a
    rubber, its 1-based ``number`` and the (player 0, player 1) vulnerability it was played at.
    """

    deal: TwoPlayerDeal
    items: tuple[PlayerItem, ...]
    number: int | None = None
    vulnerable: tuple[bool, bool] | None = None

    @property
    def points(self) -> tuple[int, int]:
        totals = [0, 0]
        for item in self.items:
            totals[item.player] += item.points
        return (totals[0], totals[1])

    @property
    def below(self) -> tuple[int | None, int]:
        """The player who scored below the line (None if nobody) and how much."""
        for item in self.items:
            if item.line == BELOW:
                return item.player, item.points
        return None, 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "deal": self.deal.to_dict(),
            "vulnerable": None if self.vulnerable is None else list(self.vulnerable),
            "points": list(self.points),
            "items": [item.to_dict() for item in self.items],
        }


def score_two_player_deal(deal: TwoPlayerDeal) -> TwoPlayerDealScore:
    """Score one deal of Bridge for Two or Misery Bridge on its own (RULES 7.1, RULES 7.2).

    - ordinary (RULES 7.1): the player with seven tricks or more scores their odd tricks, the
      declarer's ``tricks - 6`` or the opponent's ``13 - tricks - 6``, at the declared strain's
      value (×2 doubled), below the line;
    - "eight" (RULES 7.2): with 8 tricks or more the declarer scores the odd tricks at double
      value, below the line; with fewer the opponent scores 10 above the line, whatever the
      strain, and the declarer nothing at all (not even honours);
    - misery (RULES 7.2): more than one trick taken, the opponent scores 5 for each trick the
      declarer took; one or none, the declarer scores 5 for each trick the opponent took over six;
      above the line;
    - honours (RULES 3.6) above the line to the player who holds them, whatever the tricks
      (but a failed "eight tricks" gives the dealer nothing).
    """
    if not isinstance(deal, TwoPlayerDeal):
        raise ScoringError("deal", "{value!r} is not a two-player deal", None, value=deal)
    declarer, strain, tricks = deal.declarer, deal.strain, deal.tricks
    opponent = 1 - declarer
    items: list[PlayerItem] = []
    if deal.declaration is Declaration.ORDINARY:
        doubling = Doubling.DOUBLED if deal.doubled else Doubling.NONE
        if tricks >= 7:
            player, odd, reason = declarer, tricks - 6, "two_player_declarer_tricks"
        else:
            player, odd, reason = opponent, 13 - tricks - 6, "two_player_opponent_tricks"
        points = _trick_value(strain, odd, doubling.value)
        items.append(PlayerItem(player, BELOW, points, reason, odd, strain, doubling))
    elif deal.declaration is Declaration.EIGHT:
        if tricks >= 8:
            odd = tricks - 6
            points = _trick_value(strain, odd, 2)
            items.append(PlayerItem(declarer, BELOW, points, "eight_tricks", odd, strain))
        else:
            items.append(PlayerItem(opponent, ABOVE, 10, "eight_tricks_failed", tricks, strain))
    elif tricks > 1:
        items.append(PlayerItem(opponent, ABOVE, 5 * tricks, "misery_penalty", tricks, strain))
    else:
        over = 13 - tricks - 6
        items.append(PlayerItem(declarer, ABOVE, 5 * over, "misery_made", over, strain))
    failed_eight = deal.declaration is Declaration.EIGHT and tricks < 8
    if deal.honours is not None and not (failed_eight and deal.honours.player == declarer):
        # A failed "eight tricks": "the dealer scoring nothing at all", honours included (RULES
        # 7.2, seed 001); the opponent's honours still count.
        honours = deal.honours
        items.append(
            PlayerItem(
                honours.player,
                ABOVE,
                honours.points,
                "two_player_honours",
                honours.held(strain),
                strain,
            )
        )
    return TwoPlayerDealScore(deal, tuple(items))


def two_player_deals_from_json(raw: object, *, misery: bool = False) -> list[TwoPlayerDeal]:
    """The ``deals`` list of a Bridge for Two (or, with ``misery``, Misery Bridge) request;
    errors name the deal (``deals[2].tricks``).
    """
    return _deals_from_json(raw, lambda item: TwoPlayerDeal.from_dict(item, misery=misery))
