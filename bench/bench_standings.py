"""Standings rebuild benchmark on PostgreSQL (not a test).

    .venv/bin/python bench/bench_standings.py [--sizes 100k,1m] [--quick] [--runs 5]

For each size a scratch database ``backscore_bench_<size>`` is created, migrated and filled with
``seed_synthetic`` up to about that many deals (kept between runs: it is only topped up when it
holds fewer than 95% of the deals asked for; seeding a million deals takes about half an hour on
two busy cores; ``BENCH_STANDINGS_DB=<prefix>`` names them ``<prefix>_<size>`` instead).
Then, each run in a fresh process so its peak memory is its own:

- raw read (the baseline): every deal's scoring facts in the rebuild's order, fetched into
  Python by a plain cursor (``RAW_READ``);
- full rebuild: the standings tables emptied, then every row written again: in one process
  (``rebuild_all_standings()``, chunk after chunk; the ratings refreshes it queues are recorded
  and timed after it, as their own task); in one process by the previous path (each chunk read
  and scored by the refresh's path, its ratings replayed inline at each chunk's commit, as eager
  Celery did); fanned out as the nightly task does it (``fan_out_standings_rebuild``: a Celery
  task per chunk of 200 sessions, run by a real worker started for the run, ``celery worker
  -c 2`` on Redis; timed from the dispatch to the summary; CPU and peak RSS summed over the
  worker's processes);
- nightly check: the same when nothing changed (every session recomputed and compared);
- incremental refresh: one new deal recorded (``Rubber.record_deal``) on an in-play rubber of a
  running session with ~20 rubbers, then ``refresh_session_standings(session_id)`` timed alone
  as a worker runs it (``close_old_connections`` around it, config/celery.py) on the kept
  database connection, and (another deal) on a new one (the first task after CONN_MAX_AGE).

Medians of 5 runs after a warm-up (``--runs``); from 300k deals (``--big-runs``, 3, no warm-up)
only the baseline and the one-process full rebuild (``--big-modes``: its peak memory is the
target there). The incremental refresh is always at least 5 runs after a warm-up.
Writes the "Standings" section of docs/benchmarks.md and docs/benchmarks-standings.png.
The fanned-out runs need Redis (``BENCH_REDIS``, default database 12 on 127.0.0.1:6379) that no
other worker or test run uses meanwhile: one that purges or consumes the queue loses chunks.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    PYTHON,
    ROOT,
    django_env,
    machine,
    manage,
    medians,
    psql,
    scratch_database,
    setup_django,
    timed,
    today,
    write_section,
)

SIZES = {"50k": 50_000, "100k": 100_000, "300k": 300_000, "1m": 1_000_000}
#: Deals one synthetic club makes with the default flags (40 players, 200 sessions).
DEALS_PER_CLUB = 16_800
PNG = ROOT / "docs" / "benchmarks-standings.png"
SECTION = "Standings rebuild and refresh (PostgreSQL)"
TARGETS = {"raw_times": 10.0, "raw_goal": 5.0, "rss_mb": 500.0, "refresh_ms": 50.0}
TABLES = ("scoring_rubberresult", "scoring_sessionstanding", "scoring_sessionpayment")
LIVE_SLUG = "bench-live"
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/12")
#: Scratch databases are ``<prefix>_<size>`` (one's own prefix: runs in parallel don't collide).
DB_PREFIX = os.environ.get("BENCH_STANDINGS_DB", "backscore_bench")
#: Worker processes of the fanned-out rebuild (``celery worker -c``): one per core here.
WORKERS = 2
MODES = ("raw", "full", "full-previous", "nightly", "full-fanout", "nightly-fanout")
#: From 300k deals: the baseline and the full rebuild (memory at a million deals).
BIG_MODES = ("raw", "full")


# --- in the measuring process ---------------------------------------------------------------------


#: The baseline: every deal's scoring facts in the order the rebuild reads them (the same rows
#: as ``scoring.standings.computation._ordered_deals``, every session at once), fetched into
#: Python by a plain cursor.
RAW_READ = """
    SELECT r.session_id, d.rubber_id, d.data, d.contract, d.declarer, d.tricks,
           d.honours_side, d.honours_points
    FROM games_deal d JOIN games_rubber r ON r.id = d.rubber_id
    ORDER BY r.session_id, d.rubber_id, d.number
