"""What a deal's renders cost: a phone's pad and the director's console, rendered afresh.

    .venv/bin/python bench/bench_renders.py [--profile pad|console] [--no-write]

In one process on a scratch SQLite database (Django's test database), DEBUG off, through
Django's test client (the whole middleware stack, no network): a 30-table room of four phones a
table, three deals on each pad. After each new deal, the four phones of its table fetch their
live pad (`/rubbers/<id>/live`) and the director's console fetches its sessions
(`/clubs/<slug>/console/live/`), as they do when pushed "changed". CPU time
(`time.process_time`) and SQL queries per answer; medians of 5 rounds after a warm-up. Writes
the "Renders after a deal" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz")
os.environ["SECURE_SSL_REDIRECT"] = "false"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.common import machine, medians, today, write_section  # noqa: E402
from tests.factories import acting  # noqa: E402

TABLES = 30
SECTION = "Renders after a deal (a phone's pad and the console)"
DOWNS = [("4S", "N", 9), ("3NT", "E", 8), ("2H", "S", 7), ("5C", "W", 10)]


def _room() -> tuple[list, Any, Any]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.factories import add_player, make_club, make_session

    users = get_user_model().objects
    director = users.create_user("director")
    club = make_club(director=director, slug="room")
    tables = [
        [add_player(club, f"P{t}-{s}", user=users.create_user(f"p{t}{s}")) for s in "NESW"]
        for t in range(TABLES)
    ]
    session = make_session(club, tables)
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
    phones = []
    for rubber in rubbers:
        rubber.fetch_players()
        table = []
        for seat in "NESW":
            client = Client()
            client.force_login(rubber.seats[seat].user)
            table.append(client)
        phones.append((rubber, table))
    console = Client()
    console.force_login(director)
    return phones, console, f"/clubs/{club.slug}/console/live/"


def main() -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=["pad", "console"])
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["*"]
    connection.creation.create_test_db(verbosity=0)
    phones, console, console_url = _room()
    numbers = {rubber.pk: 4 for rubber, _ in phones}
    turn = [0]

    def deal() -> tuple[Any, list[Any]]:
        rubber, table = phones[turn[0] % TABLES]
        turn[0] += 1
        contract, declarer, tricks = DOWNS[numbers[rubber.pk] % 4]
        rubber.record_deal(
            number=numbers[rubber.pk],
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            actor=acting(rubber, rubber.north.user),
        )
        numbers[rubber.pk] += 1
        return rubber, table

    def run(deals: int = 6) -> dict[str, float]:
        pad_cpu = console_cpu = kept_cpu = 0.0
        pad_queries = console_queries = kept_queries = 0
        for _ in range(deals):
            rubber, table = deal()
            url = f"/rubbers/{rubber.pk}/live"
            for client in table:
                with CaptureQueriesContext(connection) as seen:
                    t0 = time.process_time()
                    assert client.get(url).status_code == 200
                    pad_cpu += time.process_time() - t0
                pad_queries += len(seen)
            with CaptureQueriesContext(connection) as seen:
                t0 = time.process_time()
                assert table[0].get(url).status_code == 200  # again: a reconnect, kept
                kept_cpu += time.process_time() - t0
            kept_queries += len(seen)
            with CaptureQueriesContext(connection) as seen:
                t0 = time.process_time()
                assert console.get(console_url).status_code == 200
                console_cpu += time.process_time() - t0
            console_queries += len(seen)
        return {
            "pad_ms": pad_cpu / (4 * deals) * 1000,
            "pad_queries": pad_queries / (4 * deals),
            "kept_ms": kept_cpu / deals * 1000,
            "kept_queries": kept_queries / deals,
            "console_ms": console_cpu / deals * 1000,
            "console_queries": console_queries / deals,
            "deal_ms": (pad_cpu + console_cpu) / deals * 1000,
        }

    if args.profile:
        import cProfile
        import pstats

        rubber, table = deal()
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for _ in range(20):
            if args.profile == "pad":
                table[0].get(f"/rubbers/{rubber.pk}/live")
            else:
                console.get(console_url)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
        return 0
    figures, _runs = medians(run)
    print(figures)
    if not args.no_write:
        write(figures)
    return 0


def write(figures: dict[str, float]) -> None:
    per_second = TABLES / 240  # a deal every 4 minutes at each of 30 tables
    share = per_second * figures["deal_ms"] / 1000
    body = (
        f"Command: `.venv/bin/python bench/bench_renders.py`. Date: {today()}. Machine: "
        f"{machine()}. In one process, SQLite, DEBUG off, Django's test client; a "
        f"{TABLES}-table room, three deals on each pad before; after each new deal the four "
        "phones of its table fetch their pad and the console its sessions, as when pushed "
        '"changed". CPU time (`time.process_time`) and SQL queries per answer, medians of 5 '
        "rounds of 6 deals after a warm-up.\n\n"
        "| answer | CPU | queries |\n|---|---|---|\n"
        f"| a phone's pad (`/rubbers/<id>/live`, 200) | {figures['pad_ms']:.2f} ms | "
        f"{figures['pad_queries']:.1f} |\n"
        f"| the same pad fetched again (a reconnect: kept, not rendered) | "
        f"{figures['kept_ms']:.2f} ms | {figures['kept_queries']:.1f} |\n"
        f"| the console's sessions (`/clubs/<slug>/console/live/`, 200) | "
        f"{figures['console_ms']:.2f} ms | {figures['console_queries']:.1f} |\n"
        f"| a deal: four pads and the console | {figures['deal_ms']:.2f} ms | |\n\n"
        f"At a deal every 4 minutes at each of {TABLES} tables ({per_second:.3f} deals a "
        f"second), the renders cost {share:.2%} of one core."
    )
    write_section(SECTION, body)


if __name__ == "__main__":
    sys.exit(main())
