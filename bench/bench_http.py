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
  (the next number of one of 120 in-play rubbers, each thread its own rubbers, a contract that
  goes down so the rubber stays in play); the deals stored are counted against wrk's answers.

Scratch database ``backscore_bench_http`` (seeded once: 3 clubs of 50 players, ~50k deals); each
run closes the sessions an earlier run posted into and starts fresh ones, so runs compare. The
write throttle is off for the server (``THROTTLE_WRITES=off``). Writes the "HTTP" section of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
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
    django_env,
    machine,
    manage,
    psql,
    scratch_database,
    setup_django,
    today,
    write_section,
)

DB = "backscore_bench_http"
PORT = 8765
SECTION = "HTTP on loopback (gunicorn, PostgreSQL, wrk)"
TARGETS = {"leaderboard": 0.5, "scoresheet": 0.3, "post": 0.1}
P99_POST_MS = 100.0
DOWNS = [("4S", "N", 9), ("3NT", "E", 8), ("2H", "S", 7), ("5C", "W", 10)]
SERVER_ENV = {
    "DEBUG": "false",
    "BENCH_PLAIN": "true",  # the baseline, /bench/plain
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "SECURE_SSL_REDIRECT": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "REDIS_URL": "redis://127.0.0.1:6379/14",
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
        Club.objects.filter(slug__startswith="http").exclude(slug="httppost").order_by("pk")
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
    session_start(session=session)
    scoresheet = (
        Rubber.objects.filter(session__club=clubs[0], status="complete")
        .annotate(n=Count("deals"))
        .filter(n=6)
        .values_list("pk", flat=True)
        .first()
    )
    rows = SessionStanding.objects.filter(club=clubs[0]).values("player").distinct().count()
    print(json.dumps({"token": token, "club": clubs[0].slug, "rubber": scoresheet, "rows": rows}))


def _in_play() -> list[tuple[int, int]]:
    """(rubber id, next deal number) of every in-play rubber of the bench clubs."""
    out = psql(
        "SELECT r.id, count(d.id) + 1 FROM games_rubber r JOIN clubs_session s ON s.id = "
        "r.session_id JOIN clubs_club c ON c.id = s.club_id LEFT JOIN games_deal d ON "
        "d.rubber_id = r.id WHERE r.status = 'in_play' AND c.slug LIKE 'http%' "
        "GROUP BY r.id ORDER BY r.id",
        DB,
    )
    return [tuple(map(int, line.split("|"))) for line in out.splitlines()]  # type: ignore[misc]


def _deal_count() -> int:
    return int(psql("SELECT count(*) FROM games_deal", DB))


# --- wrk ------------------------------------------------------------------------------------------

POST_LUA = """
local rubbers = {%(rubbers)s}
local downs = {%(downs)s}
local token = "%(token)s"
local threads = 0
function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end
local mine = {}
local i = 0
local checked = false
function init(args)
  for k = 1, #rubbers do
    if (k - 1) %% 2 == tid then table.insert(mine, rubbers[k]) end
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
  local r = mine[(i - 1) %% #mine + 1]
  local n = r[2]
  r[2] = n + 1
  local d = downs[(n %% #downs) + 1]
  local body = string.format(
    '{"number": %%d, "contract": "%%s", "declarer": "%%s", "tricks": %%d}', n, d[1], d[2], d[3])
  return wrk.format("POST", "/api/v1/rubbers/" .. r[1] .. "/deals/",
    {["Authorization"] = "Token " .. token, ["Content-Type"] = "application/json"}, body)
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
    return {
        "rps": rps,
        "p50_ms": p50,
        "p99_ms": p99,
        "requests": total,
        "non_2xx": int(bad.group(1)) if bad else 0,
        "socket_errors": errors.group(1) if errors else "",
    }


def post_round(token: str, duration: int, lua_dir: Path) -> dict[str, float]:
    rubbers = _in_play()
    script = lua_dir / "post.lua"
    script.write_text(
        POST_LUA
        % {
            "rubbers": ", ".join(f"{{{r}, {n}}}" for r, n in rubbers),
            "downs": ", ".join(f'{{"{c}", "{d}", {t}}}' for c, d, t in DOWNS),
            "token": token,
        }
    )
    before = _deal_count()
    result = wrk("/api/v1/rubbers/0/deals/", duration, str(script))
    time.sleep(0.5)
    result["deals_stored"] = _deal_count() - before
    result["rubbers"] = len(rubbers)
    return result


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


def prepare() -> tuple[str, dict]:
    """The scratch database, seeded once, and the set-up of a run: its URL and what the set-up
    printed (a director's token, the club and the rubber measured, the leaderboard's rows)."""
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
    # Bulk-loaded rows have no planner statistics until ANALYZE (autovacuum may be off).
    psql("ANALYZE", DB)
    return url, info


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if args.worker == "setup":
        _setup()
        return 0
    start = machine()
    url, info = prepare()
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
                row = {name: wrk(path, args.duration) for name, path in paths.items()}
                row["post"] = post_round(info["token"], args.duration, Path(tmp))
                label = "warm-up" if n == 0 else f"run {n}"
                print(
                    f"  {label}: "
                    + ", ".join(
                        f"{k} {v['rps']:.0f}/s p99 {v['p99_ms']:.1f} ms" for k, v in row.items()
                    ),
                    flush=True,
                )
                if n:
                    rounds.append(row)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    result = summarise(rounds)
    Path("/tmp/bench-http.json").write_text(json.dumps({"rounds": rounds, **result}, indent=1))
    if not args.no_write:
        write(result, info, rounds, start, args)
    return 0


def _growth(post: dict, runs: int) -> int:
    """Deals added to each in-play rubber in a measured round, on average."""
    return round(post["deals_stored"] / runs / post["rubbers"])


def summarise(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    out = {}
    for name in rounds[0]:
        out[name] = {
            "rps": statistics.median(r[name]["rps"] for r in rounds),
            "p50_ms": statistics.median(r[name]["p50_ms"] for r in rounds),
            "p99_ms": statistics.median(r[name]["p99_ms"] for r in rounds),
            "ratio": statistics.median(r[name]["rps"] / r["plain"]["rps"] for r in rounds),
            "non_2xx": sum(r[name]["non_2xx"] for r in rounds),
            "requests": sum(r[name]["requests"] for r in rounds),
        }
    out["post"]["deals_stored"] = sum(r["post"]["deals_stored"] for r in rounds)
    out["post"]["rubbers"] = rounds[0]["post"]["rubbers"]
    return out


def write(result: dict, info: dict, rounds: list, start: str, args: argparse.Namespace) -> None:
    names = {
        "plain": "plain JsonResponse `/bench/plain` (baseline)",
        "leaderboard": f"club leaderboard, {info['rows']} rows",
        "scoresheet": "a rubber's scoresheet (6 deals)",
        "post": "POST a deal (each a real new deal)",
    }
    lines = [
        f"Command: `.venv/bin/python bench/bench_http.py` (also run by `make bench`). Date: "
        f"{today()}. Machine: {start}. The web server as `make serve` runs it (config/gunicorn.py: "
        "2 uvicorn workers, ASGI, a pool of kept connections), DEBUG off, "
        "PostgreSQL, Redis as cache and broker (no Celery "
        f"worker running), wrk `-t2 -c8 -d{args.duration}s --latency` on the same 2 cores as the "
        f"server; each endpoint in turn within a round; medians of {args.runs} rounds after a "
        "warm-up round. Ratio: the endpoint's requests per second over the baseline's in the same "
        "round (median of the rounds' ratios).",
        "",
        "| endpoint | req/s | × plain | target | p50 | p99 | non-2xx |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, label in names.items():
        r = result[name]
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            met = r["ratio"] >= target and (name != "post" or r["p99_ms"] < P99_POST_MS)
            extra = ", p99 < 100 ms" if name == "post" else ""
            verdict = f"≥ {target}×{extra}: " + ("met" if met else "**MISSED**")
        lines.append(
            f"| {label} | {r['rps']:.0f} | {r['ratio']:.2f} | {verdict} | {r['p50_ms']:.1f} ms | "
            f"{r['p99_ms']:.1f} ms | {r['non_2xx']} |"
        )
    post = result["post"]
    lines += [
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
        "entry locks the rubber, re-scores it, marks the session's standings stale and queues "
        "one coalesced refresh, then answers with the whole rubber (scoresheet and "
        "explanations) from what it read under the lock.",
    ]
    write_section(SECTION, "\n".join(lines))


if __name__ == "__main__":
    os.environ.pop("REDIS_URL", None)
    sys.exit(main())
