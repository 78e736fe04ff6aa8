"""HTTP on loopback: the API against a plain JsonResponse in the same run (not a test).

    .venv/bin/python bench/bench_http.py [--runs 5] [--duration 10]

The web server as `make serve` runs it (config/gunicorn.py: 2 uvicorn workers serving Django
over ASGI, a pool of kept connections; until 2026-12 gunicorn's sync workers with CONN_MAX_AGE
60) on PostgreSQL and Redis (cache and Celery broker; no Celery worker runs, so a deal's
standings refresh is queued, not done, as on a web machine), DEBUG off. wrk -t2 -c8 for each
endpoint in turn within a round; 5 rounds after a warm-up round; medians of requests per second
and of p99 latency:

- the baseline: ``/bench/plain`` (config/plain.py: JsonResponse, no database, no DRF);
- ``GET /api/v1/clubs/{slug}/leaderboard``: a club of 50 players (50 rows), 200 sessions;
- ``GET /api/v1/rubbers/{id}/``: a complete rubber's scoresheet (6 deals, every item explained);
- ``POST /api/v1/rubbers/{id}/deals/`` with a director's token: every request is a real new deal
  (the next number of an in-play rubber, each thread its own rubbers, a contract that goes down
  so the rubber stays in play); the deals stored are counted against wrk's answers. Two
  workloads (``--workloads``), each against its floor (``/bench/floor/<rubber>/``, config/plain.py:
  the same rows written, into rubbers of its own of the same lengths):

  - ``growing``: 120 in-play rubbers, each thread cycling through its 60, so every rubber grows
    by every round (60 to 100+ deals by the last);
  - ``real``: rubbers as long as real ones. Each rubber takes at most its length, drawn from the
    seeded complete rubbers (a side wins two games, RULES 2.4: 2 to 19 deals, 5.9 on average),
    then the thread's slot moves on to a fresh in-play rubber of the ``httpreal`` club; 60 slots
    a thread, as the growing workload's 60 rubbers, so no two requests for a rubber are in
    flight at once. The set-up makes enough fresh rubbers for every round at ``--most-rate``
    requests a second (sessions of 120 tables, each its own 480 players: a player sits in one
    running session at a time), and closes the sessions whose rubbers are all used.

Scratch database ``backscore_bench_http`` (seeded once: 3 clubs of 50 players, ~50k deals); each
run closes the sessions an earlier run posted into for the growing workload and starts fresh
ones, so runs compare (the real-length rubbers are never longer than their length anyway). The
write throttle is off for the server (``THROTTLE_WRITES=off``). Writes the "HTTP" section of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    PYTHON,
    ROOT,
    ServerCpu,
    backends,
    children,
    django_env,
    machine,
    manage,
    psql,
    scratch_database,
    setup_django,
    today,
    write_section,
)

#: The scratch database, the port and the Redis database: the defaults, or the environment's
#: (two engineers' runs on one machine apart).
DB = os.environ.get("BENCH_HTTP_DB", "backscore_bench_http")
PORT = int(os.environ.get("BENCH_HTTP_PORT", "8765"))
#: Where the run's figures are kept as JSON (apart for two runs on one machine too).
OUT = Path(os.environ.get("BENCH_HTTP_OUT", "/tmp/bench-http.json"))
SECTION = "HTTP on loopback (gunicorn, PostgreSQL, wrk)"
TARGETS = {"leaderboard": 0.5, "scoresheet": 0.3, "post": 0.1}
P99_POST_MS = 100.0
#: Or, for the POST: within this factor of its floor (config/plain.py ``floor``).
FLOOR_FACTOR = 1.5
DOWNS = [("4S", "N", 9), ("3NT", "E", 8), ("2H", "S", 7), ("5C", "W", 10)]
#: The club of the rubbers of real length (the real-length workload), its sessions' tables, and
#: the rubbers each wrk thread posts into at once (the growing workload's: 120 rubbers, half of
#: them the floor's, each half split between wrk's two threads).
REAL_CLUB = "httpreal"
TABLES = 120
SLOTS = 30
#: A rubber of the growing workload takes deals without end.
ENDLESS = 10**9
#: The real-length set-up's margin over the deals a run can post at ``--most-rate``.
MARGIN = 1.1
SERVER_ENV = {
    "DEBUG": "false",
    "BENCH_PLAIN": "true",  # the baseline, /bench/plain
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "SECURE_SSL_REDIRECT": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "REDIS_URL": os.environ.get("BENCH_HTTP_REDIS", "redis://127.0.0.1:6379/14"),
    "CONN_MAX_AGE": "60",
    # One director's token posts every deal: the per-user write throttle (600/min) is lifted.
    "THROTTLE_WRITES": "off",
}


# --- set-up, in a Django process ------------------------------------------------------------------


def _setup() -> None:
    setup_django()
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from knox.models import AuthToken

    from clubs.models import Club, Membership, Player, Session
    from games.models import Rubber
    from games.sessions.lifecycle import session_close, session_create, session_start
    from scoring.standings.models import SessionStanding
    from scoring.standings.services import standings_rebuild_all

    if not SessionStanding.objects.exists():
        standings_rebuild_all()
    clubs = list(
        Club.objects.filter(slug__startswith="http")
        .exclude(slug__in=("httppost", REAL_CLUB))
        .order_by("pk")
    )
    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    _, token = AuthToken.objects.create(user=user)
    for club in clubs:
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": "director"})
        for session in Session.objects.filter(club=club, status=Session.Status.RUNNING):
            session_close(session=session)
    # The deals are posted in a club of their own (480 players, one running session of 120
    # tables: a player sits in one running session at a time), so the leaderboard measured
    # above keeps its 50 rows whatever the posts add.
    post_club, _ = Club.objects.get_or_create(slug="httppost", defaults={"name": "HTTP posts"})
    Membership.objects.get_or_create(club=post_club, user=user, defaults={"role": "director"})
    Player.objects.bulk_create(
        [Player(club=post_club, name=f"Poster {i:03d}") for i in range(480)],
        ignore_conflicts=True,
    )
    # Every run posts into fresh rubbers: the rubbers of an earlier run (longer by every deal
    # it posted, so costlier to score and answer) are closed first, so runs compare.
    for session in Session.objects.filter(club=post_club, status=Session.Status.RUNNING):
        session_close(session=session)
    players = list(Player.objects.filter(club=post_club).order_by("pk")[:480])
    session = session_create(
        club=post_club,
        date=Session.objects.filter(club=clubs[0]).latest("date").date,
        tables=[players[i : i + 4] for i in range(0, 480, 4)],
    )
    session_start(session=session, anyway=True)
    scoresheet = (
        Rubber.objects.filter(session__club=clubs[0], status="complete")
        .annotate(n=Count("deals"))
        .filter(n=6)
        .values_list("pk", flat=True)
        .first()
    )
    rows = SessionStanding.objects.filter(club=clubs[0]).values("player").distinct().count()
    print(json.dumps({"token": token, "club": clubs[0].slug, "rubber": scoresheet, "rows": rows}))


def _setup_real(close: list[int], sessions: int) -> None:
    """The real-length workload's rubbers: close the sessions of ``REAL_CLUB`` in ``close`` (all
    their rubbers used), then start ``sessions`` sessions of 120 tables, each of 480 players
    seated in no running session (made when the club has too few)."""
    setup_django()
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player, Session, TableSeat
    from games.sessions.lifecycle import session_close, session_create, session_start

    club, _ = Club.objects.get_or_create(slug=REAL_CLUB, defaults={"name": "HTTP real rubbers"})
    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    Membership.objects.get_or_create(club=club, user=user, defaults={"role": "director"})
    for session in Session.objects.filter(pk__in=close, club=club, status=Session.Status.RUNNING):
        session_close(session=session)
    if not sessions:
        return
    seated = set(
        TableSeat.objects.filter(
            session__club=club, session__status=Session.Status.RUNNING
        ).values_list("player_id", flat=True)
    )
    free = [p for p in Player.objects.filter(club=club).order_by("pk") if p.pk not in seated]
    wanted = sessions * TABLES * 4
    if len(free) < wanted:
        made = Player.objects.filter(club=club).count()
        Player.objects.bulk_create(
            [Player(club=club, name=f"Real {made + i:06d}") for i in range(wanted - len(free))]
        )
        free = [p for p in Player.objects.filter(club=club).order_by("pk") if p.pk not in seated]
    date = Session.objects.filter(club__slug__startswith="http").latest("date").date
    for n in range(sessions):
        players = free[n * TABLES * 4 : (n + 1) * TABLES * 4]
        session = session_create(
            club=club,
            date=date,
            tables=[players[i : i + 4] for i in range(0, TABLES * 4, 4)],
        )
        session_start(session=session)


#: Where a POST's CPU goes, in the profile (``_profile``): (label, file, function), each counted
#: with what it calls.
PHASES = [
    (
        "the whole request (Django's handler, the middleware, DRF)",
        "django/core/handlers/base.py",
        "get_response",
    ),
    ("token read (config/tokens.py)", "knox/auth.py", "authenticate"),
    ("entry check (rubber_for_entry)", "games/selectors.py", "rubber_for_entry"),
    ("the deal's transaction (record_deal)", "games/models/rubber.py", "record_deal"),
    ("  of which the rubber locked with its players", "games/models/rows.py", "lock_for_entry"),
    ("  of which its deals read", "games/models/rows.py", "deals_of"),
    ("  of which scoring (the rubber re-scored)", "games/models/rubber.py", "_rescore"),
    (
        "  of which the deal and its history saved (one statement)",
        "games/models/rows.py",
        "insert_with_history",
    ),
    (
        "  of which the standings queued (one statement)",
        "scoring/standings/queueing.py",
        "queue_session_refresh",
    ),
    ("the answer: the rubber serialized (_written)", "games/api.py", "_written"),
    ("  of which the scoresheet explained", "games/sheets.py", "to_dict"),
    ("the answer rendered to JSON", "rest_framework/renderers.py", "render"),
    ("the push published after commit", "games/push/hooks.py", "send"),
    ("SQL: the driver's execute (client side)", "psycopg/cursor.py", "execute"),
]
PROFILED = 300


def _profile(token: str, workload: str) -> None:
    """A POST's CPU in this process (Django's test client, the server's settings), by phase:
    the deals of ``PROFILED`` POSTs into the workload's rubbers (``Slots``, as a wrk thread
    takes them), after 30 untimed ones."""
    import cProfile
    import logging
    import pstats

    import django

    django.setup()  # on the server's settings: Redis, so the refresh is queued, not run here
    logging.disable(logging.WARNING)
    from django.conf import settings
    from django.test import Client

    assert not settings.CELERY_TASK_ALWAYS_EAGER
    client = Client(HTTP_AUTHORIZATION=f"Token {token}", SERVER_NAME="127.0.0.1")
    rubbers = _rubbers(workload, floor=False)  # the POST's, not the floor's
    slots = Slots(rubbers, len(rubbers) if workload == "growing" else SLOTS)
    lengths: list[int] = []

    def post() -> None:
        rubber, number = slots.take()
        contract, declarer, tricks = DOWNS[number % len(DOWNS)]
        body = {"number": number, "contract": contract, "declarer": declarer, "tricks": tricks}
        answer = client.post(f"/api/v1/rubbers/{rubber}/deals/", body, "application/json")
        assert answer.status_code == 201, answer.content
        lengths.append(number)

    for _ in range(30):
        post()
    lengths.clear()
    profiler = cProfile.Profile(time.process_time)
    cpu = time.process_time()
    profiler.enable()
    for _ in range(PROFILED):
        post()
    profiler.disable()
    cpu = time.process_time() - cpu
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in stats.values())
    phases = {}
    for label, where, function in PHASES:
        phases[label] = sum(
            ct
            for (name, _, func), (_, _, _, ct, _) in stats.items()
            if name.endswith(where) and func == function
        )
    print(
        json.dumps(
            {
                "workload": workload,
                "posts": PROFILED,
                "cpu_ms": cpu * 1000 / PROFILED,
                "deals": [min(lengths), statistics.mean(lengths), max(lengths)],
                "shares": {label: phases[label] / total for label in phases},
            }
        )
    )


class Slots:
    """The rubbers a wrk thread posts into, as POST_LUA takes them: ``slots`` at once in turn,
    each slot's rubber until it holds its length, then the next of ``rubbers`` (id, next deal
    number, length)."""

    def __init__(self, rubbers: list[tuple[int, int, int]], slots: int) -> None:
        self.queue = iter(rubbers)
        self.slots: list[list[int] | None] = [None] * slots
        self.i = 0

    def take(self) -> tuple[int, int]:
        """(rubber id, deal number) of the next request."""
        at = self.i % len(self.slots)
        self.i += 1
        slot = self.slots[at]
        if slot is None or slot[1] > slot[2]:
            slot = self.slots[at] = list(next(self.queue))
        slot[1] += 1
        return slot[0], slot[1] - 1


def _in_play() -> list[tuple[int, int]]:
    """(rubber id, next deal number) of every in-play rubber of the growing workload."""
    out = psql(
        "SELECT r.id, count(d.id) + 1 FROM games_rubber r JOIN clubs_session s ON s.id = "
        "r.session_id JOIN clubs_club c ON c.id = s.club_id LEFT JOIN games_deal d ON "
        "d.rubber_id = r.id WHERE r.status = 'in_play' AND c.slug LIKE 'http%' "
        f"AND c.slug <> '{REAL_CLUB}' GROUP BY r.id ORDER BY r.id",
        DB,
    )
    return [tuple(map(int, line.split("|"))) for line in out.splitlines()]  # type: ignore[misc]


def _lengths() -> list[int]:
    """The seeded complete rubbers' deal counts, by rubber id: the real-length workload's
    lengths (a rubber ends when a side has won two games, RULES 2.4)."""
    out = psql(
        "SELECT count(d.id) FROM games_rubber r JOIN clubs_session s ON s.id = r.session_id "
        "JOIN clubs_club c ON c.id = s.club_id JOIN games_deal d ON d.rubber_id = r.id "
        "WHERE r.status = 'complete' AND r.kind = 'rubber' AND c.slug LIKE 'http%' "
        "GROUP BY r.id ORDER BY r.id",
        DB,
    )
    return [int(n) for n in out.split()]


def _real(lengths: list[int]) -> list[tuple[int, int, int, int]]:
    """(rubber id, next deal number, length, session id) of every in-play rubber of
    ``REAL_CLUB``. A rubber's length is ``lengths[id // 2]`` (cyclically): the POST's rubber
    2k (even ids are the POST's) and the floor's 2k + 1 have the same length."""
    out = psql(
        "SELECT r.id, count(d.id) + 1, r.session_id FROM games_rubber r JOIN clubs_session s "
        "ON s.id = r.session_id JOIN clubs_club c ON c.id = s.club_id LEFT JOIN games_deal d "
        f"ON d.rubber_id = r.id WHERE r.status = 'in_play' AND c.slug = '{REAL_CLUB}' "
        "GROUP BY r.id ORDER BY r.id",
        DB,
    )
    found = []
    for line in out.splitlines():
        rubber, number, session = map(int, line.split("|"))
        found.append((rubber, number, lengths[rubber // 2 % len(lengths)], session))
    return found


def _rubbers(workload: str, floor: bool) -> list[tuple[int, int, int]]:
    """(rubber id, next deal number, length) of the rubbers the POST (or the floor) posts
    into: in the growing workload every other in-play rubber, endless; in the real-length one
    the rubbers of its side (even ids the POST's, odd the floor's) not yet at their length."""
    if workload == "growing":
        return [(r, n, ENDLESS) for r, n in _in_play()[1 if floor else 0 :: 2]]
    return [(r, n, cap) for r, n, cap, _ in _real(_lengths()) if r % 2 == floor and n <= cap]


def _deal_count() -> int:
    return int(psql("SELECT count(*) FROM games_deal", DB))


# --- wrk ------------------------------------------------------------------------------------------

#: Each thread reads its half of the rubbers (every other line of the data file: id, next deal
#: number, length) and posts into ``slots`` of them at once in turn (``Slots`` in Python); when
#: none is left for a slot it posts with no token (a 401, counted) rather than lengthen one.
POST_LUA = """
local downs = {@DOWNS@}
local token = "@TOKEN@"
local prefix, suffix = "@PREFIX@", "@SUFFIX@"
local nslots = @SLOTS@
local counter = 0
local threads = {}
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
local queue, slots = {}, {}
local taken = 0
local i = 0
local checked = false
-- globals, read by done() from each thread
began, exhausted, sent, deals = 0, 0, 0, 0
function init(args)
  local k = 0
  for line in io.lines("@DATA@") do
    if k % 2 == tid then
      local r, n, cap = line:match("(%d+) (%d+) (%d+)")
      table.insert(queue, {tonumber(r), tonumber(n), tonumber(cap)})
    end
    k = k + 1
  end
end
function request()
  -- wrk calls request() once in the first thread before the run to check the script, and
  -- sends nothing (wrk.c, script_verify_request): that call must not use up a deal number.
  if tid == 0 and not checked then
    checked = true
    return wrk.format("GET", "/bench/plain")
  end
  i = i + 1
  local s = (i - 1) % nslots + 1
  local r = slots[s]
  if r == nil or r[2] > r[3] then
    r = queue[taken + 1]
    if r == nil then
      exhausted = exhausted + 1
      return wrk.format("POST", "/api/v1/rubbers/0/deals/")
    end
    taken = taken + 1
    began = began + 1
    slots[s] = r
  end
  local n = r[2]
  r[2] = n + 1
  sent = sent + 1
  deals = deals + n
  local d = downs[(n % #downs) + 1]
  local body = string.format(
    '{"number": %d, "contract": "%s", "declarer": "%s", "tricks": %d}', n, d[1], d[2], d[3])
  return wrk.format("POST", prefix .. r[1] .. suffix,
    {["Authorization"] = "Token " .. token, ["Content-Type"] = "application/json"}, body)
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    io.write(string.format("thread %d: began %d exhausted %d sent %d deals %d\\n",
      t:get("tid"), t:get("began"), t:get("exhausted"), t:get("sent"), t:get("deals")))
  end
end
"""


def _ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(path: str, duration: int, script: str | None = None) -> dict[str, float]:
    args = ["wrk", "-t2", "-c8", f"-d{duration}s", "--latency"]
    if script:
        args += ["-s", script]
    out = subprocess.run(
        [*args, f"http://127.0.0.1:{PORT}{path}"], check=True, capture_output=True, text=True
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    found = {
        "rps": rps,
        "p50_ms": p50,
        "p99_ms": p99,
        "requests": total,
        "non_2xx": int(bad.group(1)) if bad else 0,
        "socket_errors": errors.group(1) if errors else "",
    }
    # POST_LUA's count of each thread: rubbers begun, requests with no rubber left, deals sent
    # and the sum of their numbers (the deals of the rubber each answer holds).
    threads = re.findall(
        r"^thread \d+: began (\d+) exhausted (\d+) sent (\d+) deals (\d+)$", out, re.M
    )
    if threads:
        for i, name in enumerate(("began", "exhausted", "sent", "deals_sum")):
            found[name] = sum(int(t[i]) for t in threads)
    return found


def measured(server: int, path: str, duration: int, script: str | None = None) -> dict:
    """``wrk`` with the server's CPU over the run: its workers' and the database backends'
    serving it (sampled from /proc), per request answered."""
    cpu = ServerCpu(lambda: {"web": children(server), "db": backends(DB)}, interval=0.5)
    cpu.start()
    try:
        result: dict = wrk(path, duration, script)
    finally:
        used = cpu.stop()
    answered = max(result["requests"], 1)
    result["cpu_ms"] = used["total"] * 1000 / answered
    result["web_cpu_ms"] = used["web"] * 1000 / answered
    result["db_cpu_ms"] = used["db"] * 1000 / answered
    result["server_share"] = used["share"]
    return result


def post_round(
    server: int,
    token: str,
    duration: int,
    lua_dir: Path,
    floor: bool = False,
    workload: str = "growing",
) -> dict[str, float]:
    """A round of deals: each request the next deal of a rubber of the workload (``_rubbers``),
    through the API, or with ``floor`` through the floor (config/plain.py: the same rows
    written, nothing else)."""
    # The floor writes into rubbers of its own (every other one): its deals must not lengthen
    # the rubbers the POST scores and answers.
    rubbers = _rubbers(workload, floor)
    name = f"{workload}-{'floor' if floor else 'post'}"
    data = lua_dir / f"{name}.txt"
    data.write_text("".join(f"{r} {n} {cap}\n" for r, n, cap in rubbers))
    script = lua_dir / f"{name}.lua"
    fields = {
        "@DOWNS@": ", ".join(f'{{"{c}", "{d}", {t}}}' for c, d, t in DOWNS),
        "@TOKEN@": token,
        "@PREFIX@": "/bench/floor/" if floor else "/api/v1/rubbers/",
        "@SUFFIX@": "/" if floor else "/deals/",
        "@SLOTS@": str(SLOTS),
        "@DATA@": str(data),
    }
    lua = POST_LUA
    for key, value in fields.items():
        lua = lua.replace(key, value)
    script.write_text(lua)
    before = _deal_count()
    result = measured(server, "/api/v1/rubbers/0/deals/", duration, str(script))
    time.sleep(0.5)
    result["deals_stored"] = _deal_count() - before
    result["rubbers"] = len(rubbers)
    # The deals of the rubber each answer holds, on average (the deal's own included).
    result["answered_deals"] = result["deals_sum"] / max(result["sent"], 1)
    if workload == "real":  # none may be longer than its length
        result["over_length"] = sum(n - 1 > cap for _, n, cap, _ in _real(_lengths()))
    return result


# --- the driver ----------------------------------------------------------------------------------


def _wait_up(url: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer")


def prepare(workloads: list[str], deals: int) -> tuple[str, dict]:
    """The scratch database, seeded once, and the set-up of a run: its URL and what the set-up
    printed (a director's token, the club and the rubber measured, the leaderboard's rows),
    with the real-length workload's ``deals`` a side (``prepare_real``)."""
    url = scratch_database(DB)
    if int(psql("SELECT count(*) FROM clubs_club WHERE slug LIKE 'http%'", DB)) == 0:
        print("  seeding 3 clubs of 50 players (a few minutes)", flush=True)
        manage(
            url,
            "seed_synthetic",
            "--clubs",
            "3",
            "--players",
            "50",
            "--seed",
            "5",
            "--prefix",
            "http",
            "--no-progress",
        )
    setup = subprocess.run(
        [PYTHON, __file__, "--worker", "setup"],
        env=django_env(url),
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    info = json.loads(setup.stdout.strip().splitlines()[-1])
    if "real" in workloads:
        info["real"] = prepare_real(url, deals)
    # Bulk-loaded rows have no planner statistics until ANALYZE (autovacuum may be off).
    psql("ANALYZE", DB)
    return url, info


def prepare_real(url: str, deals: int) -> dict:
    """Rubbers of real length enough for ``deals`` requests on each side (the POST's, the
    floor's): the sessions whose rubbers are all at their length closed, sessions of fresh
    rubbers started (``_setup_real``). Returns what each side can still take."""
    lengths = _lengths()
    per_session = TABLES // 2 * statistics.mean(lengths)  # a side's deals in a new session
    for _ in range(3):
        rubbers = _real(lengths)
        open_ = {session for _, n, cap, session in rubbers if n <= cap}
        close = sorted({session for *_, session in rubbers} - open_)
        room = [
            sum(cap - n + 1 for r, n, cap, _ in rubbers if r % 2 == side and n <= cap)
            for side in (0, 1)
        ]
        short = deals - min(room)
        sessions = math.ceil(short / per_session) + 1 if short > 0 else 0
        if not sessions and not close:
            break
        print(
            f"  real-length rubbers: closing {len(close)} sessions, starting {sessions}", flush=True
        )
        subprocess.run(
            [
                *(PYTHON, __file__, "--worker", "real"),
                *("--close", ",".join(map(str, close)), "--sessions", str(sessions)),
            ],
            env=django_env(url),
            cwd=ROOT,
            check=True,
        )
    else:
        raise SystemExit("the real-length set-up did not make enough rubbers")
    return {
        "lengths": [min(lengths), statistics.mean(lengths), max(lengths), len(lengths)],
        "room": room,
        "wanted": deals,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument(
        "--workloads",
        default="growing,real",
        help="the POST's workloads, each against its floor: growing, real, or both (default)",
    )
    parser.add_argument(
        "--most-rate",
        type=int,
        default=1000,
        help="requests a second the real-length set-up makes rubbers for (default 1000: above "
        "the plain JSON's rate on a 2-core machine, which no write reaches)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--close", default="", help=argparse.SUPPRESS)
    parser.add_argument("--sessions", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if args.worker == "setup":
        _setup()
        return 0
    if args.worker == "real":
        _setup_real([int(pk) for pk in args.close.split(",") if pk], args.sessions)
        return 0
    if args.worker == "profile":
        _profile(os.environ["BENCH_TOKEN"], os.environ["BENCH_WORKLOAD"])
        return 0
    workloads = args.workloads.split(",")
    if not workloads or set(workloads) - {"growing", "real"}:
        parser.error("--workloads: growing, real, or growing,real")
    start = machine()
    # Every round (the warm-up too) may post at the most rate for the whole run, and the
    # profile posts 30 + PROFILED more (the POST's side).
    wanted = math.ceil((args.runs + 1) * args.duration * args.most_rate * MARGIN)
    url, info = prepare(workloads, wanted + 30 + PROFILED)
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", PORT)) == 0:
            raise SystemExit(f"port {PORT} is busy")
    server = subprocess.Popen(
        [
            str(Path(PYTHON).parent / "gunicorn"),
            "-c",
            "config/gunicorn.py",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=django_env(url, **SERVER_ENV),
        stdout=subprocess.DEVNULL,
    )
    paths = {
        "plain": "/bench/plain",
        "leaderboard": f"/api/v1/clubs/{info['club']}/leaderboard",
        "scoresheet": f"/api/v1/rubbers/{info['rubber']}/",
    }
    rounds: list[dict[str, dict[str, float]]] = []
    try:
        _wait_up(f"http://127.0.0.1:{PORT}/bench/plain")
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(args.runs + 1):
                row = {
                    name: measured(server.pid, path, args.duration) for name, path in paths.items()
                }
                for workload in workloads:
                    for floor in (False, True):
                        name = ("floor" if floor else "post") + SUFFIX[workload]
                        row[name] = post_round(
                            server.pid, info["token"], args.duration, Path(tmp), floor, workload
                        )
                label = "warm-up" if n == 0 else f"run {n}"
                print(
                    f"  {label}: " + ", ".join(_said_round(k, v) for k, v in row.items()),
                    flush=True,
                )
                if n:
                    rounds.append(row)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    result = summarise(rounds)
    end = load()
    short = [name for name, r in result.items() if r.get("exhausted")]
    if short:  # those rounds posted fewer deals than they were asked: not comparable
        print(f"  WARNING: {', '.join(short)} ran out of rubbers: raise --most-rate", flush=True)
    OUT.write_text(
        json.dumps({"rounds": rounds, **result, "start": start, "end": end, "info": info}, indent=1)
    )
    for workload in workloads:
        result["profile" + SUFFIX[workload]] = profile(url, info["token"], workload)
    OUT.write_text(
        json.dumps({"rounds": rounds, **result, "load_end": end, "info": info}, indent=1)
    )
    if not args.no_write:
        write(result, info, rounds, start, end, args)
    return 0


#: The names of a workload's POST and floor in a round (``post``, ``post_real``...).
SUFFIX = {"growing": "", "real": "_real"}


def _said_round(name: str, r: dict) -> str:
    said = f"{name} {r['rps']:.0f}/s p99 {r['p99_ms']:.1f} ms {r['cpu_ms']:.2f} ms CPU"
    if "sent" in r:
        said += (
            f" ({r['deals_stored']} stored of {r['requests']} answered, non-2xx {r['non_2xx']}, "
            f"{r['began']} rubbers begun, {r['exhausted']} without one, "
            f"{r['answered_deals']:.1f} deals a rubber answered"
        )
        said += f", {r['over_length']} over length)" if "over_length" in r else ")"
    return said


def _growth(post: dict, runs: int) -> int:
    """Deals added to each in-play rubber in a measured round, on average."""
    return round(post["deals_stored"] / runs / post["rubbers"])


def profile(url: str, token: str, workload: str) -> dict:
    """``_profile`` in a process of its own, on the server's settings."""
    env = django_env(url, **SERVER_ENV, BENCH_TOKEN=token, BENCH_WORKLOAD=workload)
    done = subprocess.run(
        [PYTHON, __file__, "--worker", "profile"],
        env=env,
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        print(done.stderr[-2000:], flush=True)
        return {}
    found: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def summarise(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Each endpoint's medians over the rounds; its ratios to the baseline are the medians of each
    round's ratio: by requests a second (``ratio``) and by the server's CPU per request
    (``cpu_ratio``: the baseline's CPU per request over the endpoint's). Each workload's POST is
    also set against its floor (``floor_ratio``, ``floor_cpu``: the POST's CPU per request over
    the floor's)."""
    out = {}
    for name in rounds[0]:
        out[name] = {
            "rps": statistics.median(r[name]["rps"] for r in rounds),
            "p50_ms": statistics.median(r[name]["p50_ms"] for r in rounds),
            "p99_ms": statistics.median(r[name]["p99_ms"] for r in rounds),
            "cpu_ms": statistics.median(r[name]["cpu_ms"] for r in rounds),
            "db_cpu_ms": statistics.median(r[name]["db_cpu_ms"] for r in rounds),
            "ratio": statistics.median(r[name]["rps"] / r["plain"]["rps"] for r in rounds),
            "cpu_ratio": statistics.median(
                r["plain"]["cpu_ms"] / r[name]["cpu_ms"] for r in rounds
            ),
            "non_2xx": sum(r[name]["non_2xx"] for r in rounds),
            "requests": sum(r[name]["requests"] for r in rounds),
        }
    for suffix in SUFFIX.values():
        post, floor = "post" + suffix, "floor" + suffix
        if post not in out:
            continue
        for name in (post, floor):
            for key in ("deals_stored", "began", "exhausted"):
                out[name][key] = sum(r[name][key] for r in rounds)
            out[name]["rubbers"] = rounds[0][name]["rubbers"]
            out[name]["answered_deals"] = statistics.median(
                r[name]["answered_deals"] for r in rounds
            )
            if "over_length" in rounds[-1][name]:
                out[name]["over_length"] = rounds[-1][name]["over_length"]
        out[post]["floor_ratio"] = statistics.median(
            r[post]["rps"] / r[floor]["rps"] for r in rounds
        )
        out[post]["floor_cpu"] = statistics.median(
            r[post]["cpu_ms"] / r[floor]["cpu_ms"] for r in rounds
        )
    return out


def _said(met: bool) -> str:
    return "met" if met else "**MISSED**"


def verdict(name: str, r: dict[str, float]) -> str:
    """The target's line for an endpoint: met or missed by CPU per request and by requests a
    second (the POST: also its p99, or within ``FLOOR_FACTOR`` of its floor)."""
    target = TARGETS.get(name.removesuffix(SUFFIX["real"]))
    if target is None:
        return ""
    said = f"≥ {target}×: by CPU {_said(r['cpu_ratio'] >= target)}, by req/s "
    if not name.startswith("post"):
        return said + _said(r["ratio"] >= target)
    floor = r["floor_cpu"] <= FLOOR_FACTOR and r["floor_ratio"] >= 1 / FLOOR_FACTOR
    return (
        said + f"{_said(r['ratio'] >= target)}; p99 < 100 ms: {_said(r['p99_ms'] < P99_POST_MS)}; "
        f"or within {FLOOR_FACTOR}× of its floor: {_said(floor)}"
    )


def write(
    result: dict, info: dict, rounds: list, start: str, end: str, args: argparse.Namespace
) -> None:
    if "post" not in result:
        raise SystemExit("the section reports the growing workload: run it, or --no-write")
    names = {
        "plain": "plain JsonResponse `/bench/plain` (baseline)",
        "leaderboard": f"club leaderboard, {info['rows']} rows",
        "scoresheet": "a rubber's scoresheet (6 deals)",
        "post": "POST a deal (each a real new deal)",
        "floor": "the POST's floor `/bench/floor/<rubber>/` (its writes alone)",
        "post_real": "rubbers of real length: POST a deal",
        "floor_real": "rubbers of real length: the POST's floor",
    }
    lines = [
        f"Command: `.venv/bin/python bench/bench_http.py` (also run by `make bench`). Date: "
        f"{today()}. Machine: {start}; load average (1 / 5 / 15 minutes) at the end {end}. "
        "The web server as `make serve` runs it (config/gunicorn.py: "
        "2 uvicorn workers, ASGI, a pool of kept connections), DEBUG off, "
        "PostgreSQL, Redis as cache and broker (no Celery "
        f"worker running), wrk `-t2 -c8 -d{args.duration}s --latency` on the same 2 cores as the "
        f"server; each endpoint in turn within a round; medians of {args.runs} rounds after a "
        "warm-up round. Ratios: the endpoint's over the baseline's in the same round (median of "
        "the rounds' ratios), by requests a second and by the server's CPU per request (the "
        "baseline's CPU per request over the endpoint's: the web workers' and the PostgreSQL "
        "backends' serving them, from /proc, wrk's own excluded). On a loaded machine the CPU "
        "ratio is the steadier one: it does not count the time spent waiting for a core.",
        "",
        "| endpoint | req/s | × plain | CPU per request (PostgreSQL's) | × plain by CPU | target "
        "| p50 | p99 | non-2xx |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, label in names.items():
        if name not in result:
            continue
        r = result[name]
        lines.append(
            f"| {label} | {r['rps']:.0f} | {r['ratio']:.2f} | {r['cpu_ms']:.2f} ms "
            f"({r['db_cpu_ms']:.2f} ms) | {r['cpu_ratio']:.2f} | {verdict(name, r)} | "
            f"{r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | {r['non_2xx']} |"
        )
    post = result["post"]
    lines += [
        "",
        f"POST against its floor: {post['floor_ratio']:.2f}× the floor's requests a second, "
        f"{post['floor_cpu']:.2f}× its CPU per request (goal: within {FLOOR_FACTOR}×, i.e. at "
        f"least {1 / FLOOR_FACTOR:.2f}× its rate and at most {FLOOR_FACTOR}× its CPU).",
        "",
        f"POST: wrk answered {post['requests']:,} requests over the {args.runs} rounds and "
        f"{post['deals_stored']:,} new deals were stored (a request still in flight when wrk "
        "stops is stored but not counted: at most one per connection, 8 a round). Each "
        "request enters the next deal number of one of the in-play rubbers (each wrk thread its "
        "own half, so no two requests for a rubber are in flight at once; a contract that goes "
        "down, so the rubber never ends); wrk does not retry. Answers other than 201: "
        f"{post['non_2xx']}. Every run starts from fresh rubbers (the set-up closes the "
        "sessions an earlier run played in and starts new ones); the in-play rubbers grow by "
        f"~{_growth(post, args.runs)} deals a round, so later rounds score longer rubbers. Each "
        "entry reads the token with its user, checks the entry, locks the rubber (with its "
        "seated players), reads its deals, re-scores it, writes the deal and its history in "
        "one statement, reads the pad's new version for the push's event after the commit, "
        "then marks the session's standings stale, claims one coalesced refresh "
        "and revises the leaderboard in one statement, and answers with the whole rubber "
        "(scoresheet and explanations) from what it read under the lock: 9 statements for the "
        "director's token posting here, as for a seated player's "
        "(tests/integration/test_deal_statements.py). "
        "The floor writes the same rows in the same two transactions (the rubber locked, the "
        "deal and its history row in one statement; the standings and the leaderboard's "
        "revision), with no token, check, scoring or answer: 5 statements, BEGIN and COMMIT "
        "counted as in the "
        f"POST's; {result['floor']['deals_stored']:,} "
        "deals stored through it, into rubbers of its own (every other in-play rubber; the POST "
        "posts into the others).",
    ]
    if "post_real" in result:
        post, real = result["post_real"], info["real"]
        lines += [
            "",
            f"Into rubbers of real length, the POST at {post['floor_ratio']:.2f}× its floor's "
            f"requests a second and {post['floor_cpu']:.2f}× its CPU per request (within "
            f"{FLOOR_FACTOR}×: {_said(post['floor_cpu'] <= FLOOR_FACTOR)} by CPU). Each rubber "
            "takes at most its length, that of a seeded complete rubber (a side wins two games, "
            f"RULES 2.4: {real['lengths'][0]} to {real['lengths'][2]} deals, "
            f"{real['lengths'][1]:.1f} on average, over {real['lengths'][3]:,} rubbers), then "
            f"the wrk thread's slot ({SLOTS} a thread) takes a fresh in-play rubber; the floor "
            "writes into rubbers of its own of the same lengths. The answers held rubbers of "
            f"{post['answered_deals']:.1f} deals on average (the growing workload's "
            f"{result['post']['answered_deals']:.1f}). POST: {post['requests']:,} answered, "
            f"{post['deals_stored']:,} stored, {post['non_2xx']} other than 201, "
            f"{post['began']:,} rubbers begun, {post['exhausted']} requests found no rubber "
            f"left; the floor: {result['floor_real']['deals_stored']:,} stored, "
            f"{result['floor_real']['began']:,} rubbers begun, "
            f"{result['floor_real']['exhausted']} found none.",
        ]
    found = result["profile"]
    if not found:
        write_section(SECTION, "\n".join([*lines, "", "The profile of the POST failed."]))
        return
    lines += [
        "",
        f"Where a POST's CPU goes (`--worker profile`: {found['posts']} POSTs by a token into the "
        "in-play rubbers in one process through Django's test client, the server's settings, "
        f"cProfile; {found['cpu_ms']:.1f} ms of CPU a POST under the profiler, PostgreSQL's "
        "own not included): each phase with what it calls, as a share of the profiled time.",
        "",
        "| phase | share |",
        "|---|---|",
        *(f"| {label.strip()} | {share:.0%} |" for label, share in found["shares"].items()),
    ]
    write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    if "profile" not in sys.argv:  # the profile runs on the server's settings, Redis included
        os.environ.pop("REDIS_URL", None)
    sys.exit(main())
