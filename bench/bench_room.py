"""A 30-table room on push and on the ETag poll, each in turn, on the real server (not a test).

    .venv/bin/python bench/bench_room.py [--mode push,poll] [--minutes 4] [--deal-every 2]
                                         [--idle 500] [--no-write]

The web processes of config/gunicorn.py (2 uvicorn workers, DEBUG off) on PostgreSQL, with a
Redis server of the run's own (started here on a spare port, so its CPU is the room's alone),
on a scratch database: one club, 30 tables of four players each with a login, three deals on
each pad (the set-up of bench_live_http.py). 121 simulated clients, 120 phones each signed in
as its own player and the director's console:

- **push**: each holds its event stream (`/rubbers/<id>/events`, the console's
  `/clubs/<slug>/console/events/`) open and, on each `event: changed`, fetches its pad
  (`/rubbers/<id>/live`, the console's `/clubs/<slug>/console/live/`) with the ETag it holds,
  as a phone does; a stream that ends is opened again after a second;
- **poll**: each asks its pad every 2 s with `If-None-Match` (`POLL_MS` in
  static/js/backscore.js), as the pages do without push.

A deal is entered through the API at the next table every ``--deal-every`` seconds. A room
enters one every 8 s (a deal every 4 minutes at each of 30 tables); the default, 2 s, is time
compressed 4×, which the figures say: more deals in the run, for a p95 sooner. The idle cost
(streams or polls with nothing changing) and the cost per deal are also given apart, so the
room at its real pace follows from them.

Each deal marks its session's standings stale and queues their refresh on Celery, which in
production a worker runs (docs/deploy.md): the run starts one Celery worker on the run's Redis,
as deployed, so that the refresh is done and its CPU counted, not left in the queue.

Measured, per mode: the server's CPU, read from /proc (user + system time) of the gunicorn
master and workers, the PostgreSQL backends of the scratch database, the Celery worker and the
run's Redis server, over the run (each also given apart); the time from each deal's 201 to
each other client's new pad (the first 200 a watcher of that rubber got after the deal was
sent; the phones of its table and the console), p50/p95/max; for push, the memory of the web
workers per idle stream (their proportional set size, before and after ``--idle`` more streams
are opened and held).

Writes the "A room on push and on the poll" section of docs/benchmarks.md and the run's figures
to /tmp/bench-room.json (``BENCH_ROOM_JSON``); ``--rewrite`` writes the section again from them.
``BENCH_ROOM_DB``, ``BENCH_ROOM_PORT`` and ``BENCH_ROOM_REDIS_PORT`` move the scratch database
and the ports, for two runs on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    PYTHON,
    ROOT,
    ServerCpu,
    backends,
    children,
    django_env,
    machine,
    psql,
    scratch_database,
    setup_django,
    today,
    write_section,
)

DB = os.environ.get("BENCH_ROOM_DB", "backscore_bench_room")
PORT = int(os.environ.get("BENCH_ROOM_PORT", "8793"))
REDIS_PORT = int(os.environ.get("BENCH_ROOM_REDIS_PORT", "6391"))
TABLES = 30
POLL_SECONDS = 2.0  # static/js/backscore.js: POLL_MS = 2000
REAL_DEAL_EVERY = 8.0  # a deal every 4 minutes at each of 30 tables
SECTION = "A room on push and on the poll (issue 28)"
#: The run's figures, saved (`--rewrite` writes the doc's section from them again).
SAVED = Path(os.environ.get("BENCH_ROOM_JSON", "/tmp/bench-room.json"))
SERVER_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "SECURE_SSL_REDIRECT": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
    "THROTTLE_WRITES": "off",
    "WEB_CONCURRENCY": "2",
}
DOWNS = [("4S", "N", 9), ("3NT", "E", 8), ("2H", "S", 7), ("5C", "W", 10)]


# --- the server's CPU and memory ------------------------------------------------------------------


def _pss_kb(pid: int) -> int:
    """The proportional set size of a process (shared pages split among their sharers)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def server_cpu(master: int, redis: int, worker: int) -> ServerCpu:
    """The web processes ("web"), the database's backends ("db"), the Celery worker that
    refreshes the standings ("worker") and the run's Redis ("redis"), sampled every 0.5 s."""
    return ServerCpu(
        lambda: {
            "web": {master, *children(master)},
            "db": backends(DB),
            "worker": {worker, *children(worker)},
            "redis": {redis},
        },
        interval=0.5,
    )


