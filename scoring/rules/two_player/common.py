"""What the two-player games of RULES 7 share: the players, the scoresheet line
(``PlayerItem``) and its sentence, the checks of their input, and the odd tricks' value
(RULES 3.1 values, as RULES 7.1 and RULES 7.4 count them).
The underscored names are the package's own, shared by its game modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from scoring.rules.contract import Contract, Doubling, Strain
from scoring.rules.errors import ScoringError
from scoring.rules.explain import TEMPLATES, cite

#: The two players, as numbered in the API and in JSON.
PLAYERS = (0, 1)

_R71 = "RULES 7.1"
_R72 = "RULES 7.2"
_R73 = "RULES 7.3"
_R74 = "RULES 7.4"

_STRAIN_NAMES = {
    "C": Strain.C,
    "D": Strain.D,
    "H": Strain.H,
    "S": Strain.S,
    "NT": Strain.NT,
    "N": Strain.NT,
}


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


def _trick_value(strain: Strain, odd: int, multiplier: int) -> int:
    """Odd tricks at the strain's value (RULES 3.1 values): C/D 20, H/S 30, NT 40 then 30."""
    return (strain.first_trick + strain.later_trick * (odd - 1)) * multiplier
