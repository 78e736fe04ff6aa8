"""Many clients at once against the web server on PostgreSQL (issue 9, docs/security.md).

CLIENTS threads post, retry and correct deals at three tables, ROUNDS rounds each (a fixed amount
of work, not a time budget: no assertion depends on the machine's speed), with the players' API
tokens. Afterwards: every request was answered, none with a 5xx; every table made progress; every
acknowledged deal and correction is stored once (numbers contiguous per rubber, one history row
per acknowledged write); every rubber's scoresheet equals a fresh computation from its deals; the
standings, refreshed by a real Celery worker, equal a fresh computation.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

import pytest
from knox.models import AuthToken

from clubs.models import Session
from games.models import Deal, Rubber
from scoring.standings.models import SessionStandingsState
from scoring.standings.services import standings_differences
from tests.conftest import ROOT, wait_for
from tests.factories import UserFactory, add_player, make_club, make_session

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CLIENTS = int(os.environ.get("CONCURRENCY_CLIENTS", "20"))
ROUNDS = int(os.environ.get("CONCURRENCY_ROUNDS", "12"))


# --- a small HTTP client and a gunicorn -----------------------------------------------------


def call(method: str, url: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as err:
        raw = err.read()
        try:
            return err.code, json.loads(raw)
        except ValueError:
            return err.code, raw[:200]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def gunicorn(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """The web server as `make serve` starts it (config/gunicorn.py: 2 uvicorn workers, ASGI)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.py",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env={
            **env,
            "DEBUG": "False",
            "SECRET_KEY": "integration-test-secret-key-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "False",
            "THROTTLE_WRITES": "100000/min",
        },
        stdout=subprocess.DEVNULL,
        stderr=(ROOT / ".pytest-worker.log").open("ab"),
    )


def wait_healthy(base: str, timeout: float = 30) -> None:
    def up() -> bool:
        try:
            return call("GET", f"{base}/healthz")[0] == 200
        except OSError:
            return False

    wait_for(up, timeout=timeout)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# --- the deals the clients enter ------------------------------------------------------------------


def deal_for(rubber_id: int, number: int) -> dict[str, Any]:
    """The same content for the same (rubber, number), whoever posts it: retries are idempotent.
    One-level part scores: a rubber ends after a dozen deals, so rubbers complete and roll over."""
    seat = "NESW"[(rubber_id + number) % 4]
    return {"number": number, "contract": "1C", "declarer": seat, "tricks": 7}


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.created: set[tuple[int, int]] = set()
        self.corrections = 0
        self.errors: list[str] = []

    def note(self, kind: str, status: int, body: Any) -> None:
        with self.lock:
            self.statuses[(kind, status)] += 1
            if status >= 500:
                self.errors.append(f"{kind} {status}: {body!r}"[:300])


Client = tuple[str, int | None]  # an API token, and the table its player sits at (None: director)


def client_loop(base: str, who: Client, session_id: int, tally: Tally, seed: int, rounds: int):
    try:
        _client_loop(base, who, session_id, tally, seed, rounds)
    except Exception as exc:  # a crashed client must fail the test, not vanish
        tally.errors.append(f"client {seed} crashed: {exc!r}")


def _client_loop(base: str, who: Client, session_id: int, tally: Tally, seed: int, rounds: int):
    """Players post (and retry) at their own table; the director posts anywhere and corrects."""
    token, table_number = who
    rng = random.Random(seed)
    for _round in range(rounds):
        status, session = call("GET", f"{base}/api/v1/sessions/{session_id}/", token)
        tally.note("session", status, session)
        if status != 200:
            continue
        tables = session["tables"]
        table = rng.choice(tables) if table_number is None else tables[table_number - 1]
        if table["current_rubber"] is None:
            continue
        rubber_id = table["current_rubber"]["id"]
        status, rubber = call("GET", f"{base}/api/v1/rubbers/{rubber_id}/", token)
        tally.note("rubber", status, rubber)
        if status != 200 or rubber["status"] != "in_play":
            continue
        deals = rubber.get("deals") or []
        action = rng.random()
        if action < 0.7 or not deals or table_number is not None:
            number = len(deals) + 1
            for _attempt in range(1 + (rng.random() < 0.3)):  # sometimes a retry
                status, body = call(
                    "POST",
                    f"{base}/api/v1/rubbers/{rubber_id}/deals/",
                    token,
                    deal_for(rubber_id, number),
                )
                tally.note("post", status, body)
                if status == 201:
                    with tally.lock:
                        tally.created.add((rubber_id, number))
        else:
            deal = rng.choice(deals)
            tricks = 8 if deal["tricks"] == 7 else 7
            body = {"version": deal["version"], "tricks": tricks}
            status, answer = call("PATCH", f"{base}/api/v1/deals/{deal['id']}/", token, body)
            tally.note("patch", status, answer)
            if status == 200:
                with tally.lock:
                    tally.corrections += 1


