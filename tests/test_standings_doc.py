"""The standings rebuild's figures in docs/standings.md and docs/benchmarks.md come from the
benchmark's table (docs/benchmarks.md, "Standings rebuild and refresh (PostgreSQL)", written by
bench/bench_standings.py): this recomputes each ratio from the table's own times and finds each
sentence that quotes them. Benchmarks measure; this checks only the arithmetic and the quoting."""

from __future__ import annotations

import re

from tests.conftest import ROOT

BENCH = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
STANDINGS = (ROOT / "docs" / "standings.md").read_text(encoding="utf-8")
SECTION = "## Standings rebuild and refresh (PostgreSQL)"
ROW = re.compile(
    r"^\| ([\d,]+) \| ([^|]+?) \| ([\d.]+) s(?: \([^)]*\))? "
    r"\| ([\d.]+) s(?: \(\+ ([\d.]+) s\))? "
    r"\| ([\d.]+×|–) \| ([\d.]+×|–) \| (\d+ MB|–) \|$",
    re.M,
)


def section() -> str:
    start = BENCH.index(SECTION)
    end = BENCH.find("\n## ", start + 1)
    return BENCH[start : end if end > 0 else None]


def table() -> dict[int, dict[str, dict[str, str]]]:
    """Rows of the rebuild table by deals, then by what was measured."""
    rows: dict[int, dict[str, dict[str, str]]] = {}
    for deals, what, wall, cpu, pg, by_wall, by_cpu, rss in ROW.findall(section()):
        rows.setdefault(int(deals.replace(",", "")), {})[what] = {
            "wall": wall,
            "cpu": cpu,
            "pg": pg,
            "by_wall": by_wall,
            "by_cpu": by_cpu,
            "rss": rss,
        }
    return rows


RAW = "raw ordered read of every deal (baseline)"
FULL = "full rebuild, one process"
PREVIOUS = "full rebuild, one process, previous path (ratings inline)"


def refresh_ms(deals: int, column: int = 1) -> str:
    """The refresh after one deal at ``deals``: its wall time (column 1) or CPU (2), in ms."""
    found = re.search(rf"^\| {deals:,} \| ([\d.]+) ms \| ([\d.]+) ms \|", section(), re.M)
    assert found, deals
    return found.group(column)


def sentences() -> list[str]:
    """What docs/standings.md must say, made from the table."""
    rows = table()
    small, big = min(rows), max(rows)
    at = rows[small]
    raw, full = at[RAW], at[FULL]
    ratings = next(v for k, v in at.items() if k.startswith("its ratings tasks"))
    said = [
        f"at {small:,} deals the full rebuild in one process took {full['wall']} s "
        f"({full['by_wall']} the raw ordered read of the same deals, {raw['wall']} s; "
        f"{full['by_cpu']} by CPU)",
        f"the ratings it queued took {ratings['wall']} s more, in their own task",
        f"peak memory at {big:,} deals: {rows[big][FULL]['rss']}",
        f"refresh after one deal at {big:,} deals: {refresh_ms(big)} ms "
        f"({refresh_ms(big, 2)} ms of CPU)",
    ]
    if PREVIOUS in at:
        previous = at[PREVIOUS]
        said.append(
            f"the previous path took {previous['wall']} s "
            f"({previous['by_wall']}; {previous['by_cpu']} by CPU)"
        )
    return said


def test_the_rebuild_table_has_the_baseline_and_the_rebuild_at_each_size():
    rows = table()
    assert len(rows) >= 2
    for deals, measured in rows.items():
        assert RAW in measured and FULL in measured, deals


def test_each_ratio_is_the_rows_time_over_the_raw_reads():
    for measured in table().values():
        raw = measured[RAW]
        raw_cpu = float(raw["cpu"]) + float(raw["pg"] or 0)
        for what, row in measured.items():
            if row["by_wall"] == "–":
                continue
            assert row["by_wall"] == f"{float(row['wall']) / float(raw['wall']):.1f}×", what
            used = float(row["cpu"]) + float(row["pg"] or 0)
            assert row["by_cpu"] == f"{used / raw_cpu:.1f}×", what


def test_the_targets_line_quotes_the_table():
    rows = table()
    small, big = min(rows), max(rows)
    line = next(x for x in section().splitlines() if x.startswith("Targets:"))
    assert f"at {small:,} deals in one process" in line
    assert f"{rows[small][FULL]['by_wall'][:-1]}×," in line
    assert f"at {big:,} deals ≤ 500 MB: {rows[big][FULL]['rss']}," in line
    assert f"{refresh_ms(big)} ms," in line


def by_hand() -> list[str]:
    """What the hand-written section (docs/benchmarks.md, "Issue 33: the nightly rebuild in
    bulk") quotes from the table, made from it."""
    rows = table()
    small, big = min(rows), max(rows)
    at = rows[small]
    raw, full, previous = at[RAW], at[FULL], at[PREVIOUS]
    ratings = next(v for k, v in at.items() if k.startswith("its ratings tasks"))

    def two(figure: str) -> str:
        return f"{float(figure):.2f}"

    cut = 100 * (1 - float(full["cpu"]) / float(previous["cpu"]))
    return [
        f"at {small:,} deals the previous path used {two(previous['cpu'])} s of Python and "
        f"{two(previous['pg'])} s of PostgreSQL; the bulk path {two(full['cpu'])} s and "
        f"{two(full['pg'])} s, and the ratings it queued {two(ratings['cpu'])} s more in their "
        f"own task. Python's share fell by {cut:.0f}%.",
        f"where the raw read costs {two(raw['cpu'])} s of Python and {two(raw['pg'])} s of "
        "PostgreSQL",
        f"*PostgreSQL writing the rows* (~{two(full['pg'])} s;",
        f"Peak RSS of the one-process rebuild at {big:,} deals: {rows[big][FULL]['rss']} (the "
        f"baseline, which holds every deal in one list, {rows[big][RAW]['rss']})",
        f"So it is for the refresh after one deal: {refresh_ms(big)} ms by wall at a million "
        f"deals, {refresh_ms(big, 2)} ms of CPU",
    ]


def test_the_hand_written_section_quotes_the_table():
    start = BENCH.index("## Issue 33: the nightly rebuild in bulk")
    text = " ".join(BENCH[start : BENCH.index("\n## ", start + 1)].split())
    missing = [line for line in by_hand() if line not in text]
    assert not missing, missing


def test_docs_standings_quotes_the_measured_rebuild():
    missing = [line for line in sentences() if line not in STANDINGS]
    assert not missing, missing