# --- a small HTTP/1.1 client on asyncio ----------------------------------------------------------


async def _request(
    method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own (Connection: close)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, content


class Client:
    """A phone or the console: its pad's URL, its events' URL, its cookie, the ETag it holds
    and when each new pad (a 200) reached it."""

    def __init__(self, live: str, events: str, cookie: str, rubber: int | None) -> None:
        self.live, self.events, self.cookie, self.rubber = live, events, cookie, rubber
        self.etag = ""
        self.last_id = ""
        self.got: list[float] = []
        self.other = 0

    async def fetch(self) -> int:
        headers = {"Cookie": self.cookie}
        if self.etag:
            headers["If-None-Match"] = self.etag
        status, found, _ = await _request("GET", self.live, headers)
        if status == 200:
            self.got.append(time.monotonic())
            self.etag = found.get("etag", "")
        elif status != 304:
            self.other += 1
        return status

    async def poll(self, start: float, end: float, offset: float) -> None:
        due = start + offset
        while due < end:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            await self.fetch()
            due += POLL_SECONDS

    async def listen(self, end: float, opened: asyncio.Event | None = None) -> None:
        """Hold the event stream; fetch the pad on each `changed` (and on each (re)connect)."""
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
            except OSError:
                await asyncio.sleep(1)
                continue
            resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
            writer.write(
                (
                    f"GET {self.events} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {self.cookie}\r\n"
                    f"Accept: text/event-stream\r\n{resume}\r\n"
                ).encode()
            )
            await writer.drain()
            try:
                status = int((await reader.readline()).split()[1])
                while (await reader.readline()).strip():
                    pass  # the headers
                if status != 200:
                    self.other += 1
                    raise ConnectionError(status)
                while time.monotonic() < end:
                    line = await asyncio.wait_for(
                        reader.readline(), max(0.1, end - time.monotonic())
                    )
                    if not line:
                        break
                    if line.startswith(b"id:"):
                        self.last_id = line.split(b":", 1)[1].strip().decode()
                    elif line.startswith(b"event: changed") or line.startswith(b"event:changed"):
                        await self.fetch()
                        if opened is not None:
                            opened.set()
            except (TimeoutError, ConnectionError, OSError, ValueError, IndexError):
                pass
            finally:
                writer.close()
            if time.monotonic() < end:
                await asyncio.sleep(1)


async def _hold(path: str, cookie: str, end: float, opened: list[int]) -> None:
    """An idle stream, held to the end (for the memory per connection)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n".encode())
        await writer.drain()
        if b" 200 " in await reader.readline():
            opened.append(1)
        while time.monotonic() < end and await asyncio.wait_for(
            reader.read(4096), max(0.1, end - time.monotonic())
        ):
            pass
        writer.close()
    except (TimeoutError, OSError):
        pass


async def _post_deal(token: str, rubber: int, number: int) -> int:
    contract, declarer, tricks = DOWNS[number % len(DOWNS)]
    body = json.dumps(
        {"number": number, "contract": contract, "declarer": declarer, "tricks": tricks}
    ).encode()
    status, _, _ = await _request(
        "POST",
        f"/api/v1/rubbers/{rubber}/deals/",
        {"Authorization": f"Token {token}", "Content-Type": "application/json"},
        body,
    )
    return status


# --- one mode ------------------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_mode(
    mode: str,
    info: dict[str, Any],
    args: argparse.Namespace,
    master: int,
    redis: int,
    worker: int,
) -> dict[str, Any]:
    cpu = server_cpu(master, redis, worker)
    clients = [
        Client(live, events, cookie, rubber) for live, events, cookie, rubber in info["clients"]
    ]
    numbers = dict(info["next_numbers"])
    deals: list[tuple[int, float, float]] = []  # rubber, sent, answered (201)
    bad_posts = 0
    settle = 10.0
    # Each stream lasts to the end of the run, whatever the time its opening took.
    end = time.monotonic() + 60 + settle + args.idle_seconds + args.minutes * 60
    if mode == "push":
        opened = [asyncio.Event() for _ in clients]
        tasks = [
            asyncio.create_task(c.listen(end + 3, o)) for c, o in zip(clients, opened, strict=True)
        ]
        try:  # every stream open and its first pad fetched
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 60)
        except TimeoutError:  # not every client's event stream opened
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return {"mode": mode, "unavailable": True}
        start = time.monotonic() + settle
        end = start + args.idle_seconds + args.minutes * 60
    else:
        start = time.monotonic() + settle
        end = start + args.idle_seconds + args.minutes * 60
        tasks = [
            asyncio.create_task(c.poll(time.monotonic(), end + 3, i * POLL_SECONDS / len(clients)))
            for i, c in enumerate(clients)
        ]
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    # Idle: the streams held (or the polls answered 304) with nothing changing.
    cpu.start()
    await asyncio.sleep(args.idle_seconds)
    idle = cpu.stop()
    # The room: a deal at the next table every --deal-every seconds.
    cpu.start()
    due = time.monotonic()
    turn = 0
    while due < end:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        rubber = info["rubbers"][turn % len(info["rubbers"])]
        sent = time.monotonic()
        status = await _post_deal(info["token"], rubber, numbers[str(rubber)])
        answered = time.monotonic()
        if status == 201:
            numbers[str(rubber)] += 1
            deals.append((rubber, sent, answered))
        else:
            bad_posts += 1
        turn += 1
        due += args.deal_every
    await asyncio.sleep(3)  # the last deal's fetches
    used = cpu.stop()
    memory: dict[str, float] = {}
    if mode == "push" and args.idle:
        workers = children(master)
        before = sum(_pss_kb(p) for p in workers)
        held: list[int] = []
        hold_end = time.monotonic() + 90
        phone = clients[0]
        holders = [
            asyncio.create_task(_hold(phone.events, phone.cookie, hold_end, held))
            for _ in range(args.idle)
        ]
        waited = time.monotonic() + 60  # every stream open (each checks once), then settled
        while len(held) < args.idle and time.monotonic() < waited:
            await asyncio.sleep(1)
        await asyncio.sleep(5)
        after = sum(_pss_kb(p) for p in workers)
        memory = {
            "streams": len(held),
            "before_kb": before,
            "after_kb": after,
            "per_stream_kb": (after - before) / max(1, len(held)),
        }
        for holder in holders:
            holder.cancel()
        await asyncio.gather(*holders, return_exceptions=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    watchers: dict[int | None, list[Client]] = {}
    for c in clients:
        watchers.setdefault(c.rubber, []).append(c)
    latencies, missed = [], 0
    for rubber, sent, answered in deals:
        for c in [*watchers[rubber], *watchers[None]]:
            seen = next((t for t in c.got if t > sent), None)
            if seen is None:
                missed += 1
            else:
                latencies.append(max(0.0, seen - answered))
    return {
        "mode": mode,
        "clients": len(clients),
        "deals": len(deals),
        "bad_posts": bad_posts,
        "other_answers": sum(c.other for c in clients),
        "deliveries": len(latencies),
        "missed": missed,
        "p50_ms": _percentile(latencies, 0.5) * 1000,
        "p95_ms": _percentile(latencies, 0.95) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
        "idle": idle,
        "room": used,
        "memory": memory,
    }


# --- the driver ----------------------------------------------------------------------------------


def _setup(url: str) -> dict[str, Any]:
    """bench_live_http's room (a fresh running session of 30 tables, three deals a pad)."""
    out = subprocess.run(
        [PYTHON, __file__, "--worker", "setup"],
        env=django_env(url, SECRET_KEY=SERVER_ENV["SECRET_KEY"]),
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise RuntimeError(f"the set-up failed: {out.stderr[-3000:]}")
    made = json.loads(out.stdout.strip().splitlines()[-1])
    clients = []
    for i, (live, cookie) in enumerate(made["phones"]):
        rubber = made["rubbers"][i // 4]
        clients.append((live, live.replace("/live", "/events"), cookie, rubber))
    console_live, console_cookie = made["console"]
    clients.append((console_live, console_live.replace("/live/", "/events/"), console_cookie, None))
    return {
        "clients": clients,
        "rubbers": made["rubbers"],
        "token": made["token"],
        "next_numbers": {str(r): 4 for r in made["rubbers"]},
    }


def _free(port: int) -> None:
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(f"port {port} is busy")


def _wait_up(timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the server did not start")


def one_mode(mode: str, url: str, args: argparse.Namespace, redis_pid: int) -> dict[str, Any]:
    info = _setup(url)
    if args.console_events:  # the console's stream, if the server names it otherwise
        live, _events, cookie, rubber = info["clients"][-1]
        info["clients"][-1] = (live, args.console_events, cookie, rubber)
    if args.phone_events:  # "/rubbers/{rubber}/events" by default
        info["clients"][:-1] = [
            (live, args.phone_events.format(rubber=rubber), cookie, rubber)
            for live, _events, cookie, rubber in info["clients"][:-1]
        ]
    psql("ANALYZE", DB)
    _free(PORT)
    worker = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=django_env(url, **SERVER_ENV),
        stdout=subprocess.DEVNULL,
    )
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "-c",
            "config/gunicorn.py",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=ROOT,
        env=django_env(url, **SERVER_ENV),
        stdout=subprocess.DEVNULL,
    )
    try:
        _wait_up()
        time.sleep(2)
        result = asyncio.run(run_mode(mode, info, args, server.pid, redis_pid, worker.pid))
    finally:
        for process in (server, worker):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    print(f"  {mode}: {json.dumps(result)}", flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="push,poll")
    parser.add_argument("--minutes", type=float, default=4.0, help="minutes of deals per mode")
    parser.add_argument("--deal-every", type=float, default=2.0, help="seconds between deals")
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--idle", type=int, default=500, help="extra idle streams (memory)")
    parser.add_argument("--phone-events", help='a phone\'s stream, "/rubbers/{rubber}/events"')
    parser.add_argument("--console-events", help="the console's stream (/clubs/liveroom/...)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--rewrite", action="store_true", help=f"write the doc from {SAVED}")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rewrite:
        write(json.loads(SAVED.read_text()))
        return 0
    if args.worker == "setup":
        setup_django()
        import bench_live_http  # after Django is set up: it imports the test factories

        bench_live_http._setup()
        return 0
    began = machine()
    load = os.getloadavg()
    url = scratch_database(DB)
    _free(REDIS_PORT)
    with tempfile.TemporaryDirectory() as scratch:
        redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(REDIS_PORT),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                scratch,
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            results = [one_mode(m, url, args, redis.pid) for m in args.mode.split(",")]
        finally:
            redis.terminate()
            redis.wait(timeout=10)
    saved = {
        "machine": began,
        "load": load,
        "load_end": os.getloadavg(),
        "args": vars(args),
        "results": results,
    }
    SAVED.write_text(json.dumps(saved, indent=1))
    if not args.no_write:
        write(saved)
    return 0


def write(saved: dict[str, Any]) -> None:
    """docs/benchmarks.md's section, from the run's saved figures."""
    args = argparse.Namespace(**saved["args"])
    began, load, load_end = saved["machine"], saved["load"], saved.get("load_end", saved["load"])
    compression = REAL_DEAL_EVERY / args.deal_every
    pace = (
        f"A deal every {args.deal_every:g} s at the next table, a room's real pace (a deal every "
        "4 minutes at each of 30 tables)."
        if compression == 1
        else f"A deal every {args.deal_every:g} s at the next table: time compressed "
        f"{compression:g}× (a room enters one every {REAL_DEAL_EVERY:g} s)."
    )
    lines = [
        f"Command: `.venv/bin/python bench/bench_room.py --mode {args.mode} --minutes "
        f"{args.minutes:g} --deal-every {args.deal_every:g}`. Date: {today()}. Machine: {began}; "
        f"load average (1 / 5 / 15 minutes) {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the "
        f"start and {load_end[0]:.1f} / {load_end[1]:.1f} / {load_end[2]:.1f} at the end (other "
        "work shares the 2 cores: the CPU seconds below are the room's own, its latencies are "
        "not). config/gunicorn.py's 2 uvicorn workers, DEBUG off, PostgreSQL, a Redis server of "
        f"the run's own; {TABLES} tables of four and the console: {4 * TABLES + 1} clients, "
        f"each fetching its pad as a page does (push: on each event; poll: every "
        f"{POLL_SECONDS:g} s). {pace} Server CPU: the web processes, the database's backends, "
        "the Celery worker that refreshes the standings after each deal and Redis together, "
        "from /proc. Delivery: from a deal's 201 to each other client's "
        "new pad (its four phones and the console).",
        "",
        "| mode | deals | deliveries (missed) | p50 | p95 | max | idle: CPU of one core | "
        "with deals: CPU of one core | CPU per deal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    results = saved["results"]
    missing = [r["mode"] for r in results if r.get("unavailable")]
    results = [r for r in results if not r.get("unavailable")]
    for r in results:
        room, idle = r["room"], r["idle"]
        per_deal = max(0.0, room["total"] - idle["share"] * room["wall"]) / max(1, r["deals"])
        r["per_deal_ms"] = per_deal * 1000
        r["real_pace_share"] = idle["share"] + r["per_deal_ms"] / 1000 / REAL_DEAL_EVERY
        lines.append(
            f"| {r['mode']} | {r['deals']} | {r['deliveries']} ({r['missed']}) | "
            f"{r['p50_ms']:.0f} ms | {r['p95_ms']:.0f} ms | {r['max_ms']:.0f} ms | "
            f"{idle['share']:.2%} | {room['share']:.2%} | {r['per_deal_ms']:.0f} ms |"
        )
    lines.append("")
    for r in results:
        mem, room, idle = r["memory"], r["room"], r["idle"]
        beyond = {  # each part's CPU beyond its idle rate, per deal
            name: max(0.0, room[name] - idle[name] / idle["wall"] * room["wall"]) / r["deals"]
            for name in ("web", "db", "worker", "redis")
            if name in room
        }
        split = ", ".join(f"{name} {used * 1000:.0f} ms" for name, used in beyond.items())
        lines.append(
            f"- {r['mode']}: at a room's real pace (a deal every {REAL_DEAL_EVERY:g} s) the "
            f"server needs the idle share plus the CPU per deal every {REAL_DEAL_EVERY:g} s: "
            f"**{r['real_pace_share']:.2%} of one core** (idle {idle['share']:.2%}: web "
            f"{idle['web']:.2f} s, PostgreSQL {idle['db']:.2f} s, Celery worker "
            f"{idle.get('worker', 0.0):.2f} s, Redis {idle['redis']:.2f} s "
            f"over {idle['wall']:.0f} s; each deal's CPU beyond it: {split}). Answers other than "
            f"200/304: {r['other_answers']}; deals refused: {r['bad_posts']}."
            + (
                f" Memory: {mem['streams']} more idle streams held took the web workers from "
                f"{mem['before_kb'] / 1024:.0f} MB to {mem['after_kb'] / 1024:.0f} MB "
                f"(proportional set size): **{mem['per_stream_kb']:.0f} KB per idle "
                "connection**."
                if mem
                else ""
            )
        )
    if missing:
        lines.append(
            f"- Not measured: {', '.join(missing)} (not every client's event stream opened "
            "within 60 s: see the server's log)."
        )
    write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    os.environ.pop("REDIS_URL", None)
    # The set-up and migrations run as under `make bench` (bench/run.py); the server has its own.
    os.environ.setdefault("DEBUG", "true")
    os.environ.setdefault("SECRET_KEY", "dev-insecure-key-for-local-use-only")
    sys.exit(main())