"""


def _worker(mode: str, url: str, runs: int) -> None:
    if mode.endswith("fanout"):
        os.environ["REDIS_URL"] = REDIS  # real Celery: the settings switch off eager mode
        os.environ.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
    else:
        setup_django(url)
    if mode.startswith("full"):
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {', '.join(TABLES)}, scoring_sessionstandingsstate")
    if mode.endswith("fanout"):
        out = _fanned_out(url)
    elif mode == "raw":
        out = _one_process(_raw_read)
    elif mode in ("full", "nightly"):
        out = _rebuild_then_ratings()
    elif mode == "full-previous":
        out = _one_process(_previous_path())
    else:
        out = _incremental(runs)
    print(json.dumps(out))


def _raw_read() -> dict[str, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(RAW_READ)
        return {"rows": len(cursor.fetchall())}


def _one_process(run: Any) -> dict[str, float]:
    """Time ``run()`` in this process: wall, Python CPU, PostgreSQL's CPU for this connection,
    the time Python's cycle collector took (``gc.callbacks``), peak RSS (``getrusage``: the
    process's high-water mark, Django's start included)."""
    backends = _pg_backends(own=True)
    pg = {pid: _cpu_seconds(pid) for pid in backends}
    collecting = {"since": 0.0, "seconds": 0.0, "runs": 0}

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting["since"] = time.perf_counter()
        else:
            collecting["seconds"] += time.perf_counter() - collecting["since"]
            collecting["runs"] += 1

    gc.callbacks.append(collector)
    try:
        wall, cpu, summary = timed(run)
    finally:
        gc.callbacks.remove(collector)
    out = {
        "gc_s": collecting["seconds"],
        "gc_runs": collecting["runs"],
        "wall_s": wall,
        "cpu_s": cpu,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "pg_cpu_s": sum(_cpu_seconds(pid) - pg[pid] for pid in backends),
    }
    if "repaired" in summary:
        out.update(repaired=summary["repaired"], failed=len(summary["failed"]))
    return out


def _rebuild_then_ratings() -> dict[str, float]:
    """``rebuild_all_standings()`` timed alone, the ratings refreshes it queues recorded (sent to
    no broker), then those refreshes timed as their worker would run them, one after the other."""
    from scoring.standings import queueing, ratings
    from scoring.standings.tasks import rebuild_all_standings

    queued: list[int] = []
    queueing._publish = lambda derived, key: queued.append(key) or True
    out = _one_process(rebuild_all_standings)
    wall, cpu, _ = timed(lambda: [ratings.ratings_refresh(club_id=pk) for pk in queued])
    out.update(ratings_s=wall, ratings_cpu_s=cpu, ratings_clubs=len(queued))
    return out


def _previous_path() -> Any:
    """The rebuild as it was before the bulk path, in this process: each chunk computed by the
    refresh's path (``compute_sessions``: per chunk reads, every match through its sheet) and
    each chunk's ratings refresh published at its commit, which with eager Celery (one process,
    no broker) replays the club's ratings inline, once a chunk; no queueing at the end."""
    from scoring.standings import computation, services
    from scoring.standings.tasks import rebuild_all_standings

    queue = services.queue_club_ratings_refresh
    services.stream_sessions = computation.compute_sessions  # type: ignore[assignment]
    services.queue_club_ratings_refresh = (  # type: ignore[assignment]
        lambda club_id, *, publish=True: queue(club_id, publish=True)
    )
    services.publish_club_ratings_refreshes = lambda club_ids: None  # type: ignore[assignment]
    return rebuild_all_standings


