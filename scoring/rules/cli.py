"""``python -m scoring deal|rubber|chicago``: JSON in on stdin, JSON out on stdout.

One JSON object in gives one (indented) object out; JSON Lines in (one object per line) give
one compact line out per line in. Bad input: exit status 2 and one line on stderr per bad
object, naming the field and the rule broken (``deals[3].tricks: 14 is not between 0 and 13
(RULES 1)``), prefixed with ``line N:`` in JSON Lines mode; good objects are still answered.
Deal indexes in field names start at 0 (``deals[0]`` is the first deal).

Standard library only, so a bare ``python3`` without Django runs it. Subcommands are ``deal``
and one per game of the registry (``scoring.rules.games``: the entry's ``command`` and ``run``),
plus any handler registered in ``COMMANDS`` (``@command("name")``): each takes the parsed object
and returns the object to print, or raises ``ScoringError``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from scoring.rules import (
    Contract,
    Honours,
    ScoringError,
    Side,
    refuse_on_a_pass,
    score_deal,
)
from scoring.rules.games import GAMES
from scoring.rules.reading import check_keys, read_options

__all__ = ["COMMANDS", "Handler", "command", "commands", "main"]

Handler = Callable[[Mapping[str, Any]], dict[str, Any]]

#: Subcommand name → handler: ``deal`` and the games registered so far (``commands()`` adds any
#: game registered since). Register more with ``@command("name")``.
COMMANDS: dict[str, Handler] = {game.command: game.run for game in GAMES.values()}

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def command(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler

    return register


def commands() -> dict[str, Handler]:
    """Every subcommand: ``COMMANDS`` and one per game of the registry (``scoring.rules.games``)."""
    return {**COMMANDS, **{game.command: game.run for game in GAMES.values()}}


@command("deal")
def deal_command(data: Mapping[str, Any]) -> dict[str, Any]:
    """``{"contract": "4SX", "vulnerable": true, "tricks": 9, "declarer"?: "NS",
    "honours"?: {"side", "points"}, "options"?: {}, "preset"?: "acbl"}``."""
    check_keys(
        data, {"contract", "vulnerable", "tricks", "declarer", "honours", "options", "preset"}
    )
    options = read_options(data)
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
    handlers = commands()
    parser.add_argument("command", choices=sorted(handlers))
    args = parser.parse_args(argv)
    handler = handlers[args.command]
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
