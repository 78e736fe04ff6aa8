"""Sides, strains, doubling, contracts and honours (RULES 1, RULES 3.6, RULES 3.7)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any

from scoring.rules.errors import ScoringError

__all__ = [
    "ONE_CARD_A_TRICK",
    "PASS",
    "TWO_CARDS_A_TRICK",
    "Contract",
    "Doubling",
    "Honours",
    "Side",
    "Strain",
    "honours_claim",
    "honours_minimum",
]


class Side(StrEnum):
    """A partnership (RULES 1): North-South or East-West (We/They on a paper pad)."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def ordinal(self) -> int:
        """0 for NS, 1 for EW: the position of the side in the engine's pairs."""
        return 0 if self is Side.NS else 1

    @classmethod
    def parse(cls, value: object, field: str = "side") -> Side:
        if isinstance(value, Side):
            return value
        if isinstance(value, str) and value.upper() in ("NS", "EW"):
            return cls(value.upper())
        raise ScoringError(field, "{value!r} is not a side (NS or EW)", "RULES 1", value=value)


class Strain(StrEnum):
    """The denomination of a contract (RULES 1), in bidding order."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"
    NT = "NT"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_minor(self) -> bool:
        return self is Strain.C or self is Strain.D

    @property
    def first_trick(self) -> int:
        """Trick points for the first odd trick, undoubled (RULES 3.1)."""
        return 20 if self.is_minor else (40 if self is Strain.NT else 30)

    @property
    def later_trick(self) -> int:
        """Trick points for each odd trick after the first, undoubled (RULES 3.1)."""
        return 20 if self.is_minor else 30


_STRAIN_ORDER = {strain: i for i, strain in enumerate(Strain)}
_SYMBOLS = {Strain.C: "♣", Strain.D: "♦", Strain.H: "♥", Strain.S: "♠", Strain.NT: "NT"}


class Doubling(IntEnum):
    """Undoubled, doubled or redoubled; the value is the trick-point multiplier (RULES 3.1)."""

    NONE = 1
    DOUBLED = 2
    REDOUBLED = 4

    @property
    def suffix(self) -> str:
        return ("", "X", "", "XX")[self.value - 1]

    @property
    def index(self) -> int:
        """0, 1, 2: the position of the doubling in the engine's tables."""
        return self.value // 2 if self.value < 4 else 2


