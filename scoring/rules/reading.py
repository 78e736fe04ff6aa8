"""Reading a game's JSON input: the fields, house rules and deals every command shares.

Standard library only: the CLI (`python -m scoring`) and the game registry (`scoring.rules.games`)
read their input through these, so every game names a bad field the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.deal import DealInput
from scoring.rules.errors import ScoringError
from scoring.rules.options import HouseRules

__all__ = ["check_keys", "read_closed", "read_deals", "read_options"]


def check_keys(data: Mapping[str, Any], allowed: set[str]) -> None:
    for key in data:
        if key not in allowed:
            raise ScoringError(str(key), f"unknown field (expected {', '.join(sorted(allowed))})")


def read_options(data: Mapping[str, Any]) -> HouseRules:
    """The house rules of `"preset"` and `"options"` (RULES 8)."""
    preset = data.get("preset")
    overrides = data.get("options")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ScoringError("options", "expected an object of option: value")
    if preset is None:
        return HouseRules.from_dict(overrides)
    if not isinstance(preset, str):
        raise ScoringError("preset", f"{preset!r} is not a preset name")
    try:
        return HouseRules.from_preset(preset, overrides)
    except ScoringError as error:
        if error.field == "options.preset":
            raise ScoringError("preset", error.template, error.rule, **error.params) from None
        raise


def read_closed(data: Mapping[str, Any]) -> bool:
    """`"closed"`: play has stopped for good (RULES 8.4); false when absent."""
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise ScoringError("closed", f"{closed!r} is not true or false", "RULES 8.4")
    return closed


def read_deals(data: Mapping[str, Any]) -> list[DealInput]:
    """`"deals"`: a four-player game's deals, an error naming `deals[i].field`."""
    raw = data.get("deals")
    if not isinstance(raw, list):
        raise ScoringError("deals", "expected a list of deals")
    deals = []
    for i, item in enumerate(raw):
        try:
            deals.append(DealInput.from_dict(item))
        except ScoringError as error:
            raise error.within(f"deals[{i}]") from None
    return deals