# --- the test ------------------------------------------------------------------------------


@pytest.fixture
def evening() -> tuple[Session, list[Client]]:
    """Three tables of four, each player with a login and an API token."""
    director = UserFactory(username="td")
    club = make_club(director=director, slug="busy")
    tables = []
    for t in range(3):
        tables.append(
            [add_player(club, f"P{t}{s}", user=UserFactory(username=f"p{t}{s}")) for s in "NESW"]
        )
    session = make_session(club, tables)
    clients: list[Client] = [(AuthToken.objects.create(user=director)[1], None)]
    for number, table in enumerate(tables, start=1):
        clients += [(AuthToken.objects.create(user=p.user)[1], number) for p in table]
    return session, clients


def test_concurrent_clients_lose_and_duplicate_nothing(
    celery_worker_process: Any, evening: tuple[Session, list[Client]], web: str
) -> None:
    # The worker comes first: it purges the queue when it starts, which would drop the refresh
    # the evening's start queued (its claim would then hold for STANDINGS_CLAIM_TTL).
    session, clients = evening
    # A quarter of the clients are the director (corrections); the rest players at the tables.
    who = [
        clients[0] if i % 4 == 0 else clients[1 + i % (len(clients) - 1)] for i in range(CLIENTS)
    ]
    tally = Tally()
    threads = [
        threading.Thread(
            target=client_loop,
            args=(web, who[i], session.pk, tally, i, ROUNDS),
        )
        for i in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()  # each request gives up after 15 s: a client cannot hang

    assert not tally.errors, tally.errors[:5]
    assert {status for (_, status) in tally.statuses} <= {200, 201, 409}, tally.statuses
    # Every round asked for the session once, and was answered.
    assert (
        sum(n for (kind, _), n in tally.statuses.items() if kind == "session") == len(who) * ROUNDS
    )
    # Every table made progress: its players always post the next deal there, and a post for a
    # number is refused (409) only when another client stored that number first.
    played = Deal.objects.filter(rubber__session=session).values_list("rubber__table__number")
    assert {number for (number,) in played} >= {table for _, table in who if table is not None}

    deals = Deal.objects.filter(rubber__session=session)
    stored = set(deals.values_list("rubber_id", "number"))
    assert tally.created <= stored  # nothing acknowledged was lost
    assert len(tally.created) == len(stored)  # nothing stored that was not acknowledged once
    for rubber in Rubber.objects.filter(session=session).with_deals():
        numbers = [d.number for d in rubber.ordered_deals()]
        assert numbers == list(range(1, len(numbers) + 1)), (rubber.pk, numbers)
        sheet = rubber.scoresheet()
        assert sheet.rubber_complete == (rubber.status == Rubber.Status.COMPLETE)
        status, body = call("GET", f"{web}/api/v1/rubbers/{rubber.pk}/", clients[0][0])
        assert status == 200
        assert body["scoresheet"]["NS"]["total"] == sheet.totals[sheet_side("NS")]
        assert body["scoresheet"]["EW"]["total"] == sheet.totals[sheet_side("EW")]
    # One history row per acknowledged write: entries plus corrections.
    history = Deal.history.filter(rubber__session=session)
    assert history.filter(history_type="+").count() == len(stored)
    assert history.filter(history_change_reason="correction").count() == tally.corrections
    assert sum(d.version - 1 for d in deals) == tally.corrections
    # The worker converges, by itself, on the standings a fresh computation gives.
    wait_for(lambda: standings_differences(session_id=session.pk) == (), timeout=60)
    assert not SessionStandingsState.objects.get(session_id=session.pk).stale


def sheet_side(name: str) -> Any:
    from scoring.rules import Side

    return Side(name)