def _fanned_out(url: str) -> dict[str, float]:
    """The nightly task as production runs it: a Celery worker (``-c WORKERS``) started for this
    run on Redis; timed from sending ``fan_out_standings_rebuild`` until its summary is back.
    CPU and peak RSS are the worker's processes' (the main one and its pool), summed."""
    from celery.exceptions import TimeoutError as CeleryTimeout
    from celery.result import AsyncResult

    from config.celery import app
    from scoring.standings.tasks import fan_out_standings_rebuild

    app.control.purge()
    name = f"bench-standings-{os.getpid()}@localhost"
    celery = str(Path(PYTHON).with_name("celery"))
    quiet = ("--without-gossip", "--without-mingle", "--without-heartbeat")
    worker = subprocess.Popen(
        [celery, "-A", "config", "worker", "-c", str(WORKERS), "-n", name, "-l", "warning", *quiet],
        cwd=ROOT,
        env=django_env(url, REDIS_URL=REDIS),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not app.control.ping(destination=[name], timeout=0.5):
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError("the Celery worker did not start")
        pids = [worker.pid, *_children(worker.pid)]
        before = sum(_cpu_seconds(pid) for pid in pids)
        # The workers' database connections: opened by their first task, kept between tasks
        # and replaced after CONN_MAX_AGE, so they are sampled while the rebuild runs.
        pg_before = {pid: _cpu_seconds(pid) for pid in _pg_backends(own=False)}
        pg_seen = dict(pg_before)
        started = time.perf_counter()
        finish = AsyncResult(fan_out_standings_rebuild.apply_async().get(timeout=120), app=app)
        summary = None
        while True:
            # Blocks until the summary is back or 50 ms passed (the result backend's pub/sub
            # answers at once), so the wall time carries no polling delay.
            with contextlib.suppress(CeleryTimeout):
                summary = finish.get(timeout=0.05)
            wall = time.perf_counter() - started
            for pid in _pg_backends(own=False):
                try:
                    pg_seen[pid] = _cpu_seconds(pid)
                except OSError:  # it ended between the query and the read
                    continue
            if summary is not None:
                break
            # A chunk taken off the queue by anything else (another worker or a purge on the
            # same Redis database) would leave the summary waiting: give up after half an hour.
            if time.perf_counter() - started > 1800:
                raise RuntimeError("no summary after 30 minutes: chunks lost?")
        pids = [worker.pid, *_children(worker.pid)]
        cpu = sum(_cpu_seconds(pid) for pid in pids) - before
        rss = sum(_peak_rss_mb(pid) for pid in pids)
        pg = sum(seconds - pg_before.get(pid, 0) for pid, seconds in pg_seen.items())
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=120)
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "pg_cpu_s": pg,
        "rss_mb": rss,
        "repaired": summary["repaired"],
        "failed": len(summary["failed"]),
    }


