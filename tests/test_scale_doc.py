"""docs/scale.md's figures are derived from docs/benchmarks.md's measured room (the section "A room
on push and on the poll"): this recomputes each one from the numbers there and finds it, with its
arithmetic, in docs/scale.md. Benchmarks measure; this checks only the arithmetic."""

from __future__ import annotations

import math
import re

from tests.conftest import ROOT

BENCH = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
SCALE = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")

ROOMS = 1_000
TABLES = 30  # a room
CLIENTS = 121  # a room: 120 phones and the console
DEAL_SECONDS = 240  # a deal every 4 minutes at each table
HOST_CORES = 8
HOST_BUSY = 0.5  # a host is sized to run at half its cores


def measured() -> dict[str, dict[str, float]]:
    """Each mode's row of the room's table, and the push run's memory per idle stream."""
    start = BENCH.index("## A room on push and on the poll")
    end = BENCH.find("\n## ", start + 1)
    section = BENCH[start : end if end > 0 else None]
    rows = {}
    for mode, idle, per_deal in re.findall(
        r"^\| (push|poll) \|[^|]*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\| ([\d.]+)% \|[^|]*\| (\d+) ms \|$",
        section,
        re.M,
    ):
        rows[mode] = {"idle": float(idle) / 100, "per_deal_ms": float(per_deal)}
    memory = re.search(r"\*\*(\d+) KB per idle connection\*\*", section)
    if memory and "push" in rows:
        rows["push"]["kb"] = float(memory.group(1))
    for mode, redis in re.findall(r"^- (push|poll): .*?, redis (\d+) ms\)", section, re.M):
        if mode in rows:
            rows[mode]["redis_ms"] = float(redis)
    return rows


def cores_of(row: dict[str, float], deals: float) -> float:
    """Cores for a Friday: every room's idle share, and every deal's CPU."""
    return ROOMS * row["idle"] + deals * row["per_deal_ms"] / 1000


def lines(rows: dict[str, dict[str, float]]) -> list[str]:
    """The sentences docs/scale.md must hold, made from the measured rows."""
    deals = ROOMS * TABLES / DEAL_SECONDS
    clients = ROOMS * CLIENTS
    said = [f"{ROOMS:,} rooms × {TABLES} tables / {DEAL_SECONDS} s = {deals:,.0f} deals a second"]
    for mode, row in rows.items():
        idle_cores = ROOMS * row["idle"]
        deal_cores = deals * row["per_deal_ms"] / 1000
        cores = cores_of(row, deals)
        hosts = max(2, math.ceil(cores / (HOST_CORES * HOST_BUSY)))
        said.append(
            f"{mode}: {ROOMS:,} × {row['idle']:.2%} + {deals:,.0f} × {row['per_deal_ms']:.0f} ms"
            f" = {idle_cores:,.0f} + {deal_cores:,.0f} = **{cores:,.0f} cores**"
        )
        said.append(
            f"{mode}: {cores:,.0f} cores / ({HOST_CORES} × {HOST_BUSY:.0%}) → **{hosts} hosts**"
            f" of {HOST_CORES} cores, {math.ceil(clients / hosts):,} clients a host"
        )
        if "kb" in row:
            gb = clients * row["kb"] / 1024 / 1024
            said.append(
                f"{mode}: {clients:,} streams × {row['kb']:.0f} KB = **{gb:,.1f} GB**, "
                f"{gb / hosts:,.2f} GB a host"
            )
            streams = math.ceil(clients / hosts)
            said.append(f"{mode}: {streams:,} streams a host, {2 * streams:,} sockets at its proxy")
        if "redis_ms" in row:
            said.append(
                f"{mode}: Redis {deals:,.0f} × {row['redis_ms']:.0f} ms = "
                f"**{deals * row['redis_ms'] / 1000:,.2f} of a core**"
            )
    said.append(f"{deals:,.0f} deals a second × 2 channels = {2 * deals:,.0f} publishes a second")
    if "push" in rows:  # every publish reaches every web process (one a core)
        hosts = max(2, math.ceil(cores_of(rows["push"], deals) / (HOST_CORES * HOST_BUSY)))
        processes = hosts * HOST_CORES
        said.append(
            f"{2 * deals:,.0f} publishes × {processes:,} web processes = "
            f"**{2 * deals * processes:,.0f} deliveries a second**"
        )
    said.append(f"{clients:,} clients asking every 2 s is {clients / 2:,.0f}")
    return said


def test_the_room_is_measured_on_push_and_on_the_poll():
    rows = measured()
    assert {"push", "poll"} <= set(rows)
    assert "kb" in rows["push"] and "redis_ms" in rows["push"]


def test_every_figure_of_docs_scale_is_derived_from_docs_benchmarks():
    missing = [line for line in lines(measured()) if line not in SCALE]
    assert not missing, missing
