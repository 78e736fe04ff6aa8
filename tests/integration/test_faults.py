"""PostgreSQL restarted under load (issue 9; docs/operations.md).

A THROWAWAY PostgreSQL cluster (initdb into a temp dir, port 5439) serves gunicorn (2 workers)
while clients keep entering deals. The cluster is stopped: every request gets a clean 503 (JSON
for the API), never a 500. It is started again: the same gunicorn recovers without a restart,
and the stored deals are whole (contiguous numbers, one history row each, every acknowledged
deal present). The system PostgreSQL and Redis are never touched.

The other faults of the issue are proven in tests/integration/test_standings.py (a Celery
worker killed mid-task converges; Redis stopped during entry: no 5xx, standings stale, then
converge).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, missing, wait_for
from tests.integration.test_concurrency import call, free_port, gunicorn, stop

pytestmark = [pytest.mark.integration]

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
PORT = 5439
SETUP = """
from knox.models import AuthToken
from tests.factories import UserFactory, add_player, make_club, make_session
director = UserFactory(username="td")
club = make_club(director=director, slug="faulty")
players = [add_player(club, f"P{i}") for i in range(4)]
session = make_session(club, [players])
print(AuthToken.objects.create(user=director)[1], session.rubbers.get().pk)
"""


def _down_one(number: int) -> dict[str, Any]:
    """The same deal for the same number (racing clients' retries are idempotent), one that goes
    down, so the rubber stays in play however many deals the server takes before the stop."""
    return {"number": number, "contract": "3NT", "declarer": "N", "tricks": 8}


def _pg(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=60, **kw)


@pytest.fixture
def pg_dir() -> Iterator[Path]:
    """A directory the postgres user can reach (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="backscore-pg-"))
    if os.geteuid() == 0:
        shutil.chown(path, "postgres")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def throwaway_postgres(pg_dir: Path) -> Iterator[tuple[Path, str]]:
    if not (PG_BIN / "initdb").exists():
        missing(f"no PostgreSQL binaries in {PG_BIN}")
    tmp_path = pg_dir
    data = tmp_path / "pg"
    user = {}
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
        user = {"user": "postgres"}
    _pg(str(PG_BIN / "initdb"), "-A", "trust", "-U", "postgres", "-D", str(data), **user)
    ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(tmp_path / "pg.log")]
    opts = f"-p {PORT} -c fsync=off -c listen_addresses=127.0.0.1 -k /tmp"
    _pg(*ctl, "-o", opts, "-w", "start", **user)
    try:
        _pg("psql", "-h", "127.0.0.1", "-p", str(PORT), "-U", "postgres", "-c",
            "CREATE DATABASE faults")  # fmt: skip
        yield data, opts
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True, timeout=60, **user)


