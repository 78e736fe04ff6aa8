"""Helpers shared by the benchmarks in bench/ (not a test; see bench/run.py).

- ``medians``: the median of at least 5 timed runs after a warm-up run.
- ``machine``: one line naming the machine, for docs/benchmarks.md.
- ``write_section``: replace one ``## `` section of docs/benchmarks.md, leaving the others alone
  (each benchmark owns its sections).
- ``scratch_database`` / ``django_env``: the PostgreSQL scratch databases the benchmarks use.
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
PYTHON = sys.executable
RUNS = 5
#: The PostgreSQL server the benchmarks use (a scratch database per data size is made there).
PG_SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def medians(
    run: Callable[[], dict[str, float]], runs: int = RUNS, warmup: int = 1
) -> tuple[dict[str, float], list[dict[str, float]]]:
    """Call ``run`` ``warmup`` times untimed, then ``runs`` times; each call returns named
    figures. Returns the median of each figure and every run's figures."""
    for _ in range(warmup):
        run()
    results = [run() for _ in range(runs)]
    return {k: statistics.median(r[k] for r in results) for k in results[0]}, results


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds of this process, result) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    except (ValueError, OSError):
        mem = 0
    load = f", load average {os.getloadavg()[0]:.1f} at the start"
    return (
        f"{platform.platform()}, {cpu or platform.machine()}, {os.cpu_count()} CPUs, "
        f"{mem} GiB, Python {platform.python_version()}{load}"
    )


def today() -> str:
    return datetime.date.today().isoformat()


def write_section(title: str, body: str, doc: Path = DOC) -> None:
    """Replace (or append) the section ``## {title}`` of docs/benchmarks.md with ``body``."""
    heading = f"## {title}"
    text = doc.read_text() if doc.exists() else "# Benchmarks\n"
    section = f"{heading}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section
    doc.write_text(text)


def psql(sql: str, database: str = "postgres") -> str:
    result = subprocess.run(
        ["psql", f"{PG_SERVER}/{database}", "-tAqc", sql],
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip()


def scratch_database(name: str) -> str:
    """Create the scratch database ``name`` if missing and migrate it; return its URL."""
    if not psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        psql(f'CREATE DATABASE "{name}"')
    url = f"{PG_SERVER}/{name}"
    manage(url, "migrate", "--no-input", "-v", "0")
    return url


def django_env(url: str, **extra: str) -> dict[str, str]:
    """The environment of a process that runs the project on the database ``url``."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def manage(url: str, *args: str, **env: str) -> str:
    result = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=django_env(url, **env),
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout


def setup_django(url: str | None = None) -> None:
    """Set Django up in this process (on ``url`` if given), quietly."""
    import logging

    if url:
        os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    logging.disable(logging.WARNING)
