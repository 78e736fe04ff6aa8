"""One deal (RULES 3): trick points, overtricks, insult, undertricks, slams and honours.

Every outcome of a deal is one of 2,940 contract/result/vulnerability combinations, times the
declaring side and the five honours claims. ``deal_table`` computes all of them once per set of
options (with the plain arithmetic of ``_compute``), so scoring a deal is a list lookup by a small
integer key. ``score_deal`` and ``score_deals`` both read the same table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from scoring.rules.contract import (
    CONTRACTS,
    PASS,
    Contract,
    Doubling,
    Honours,
    Side,
    Strain,
    honours_minimum,
)
from scoring.rules.errors import ScoringError
from scoring.rules.items import ABOVE, BELOW, Item
from scoring.rules.options import DEFAULT, HouseRules

__all__ = [
    "PASS_KEY",
    "DealInput",
    "DealScore",
    "deal_key",
    "deal_table",
    "honours_code",
    "input_key",
    "refuse_on_a_pass",
    "score_deal",
    "score_deals",
]

#: Honours claims in key order: none, NS 100, NS 150, EW 100, EW 150.
_HONOURS_CODES: tuple[tuple[Side, int] | None, ...] = (
    None,
    (Side.NS, 100),
    (Side.NS, 150),
    (Side.EW, 100),
    (Side.EW, 150),
)
_SIDES = (Side.NS, Side.EW)

#: Key of a passed-out deal (an "input key": everything but vulnerability).
PASS_KEY = 105 * 14 * 2 * 5


@dataclass(frozen=True, slots=True)
class DealScore:
    """The score of one deal for the declaring side and the defenders (RULES 3).

    ``declarer_below`` counts toward game; everything else is above the line. Honours are
    credited to the side holding them, declarer's or defenders' (RULES 3.6).
    """

    contract: Contract
    vulnerable: bool
    tricks: int | None
    declarer: Side | None
    declarer_below: int
    declarer_above: int
    defenders_above: int
    items: tuple[Item, ...]

    @property
    def declarer_total(self) -> int:
        return self.declarer_below + self.declarer_above

    def to_dict(self) -> dict[str, Any]:
        return {
            "declarer": {"below": self.declarer_below, "above": self.declarer_above},
            "defenders": {"above": self.defenders_above},
            "items": [item.to_dict() for item in self.items],
        }


def trick_points(contract: Contract) -> int:
    """Trick points for the odd tricks bid (RULES 3.1): all of it counts toward game."""
    assert contract.strain is not None
    strain = contract.strain
    return (strain.first_trick + strain.later_trick * (contract.level - 1)) * contract.doubling


def overtrick_value(contract: Contract, vulnerable: bool) -> int:
    """Points per overtrick (RULES 3.2)."""
    assert contract.strain is not None
    if contract.doubling is Doubling.NONE:
        return contract.strain.later_trick
    return (200 if vulnerable else 100) * (contract.doubling // 2)


def undertrick_points(
    down: int, *, doubling: Doubling, vulnerable: bool, old_undertricks: bool = False
) -> int:
    """Cumulative undertrick penalty for ``down`` tricks (RULES 3.4).

    NV doubled: 100, 300, 500, 800, 1100 (4th and later 200 each with ``old_undertricks``);
    V doubled: 200, 500, 800, 1100; redoubled twice doubled; undoubled 50 / 100 each.
    """
    if doubling is Doubling.NONE:
        return down * (100 if vulnerable else 50)
    total = 0
    for n in range(1, down + 1):
        if vulnerable:
            total += 200 if n == 1 else 300
        elif n == 1:
            total += 100
        elif n <= 3:
            total += 200
        else:
            total += 200 if old_undertricks else 300
    return total * (doubling // 2)


def _compute(
    contract: Contract, vulnerable: bool, tricks: int, declarer: Side, options: HouseRules
) -> DealScore:
    """The plain arithmetic of RULES 3.1–3.5 for one deal; used to fill the tables."""
    level, doubling = contract.level, contract.doubling
    items: list[Item] = []
    below = above = defenders_above = 0
    needed = level + 6
    if tricks >= needed:
        below = trick_points(contract)
        items.append(Item(declarer, BELOW, below, "trick_points", contract, vulnerable, level))
        over = tricks - needed
        if over:
            points = over * overtrick_value(contract, vulnerable)
            items.append(Item(declarer, ABOVE, points, "overtricks", contract, vulnerable, over))
            above += points
        if doubling is not Doubling.NONE:
            points = 50 if doubling is Doubling.DOUBLED else options.insult_redoubled
            items.append(Item(declarer, ABOVE, points, "insult", contract, vulnerable))
            above += points
        if level >= 6:
            points = (750 if vulnerable else 500) if level == 6 else (1500 if vulnerable else 1000)
            items.append(Item(declarer, ABOVE, points, "slam", contract, vulnerable, level))
            above += points
    else:
        down = needed - tricks
        points = undertrick_points(
            down,
            doubling=doubling,
            vulnerable=vulnerable,
            old_undertricks=options.old_undertricks,
        )
        items.append(Item(declarer.other, ABOVE, points, "undertricks", contract, vulnerable, down))
        defenders_above += points
    return DealScore(
        contract, vulnerable, tricks, declarer, below, above, defenders_above, tuple(items)
    )


def _with_honours(score: DealScore, side: Side, points: int) -> DealScore:
    """Add an honours claim (RULES 3.6): to the side holding them, made or not, never doubled."""
    contract = score.contract
    held = 4 if points == 100 or contract.strain is Strain.NT else 5
    item = Item(side, ABOVE, points, "honours", contract, None, held)
    mine = side is score.declarer
    return DealScore(
        contract,
        score.vulnerable,
        score.tricks,
        score.declarer,
        score.declarer_below,
        score.declarer_above + points * mine,
        score.defenders_above + points * (not mine),
        (*score.items, item),
    )


def _pass_score(vulnerable: bool) -> DealScore:
    return DealScore(PASS, vulnerable, None, None, 0, 0, 0, ())


def deal_table(
    options: HouseRules = DEFAULT,
) -> tuple[tuple[DealScore | None, ...], frozenset[int]]:
    """Every deal outcome under ``options``, indexed by ``deal_key``; and the set of valid keys.

    Invalid combinations (100 honours at no trumps, honours the play makes impossible: RULES
    3.7) hold None and are not in the valid set.
    Only ``insult_redoubled`` and ``old_undertricks`` change a deal's score, so the table is
    built (about 0.2 s) once per pair of those values.
    """
    return _deal_table(options.insult_redoubled, options.old_undertricks)


@cache
def _deal_table(
    insult_redoubled: int, old_undertricks: bool
) -> tuple[tuple[DealScore | None, ...], frozenset[int]]:
    options = HouseRules(insult_redoubled=insult_redoubled, old_undertricks=old_undertricks)  # type: ignore[arg-type]
    table: list[DealScore | None] = []
    for contract in CONTRACTS[:-1]:
        nt = contract.strain is Strain.NT
        for tricks in range(14):
            for declarer in _SIDES:
                plain = [
                    _compute(contract, vul, tricks, declarer, options) for vul in (False, True)
                ]
                for honours in _HONOURS_CODES:
                    if honours is None:
                        table += plain
                    elif (nt and honours[1] == 100) or not _possible(
                        contract, declarer, tricks, *honours
                    ):
                        table += (None, None)
                    else:
                        table += [_with_honours(score, *honours) for score in plain]
    table += (_pass_score(False), _pass_score(True))
    valid = frozenset(i for i, score in enumerate(table) if score is not None)
    return tuple(table), valid


def _possible(contract: Contract, declarer: Side, tricks: int, side: Side, points: int) -> bool:
    """Whether the side holding these honours took enough tricks (RULES 3.7)."""
    assert contract.strain is not None
    taken = tricks if side is declarer else 13 - tricks
    return taken >= honours_minimum(contract.strain, points)


def refuse_on_a_pass(declarer: object, tricks: object, honours: object) -> None:
    """A passed-out deal carries no declarer, tricks or honours (RULES 3.8): each is refused
    with the same message in every command and endpoint; None (null, absent) is accepted.
    """
    if declarer is not None:
        raise ScoringError("declarer", "a passed-out deal has no declarer", "RULES 3.8")
    if tricks is not None:
        raise ScoringError("tricks", "a passed-out deal has no tricks", "RULES 3.8")
    if honours is not None:
        raise ScoringError("honours", "no honours on a passed-out deal", "RULES 3.8")


def honours_code(honours: Honours | None) -> int:
    """0 for no honours, 1–4 for NS 100, NS 150, EW 100, EW 150."""
    if honours is None:
        return 0
    return (1 if honours.side is Side.NS else 3) + (honours.points == 150)


def input_key(
    contract: Contract, declarer: Side | None, tricks: int | None, honours: Honours | None
) -> int:
    """The vulnerability-free key of a deal: ``deal_key = input_key * 2 + vulnerable``."""
    if contract.strain is None or declarer is None or tricks is None:
        return PASS_KEY
    return ((contract.index * 14 + tricks) * 2 + declarer.ordinal) * 5 + honours_code(honours)


def _check_tricks(tricks: object) -> int:
    if not isinstance(tricks, int) or isinstance(tricks, bool):
        raise ScoringError("tricks", "{value!r} is not a whole number", "RULES 1", value=tricks)
    if not 0 <= tricks <= 13:
        raise ScoringError("tricks", "{tricks} is not between 0 and 13", "RULES 1", tricks=tricks)
    return tricks


def deal_key(
    contract: Contract,
    *,
    vulnerable: bool,
    tricks: int | None,
    declarer: Side = Side.NS,
    honours: Honours | None = None,
) -> int:
    """The table key of a deal, validated (RULES 1, RULES 3.6–3.8); see ``score_deals``."""
    if not isinstance(vulnerable, bool):
        raise ScoringError(
            "vulnerable", "{value!r} is not true or false", "RULES 2.3", value=vulnerable
        )
    if contract.is_pass:
        refuse_on_a_pass(None, tricks, honours)
        return PASS_KEY * 2 + vulnerable
    if honours is not None:
        honours.check(contract)
    if tricks is None:
        raise ScoringError("tricks", "is required", "RULES 1")
    _check_tricks(tricks)
    if honours is not None:
        honours.check_play(contract, declarer, tricks)
    return input_key(contract, declarer, tricks, honours) * 2 + vulnerable


def score_deals(keys: Sequence[int], options: HouseRules = DEFAULT) -> list[DealScore]:
    """Score many deals at once by their ``deal_key``: the batch entry point (RULES 3)."""
    table, valid = deal_table(options)
    if not valid.issuperset(keys):
        bad = next(i for i, key in enumerate(keys) if key not in valid)
        raise ScoringError(f"keys[{bad}]", "{value!r} is not a deal key", None, value=keys[bad])
    return [table[key] for key in keys]  # type: ignore[misc]


def score_deal(
    contract: Contract,
    *,
    vulnerable: bool,
    tricks: int | None,
    honours: Honours | None = None,
    declarer: Side = Side.NS,
    options: HouseRules = DEFAULT,
) -> DealScore:
    """Score one deal (RULES 3.1–3.6). ``declarer`` only says which side the items name and
    where honours go: to the declarer's side or the defenders' (RULES 3.6).
    """
    key = deal_key(
        contract, vulnerable=vulnerable, tricks=tricks, declarer=declarer, honours=honours
    )
    return score_deals((key,), options)[0]


@dataclass(frozen=True, slots=True)
class DealInput:
    """A deal as entered: contract, declaring side, tricks won by declarer, honours claim.

    Validated on construction (RULES 1, RULES 3.6–3.8): tricks 0–13; declarer and tricks required
    unless the deal was passed out, and forbidden on a pass (RULES 3.8, ``refuse_on_a_pass``);
    honours per ``Honours.check`` and, against the tricks, ``Honours.check_play`` (RULES 3.7).
    At most one honours claim per deal, by construction (RULES 3.6).
    """

    contract: Contract
    declarer: Side | None = None
    tricks: int | None = None
    honours: Honours | None = None
    #: The vulnerability-free table key (see ``input_key``), computed once.
    key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.contract, Contract):
            raise ScoringError(
                "contract", "{value!r} is not a contract", "RULES 1", value=self.contract
            )
        if self.contract.is_pass:
            refuse_on_a_pass(self.declarer, self.tricks, self.honours)
        else:
            if self.declarer is None:
                raise ScoringError("declarer", "is required", "RULES 1")
            if not isinstance(self.declarer, Side):
                raise ScoringError(
                    "declarer", "{value!r} is not NS or EW", "RULES 1", value=self.declarer
                )
            if self.tricks is None:
                raise ScoringError("tricks", "is required", "RULES 1")
            _check_tricks(self.tricks)
        if self.honours is not None:
            if not isinstance(self.honours, Honours):
                raise ScoringError(
                    "honours", "{value!r} is not honours", "RULES 3.6", value=self.honours
                )
            self.honours.check(self.contract)
            if self.declarer is not None and self.tricks is not None:
                self.honours.check_play(self.contract, self.declarer, self.tricks)
        key = input_key(self.contract, self.declarer, self.tricks, self.honours)
        object.__setattr__(self, "key", key)

    @classmethod
    def create(
        cls,
        contract: Contract | str,
        declarer: Side | str | None = None,
        tricks: int | None = None,
        honours: Honours | None = None,
    ) -> DealInput:
        """Build from loose values ("4S", "NS", 10)."""
        parsed = Contract.parse(contract)
        side = None if declarer is None else Side.parse(declarer, "declarer")
        return cls(parsed, side, tricks, honours)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealInput:
        """From JSON ``{contract, declarer?, tricks?, honours?}``; fields named on error."""
        if not isinstance(data, Mapping):
            raise ScoringError("", "expected an object {contract, declarer, tricks, honours}")
        unknown = set(data) - {"contract", "declarer", "tricks", "honours"}
        if unknown:
            raise ScoringError(sorted(unknown)[0], "unknown field")
        if "contract" not in data:
            raise ScoringError("contract", "is required", "RULES 1")
        raw_honours = data.get("honours")
        honours = None if raw_honours is None else Honours.from_dict(raw_honours)
        return cls.create(data["contract"], data.get("declarer"), data.get("tricks"), honours)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"contract": str(self.contract)}
        if self.declarer is not None:
            data["declarer"] = self.declarer.value
            data["tricks"] = self.tricks
        if self.honours is not None:
            data["honours"] = self.honours.to_dict()
        return data
