"""What live pads cost: a 30-table room whose 120 phones poll their rubber every 2 s.

In one process on a scratch SQLite database (Django's test database), through Django's test
client (the whole middleware stack, no network): the CPU time of a poll answered 304 (nothing
changed: one query) against a poll answered 200 (a changed rubber: the pad re-rendered), both
timed in this run. The room's load follows: 120 phones / 2 s = 60 polls a second, plus the full
renders that new deals cause. Writes its section of docs/benchmarks.md.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.common import machine, medians, write_section  # noqa: E402
from tests.factories import acting  # noqa: E402

TABLES = 30
PHONES = 4 * TABLES
POLL_SECONDS = 2
POLLS = 600


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from tests.factories import add_player, make_club, make_session

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["*"]
    connection.creation.create_test_db(verbosity=0)
    users = get_user_model().objects
    club = make_club(director=users.create_user("director"), slug="room")
    tables = [
        [add_player(club, f"P{t}-{s}", user=users.create_user(f"p{t}{s}")) for s in "NESW"]
        for t in range(TABLES)
    ]
    session = make_session(club, tables)
    rubbers = list(session.rubbers.select_related("north__user").order_by("table__number"))
    for rubber in rubbers:  # three deals on each pad: a pad worth rendering
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
    clients = []
    for rubber in rubbers:
        client = Client()
        client.force_login(rubber.north.user)
        url = f"/rubbers/{rubber.pk}/live"
        clients.append((client, url, client.get(url)["ETag"]))

    def run() -> dict[str, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        for i in range(POLLS):
            client, url, etag = clients[i % TABLES]
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        not_modified = (time.process_time() - cpu) / POLLS
        wall_304 = (time.perf_counter() - wall) / POLLS
        cpu = time.process_time()
        for client, url, _etag in clients:
            assert client.get(url).status_code == 200
        full = (time.process_time() - cpu) / TABLES
        return {
            "cpu_304_ms": not_modified * 1000,
            "wall_304_ms": wall_304 * 1000,
            "cpu_200_ms": full * 1000,
        }

    figures, _runs = medians(run)
    polls_per_second = PHONES / POLL_SECONDS
    # A deal every ~4 minutes at each table: its four phones each fetch the new pad once.
    renders_per_second = TABLES * 4 / 240
    core = polls_per_second * figures["cpu_304_ms"] + renders_per_second * figures["cpu_200_ms"]
    row_304 = (
        "| 304 Not Modified (nothing changed: one query, the rubber's state with its club's"
        f" language) | {figures['cpu_304_ms']:.2f} ms | {figures['wall_304_ms']:.2f} ms |"
    )
    body = f"""
`.venv/bin/python bench/bench_live.py` ({machine()}). {TABLES} tables, {PHONES} phones each
polling `/rubbers/<id>/live` every {POLL_SECONDS} s with `If-None-Match`; medians of 5 rounds of
{POLLS} polls after a warm-up, in one process through Django's test client on SQLite (no
network, no gunicorn: the CPU of the application itself).

| answer | CPU per request | wall per request |
|---|---|---|
{row_304}
| 200 with the pad (after a change) | {figures["cpu_200_ms"]:.2f} ms | |

The room: {polls_per_second:.0f} polls/s, plus about {renders_per_second:.1f} full pads/s when
each table enters a deal every 4 minutes, costs about {core:.0f} ms of CPU a second, i.e.
{core / 10:.1f}% of one core. The full pad costs
{figures["cpu_200_ms"] / figures["cpu_304_ms"]:.0f}× a 304: answering 304 is what keeps polling
cheap.
"""
    print(body)
    write_section("Live pads (polling a 30-table room)", body)


if __name__ == "__main__":
    main()