def test_postgres_restart_gives_clean_503s_then_recovers(
    throwaway_postgres: tuple[Path, str], pg_dir: Path
) -> None:
    tmp_path = pg_dir
    data, opts = throwaway_postgres
    user = {"user": "postgres"} if os.geteuid() == 0 else {}
    ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(tmp_path / "pg.log")]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{PORT}/faults",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "REDIS_URL": "",
        "DEBUG": "False",
        "SECRET_KEY": "integration-test-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "False",
    }
    subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT, env=env, check=True, timeout=300, capture_output=True,
    )  # fmt: skip
    out = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "shell", "-c", SETUP],
        cwd=ROOT, env={**env, "DEBUG": "True"}, check=True, timeout=120, capture_output=True,
        text=True,
    )  # fmt: skip
    token, rubber_id = out.stdout.split()[-2:]
    port = free_port()
    web = gunicorn(env, port)
    base = f"http://127.0.0.1:{port}"
    statuses: Counter[tuple[str, int]] = Counter()
    acknowledged: set[int] = set()
    stop_at = [time.monotonic() + 120]
    lock = threading.Lock()

    def load() -> None:
        while time.monotonic() < stop_at[0]:
            try:
                status, rubber = call("GET", f"{base}/api/v1/rubbers/{rubber_id}/", token)
                with lock:
                    statuses[("get", status)] += 1
                if status != 200 or rubber["status"] != "in_play":
                    time.sleep(0.1)
                    continue
                number = len(rubber["deals"]) + 1
                body = _down_one(number)
                status, _ = call("POST", f"{base}/api/v1/rubbers/{rubber_id}/deals/", token, body)
                with lock:
                    statuses[("post", status)] += 1
                    if status == 201:
                        acknowledged.add(number)
            except OSError:
                time.sleep(0.1)

    try:
        wait_for(lambda: _status(f"{base}/healthz") == 200, timeout=30)
        threads = [threading.Thread(target=load) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(3)
        _pg(*ctl, "-m", "fast", "-w", "stop", **user)
        time.sleep(4)
        with lock:
            during = Counter(statuses)
        assert _status(f"{base}/healthz") == 503
        assert call("GET", f"{base}/api/v1/rubbers/{rubber_id}/", token)[0] == 503
        _pg(*ctl, "-o", opts, "-w", "start", **user)
        wait_for(lambda: _status(f"{base}/healthz") == 200, timeout=30)
        time.sleep(3)
        stop_at[0] = time.monotonic()
        for t in threads:
            t.join(timeout=30)
    finally:
        stop_at[0] = 0
        stop(web)

    assert not [k for k in statuses if k[1] >= 500 and k[1] != 503], statuses
    assert any(k[1] == 503 for k in during), during
    assert set(statuses) >= {("post", 201)}, statuses
    # The same gunicorn served writes again after the restart.
    after = Counter(statuses)
    after.subtract(during)
    assert after[("post", 201)] + after[("post", 200)] > 0, (during, statuses)
    # Nothing half-written: the deals are contiguous and each has its history row.
    rows = _psql(
        "SELECT d.number, (SELECT count(*) FROM games_historicaldeal h WHERE h.id = d.id) "
        f"FROM games_deal d WHERE d.rubber_id = {int(rubber_id)} ORDER BY d.number"
    )
    numbers = [int(r.split("|")[0]) for r in rows]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(int(r.split("|")[1]) >= 1 for r in rows)
    assert acknowledged <= set(numbers)


def _status(url: str) -> int | None:
    try:
        return call("GET", url)[0]
    except OSError:
        return None


def _psql(sql: str) -> list[str]:
    out = _pg("psql", "-h", "127.0.0.1", "-p", str(PORT), "-U", "postgres", "-d", "faults",
              "-tA", "-c", sql)  # fmt: skip
    return [line for line in out.stdout.splitlines() if line.strip()]


def test_with_postgres_unreachable_every_url_answers_503_with_retry_after() -> None:
    """DATABASE_URL names a port where nothing listens (issue 14, item 7): every page and endpoint
    of the URL conf, anonymous, with a session cookie and with an API token, answers 503 with
    Retry-After, never 500, including the pages whose middleware reads the club's language
    before the view runs. Only what needs no database at all (the schema, the sign-in page, an
    anonymous client sent to sign in) answers otherwise."""
    from tests.security.test_permission_matrix import ADMIN_PREFIX, MATRIX, _sample, all_routes

    port = free_port()
    dead = free_port()  # bound and closed again: nothing listens there
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{dead}/gone",
        "REDIS_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "true",
    }
    # Pages link the static files through the manifest when DEBUG is off.
    subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT, env={**env, "DEBUG": "False", "SECRET_KEY": "x" * 50}, check=True, timeout=300,
        capture_output=True,
    )  # fmt: skip
    web = gunicorn(env, port)
    try:
        wait_for(lambda: _raw(port, "GET", "/accounts/login/", {})[0] == 200, timeout=30)
        answers = []
        for route, name in all_routes():
            if route.startswith(ADMIN_PREFIX):
                continue
            path = "/" + _sample(route)
            for method in MATRIX[name].expect:
                for who, headers in (
                    ("anonymous", {}),
                    ("session", {"Cookie": "sessionid=abcdefghijklmnopqrstuvwxyz012345"}),
                    ("token", {"Authorization": "Token " + "0" * 64}),
                ):
                    status, retry_after = _raw(port, method, path, headers)
                    answers.append((name, method, path, who, status, retry_after))
    finally:
        stop(web)
    # Never a 5xx other than the 503 (a 4xx that needs no database, such as a missing CSRF
    # token or an anonymous write, may come first).
    wrong = [a for a in answers if a[4] >= 500 and not (a[4] == 503 and a[5])]
    assert not wrong, wrong
    # Every read of an object (an id or a slug in the path) and every API read is a 503.
    reads = [
        a
        for a in answers
        if a[1] == "GET" and ("/1/" in a[2] or "/x/" in a[2] or "/api/v1/" in a[2])
    ]
    assert {a[2] for a in reads} >= {
        "/rubbers/1/",
        "/clubs/x/",
        "/sessions/1/standings/",
        "/players/1/history/",
    }
    # (An anonymous read of a signed-in user's own list is refused before any query: 401; a
    # director's page sends a client with no session to sign in, before any query: 302.)
    refused = [
        a
        for a in reads
        if not (a[4] == 503 and a[5])
        and (a[3], a[4]) != ("anonymous", 401)
        and not (a[3] != "session" and a[4] == 302 and "/api/" not in a[2])
    ]
    assert not refused, refused


def _raw(port: int, method: str, path: str, headers: dict[str, str]) -> tuple[int, str | None]:
    """(status, Retry-After) of one request, redirects not followed."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        body = b"{}" if method != "GET" else None
        kind = {"Content-Type": "application/json"} if body else {}
        connection.request(method, path, body=body, headers={**headers, **kind})
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Retry-After")
    except OSError:
        return 0, None
    finally:
        connection.close()
