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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Literal, TypeVar

from scoring.rules.contract import (
    ONE_CARD_A_TRICK,
    TWO_CARDS_A_TRICK,
    Contract,
    Doubling,
    Side,
    Strain,
    honours_minimum,
)
from scoring.rules.deal import refuse_on_a_pass
from scoring.rules.errors import ScoringError
from scoring.rules.explain import TEMPLATES, cite
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

#: The two players, as numbered in the API and in JSON.
PLAYERS = (0, 1)
#: The side of the generic rubber engine that stands for each player.
_SIDE_OF = (Side.NS, Side.EW)

_R71 = "RULES 7.1"
_R72 = "RULES 7.2"
_R73 = "RULES 7.3"
_R74 = "RULES 7.4"

#: Reasons of the rubber engine's end-of-rubber items → their two-player reasons.
_END_REASONS = {
    "rubber_bonus": "two_player_rubber_bonus",
    "unfinished_game": "two_player_unfinished_game",
    "unfinished_partscore": "two_player_unfinished_partscore",
}

_STRAIN_NAMES = {
    "C": Strain.C,
    "D": Strain.D,
    "H": Strain.H,
    "S": Strain.S,
    "NT": Strain.NT,
    "N": Strain.NT,
}


def two_player_unfinished_bonuses(options: HouseRules) -> tuple[int, int]:
    """RULES 7.1: what a two-player rubber closed before two games gives the player with the
    only completed game and a player with a lone part score. The bonuses scale with the rubber
    bonus, so that stopping is never worth more than finishing: with 100, 50 for the only game
    and nothing for a part score; with the RULES 2.4 values, RULES 2.6 as written."""
    if options.rubber_bonus_two_player == 100:
        return (50, 0)
    return unfinished_bonuses(options)


# ---------------------------------------------------------------------------------------------
# Items and their sentences


@dataclass(frozen=True, slots=True)
class PlayerItem:
    """One line of a two-player scoresheet: the player who scores, above or below the line,
    the points and the reason code; what the sentence needs (``count`` of tricks or honours,
    the ``strain``, the ``doubling``, the contract ``level`` in Draw and Discard); and the
    1-based ``deal`` number (None for end-of-rubber items and for a deal scored on its own).
    """

    player: int
    line: str
    points: int
    reason: str
    count: int | None = None
    strain: Strain | None = None
    doubling: Doubling = Doubling.NONE
    level: int | None = None
    deal: int | None = None

    @property
    def explanation(self) -> str:
        return explain_player_item(self)

    @property
    def contract(self) -> Contract | None:
        """The contract of a Draw and Discard item (RULES 7.4); None in the other games."""
        if self.level is None or self.strain is None:
            return None
        return Contract(self.level, self.strain, self.doubling)

    def to_dict(self) -> dict[str, Any]:
        contract = self.contract
        return {
            "player": self.player,
            "line": self.line,
            "points": self.points,
            "reason": self.reason,
            "deal": self.deal,
            "strain": None if self.strain is None else self.strain.value,
            "doubling": self.doubling.value,
            "contract": None if contract is None else str(contract),
            "count": self.count,
            "explanation": self.explanation,
        }


def _form(item: PlayerItem, forms: Mapping[str, str]) -> str:
    if item.reason == "two_player_honours":
        if item.strain is Strain.NT:
            return "aces"
        return "five" if item.count == 5 else "four"
    if item.reason == "two_player_rubber_bonus":
        return "two_one" if item.count else "two_nil"
    return "one" if item.count == 1 and "one" in forms else "other"


def explain_player_item(
    item: PlayerItem,
    templates: Mapping[str, Mapping[str, str]] = TEMPLATES,
    names: Sequence[str] | None = None,
) -> str:
    """A sentence for a two-player item, from ``templates`` (``explain.TEMPLATES`` or a
    translated copy), naming the rule it applies, e.g.
    "Player 1 won 2 odd tricks against ♥ doubled: 120 below the line (RULES 7.1)".
    Placeholders: ``{player}``, ``{points}``, ``{count}``, ``{strain}``, ``{doubling}`` (" doubled",
    " redoubled" or nothing) and ``{contract}`` ("4♠ doubled", Draw and Discard only).
    With ``names`` (player 0's and player 1's), ``{player}`` is the player's name, for templates
    written for a name ("Bea won 2 odd tricks against ♥ doubled: ...").
    """
    words = templates["_words"]
    doubling = ""
    if item.doubling is Doubling.DOUBLED:
        doubling = " " + words["doubled"]
    elif item.doubling is Doubling.REDOUBLED:
        doubling = " " + words["redoubled"]
    if item.strain is None:
        strain = ""
    else:
        strain = words["no_trump"] if item.strain is Strain.NT else item.strain.symbol
    contract = "" if item.level is None else f"{item.level}{strain}{doubling}"
    forms = templates[item.reason]
    sentence = forms[_form(item, forms)].format(
        player=item.player if names is None else names[item.player],
        points=item.points,
        count=item.count,
        strain=strain,
        doubling=doubling,
        contract=contract,
    )
    return cite(sentence, item.reason, words)


