"""Serving models in one run (issue 26): sync workers against uvicorn workers (not a test).

    .venv/bin/python bench/bench_serving.py [--runs 3] [--duration 8]

The same gunicorn configuration file (config/gunicorn.py: 2 workers, access log on) serves the
same database as bench/bench_http.py (its scratch database and set-up), DEBUG off, Redis as cache
and broker, with only the model changed:

- ``sync``: the old model, ``--worker-class sync`` serving config/wsgi.py, kept connections
  (CONN_MAX_AGE 60);
- ``asgi``: the new model, uvicorn workers serving config/asgi.py with the psycopg pool
  (at most 10 connections a worker);
- ``asgi, no pool``: uvicorn workers with kept connections (CONN_MAX_AGE 60) instead of the
  pool, to show what the pool is for: only LEAK_REQUESTS requests one after another, then the
  connections open are counted (under wrk it piles up connections on a shared server).

Each round starts each server in turn and runs wrk -t2 -c8 against ``/bench/plain`` (no
database), the club leaderboard and a rubber's scoresheet (both through DRF and PostgreSQL),
after a short warm-up; medians of the rounds. While the leaderboard runs, the connections the
server holds to the database are counted in pg_stat_activity. Writes the "Serving models"
section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_http import DB, PORT, SERVER_ENV, _wait_up, prepare, wrk
from common import PYTHON, ROOT, django_env, machine, psql, today, write_section

LEAK_REQUESTS = 30
SECTION = "Serving models: sync workers against uvicorn workers (issue 26)"
GUNICORN = [str(Path(PYTHON).parent / "gunicorn"), "-c", "config/gunicorn.py"]
SERVERS: dict[str, tuple[list[str], dict[str, str]]] = {
    "sync": (["--worker-class", "sync", "config.wsgi"], {}),
    "asgi": ([], {}),
    "asgi, no pool": ([], {"DATABASE_POOL_MAX_SIZE": "0"}),
}


MEASURED = ("sync", "asgi")


def connections() -> int:
    return int(psql(f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{DB}'"))


def count(done: threading.Event, peak: list[int]) -> None:
    """The most connections seen, sampled each second until ``done``."""
    while not done.wait(1.0):
        peak[0] = max(peak[0], connections())


def leak(url: str, path: str) -> int:
    """Connections the ``asgi, no pool`` server holds after LEAK_REQUESTS requests in turn."""
    extra_args, extra_env = SERVERS["asgi, no pool"]
    server = subprocess.Popen(
        [*GUNICORN, "--bind", f"127.0.0.1:{PORT}", *extra_args],
        cwd=ROOT,
        env=django_env(url, **SERVER_ENV, **extra_env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_up(f"http://127.0.0.1:{PORT}/bench/plain")
        for _ in range(LEAK_REQUESTS):
            with urllib.request.urlopen(f"http://127.0.0.1:{PORT}{path}", timeout=30) as answer:
                answer.read()
        time.sleep(1)
        return connections()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def measure(name: str, url: str, paths: dict[str, str], duration: int) -> dict[str, dict]:
    extra_args, extra_env = SERVERS[name]
    server = subprocess.Popen(
        [*GUNICORN, "--bind", f"127.0.0.1:{PORT}", *extra_args],
        cwd=ROOT,
        env=django_env(url, **SERVER_ENV, **extra_env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    row: dict[str, dict] = {}
    try:
        _wait_up(f"http://127.0.0.1:{PORT}/bench/plain")
        for path in paths.values():
            wrk(path, 2)  # warm-up: imports, templates, the pool's first connections
        for label, path in paths.items():
            peak = [0]
            done = threading.Event()
            counter = threading.Thread(target=count, args=(done, peak))
            counter.start()
            try:
                row[label] = wrk(path, duration)
            finally:
                done.set()
                counter.join()
            row[label]["db_connections"] = peak[0]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--duration", type=int, default=8, help="seconds per wrk run")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    start = machine()
    url, info = prepare()
    paths = {
        "plain": "/bench/plain",
        "leaderboard": f"/api/v1/clubs/{info['club']}/leaderboard",
        "scoresheet": f"/api/v1/rubbers/{info['rubber']}/",
    }
    rounds: list[dict[str, dict[str, dict]]] = []
    left_open = leak(url, paths["leaderboard"])
    print(f"  asgi, no pool: {left_open} connections after {LEAK_REQUESTS} requests", flush=True)
    for n in range(1, args.runs + 1):
        row = {name: measure(name, url, paths, args.duration) for name in MEASURED}
        print(
            f"  run {n}: "
            + "; ".join(
                f"{name} "
                + ", ".join(f"{k} {v['rps']:.0f}/s p99 {v['p99_ms']:.1f} ms" for k, v in r.items())
                for name, r in row.items()
            ),
            flush=True,
        )
        rounds.append(row)
    Path("/tmp/bench-serving.json").write_text(json.dumps(rounds, indent=1))
    if not args.no_write:
        write(rounds, left_open, info, start, args)
    return 0


def write(rounds: list, left_open: int, info: dict, start: str, args: argparse.Namespace) -> None:
    names = {
        "plain": "plain JsonResponse `/bench/plain`",
        "leaderboard": f"club leaderboard, {info['rows']} rows",
        "scoresheet": "a rubber's scoresheet (6 deals)",
    }
    lines = [
        f"Command: `.venv/bin/python bench/bench_serving.py` (also run by `make bench`). Date: "
        f"{today()}. Machine: {start}. gunicorn with 2 workers from config/gunicorn.py (access "
        "log on), DEBUG off, PostgreSQL, Redis as cache and broker; wrk "
        f"`-t2 -c8 -d{args.duration}s --latency` on the same 2 cores; each round starts each "
        f"server in turn; medians of {args.runs} rounds. DB connections: the most the server "
        "held to PostgreSQL during the endpoint's run (pg_stat_activity, sampled each second).",
        "",
        "| endpoint | server | req/s | × sync | p50 | p99 | non-2xx | DB connections |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, title in names.items():
        for name in MEASURED:
            rps = statistics.median(r[name][label]["rps"] for r in rounds)
            ratio = statistics.median(
                r[name][label]["rps"] / r["sync"][label]["rps"] for r in rounds
            )
            p50 = statistics.median(r[name][label]["p50_ms"] for r in rounds)
            p99 = statistics.median(r[name][label]["p99_ms"] for r in rounds)
            bad = sum(r[name][label]["non_2xx"] for r in rounds)
            conns = max(r[name][label]["db_connections"] for r in rounds)
            lines.append(
                f"| {title} | {name} | {rps:.0f} | {ratio:.2f} | {p50:.1f} ms | {p99:.1f} ms | "
                f"{bad} | {conns} |"
            )
    lines += [
        "",
        "uvicorn workers without the pool (kept connections, CONN_MAX_AGE 60): after "
        f"{LEAK_REQUESTS} leaderboard requests one after another, {left_open} connections were "
        "open to the database. Django runs each request in a thread of its own under ASGI and a "
        "kept connection belongs to its thread, so each request connects anew (a connection ends "
        "with its thread); under wrk's 8 connections the finished threads' connections piled "
        "up past 45 within seconds (a watchdog stopped the server: the PostgreSQL server is "
        "shared). The pool keeps at most 4 a worker (`DATABASE_POOL_MAX_SIZE`), reused.",
    ]
    write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
