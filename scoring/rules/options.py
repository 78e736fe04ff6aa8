"""House rules: every option RULES.md allows, with its default, in one frozen value.

A club picks its options once; every rubber records the options it was scored under (RULES
preamble), so ``HouseRules`` round-trips through ``to_dict``/``from_dict`` exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from scoring.rules.errors import ScoringError

__all__ = ["DEFAULT", "PRESETS", "TURNS_OFF", "HouseRules"]

#: The allowed values of each option, and the RULES section that defines it.
_CHOICES: dict[str, tuple[tuple[object, object], str]] = {
    "unfinished_partscore": ((100, 50), "RULES 2.6"),
    "insult_redoubled": ((100, 50), "RULES 3.3"),
    "old_undertricks": ((False, True), "RULES 3.4"),
    "pivot_ranking": (("net", "gross"), "RULES 4.3"),
    "chicago_vulnerable": (("dealer", "non_dealer"), "RULES 5"),
    "chicago_honours": ((True, False), "RULES 5"),
    "rubber_bonus_two_player": ((100, "standard"), "RULES 7.1"),
}
_TARGET_RULE = "RULES 7.4"

#: What each option takes off a deal's entry when it is off (false), by game: the deal inputs
#: the engine then refuses (Chicago's honours without ``chicago_honours``, RULES 5). Every
#: option has its row, ``{}`` for one that changes only the score; the entry and correction
#: forms show no control for such an input (games/registry.py, ``GamePages.needs``), and
#: tests/games/test_house_rules_forms.py fails for an option without a row or a registry that
#: disagrees.
TURNS_OFF: dict[str, dict[str, tuple[str, ...]]] = {
    "unfinished_partscore": {},  # the bonus of an unfinished rubber
    "insult_redoubled": {},  # XX is still tapped; a made one scores less
    "old_undertricks": {},  # the price of undertricks
    "pivot_ranking": {},  # how the standings rank a pivot table
    "chicago_vulnerable": {},  # computed from the deal's number, never tapped
    "chicago_honours": {"chicago": ("honours",)},  # a claim is refused (RULES 5)
    "rubber_bonus_two_player": {},  # the rubber bonus of Bridge for Two and Misery
    "draw_and_discard_target": {},  # the score that wins Draw and Discard
}


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The options of RULES.md (defaults = the ACBL laws, RULES preamble).

    - ``unfinished_partscore`` (RULES 2.6): 100 or 50 for a lone part score in an unfinished game.
    - ``insult_redoubled`` (RULES 3.3): 100 or 50 for making a redoubled contract.
    - ``old_undertricks`` (RULES 3.4): NV doubled 4th and later undertricks 200 instead of 300.
    - ``pivot_ranking`` (RULES 4.3): rank pivot players by ``"net"`` hundreds or ``"gross"`` points.
    - ``chicago_vulnerable`` (RULES 5): deals 2 and 3 vulnerable for the ``"dealer"``'s side or the
      ``"non_dealer"``'s.
    - ``chicago_honours`` (RULES 5): whether honours score in Chicago.
    - ``rubber_bonus_two_player`` (RULES 7.1): ``100``, or ``"standard"`` for the §2.4 700/500.
    - ``draw_and_discard_target`` (RULES 7.4): the score that wins Draw and Discard Bridge.
    """

    unfinished_partscore: Literal[100, 50] = 100
    insult_redoubled: Literal[100, 50] = 100
    old_undertricks: bool = False
    pivot_ranking: Literal["net", "gross"] = "net"
    chicago_vulnerable: Literal["dealer", "non_dealer"] = "dealer"
    chicago_honours: bool = True
    rubber_bonus_two_player: Literal[100, "standard"] = 100
    draw_and_discard_target: int = 500

    def __post_init__(self) -> None:
        for name, (allowed, rule) in _CHOICES.items():
            _check_choice(name, getattr(self, name), allowed, rule)
        target: object = self.draw_and_discard_target
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise ScoringError(
                "options.draw_and_discard_target",
                "{value!r} is not a positive whole number",
                _TARGET_RULE,
                value=target,
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> HouseRules:
        """Options from JSON; unknown keys and bad values are refused, naming the option."""
        if data is None:
            return DEFAULT
        if not isinstance(data, Mapping):
            raise ScoringError("options", "expected an object of option: value", None)
        names = {f.name for f in fields(cls)}
        for key in data:
            if key not in names:
                raise ScoringError(
                    f"options.{key}",
                    "unknown option (known: {known})",
                    None,
                    known=", ".join(sorted(names)),
                )
        return cls(**data)

    @classmethod
    def from_preset(cls, name: str, overrides: Mapping[str, Any] | None = None) -> HouseRules:
        """A named preset (see ``PRESETS``) with some options changed."""
        if name not in PRESETS:
            raise ScoringError(
                "options.preset",
                "unknown preset {name!r} (known: {known})",
                None,
                name=name,
                known=", ".join(PRESETS),
            )
        if not overrides:
            return PRESETS[name]
        base = PRESETS[name].to_dict()
        base.update(overrides)
        return cls.from_dict(base)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def with_changes(self, **changes: Any) -> HouseRules:
        return replace(self, **changes)


def _check_choice(name: str, value: object, allowed: tuple[object, object], rule: str) -> None:
    # bool is an int in Python: True must not pass for 1, nor 1 for True.
    ok = any(type(value) is type(choice) and value == choice for choice in allowed)
    if not ok:
        first, second = allowed
        raise ScoringError(
            f"options.{name}",
            "{value!r} is not {first!r} or {second!r}",
            rule,
            value=value,
            first=first,
            second=second,
        )


DEFAULT = HouseRules()

#: Named sets of options a club can start from.
PRESETS: dict[str, HouseRules] = {
    "acbl": DEFAULT,
    "old_code": HouseRules(old_undertricks=True, insult_redoubled=50),
    "club_50": HouseRules(unfinished_partscore=50),
    "pivot_gross": HouseRules(pivot_ranking="gross"),
}