# ---------------------------------------------------------------------------------------------
# Input checks


def _check_player(value: object, field: str, rule: str) -> int:
    if type(value) is not int or value not in PLAYERS:
        raise ScoringError(field, "{value!r} is not a player (0 or 1)", rule, value=value)
    return value


def _check_tricks(value: object, field: str = "tricks") -> int:
    if type(value) is not int:
        raise ScoringError(field, "{value!r} is not a whole number", "RULES 1", value=value)
    if not 0 <= value <= 13:
        raise ScoringError(field, "{tricks} is not between 0 and 13", "RULES 1", tricks=value)
    return value


def _parse_strain(value: object, rule: str) -> Strain:
    if isinstance(value, Strain):
        return value
    if isinstance(value, str) and value.strip().upper() in _STRAIN_NAMES:
        return _STRAIN_NAMES[value.strip().upper()]
    raise ScoringError("strain", "{value!r} is not a strain (C, D, H, S or NT)", rule, value=value)


def _parse_doubled(value: object, rule: str) -> bool:
    if type(value) is bool:
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    raise ScoringError("doubled", "{value!r} is not 0 or 1", rule, value=value)


_Object = Literal["honours", "a deal", "a Turnover result"]


def _check_fields(data: object, allowed: tuple[str, ...], what: _Object) -> Mapping[str, Any]:
    names = ", ".join(allowed)
    if not isinstance(data, Mapping):
        raise ScoringError("", "expected an object {{{fields}}}", None, fields=names)
    for key in data:
        if key not in allowed:
            raise _unknown_field(str(key), what, names)
    return data


def _unknown_field(key: str, what: _Object, names: str) -> ScoringError:
    # One whole sentence per kind of object, so that each can be translated (docs/i18n.md).
    if what == "honours":
        return ScoringError(key, "unknown field in honours (expected {fields})", None, fields=names)
    if what == "a Turnover result":
        return ScoringError(
            key, "unknown field in a Turnover result (expected {fields})", None, fields=names
        )
    return ScoringError(key, "unknown field in a deal (expected {fields})", None, fields=names)


def _require(data: Mapping[str, Any], field: str, rule: str) -> Any:
    if field not in data:
        raise ScoringError(field, "is required", rule)
    return data[field]


_T = TypeVar("_T")


def _deals_from_json(raw: object, parse: Callable[[object], _T]) -> list[_T]:
    if not isinstance(raw, list):
        raise ScoringError("deals", "expected a list of deals")
    deals = []
    for i, item in enumerate(raw):
        try:
            deals.append(parse(item))
        except ScoringError as error:
            raise error.within(f"deals[{i}]") from None
    return deals


# ---------------------------------------------------------------------------------------------
# Bridge for Two (RULES 7.1) and Misery Bridge (RULES 7.2): one deal


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


def _trick_value(strain: Strain, odd: int, multiplier: int) -> int:
    """Odd tricks at the strain's value (RULES 3.1 values): C/D 20, H/S 30, NT 40 then 30."""
    return (strain.first_trick + strain.later_trick * (odd - 1)) * multiplier


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


# ---------------------------------------------------------------------------------------------
# Bridge for Two (RULES 7.1) and Misery Bridge (RULES 7.2): the rubber


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
    if type(closed) is not bool:
        raise ScoringError("closed", "{value!r} is not true or false", "RULES 8.4", value=closed)
    if not isinstance(options, HouseRules):
        raise ScoringError("options", "{value!r} is not house rules", None, value=options)
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


def two_player_deals_from_json(raw: object, *, misery: bool = False) -> list[TwoPlayerDeal]:
    """The ``deals`` list of a Bridge for Two (or, with ``misery``, Misery Bridge) request;
    errors name the deal (``deals[2].tricks``).
    """
    return _deals_from_json(raw, lambda item: TwoPlayerDeal.from_dict(item, misery=misery))