def _pg_backends(*, own: bool) -> list[int]:
    """PostgreSQL's processes serving this database: this process's connection (``own``), or
    every other client's (the worker's). PostgreSQL runs on this machine, so /proc shows them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend' AND (pid = pg_backend_pid()) = %s",
            [own],
        )
        return [pid for (pid,) in cursor.fetchall()]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _live_session() -> int:
    """A running session of 5 tables, each with ended rubbers and one in play (made once)."""
    from clubs.models import Club, Player, Session
    from games.models import Rubber
    from games.sessions.lifecycle import session_create, session_start
    from tests.factories import acting

    club = Club.objects.filter(slug__startswith="syn").order_by("pk").first()
    assert club is not None, "seed the database first"
    live = Session.objects.filter(club=club, status=Session.Status.RUNNING).first()
    if live is not None:
        return live.pk
    players = list(Player.objects.filter(club=club).order_by("pk")[:20])
    session = session_create(
        club=club,
        date=Session.objects.filter(club=club).order_by("-date").values_list("date", flat=True)[0],
        tables=[players[i : i + 4] for i in range(0, 20, 4)],
    )
    session_start(session=session, anyway=True)
    # Three rubbers a table, each ended by games, before the measured deals (a busy evening).
    games = [("4S", "N", 10), ("3NT", "E", 9), ("4H", "S", 10), ("5D", "W", 11)]
    for table in session.tables.all():
        for n in range(6):
            rubber = Rubber.objects.get(table=table, status=Rubber.Status.IN_PLAY)
            contract, declarer, tricks = games[n % 4]
            rubber.record_deal(
                number=rubber.deals.count() + 1,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                actor=acting(rubber, None),
            )
    return session.pk


def _incremental(runs: int) -> dict[str, float]:
    from django.db import close_old_connections, connection

    from games.models import Rubber
    from scoring.standings import queueing
    from scoring.standings.tasks import refresh_session_standings
    from tests.factories import acting

    session_id = _live_session()
    # The refresh is timed alone: record_deal only marks the standings stale and claims.
    queueing._publish_refresh = lambda session_id: True
    # Failing contracts: the measured deals never end the rubber, so every run enters one.
    downs = [("4S", "N", 9), ("3NT", "E", 8), ("2H", "S", 7), ("5C", "W", 10)]
    tables = list(
        Rubber.objects.filter(session_id=session_id, status="in_play").values_list("pk", flat=True)
    )
    count = iter(range(10**6))

    def enter() -> float:
        n = next(count)
        rubber = Rubber.objects.get(pk=tables[n % len(tables)])
        contract, declarer, tricks = downs[n % len(downs)]
        entry, _, _ = timed(
            lambda: rubber.record_deal(
                number=rubber.deals.count() + 1,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                actor=acting(rubber, None),
            )
        )
        return entry

    def as_a_worker() -> None:
        # What a worker does around each task (config/celery.py): close a failed or aged
        # connection, keep the others (a health check query on the next use).
        close_old_connections()
        refresh_session_standings(session_id)
        close_old_connections()

    def one() -> dict[str, float]:
        entry = enter()
        wall, cpu, _ = timed(as_a_worker)
        enter()
        connection.close()  # the first task after the connection aged out (CONN_MAX_AGE)
        fresh, _, _ = timed(as_a_worker)
        return {
            "refresh_ms": wall * 1000,
            "refresh_cpu_ms": cpu * 1000,
            "refresh_connect_ms": fresh * 1000,
            "entry_ms": entry * 1000,
        }

    med, _ = medians(one, runs=runs, warmup=1)
    rubbers = Rubber.objects.filter(session_id=session_id).count()
    return {**med, "rubbers": rubbers}


# --- the driver ----------------------------------------------------------------------------------


def _deals(url_name: str) -> int:
    return int(psql("SELECT count(*) FROM games_deal", url_name) or 0)


def ensure_size(name: str, target: int) -> tuple[str, int]:
    """The scratch database ``name`` holding about ``target`` deals (seeded or topped up)."""
    url = scratch_database(name)
    have = _deals(name)
    while have < 0.95 * target:
        clubs = max(1, math.ceil((target - have) / DEALS_PER_CLUB))
        top = int(psql("SELECT count(*) FROM clubs_club", name))
        print(f"  seeding {clubs} clubs into {name} ({have:,} deals so far)", flush=True)
        manage(
            url,
            "seed_synthetic",
            "--clubs",
            str(clubs),
            "--seed",
            str(100 + top),
            "--prefix",
            f"syn{top}",
            "--no-progress",
        )
        have = _deals(name)
    # Bulk loads leave the planner without statistics, and autovacuum may be off (it is on this
    # machine's cluster): without them it picks sequential scans for the per-chunk reads.
    psql("ANALYZE", name)
    return url, have


def run_worker(mode: str, url: str, runs: int = 1) -> dict[str, float]:
    result = subprocess.run(
        [PYTHON, __file__, "--worker", mode, "--url", url, "--runs", str(runs)],
        cwd=ROOT,
        env=django_env(url),
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure(
    label: str, target: int, runs: int, big_runs: int, modes: tuple[str, ...] = MODES
) -> dict[str, object]:
    db = f"{DB_PREFIX}_{label}"
    url, deals = ensure_size(db, target)
    sessions = int(psql("SELECT count(*) FROM clubs_session", db))
    # A rebuild at 300k deals takes minutes on this machine, at a million several: fewer runs.
    rebuild_runs = runs if target < 300_000 else big_runs
    row: dict[str, object] = {"label": label, "deals": deals, "sessions": sessions}
    for mode in modes:
        if target < 300_000:
            run_worker(mode, url)  # warm-up (larger sizes: the seeding has just read everything)
            psql("ANALYZE", db)
        results = []
        for _ in range(rebuild_runs):
            results.append(run_worker(mode, url))
            psql("ANALYZE", db)  # the rows just written, untimed
        row[mode] = {k: statistics.median(r[k] for r in results) for k in results[0]}
        row[f"{mode}_runs"] = [round(r["wall_s"], 2) for r in results]
        print(f"  {label} {mode}: {row[mode]}", flush=True)
    row["incremental"] = run_worker("incremental", url, runs=max(runs, 5))
    row["rebuild_runs"] = rebuild_runs
    print(f"  {label} incremental: {row['incremental']}", flush=True)
    return row


def plot(rows: list[dict[str, object]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for mode in ("full", "full-previous", "full-fanout", "raw"):
        have = [r for r in rows if mode in r]
        if have:
            deals = [r["deals"] for r in have]
            walls = [r[mode]["wall_s"] for r in have]
            ax.plot(deals, walls, "o-", label=f"{LABELS[mode]}, wall")
    have = [r for r in rows if "full" in r]
    if have:
        cpu = [r["full"]["cpu_s"] for r in have]
        ax.plot([r["deals"] for r in have], cpu, "s--", label="full rebuild, one process, CPU")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("deals")
    ax.set_ylabel("seconds (median)")
    ax.set_title("Standings rebuild on PostgreSQL against the raw read of the deals")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(PNG)


def verdict(value: float, limit: float) -> str:
    return "met" if value <= limit else "**MISSED**"


#: What each measured mode is, as the table names it.
LABELS = {
    "raw": "raw ordered read of every deal (baseline)",
    "full": "full rebuild, one process",
    "ratings": "its ratings tasks, run after it",
    "full-previous": "full rebuild, one process, previous path (ratings inline)",
    "nightly": "nightly check, one process",
    "full-fanout": f"full rebuild, {WORKERS} worker processes",
    "nightly-fanout": f"nightly check, {WORKERS} worker processes",
}


def _line(row: dict[str, Any], mode: str) -> str:
    """One table row: wall (runs), CPU (+ PostgreSQL), both as multiples of the raw read's,
    peak RSS."""
    raw, figures = row["raw"], row[mode]
    runs = row[mode + "_runs"]
    rss = f"{figures['rss_mb']:.0f} MB" if "rss_mb" in figures else "–"
    # Ratios of the figures as printed (3 decimals), so the table checks itself
    # (tests/test_standings_doc.py).
    wall, cpu, pg = (round(figures[k], 3) for k in ("wall_s", "cpu_s", "pg_cpu_s"))
    used, raw_used = cpu + pg, round(raw["cpu_s"], 3) + round(raw["pg_cpu_s"], 3)
    return (
        f"| {row['deals']:,} | {LABELS[mode]} | {wall:.3f} s ({runs}) | "
        f"{cpu:.3f} s (+ {pg:.3f} s) | {_times(row, mode)}× | {used / raw_used:.1f}× | {rss} |"
    )


def _times(row: dict[str, Any], mode: str) -> str:
    """The mode's wall time over the raw read's, as the table prints it."""
    return f"{round(row[mode]['wall_s'], 3) / round(row['raw']['wall_s'], 3):.1f}"


def _ratings_line(row: dict[str, Any]) -> str:
    full = row["full"]
    return (
        f"| {row['deals']:,} | {LABELS['ratings']} ({full['ratings_clubs']:.0f} clubs) | "
        f"{full['ratings_s']:.3f} s | {full['ratings_cpu_s']:.3f} s | – | – | – |"
    )


def write(rows: list[dict[str, object]], command: str, start: str) -> None:
    lines = [
        f"Command: `{command}` (`make bench` runs it with the default sizes). Date: {today()}. "
        f"Machine: {start}. Each figure is the median of the runs beside it (their wall times; "
        "below 300k deals after a warm-up run; from 300k, minutes a run, without), each run in a "
        "fresh process. The "
        "baseline is the raw read the rebuild starts from: every deal's scoring facts in the "
        "rebuild's order (by session, rubber, number), fetched into Python by a plain cursor "
        "(`RAW_READ` in bench/bench_standings.py). The full rebuild empties the standings tables "
        "and writes every row again; the nightly check recomputes every session and finds "
        "nothing to write. In one process: `rebuild_all_standings()`, chunk after chunk; the "
        "ratings refreshes it queues (one a club, at its end) are recorded, not sent, and timed "
        "after it, as their own worker would run them. The previous path is the rebuild as it "
        "was before (each chunk read and scored by the refresh's path, each chunk's ratings "
        "refresh run inline at its commit, as eager Celery in one process does), measured in "
        "the same run. Fanned out: `fan_out_standings_rebuild`, a task per chunk of 200 "
        f"sessions run by a real Celery worker with {WORKERS} processes started for each run, on "
        "Redis, timed from sending the task until its summary is back (CPU and peak RSS summed "
        "over the worker's processes). CPU is Python's, then (+ …) that of the PostgreSQL "
        "processes serving the run; × raw read compares the wall times, then the CPU (Python and "
        "PostgreSQL) with the baseline's of the same size in the same run. The machine is shared: "
        "the load average at the start is above, and a wall time well above its CPU time was "
        "spent waiting for a core.",
        "",
        "| deals | what | wall (runs) | CPU (+ PostgreSQL) | × raw read, wall | "
        "× raw read, CPU | peak RSS |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "raw" not in r:
            continue
        for mode in MODES:
            if mode in r:
                lines.append(_line(r, mode))
            if mode == "full" and "full" in r:
                lines.append(_ratings_line(r))
    lines += [
        "",
        "The refresh after one new deal (on an in-play rubber, so the rubber's results and the "
        "standings change) is the median of at least 5 runs after a warm-up, in one process, "
        "timed as a worker runs the task (`close_old_connections()` before and after it, "
        "config/celery.py): on the worker's kept database connection, and on a new one (the "
        "first task after a connection aged out, CONN_MAX_AGE).",
        "",
        "| deals | refresh after one deal, as a worker runs it | CPU | on a new connection | "
        "entry of the deal |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        i = r["incremental"]
        lines.append(
            f"| {r['deals']:,} | {i['refresh_ms']:.1f} ms | {i['refresh_cpu_ms']:.1f} ms | "
            f"{i['refresh_connect_ms']:.1f} ms | {i['entry_ms']:.1f} ms |"
        )
    small = next(r for r in rows if "raw" in r and "full" in r)
    big = rows[-1]
    ratio = float(_times(small, "full"))
    i = big["incremental"]
    lines += [
        "",
        f"Targets: full rebuild at {small['deals']:,} deals in one process ≤ "
        f"{TARGETS['raw_times']:.0f}× the raw read (goal {TARGETS['raw_goal']:.0f}×): "
        f"{ratio:.1f}×, {verdict(ratio, TARGETS['raw_times'])}; peak memory at "
        f"{big['deals']:,} deals ≤ 500 MB: {big['full']['rss_mb']:.0f} MB, "
        f"{verdict(big['full']['rss_mb'], TARGETS['rss_mb'])}; refresh after one new deal ≤ 50 ms "
        f"(as a worker runs it) at {big['deals']:,} deals: {i['refresh_ms']:.1f} ms, "
        f"{verdict(i['refresh_ms'], TARGETS['refresh_ms'])}.",
        "",
        "![Rebuild time vs deals](benchmarks-standings.png)",
    ]
    write_section(SECTION, "\n".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100k,1m")
    parser.add_argument("--quick", action="store_true", help="sizes 50k,100k: a few minutes")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--big-runs", type=int, default=3, help="rebuild runs from 300k deals (no warm-up)"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--modes", default=",".join(MODES), help=f"rebuild modes to run (of {','.join(MODES)})"
    )
    parser.add_argument(
        "--big-modes", default=",".join(BIG_MODES), help="the modes from 300k deals"
    )
    args = parser.parse_args()
    if args.worker:
        _worker(args.worker, args.url, args.runs)
        return 0
    sizes = ["50k", "100k"] if args.quick else args.sizes.split(",")
    start = machine()
    rows = []
    for label in sizes:
        print(f"== {label}", flush=True)
        chosen = args.modes if SIZES[label] < 300_000 else args.big_modes
        modes = tuple(m for m in MODES if m in chosen.split(","))
        rows.append(measure(label, SIZES[label], args.runs, args.big_runs, modes))
    rows.sort(key=lambda r: r["deals"])
    Path("/tmp/bench-standings.json").write_text(json.dumps(rows, indent=1, default=str))
    if not args.no_write:
        command = ".venv/bin/python bench/bench_standings.py " + " ".join(sys.argv[1:])
        write(rows, command.strip(), start)
        plot(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