_CONTRACT_RE = re.compile(r"([1-7])\s*(NT|N|S|H|D|C)\s*(XX|X|R)?")
_DOUBLINGS = {None: Doubling.NONE, "X": Doubling.DOUBLED, "XX": Doubling.REDOUBLED}
_DOUBLINGS["R"] = Doubling.REDOUBLED


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract (level 1–7, strain, doubling) or a passed-out deal (level 0, no strain).

    ``Contract.parse("4SX")``, ``Contract.parse("3ntxx")``, ``Contract.parse("pass")``;
    ``str()`` gives back the canonical form ("4SX", "3NTXX", "pass").
    """

    level: int
    strain: Strain | None
    doubling: Doubling = Doubling.NONE
    #: 0–104 for a contract, 105 for a pass: the position of the contract in the tables.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.level == 0 and self.strain is None and self.doubling is Doubling.NONE:
            object.__setattr__(self, "index", 105)
            return
        if not isinstance(self.level, int) or isinstance(self.level, bool):
            raise ScoringError(
                "contract", "level {level!r} is not a number", "RULES 1", level=self.level
            )
        if not 1 <= self.level <= 7:
            raise ScoringError(
                "contract", "level {level} is not between 1 and 7", "RULES 1", level=self.level
            )
        if not isinstance(self.strain, Strain):
            raise ScoringError(
                "contract", "{value!r} is not a strain", "RULES 1", value=self.strain
            )
        if not isinstance(self.doubling, Doubling):
            raise ScoringError(
                "contract", "{value!r} is not a doubling", "RULES 1", value=self.doubling
            )
        index = ((self.level - 1) * 5 + _STRAIN_ORDER[self.strain]) * 3 + self.doubling.index
        object.__setattr__(self, "index", index)

    @classmethod
    def parse(cls, text: object, field: str = "contract") -> Contract:
        """Read "4S", "4SX", "3NTXX", "1N", "7cx", "pass"; anything else is a ScoringError."""
        if isinstance(text, Contract):
            return text
        if not isinstance(text, str):
            raise ScoringError(field, "{value!r} is not a contract", "RULES 1", value=text)
        cleaned = text.strip().upper()
        if cleaned == "PASS":
            return PASS
        match = _CONTRACT_RE.fullmatch(cleaned)
        if match is None:
            raise ScoringError(
                field,
                "{value!r} is not a contract (like 4S, 3NTX, 6HXX or pass)",
                "RULES 1",
                value=text,
            )
        strain = Strain.NT if match[2] in ("N", "NT") else Strain(match[2])
        return _ALL[(int(match[1]), strain, _DOUBLINGS[match[3]])]

    @property
    def is_pass(self) -> bool:
        return self.strain is None

    @property
    def display(self) -> str:
        """For people: "4♠ doubled", "3NT redoubled", "2♥", "passed out"."""
        if self.strain is None:
            return "passed out"
        words = {1: "", 2: " doubled", 4: " redoubled"}[self.doubling.value]
        return f"{self.level}{self.strain.symbol}{words}"

    def __str__(self) -> str:
        if self.strain is None:
            return "pass"
        return f"{self.level}{self.strain.value}{self.doubling.suffix}"


PASS = Contract(0, None)

#: Every contract, in table order (``CONTRACTS[c.index] is c``); the last is the pass.
CONTRACTS: tuple[Contract, ...] = (
    *(
        Contract(level, strain, doubling)
        for level in range(1, 8)
        for strain in Strain
        for doubling in Doubling
    ),
    PASS,
)
_ALL = {(c.level, c.strain, c.doubling): c for c in CONTRACTS}


#: The fewest tricks the side holding honours takes (RULES 3.7), by claim: all five trump
#: honours, four of them, the four aces at no trumps. A hand wins a trick with each honour no
#: other hand can beat, playing one card to a trick (``ONE_CARD_A_TRICK``). In Bridge for Two
#: each player plays two cards to every trick from one hand of 26 (``TWO_CARDS_A_TRICK``), so two
#: honours may fall on one trick: all five then win at least three tricks; of four, the missing
#: honour captures at most one trick (with two of them), so at least one; the four aces one.
ONE_CARD_A_TRICK = {"five": 5, "four": 3, "aces": 1}
TWO_CARDS_A_TRICK = {"five": 3, "four": 1, "aces": 1}


def honours_claim(strain: Strain, points: int) -> str:
    """``"aces"`` (150 at no trumps), ``"five"`` (150 in a suit) or ``"four"`` (100)."""
    if strain is Strain.NT:
        return "aces"
    return "five" if points == 150 else "four"


def honours_minimum(strain: Strain, points: int, minima: dict[str, int] = ONE_CARD_A_TRICK) -> int:
    """The fewest tricks a side holding these honours takes (RULES 3.7)."""
    return minima[honours_claim(strain, points)]


@dataclass(frozen=True, slots=True)
class Honours:
    """An honours claim (RULES 3.6): 100 for four trump honours in one hand, 150 for all five,
    150 for the four aces at no trumps. It scores to the side holding them, made or not.
    """

    side: Side
    points: int

    def __post_init__(self) -> None:
        if not isinstance(self.side, Side):
            raise ScoringError(
                "honours.side", "{value!r} is not a side (NS or EW)", "RULES 1", value=self.side
            )
        points: object = self.points
        if not isinstance(points, int) or isinstance(points, bool) or points not in (100, 150):
            raise ScoringError(
                "honours.points", "{value!r} is not 100 or 150", "RULES 3.6", value=self.points
            )

    def check(self, contract: Contract) -> None:
        """Refuse a claim the contract cannot carry (RULES 3.6, RULES 3.8)."""
        if contract.is_pass:
            raise ScoringError("honours", "no honours on a passed-out deal", "RULES 3.8")
        if contract.strain is Strain.NT and self.points != 150:
            raise ScoringError(
                "honours.points", "at no trumps only the four aces count (150)", "RULES 3.6"
            )

    def check_play(self, contract: Contract, declarer: Side, tricks: int) -> None:
        """Refuse a claim the play makes impossible (RULES 3.7): the side holding the honours
        takes at least ``honours_minimum`` tricks (``tricks`` are the declaring side's).
        """
        assert contract.strain is not None
        taken = tricks if self.side is declarer else 13 - tricks
        minimum = honours_minimum(contract.strain, self.points)
        if taken < minimum:
            raise ScoringError(
                "honours",
                "{side} took {tricks} tricks, but the side holding these honours takes at least "
                "{minimum}",
                "RULES 3.7",
                side=self.side.value,
                tricks=taken,
                minimum=minimum,
            )

    @classmethod
    def from_dict(cls, data: object) -> Honours:
        if not isinstance(data, dict):
            raise ScoringError("honours", "expected an object {side, points}", "RULES 3.6")
        unknown = set(data) - {"side", "points"}
        if unknown:
            raise ScoringError(f"honours.{sorted(unknown)[0]}", "unknown field", None)
        if "side" not in data or "points" not in data:
            missing = "side" if "side" not in data else "points"
            raise ScoringError(f"honours.{missing}", "is required", "RULES 3.6")
        return cls(Side.parse(data["side"], "honours.side"), data["points"])

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side.value, "points": self.points}