# ---------------------------------------------------------------------------------------------
# Turnover Bridge (RULES 7.3)


@dataclass(frozen=True, slots=True)
class TurnoverResult:
    """The result of a game of Turnover Bridge (RULES 7.3): the tricks each player won, and the
    winner (the first to 14, who has the more tricks), or None for a 13–13 tie.
    """

    tricks: tuple[int, int]
    winner: int | None

    @property
    def tie(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {"tricks": list(self.tricks), "winner": self.winner, "tie": self.tie}


def score_turnover(tricks_0: int, tricks_1: int) -> TurnoverResult:
    """The result of a Turnover game from the tricks each player won (RULES 7.3).

    The first to 14 of the 26 tricks wins. Play normally stops there, so 14 against 0–12 is a
    result; but the players may play all 26 out (seed 000: "fourteen or more"), so any split of
    the 26 is one too (16–10 is a win for the 16), and 13–13 a tie. Anything else (15–10, 14–13,
    12–12, ...) is refused.
    """
    for i, value in enumerate((tricks_0, tricks_1)):
        if type(value) is not int:
            raise ScoringError(f"tricks[{i}]", "{value!r} is not a whole number", _R73, value=value)
    played_out = tricks_0 + tricks_1 == 26 and min(tricks_0, tricks_1) >= 0
    stopped = max(tricks_0, tricks_1) == 14 and 0 <= min(tricks_0, tricks_1) <= 12
    if not (played_out or stopped):
        raise ScoringError(
            "tricks",
            "{first}–{second} is not a Turnover result: 14 against 0–12 (play stopped at 14), "
            "or all 26 tricks played out",
            _R73,
            first=tricks_0,
            second=tricks_1,
        )
    if tricks_0 == tricks_1:
        return TurnoverResult((13, 13), None)
    return TurnoverResult((tricks_0, tricks_1), 0 if tricks_0 > tricks_1 else 1)


def turnover_from_json(data: Mapping[str, Any]) -> TurnoverResult:
    """A Turnover request ``{"tricks": [t0, t1]}`` scored (RULES 7.3)."""
    checked = _check_fields(data, ("tricks",), "a Turnover result")
    tricks = _require(checked, "tricks", _R73)
    if not isinstance(tricks, list) or len(tricks) != 2:
        raise ScoringError("tricks", "{value!r} is not a pair [t0, t1]", _R73, value=tricks)
    return score_turnover(tricks[0], tricks[1])


# ---------------------------------------------------------------------------------------------
# Draw and Discard Bridge (RULES 7.4)


@dataclass(frozen=True, slots=True)
class DrawDiscardDeal:
    """A deal of Draw and Discard Bridge (RULES 7.4): the contract won in the auction (levels
    1–7, C < D < H < S < NT, doubled or redoubled) or a pass, the declarer (0 or 1) and the
    tricks the declarer won (0–13). A passed deal has neither declarer nor tricks.
    """

    contract: Contract
    declarer: int | None = None
    tricks: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.contract, Contract):
            raise ScoringError(
                "contract", "{value!r} is not a contract", "RULES 1", value=self.contract
            )
        if self.contract.is_pass:
            refuse_on_a_pass(self.declarer, self.tricks, None)  # as every game (RULES 3.8)
            return
        if self.declarer is None:
            raise ScoringError("declarer", "is required", _R74)
        _check_player(self.declarer, "declarer", _R74)
        if self.tricks is None:
            raise ScoringError("tricks", "is required", "RULES 1")
        _check_tricks(self.tricks)

    @classmethod
    def create(
        cls, contract: Contract | str, declarer: int | None = None, tricks: int | None = None
    ) -> DrawDiscardDeal:
        """Build from loose values: ``DrawDiscardDeal.create("4SX", 0, 10)``."""
        return cls(Contract.parse(contract), declarer, tricks)

    @classmethod
    def from_dict(cls, data: object) -> DrawDiscardDeal:
        """From JSON ``{declarer, contract, tricks}`` (``{"contract": "pass"}`` for a pass)."""
        checked = _check_fields(data, ("declarer", "contract", "tricks"), "a deal")
        contract = Contract.parse(_require(checked, "contract", "RULES 1"))
        return cls(contract, checked.get("declarer"), checked.get("tricks"))

    def swapped(self) -> DrawDiscardDeal:
        """The same deal with the players' places exchanged."""
        if self.declarer is None:
            return self
        return replace(self, declarer=1 - self.declarer)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"contract": str(self.contract)}
        if self.declarer is not None:
            data["declarer"] = self.declarer
            data["tricks"] = self.tricks
        return data


