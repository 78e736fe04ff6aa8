"""``python -m scoring deal|rubber|chicago``: JSON in on stdin, JSON out on stdout.

One JSON object in gives one (indented) object out; JSON Lines in (one object per line) give
one compact line out per line in. Bad input: exit status 2 and one line on stderr per bad
object, naming the field and the rule broken (``deals[3].tricks: 14 is not between 0 and 13
(RULES 1)``), prefixed with ``line N:`` in JSON Lines mode; good objects are still answered.
Deal indexes in field names start at 0 (``deals[0]`` is the first deal).

Standard library only, so a bare ``python3`` without Django runs it. Subcommands are the
handlers registered in ``COMMANDS`` (``@command("name")``): each takes the parsed object and
returns the object to print, or raises ``ScoringError``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from scoring.rules import (
    Contract,
    DealInput,
    Honours,
    HouseRules,
    ScoringError,
    Side,
    refuse_on_a_pass,
    score_chicago,
    score_deal,
    score_rubber,
)
from scoring.rules.two_player import (
    draw_discard_deals_from_json,
    score_bridge_for_two,
    score_draw_discard,
    score_misery,
    turnover_from_json,
    two_player_deals_from_json,
)

__all__ = ["COMMANDS", "Handler", "command", "main"]

Handler = Callable[[Mapping[str, Any]], dict[str, Any]]

#: Subcommand name → handler. Register more with ``@command("name")``.
COMMANDS: dict[str, Handler] = {}

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def command(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler

    return register


def _check_keys(data: Mapping[str, Any], allowed: set[str]) -> None:
    for key in data:
        if key not in allowed:
            raise ScoringError(str(key), f"unknown field (expected {', '.join(sorted(allowed))})")


def _options(data: Mapping[str, Any]) -> HouseRules:
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


def _deals(data: Mapping[str, Any]) -> list[DealInput]:
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


@command("deal")
def deal_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"contract": "4SX", "vulnerable": true, "tricks": 9, "declarer"?: "NS",
    "honours"?: {"side", "points"}, "options"?: {}, "preset"?: "acbl"}``."""
    _check_keys(
        data, {"contract", "vulnerable", "tricks", "declarer", "honours", "options", "preset"}
    )
    options = _options(data)
    if "contract" not in data:
        raise ScoringError("contract", "is required", "RULES 1")
    if "vulnerable" not in data:
        raise ScoringError("vulnerable", "is required", "RULES 2.3")
    contract = Contract.parse(data["contract"])
    raw_honours = data.get("honours")
    honours = None if raw_honours is None else Honours.from_dict(raw_honours)
    if contract.is_pass:
        # RULES 3.8: refused here as in `rubber` and `chicago` (null or absent is fine).
        raw = data.get("declarer")
        side = None if raw is None else Side.parse(raw, "declarer")
        refuse_on_a_pass(side, data.get("tricks"), honours)
        declarer = Side.NS  # a passed-out deal has no declarer: the items name nobody
    else:
        declarer = Side.parse(data.get("declarer", "NS"), "declarer")
    score = score_deal(
        contract,
        vulnerable=data["vulnerable"],
        tricks=data.get("tricks"),
        honours=honours,
        declarer=declarer,
        options=options,
    )
    return score.to_dict()


@command("rubber")
def rubber_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"deals": [{"contract", "declarer", "tricks", "honours"?}, ...], "closed"?: false,
    "options"?: {}, "preset"?: "acbl"}``."""
    _check_keys(data, {"deals", "closed", "options", "preset"})
    options = _options(data)
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise ScoringError("closed", f"{closed!r} is not true or false", "RULES 8.4")
    return score_rubber(_deals(data), closed=closed, options=options).to_dict()


@command("chicago")
def chicago_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"deals": [...], "options"?: {}, "preset"?: "acbl"}``; passed-out deals included."""
    _check_keys(data, {"deals", "options", "preset"})
    options = _options(data)
    return score_chicago(_deals(data), options=options).to_dict()


def _closed(data: Mapping[str, Any]) -> bool:
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise ScoringError("closed", f"{closed!r} is not true or false", "RULES 8.4")
    return closed


@command("bridge-for-two")
def bridge_for_two_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """RULES 7.1: ``{"deals": [{"declarer": 0|1, "strain", "doubled"?: 0|1, "tricks",
    "honours"?: {"player", "points"}}], "closed"?: false, "options"?: {}, "preset"?}``."""
    _check_keys(data, {"deals", "closed", "options", "preset"})
    options = _options(data)
    deals = two_player_deals_from_json(data.get("deals"))
    return score_bridge_for_two(deals, closed=_closed(data), options=options).to_dict()


@command("misery")
def misery_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """RULES 7.2: as ``bridge-for-two``, each deal with ``"declaration": "ordinary"|"eight"|
    "misery"`` and no doubling."""
    _check_keys(data, {"deals", "closed", "options", "preset"})
    options = _options(data)
    deals = two_player_deals_from_json(data.get("deals"), misery=True)
    return score_misery(deals, closed=_closed(data), options=options).to_dict()


@command("turnover")
def turnover_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """RULES 7.3: ``{"tricks": [t0, t1]}``."""
    return turnover_from_json(data).to_dict()


@command("draw-discard")
def draw_discard_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """RULES 7.4: ``{"target"?: 500, "deals": [{"declarer": 0|1, "contract": "4S"|"pass",
    "tricks"}], "options"?: {}, "preset"?}``."""
    _check_keys(data, {"target", "deals", "options", "preset"})
    options = _options(data)
    deals = draw_discard_deals_from_json(data.get("deals"))
    return score_draw_discard(deals, target=data.get("target"), options=options).to_dict()


def _answer(handler: Handler, data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScoringError("input", "expected a JSON object")
    return handler(data)


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one subcommand; return the exit status (0, or 2 for bad input)."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score bridge deals, rubbers and Chicagos: JSON (or JSON Lines) on stdin.",
    )
    parser.add_argument("command", choices=sorted(COMMANDS))
    args = parser.parse_args(argv)
    handler = COMMANDS[args.command]
    text = stdin.read()
    if not text.strip():
        print("input: no JSON on stdin", file=stderr)
        return EXIT_BAD_INPUT
    try:
        single: object = json.loads(text)
    except json.JSONDecodeError:
        return _batch(handler, text, stdout, stderr)
    try:
        result = _answer(handler, single)
    except ScoringError as error:
        print(str(error), file=stderr)
        return EXIT_BAD_INPUT
    stdout.write(json.dumps(result, indent=2) + "\n")
    return EXIT_OK


def _batch(handler: Handler, text: str, stdout: TextIO, stderr: TextIO) -> int:
    status = EXIT_OK
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            result = _answer(handler, json.loads(line))
        except json.JSONDecodeError as error:
            print(f"line {number}: invalid JSON: {error}", file=stderr)
            status = EXIT_BAD_INPUT
            continue
        except ScoringError as error:
            print(f"line {number}: {error}", file=stderr)
            status = EXIT_BAD_INPUT
            continue
        stdout.write(json.dumps(result, separators=(",", ":")) + "\n")
    return status
