"""What live pads cost over HTTP: a 30-table room polling a real server (not a test).

    .venv/bin/python bench/bench_live_http.py [--runs 5] [--duration 10] [--room 30]

gunicorn with 2 sync workers on PostgreSQL (kept connections: CONN_MAX_AGE 60) and Redis (cache
and Celery broker; no Celery worker runs), DEBUG off, on the scratch database
``backscore_bench_live``: one club, 30 tables of four players each with a login, three deals on
each pad. Each of the 120 phones is signed in as its own player and polls its rubber's
``/rubbers/<id>/live`` with ``If-None-Match``; the director's console polls
``/clubs/<slug>/console/live/`` the same way; both every 2 s (``POLL_MS`` in
static/js/backscore.js), as the pages do.

The server's CPU is read from /proc (user + system time of the gunicorn workers and of their
PostgreSQL backends) before and after each measurement, so the figures are CPU time per request,
not sensitive to what else the machine runs (the load generator included):

- **saturation**: wrk -t2 -c8 sends the room's mix (120 phone polls to 1 console poll, each
  with the ETag it was last given, all answered 304) as fast as the server answers; medians of
  ``--runs`` rounds after a warm-up. Also, for comparison, the same phones without
  ``If-None-Match`` (every answer a 200 with the pad) and the console without it (wrk -c2:
  one connection per worker, as these answers are slow enough that more would only queue);
- **the room at its real pace**: 121 pollers, one request every 2 s each (60.5 a second), for
  ``--room`` seconds, while a deal is entered through the API every 8 s (a deal every 4 minutes
  at each of 30 tables): each poller keeps the ETag of its last 200, so a new deal costs the four
  phones of its table and the console one full answer each. The server's CPU over that time is
  the room's share of one core.

Writes the "Live pads over HTTP" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_http import _ms
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

from tests.factories import acting

DB = "backscore_bench_live"
PORT = 8792
TABLES = 30
POLL_SECONDS = 2  # static/js/backscore.js: POLL_MS = 2000
DEAL_EVERY = 8.0  # seconds: a deal every 4 minutes at each of 30 tables
SECTION = "Live pads over HTTP (a 30-table room polling gunicorn)"
SERVER_ENV = {
    "DEBUG": "false",
    "BENCH_PLAIN": "true",  # the baseline, /bench/plain
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "SECURE_SSL_REDIRECT": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "REDIS_URL": "redis://127.0.0.1:6379/11",
    "CONN_MAX_AGE": "60",
    "THROTTLE_WRITES": "off",
}
DOWNS = [("4S", "N", 9), ("3NT", "E", 8), ("2H", "S", 7), ("5C", "W", 10)]


# --- set-up, in a Django process ------------------------------------------------------------------


def _setup() -> None:
    """A fresh running session of 30 tables (earlier runs' sessions closed first), three deals
    on each pad; prints the phones' and the console's URLs with a signed-in session cookie."""
    setup_django()
    import datetime

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from knox.models import AuthToken

    from clubs.models import Club, Membership, Player, Session
    from games.sessions.lifecycle import session_close, session_create, session_start

    users = get_user_model().objects
    director, _ = users.get_or_create(username="live-director")
    club, _ = Club.objects.get_or_create(slug="liveroom", defaults={"name": "Live room"})
    Membership.objects.get_or_create(club=club, user=director, defaults={"role": "director"})
    players = []
    for i in range(4 * TABLES):
        user, _ = users.get_or_create(username=f"live-p{i:03d}")
        player, _ = Player.objects.get_or_create(club=club, name=f"Live {i:03d}", user=user)
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": "player"})
        players.append(player)
    for session in Session.objects.filter(club=club, status=Session.Status.RUNNING):
        session_close(session=session)
    session = session_create(
        club=club,
        date=datetime.date(2026, 12, 1),
        tables=[players[i : i + 4] for i in range(0, 4 * TABLES, 4)],
    )
    session_start(session=session, anyway=True)
    rubbers = list(session.rubbers.select_related("north__user").order_by("table__number"))
    for rubber in rubbers:
        for number, (contract, declarer, tricks) in enumerate(
            [("2H", "N", 8), ("4S", "E", 10), ("3NT", "S", 9)], start=1
        ):
            rubber.record_deal(
                number=number,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                actor=acting(rubber, rubber.north.user),
            )

    def cookie(user: Any) -> str:
        client = Client()
        client.force_login(user)
        return (
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        )

    phones = []
    for rubber in rubbers:
        rubber.fetch_players()
        for seat in "NESW":
            phones.append([f"/rubbers/{rubber.pk}/live", cookie(rubber.seats[seat].user)])
    _, token = AuthToken.objects.create(user=director)
    print(
        json.dumps(
            {
                "phones": phones,
                "console": [f"/clubs/{club.slug}/console/live/", cookie(director)],
                "rubbers": [r.pk for r in rubbers],
                "token": token,
            }
        )
    )


# --- the server's CPU -----------------------------------------------------------------------------


def server_cpu(master: int) -> ServerCpu:
    """The gunicorn master and workers ("app") and the bench database's backends ("db"),
    sampled every 0.2 s."""
    return ServerCpu(lambda: {"app": {master, *children(master)}, "db": backends(DB)}, interval=0.2)


# --- the load -------------------------------------------------------------------------------------

MIX_LUA = """
local polls = {%(polls)s}
local threads = {}
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
local i = 0
local expect = %(expect)d
bad = 0
function init(args)
  i = tid * 61
end
function request()
  i = i + 1
  local p = polls[(i - 1) %% #polls + 1]
  local headers = {["Cookie"] = p[2]}
  if p[3] ~= "" then headers["If-None-Match"] = p[3] end
  return wrk.format("GET", p[1], headers)
end
function response(status, headers, body)
  if status ~= expect then bad = bad + 1 end
end
function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("bad") end
  io.write(string.format("unexpected %%d\\n", n))
end
"""


def wrk(duration: int, script: str, connections: int) -> dict[str, float]:
    """One wrk run of the script against the server (as bench_http's, on this port)."""
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{duration}s",
            "--timeout",
            "30s",
            "--latency",
            "-s",
            script,
            f"http://127.0.0.1:{PORT}/",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = {
        "rps": r"Requests/sec:\s+([\d.]+)",
        "p50": r"\s50%\s+(\S+)",
        "p99": r"\s99%\s+(\S+)",
        "requests": r"(\d+) requests in",
        "unexpected": r"unexpected (\d+)",
    }
    got = {k: re.search(v, out) for k, v in found.items()}
    missing = [k for k, v in got.items() if v is None]
    if missing:
        raise RuntimeError(f"wrk said nothing of {missing}: {out}")
    value = {k: v.group(1) for k, v in got.items() if v is not None}
    return {
        "rps": float(value["rps"]),
        "p50_ms": _ms(value["p50"]),
        "p99_ms": _ms(value["p99"]),
        "requests": int(value["requests"]),
        "unexpected": int(value["unexpected"]),
    }


def _lua(polls: list[tuple[str, str, str]], expect: int, path: Path) -> str:
    rows = ", ".join(f'{{"{u}", "{c}", {json.dumps(e)}}}' for u, c, e in polls)
    path.write_text(MIX_LUA % {"polls": rows, "expect": expect})
    return str(path)


def _get(path: str, cookie: str, etag: str = "") -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"Cookie": cookie}
    if etag:
        headers["If-None-Match"] = etag
    conn.request("GET", path, headers=headers)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer.status, answer.getheader("ETag") or ""


def _post_deal(token: str, rubber: int, number: int) -> int:
    contract, declarer, tricks = DOWNS[number % len(DOWNS)]
    body = json.dumps(
        {"number": number, "contract": contract, "declarer": declarer, "tricks": tricks}
    )
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request(
        "POST",
        f"/api/v1/rubbers/{rubber}/deals/",
        body=body,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer.status


def saturation(
    polls: list[tuple[str, str, str]],
    expect: int,
    duration: int,
    cpu: ServerCpu,
    tmp: Path,
    connections: int = 8,
) -> dict[str, float]:
    script = _lua(polls, expect, tmp / "mix.lua")
    cpu.start()
    result = wrk(duration, script, connections)
    used = cpu.stop()
    result.update(
        cpu_ms=used["total"] / result["requests"] * 1000,
        app_ms=used["app"] / result["requests"] * 1000,
        db_ms=used["db"] / result["requests"] * 1000,
    )
    return result


def room(
    polls: list[tuple[str, str, str]],
    info: dict[str, Any],
    seconds: int,
    cpu: ServerCpu,
) -> dict[str, float]:
    """The room at its pace: a thread per poller (a phone or the console) asking every
    POLL_SECONDS, the pollers' first requests spread evenly over the first interval, each
    keeping the ETag of its last 200; another thread enters a deal every DEAL_EVERY seconds
    at the next table, through the API."""
    statuses: dict[int, int] = {}
    latencies: list[float] = []
    lock = threading.Lock()
    numbers = dict.fromkeys(info["rubbers"], 4)
    posted = [0]
    start = time.perf_counter() + 0.5
    end = start + seconds

    def poller(i: int) -> None:
        path, cookie, etag = polls[i]
        due = start + i * POLL_SECONDS / len(polls)
        while due < end:
            time.sleep(max(0.0, due - time.perf_counter()))
            t0 = time.perf_counter()
            status, tag = _get(path, cookie, etag)
            took = time.perf_counter() - t0
            if status == 200:
                etag = tag
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                latencies.append(took)
            due += POLL_SECONDS

    def poster() -> None:
        due = start + DEAL_EVERY / 2
        while due < end:
            time.sleep(max(0.0, due - time.perf_counter()))
            rubber = info["rubbers"][posted[0] % len(info["rubbers"])]
            assert _post_deal(info["token"], rubber, numbers[rubber]) == 201
            numbers[rubber] += 1
            posted[0] += 1
            due += DEAL_EVERY

    threads = [threading.Thread(target=poller, args=(i,)) for i in range(len(polls))]
    threads.append(threading.Thread(target=poster))
    cpu.start()
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    used = cpu.stop()
    latencies.sort()
    polled = len(latencies)
    return {
        "wall": wall,
        "polls": polled,
        "rate": polled / wall,
        "deals": posted[0],
        "not_modified": statuses.get(304, 0),
        "full": statuses.get(200, 0),
        "other": sum(v for s, v in statuses.items() if s not in (200, 304)),
        "p50_ms": latencies[polled // 2] * 1000,
        "p99_ms": latencies[int(polled * 0.99)] * 1000,
        "cpu_s": used["total"],
        "app_s": used["app"],
        "db_s": used["db"],
        "share": used["total"] / wall,
    }


# --- the driver ----------------------------------------------------------------------------------


def _wait_up(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--room", type=int, default=60, help="seconds of the paced room")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if args.worker == "setup":
        _setup()
        return 0
    start = machine()
    load_at_start = os.getloadavg()
    url = scratch_database(DB)
    setup = subprocess.run(
        [PYTHON, __file__, "--worker", "setup"],
        # The server's secret key: the session cookies made here are signed with it.
        env=django_env(url, SECRET_KEY=SERVER_ENV["SECRET_KEY"]),
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    info = json.loads(setup.stdout.strip().splitlines()[-1])
    psql("ANALYZE", DB)
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", PORT)) == 0:
            raise SystemExit(f"port {PORT} is busy")
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "config.wsgi",
            "--workers",
            "2",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=django_env(url, **SERVER_ENV),
    )
    cpu = server_cpu(server.pid)
    rounds: list[dict[str, dict[str, float]]] = []
    try:
        _wait_up(f"http://127.0.0.1:{PORT}/bench/plain")
        pollers = [*info["phones"], info["console"]]
        polls = []
        for path, cookie in pollers:
            status, tag = _get(path, cookie)
            assert status == 200 and tag, (path, status)
            assert _get(path, cookie, tag)[0] == 304, path
            polls.append((path, cookie, tag))
        phones_full = [(p, c, "") for p, c, _ in polls[:-1]]
        console_full = [(info["console"][0], info["console"][1], "")]
        with tempfile.TemporaryDirectory() as scratch:
            tmp = Path(scratch)
            for n in range(args.runs + 1):
                row = {
                    "plain": saturation([("/bench/plain", "", "")], 200, args.duration, cpu, tmp),
                    "mix_304": saturation(polls, 304, args.duration, cpu, tmp),
                    # The full answers with one connection per worker: they are slow
                    # enough that more would only queue.
                    "pad_200": saturation(phones_full, 200, args.duration, cpu, tmp, 2),
                    "console_200": saturation(console_full, 200, args.duration, cpu, tmp, 2),
                }
                label = "warm-up" if n == 0 else f"run {n}"
                print(
                    f"  {label}: "
                    + ", ".join(
                        f"{k} {v['rps']:.0f}/s {v['cpu_ms']:.2f} ms CPU/request"
                        f" (db {v['db_ms']:.2f})"
                        f" (unexpected {v['unexpected']})"
                        for k, v in row.items()
                    ),
                    flush=True,
                )
                if n:
                    rounds.append(row)
        paced = room(polls, info, args.room, cpu)
        print(f"  room: {json.dumps(paced)}", flush=True)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    summary = {
        name: {
            key: statistics.median(r[name][key] for r in rounds)
            for key in ("rps", "p50_ms", "p99_ms", "cpu_ms", "app_ms", "db_ms")
        }
        for name in rounds[0]
    }
    Path("/tmp/bench-live-http.json").write_text(
        json.dumps(
            {
                "machine": start,
                "load": load_at_start,
                "args": vars(args),
                "rounds": rounds,
                "summary": summary,
                "room": paced,
            },
            indent=1,
        )
    )
    if not args.no_write:
        write(summary, rounds, paced, start, load_at_start, args)
    return 0


def write(
    summary: dict[str, dict[str, float]],
    rounds: list[dict[str, dict[str, float]]],
    paced: dict[str, float],
    start: str,
    load: tuple[float, float, float],
    args: argparse.Namespace,
) -> None:
    phones = 4 * TABLES
    rate = (phones + 1) / POLL_SECONDS
    mix = summary["mix_304"]
    unexpected = sum(r[n]["unexpected"] for r in rounds for n in r)
    expected_share = rate * mix["cpu_ms"] / 1000
    per_poll = paced["cpu_s"] / paced["polls"] * 1000
    need = rate * per_poll / 1000
    if paced["rate"] >= 0.95 * rate:
        pace = (
            f"The server kept pace ({paced['rate']:.1f} polls/s answered; poll latency p50 "
            f"{paced['p50_ms']:.0f} ms, p99 {paced['p99_ms']:.0f} ms)."
        )
    else:
        pace = (
            f"On this run the server did **not** keep pace: it answered {paced['rate']:.1f} "
            f"polls/s, the shared machine giving it {paced['share']:.0%} of a core over "
            f"{paced['wall']:.0f} s (poll latency p50 {paced['p50_ms']:.0f} ms, p99 "
            f"{paced['p99_ms']:.0f} ms). The CPU per poll, not the pace, is the figure to keep; "
            "on a machine of its own the room's share is the line above."
        )
    lines = [
        f"Command: `.venv/bin/python bench/bench_live_http.py --runs {args.runs} --duration "
        f"{args.duration} --room {args.room}`. Date: {today()}. Machine: {start} (1 / 5 / 15 "
        f"minutes: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}). The machine is shared, so "
        "the CPU time per request, read from /proc for the gunicorn workers and "
        "their PostgreSQL backends, is the figure to trust; requests per second depend on what "
        "else runs. gunicorn with 2 sync workers, DEBUG off, PostgreSQL with kept connections, "
        "Redis as cache and broker (no Celery worker), on the scratch database "
        f"`{DB}`: one club, {TABLES} tables of four, three deals on each pad. Every phone is "
        "signed in as its own player; the director's console polls too; the poll interval is "
        f"the pages' ({POLL_SECONDS} s, `POLL_MS` in static/js/backscore.js).",
        "",
        f"Saturation: wrk `-t2 -c8 -d{args.duration}s --timeout 30s` on the same 2 cores as the "
        f"server (`-c2` for the full answers); medians of {args.runs} rounds after a warm-up "
        "round.",
        "",
        "| requests | req/s | p50 | p99 | server CPU per request | of which PostgreSQL |",
        "|---|---|---|---|---|---|",
    ]
    names = {
        "plain": "baseline: `/bench/plain` (a JsonResponse, no database, no session)",
        "mix_304": f"the room's mix, {phones} phones : 1 console, `If-None-Match` → 304",
        "pad_200": "a phone's pad without `If-None-Match` → 200 (the whole pad)",
        "console_200": f"the console without `If-None-Match` → 200 ({TABLES} tables)",
    }
    for name, label in names.items():
        r = summary[name]
        lines.append(
            f"| {label} | {r['rps']:.0f} | {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | "
            f"{r['cpu_ms']:.2f} ms | {r['db_ms']:.2f} ms |"
        )
    lines += [
        "",
        f"Answers other than the expected status: {unexpected}. A 304 costs "
        f"{mix['cpu_ms']:.2f} ms of server CPU ({mix['cpu_ms'] / summary['plain']['cpu_ms']:.1f}× "
        "the baseline in the same rounds), so the server sustains about "
        f"{1000 / mix['cpu_ms']:.0f} polls a second per core; a {TABLES}-table room polls "
        f"{rate:.1f} times a second ({phones} phones and the console every {POLL_SECONDS} s), "
        f"about {expected_share:.1%} of one core in 304s. A full pad costs "
        f"{summary['pad_200']['cpu_ms'] / mix['cpu_ms']:.0f}× a 304 and the console "
        f"{summary['console_200']['cpu_ms'] / mix['cpu_ms']:.0f}×: answering 304 is what keeps "
        "polling cheap. The section above (one process, SQLite, Django's test client) counts "
        "the application alone; here PostgreSQL's share and the client side of its one "
        "query (the rubber's state, with its club's language) come on top.",
        "",
        f"The room at its real pace, {args.room} s of polls due ({rate:.1f}/s): "
        f"{paced['polls']:,} polls and {paced['deals']} deals entered through the API (one every "
        f"{DEAL_EVERY:.0f} s, a deal every 4 minutes at each table); {paced['not_modified']:,} "
        f"answers 304, {paced['full']} answers 200 (the phones and console that saw a new deal), "
        f"{paced['other']} other. The server used {paced['cpu_s']:.2f} s of CPU "
        f"({paced['db_s']:.2f} s in PostgreSQL), {per_poll:.2f} ms per poll with the deals and "
        f"their full answers included: **the room needs {need:.0%} of one core of this machine** "
        f"({rate:.1f} polls/s × {per_poll:.2f} ms).",
        "",
        pace,
    ]
    write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    os.environ.pop("REDIS_URL", None)
    sys.exit(main())
