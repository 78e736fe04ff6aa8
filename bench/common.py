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
import threading
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


# --- the server's CPU, sampled from /proc ------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (/proc/<pid>/stat fields 14 and 15)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(master: int) -> set[int]:
    """The child processes of `master` (a server's workers); none once it has ended."""
    try:
        return set(map(int, Path(f"/proc/{master}/task/{master}/children").read_text().split()))
    except OSError:
        return set()


def backends(database: str) -> set[int]:
    """The PostgreSQL backends serving `database` (not this query's own)."""
    found = psql(
        f"SELECT pid FROM pg_stat_activity WHERE datname = '{database}' "
        "AND pid <> pg_backend_pid()",
        database,
    )
    return set(map(int, found.split()))


class ServerCpu:
    """CPU seconds of groups of processes between ``start`` and ``stop``; `groups` names the
    processes of each group at the time it is asked (a server's workers, the database's
    backends...). A backend ends when its connection passes CONN_MAX_AGE and a new one starts,
    so the processes are sampled every `interval` seconds from a thread: a process born after
    ``start`` counts from zero, one that ended counts up to its last sample."""

    def __init__(self, groups: Callable[[], dict[str, set[int]]], interval: float) -> None:
        self.groups, self.interval = groups, interval

    def _sample(self, first: bool) -> None:
        for kind, pids in self.groups().items():
            for pid in pids:
                used = cpu_seconds(pid)
                if pid not in self.first:
                    self.first[pid] = used if first else 0.0
                    self.kind[pid] = kind
                if used:
                    self.last[pid] = used

    def _run(self) -> None:
        while not self.done.wait(self.interval):
            self._sample(first=False)

    def start(self) -> None:
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.kind: dict[int, str] = {}
        self.names = list(self.groups())
        self._sample(first=True)
        self.began = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def stop(self) -> dict[str, float]:
        """Each group's CPU seconds, their ``total``, the ``wall`` seconds and the ``share`` of
        one core."""
        self._sample(first=False)
        self.done.set()
        self.thread.join()
        used = dict.fromkeys(self.names, 0.0)
        for pid, last in self.last.items():
            used[self.kind[pid]] += last - self.first[pid]
        wall = time.monotonic() - self.began
        total = sum(used.values())
        return {**used, "total": total, "wall": wall, "share": total / wall}
