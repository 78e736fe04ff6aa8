"""Scoring engine benchmark against endplay 0.5.12's ``Contract.score`` (not a test).

    .venv/bin/python bench/bench_scoring.py [--deals 100000] [--rubber-deals 1000000]

(a) score 100,000 random single deals with ``score_deals`` (the batch entry point the product
    uses) vs endplay's ``Contract.score`` on the same deals; target: ours ≤ 0.1× per deal.
(b) replay 1,000,000 random deals as consecutive complete rubbers with ``iter_rubbers`` (every
    item built, with its deal number, and every ``RubberScore``); target: ≤ 0.5× endplay's bare
    per-deal time from (a).
Medians of 5 timed runs after a warm-up. Inputs are built before timing. Writes the
"Scoring engine" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from endplay.types import Contract as EpContract  # noqa: E402
from endplay.types import Denom, Penalty, Player, Vul  # noqa: E402

from scoring.rules import (  # noqa: E402
    Contract,
    DealInput,
    Doubling,
    Honours,
    Item,
    Side,
    Strain,
    deal_key,
    iter_rubbers,
    score_deal,
    score_deals,
)
from scoring.rules.contract import CONTRACTS, honours_minimum  # noqa: E402
from scoring.rules.rubber import rubber_table  # noqa: E402

RUNS = 5
PROFILE = """Where (b)'s time goes (CPU time, same machine; measured by ablation of the loop in
`scoring/rules/rubber.py`, 1.9 items per deal, before the change below): the loop with the
items left out (table lookup, games, vulnerability, the `RubberScore` per rubber) about 0.24×
endplay; building the `Item` named tuples with their deal numbers (`stub + (number,)`, then
`tuple.__new__`) about 0.25× (the "floor" row). Garbage collection is not a factor (3 gen0
collections in the whole replay: each item freed gives back its allocation count).
What took (b) from 0.55–0.60× to about 0.44× (same-process A/B on the same 1M deals, 0.82–0.91×
of the previous loop in every run): the loop reads plain 8-tuples, one tuple of rows per
vulnerability state held in a local that changes only when a game is won (no `key * 4 + state`,
no named-tuple unpacking); a deal's first three items are built without an
iterator (most deals have one to three); `played.append` is called as a method, which
CPython 3.11 runs inline. Tried and measured slower or no better, not kept: sharing the
immutable items per (outcome, deal number) across rubbers (0.73× against 0.54×: the shared
tuples are scattered in memory and every reuse writes their reference counts); building a
deal's items with `map` (slower); packing both totals, or both part scores, into one int
(slower: multi-digit ints leave CPython's fast path); precomputed `(number,)` tails (no change)."""
SEED = 20240601
DOC = ROOT / "docs" / "benchmarks.md"
SECTION = "## Scoring engine"
_DENOMS = {
    Strain.C: Denom.clubs,
    Strain.D: Denom.diamonds,
    Strain.H: Denom.hearts,
    Strain.S: Denom.spades,
    Strain.NT: Denom.nt,
}
_PENALTIES = {
    Doubling.NONE: Penalty.passed,
    Doubling.DOUBLED: Penalty.doubled,
    Doubling.REDOUBLED: Penalty.redoubled,
}


def interleaved_medians(runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Median time of each callable over RUNS rounds after a warm-up round; the callables take
    turns within a round, so a busy machine slows the baseline and ours alike.
    """
    times: dict[str, list[float]] = {name: [] for name in runs}
    for round_ in range(RUNS + 1):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            if round_:  # round 0 is the warm-up
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def single_deals(
    count: int, rng: random.Random
) -> tuple[list[tuple[EpContract, Vul]], list[int], list[tuple[Contract, bool, int]]]:
    endplay_inputs, keys, plain = [], [], []
    contracts = CONTRACTS[:-1]
    for _ in range(count):
        contract = rng.choice(contracts)
        assert contract.strain is not None
        tricks = rng.randint(0, 13)
        vulnerable = rng.random() < 0.5
        declarer = rng.choice((Side.NS, Side.EW))
        player = Player.north if declarer is Side.NS else Player.east
        vul = (Vul.ns if declarer is Side.NS else Vul.ew) if vulnerable else Vul.none
        endplay = EpContract(
            level=contract.level,
            denom=_DENOMS[contract.strain],
            declarer=player,
            penalty=_PENALTIES[contract.doubling],
            result=tricks - 6 - contract.level,
        )
        endplay_inputs.append((endplay, vul))
        keys.append(deal_key(contract, vulnerable=vulnerable, tricks=tricks, declarer=declarer))
        plain.append((contract, vulnerable, tricks))
    return endplay_inputs, keys, plain


def duplicate_bonus(below: int, vulnerable: bool) -> int:
    if below == 0:
        return 0
    return (500 if vulnerable else 300) if below >= 100 else 50


def check_agreement(endplay_inputs: list[tuple[EpContract, Vul]], keys: list[int]) -> None:
    for (endplay, vul), score in zip(endplay_inputs, score_deals(keys), strict=True):
        ours = score.declarer_total + duplicate_bonus(score.declarer_below, score.vulnerable)
        ours -= score.defenders_above
        if ours != endplay.score(vul):
            raise SystemExit(f"disagreement with endplay on {endplay}: {ours}")


def rubber_deals(count: int, rng: random.Random) -> list[DealInput]:
    """Plausible deals: 5% passed out, tricks around the contract, 10% honours claims."""
    deals = []
    contracts = CONTRACTS[:-1]
    for _ in range(count):
        if rng.random() < 0.05:
            deals.append(DealInput(CONTRACTS[-1]))
            continue
        contract = rng.choice(contracts)
        tricks = max(0, min(13, contract.level + 6 + rng.randint(-3, 2)))
        honours = None
        if rng.random() < 0.1:
            points = 150 if contract.strain is Strain.NT else rng.choice((100, 150))
            honours = Honours(rng.choice((Side.NS, Side.EW)), points)
        declarer = rng.choice((Side.NS, Side.EW))
        if honours is not None and contract.strain is not None:
            # Only claims the play allows (RULES 3.7); the random stream is unchanged.
            taken = tricks if honours.side is declarer else 13 - tricks
            if taken < honours_minimum(contract.strain, honours.points):
                honours = None
        deals.append(DealInput(contract, declarer, tricks, honours))
    return deals


def replay(keys: list[int]) -> tuple[int, int]:
    rubbers = items = 0
    for rubber in iter_rubbers(keys):
        rubbers += 1
        items += len(rubber.played) + len(rubber.end_items)
    return rubbers, items


def item_floor(keys: list[int]) -> Callable[[], object]:
    """Only build the replay's items (``tuple.__new__(Item, stub + (deal,))``), no scoring:
    the floor for any replay that builds every item as a named tuple.
    """
    table, _ = rubber_table()
    stubs = [table[key * 4][4] for key in keys]
    new = tuple.__new__

    def run() -> None:
        # The same shape as the engine's loop: a flat list per rubber, reset every 7 deals.
        played: list[Item] = []
        append = played.append
        number = 0
        for deal_stubs in stubs:
            number += 1
            tail = (number,)
            for stub in deal_stubs:
                append(new(Item, stub + tail))
            if number == 7:
                played = []
                append = played.append
                number = 0

    return run


def write_section(text: str) -> None:
    current = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    start = current.find(SECTION)
    if start == -1:
        updated = current.rstrip("\n") + "\n\n" + text
    else:
        after = current.find("\n## ", start + len(SECTION))
        tail = "" if after == -1 else current[after + 1 :]
        updated = current[:start] + text + ("\n" + tail if tail else "")
    DOC.write_text(updated)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--rubber-deals", type=int, default=1_000_000)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    rng = random.Random(SEED)
    rubber_table()

    endplay_inputs, keys, plain = single_deals(args.deals, rng)
    check_agreement(endplay_inputs, keys)
    deals = rubber_deals(args.rubber_deals, rng)
    rubber_keys = [deal.key for deal in deals]
    rubbers, items = replay(rubber_keys)
    medians = interleaved_medians(
        {
            "endplay": lambda: [c.score(v) for c, v in endplay_inputs],
            "batch": lambda: score_deals(keys),
            "single": lambda: [score_deal(c, vulnerable=v, tricks=t) for c, v, t in plain],
            "replay": lambda: replay(rubber_keys),
            "keyed": lambda: replay([deal.key for deal in deals]),
            "floor": item_floor(rubber_keys),
        }
    )
    endplay_per = medians["endplay"] / args.deals
    batch_per = medians["batch"] / args.deals
    single_per = medians["single"] / args.deals
    replay_per = medians["replay"] / args.rubber_deals
    keyed_per = medians["keyed"] / args.rubber_deals
    floor_per = medians["floor"] / args.rubber_deals

    def us(seconds: float) -> str:
        return f"{seconds * 1e6:.3f} µs"

    rows = [
        ("endplay `Contract.score` (baseline)", endplay_per, endplay_per, None),
        ("(a) `score_deals(keys)`, batch", batch_per, endplay_per, 0.1),
        (
            "`score_deal(contract, ...)`, one call each (for reference)",
            single_per,
            endplay_per,
            None,
        ),
        ("(b) `iter_rubbers(keys)`, complete rubbers, every item", replay_per, endplay_per, 0.5),
        ("`iter_rubbers([d.key for d in deals])` (keys included)", keyed_per, endplay_per, None),
        ("floor: building (b)'s items alone, no scoring", floor_per, endplay_per, None),
    ]
    lines = [
        SECTION,
        "",
        f"Command: `.venv/bin/python bench/bench_scoring.py` (median of {RUNS} runs after a"
        f" warm-up, baseline and ours taking turns). Date: {datetime.date.today().isoformat()}."
        f" Machine: {platform.platform()},"
        f" {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python"
        f" {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the start."
        f" Baseline: endplay 0.5.12 `Contract.score` on the same"
        f" {args.deals:,} random deals (results checked equal, duplicate bonuses added).",
        "",
        "| what | per deal | × endplay | target |",
        "|---|---|---|---|",
    ]
    for name, per, base, target in rows:
        ratio = per / base
        verdict = "" if target is None else f"≤ {target}× {'met' if ratio <= target else 'MISSED'}"
        lines.append(f"| {name} | {us(per)} | {ratio:.3f} | {verdict} |")
    lines += [
        "",
        f"(b) replayed {args.rubber_deals:,} deals as {rubbers:,} rubbers with {items:,} items"
        " (5% passed out, tricks within -3..+2 of the contract, 10% honours). Deal outcomes are"
        " precomputed per option set at first use (`deal_table`, `rubber_table`); the replay"
        " builds every `Item` (with its deal number) and every `RubberScore`; per-deal records"
        " (`RubberScore.deals`) and per-side columns (`above`, `below`) are derived from the"
        " items when read.",
        "",
        PROFILE,
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section(text)


if __name__ == "__main__":
    main()