@dataclass(frozen=True, slots=True)
class DrawDiscardDealScore:
    """A scored Draw and Discard deal: the input, its items (none when the contract failed or
    the deal was passed) and its 1-based ``number`` in the game.
    """

    deal: DrawDiscardDeal
    items: tuple[PlayerItem, ...]
    number: int | None = None

    @property
    def points(self) -> tuple[int, int]:
        totals = [0, 0]
        for item in self.items:
            totals[item.player] += item.points
        return (totals[0], totals[1])

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "deal": self.deal.to_dict(),
            "points": list(self.points),
            "items": [item.to_dict() for item in self.items],
        }


def score_draw_discard_deal(deal: DrawDiscardDeal) -> DrawDiscardDealScore:
    """One Draw and Discard deal (RULES 7.4): a made contract scores every trick won over six
    (overtricks included) at C/D 20, H/S 30, NT 40 for the first and 30 after, ×2 doubled,
    ×4 redoubled; a failed contract, or a pass, scores nothing.
    """
    if not isinstance(deal, DrawDiscardDeal):
        raise ScoringError("deal", "{value!r} is not a Draw and Discard deal", None, value=deal)
    contract = deal.contract
    if contract.strain is None or deal.declarer is None or deal.tricks is None:
        return DrawDiscardDealScore(deal, ())
    if deal.tricks < contract.level + 6:
        return DrawDiscardDealScore(deal, ())
    over = deal.tricks - 6
    points = _trick_value(contract.strain, over, contract.doubling.value)
    item = PlayerItem(
        deal.declarer,
        BELOW,
        points,
        "draw_discard_tricks",
        over,
        contract.strain,
        contract.doubling,
        contract.level,
    )
    return DrawDiscardDealScore(deal, (item,))


@dataclass(frozen=True, slots=True)
class DrawDiscardScore:
    """A game of Draw and Discard Bridge (RULES 7.4): the target, each deal's score, the
    players' scores, and the winner, the first player to reach the target (the game is then
    ``finished``).
    """

    target: int
    deals: tuple[DrawDiscardDealScore, ...]
    scores: tuple[int, int]
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def items(self) -> tuple[PlayerItem, ...]:
        return tuple(item for deal in self.deals for item in deal.items)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "scores": list(self.scores),
            "finished": self.finished,
            "winner": self.winner,
            "deals": [deal.to_dict() for deal in self.deals],
        }


def score_draw_discard(
    deals: Sequence[DrawDiscardDeal], *, target: int | None = None, options: HouseRules = DEFAULT
) -> DrawDiscardScore:
    """Score a game of Draw and Discard Bridge from its ordered deals (RULES 7.4).

    ``target`` defaults to the option ``draw_and_discard_target`` (500). The first player whose
    score reaches the target wins and the game ends: a deal after that is refused.
    """
    if target is None:
        target = options.draw_and_discard_target
    if type(target) is not int or target <= 0:
        raise ScoringError("target", "{value!r} is not a positive whole number", _R74, value=target)
    scores = [0, 0]
    winner: int | None = None
    played: list[DrawDiscardDealScore] = []
    for number, deal in enumerate(deals, 1):
        if winner is not None:
            raise ScoringError(
                f"deals[{number - 1}]",
                "player {player} reached the target of {target} at deal {number}; the game is over",
                _R74,
                player=winner,
                target=target,
                number=number - 1,
            )
        if not isinstance(deal, DrawDiscardDeal):
            raise ScoringError(f"deals[{number - 1}]", "{value!r} is not a deal", None, value=deal)
        score = score_draw_discard_deal(deal)
        items = tuple(replace(item, deal=number) for item in score.items)
        played.append(replace(score, items=items, number=number))
        for item in items:
            scores[item.player] += item.points
            if scores[item.player] >= target:
                winner = item.player
    return DrawDiscardScore(target, tuple(played), (scores[0], scores[1]), winner)


def draw_discard_deals_from_json(raw: object) -> list[DrawDiscardDeal]:
    """The ``deals`` list of a Draw and Discard request; errors name the deal."""
    return _deals_from_json(raw, DrawDiscardDeal.from_dict)
