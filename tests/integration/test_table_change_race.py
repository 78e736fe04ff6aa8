"""A substitute is seated at the moment the deal that ends the rubber is entered (issue 18).

On PostgreSQL, ROUNDS times, two threads released together: one enters the deal that wins the
rubber (the next rubber is seated by the rotation), the other replaces East by a substitute
(`games.sessions.table_changes.table_substitute`). Whichever lands first, the deal is kept, the
rubber is complete, exactly one rubber is in play and East does not sit in it: the substitute
does (from the next rubber, or at once in a rubber with no deal yet). Without the lock on the
rubber in play, read again until it is the one in play, the change read the finished rubber,
missed the next one and left East seated in it.
"""

from __future__ import annotations

import datetime
import os
import threading
from typing import Any

import pytest
from django.db import connection

from clubs.models import Player, Table, TableChange
from games.models import Rubber
from games.sessions import table_changes
from tests.factories import UserFactory, acting, add_player, make_club, make_session

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = int(os.environ.get("TABLE_CHANGE_RACE_ROUNDS", "20"))
GAME = {"contract": "4S", "declarer": "N", "tricks": 10}


def run_together(*jobs: Any) -> dict[str, Any]:
    """Run the jobs in threads released together; their results (or exceptions) by name."""
    start = threading.Barrier(len(jobs))
    results: dict[str, Any] = {}

    def run(name: str, job: Any) -> None:
        # Connected before the start: opening a connection (5–20 ms) is not part of the race.
        connection.ensure_connection()
        start.wait()
        try:
            results[name] = job()
        except Exception as err:  # reported by the assertions below
            results[name] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_a_substitute_and_the_last_deal_at_once_lose_nothing() -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="race")
    for r in range(ROUNDS):
        players = [add_player(club, f"P{r} {seat}") for seat in "NESW"]
        session = make_session(club, [players], date=datetime.date(2026, 12, 1 + r % 28))
        table = Table.objects.select_related("session").get(session=session)
        rubber = Rubber.objects.get(table=table)
        rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
        east = Player.objects.get(pk=rubber.east_id)
        results = run_together(
            (
                "deal",
                lambda rubber=rubber: rubber.record_deal(
                    number=2, **GAME, actor=acting(rubber, director)
                ),
            ),
            (
                "substitute",
                lambda table=table, east=east, r=r: table_changes.table_substitute(
                    table=table, leaver=east, new_name=f"Sub {r}", by=director
                ),
            ),
        )
        assert not isinstance(results["deal"], Exception), results
        assert not isinstance(results["substitute"], Exception), results
        rubber.refresh_from_db()
        assert rubber.status == Rubber.Status.COMPLETE
        assert [d.number for d in rubber.ordered_deals()] == [1, 2]
        [playing] = Rubber.objects.filter(table=table).in_play()
        sub = Player.objects.get(club=club, name=f"Sub {r}")
        assert east.pk not in playing.seat_ids.values(), (r, results)
        assert sub.pk in playing.seat_ids.values(), (r, results)
        change = TableChange.objects.get(session=session)
        assert change.from_rubber == playing.number
