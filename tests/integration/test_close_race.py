"""Deal writes racing a session close, on PostgreSQL (RULES 8.2; docs/rules.md, "Lock order of
every deal write"; docs/api.md, "Sessions").

A closed session's results are final: its close closes the rubbers in play as unfinished
(RULES 2.6, 8.4) and queues the standings refresh that makes them so. A deal write that started
before the close must either commit before it (so the close, and the refresh it queues, see it)
or be refused with the closed-session 409, never land after `closed_at`.

Each round, threads released together: the session's close and several writes at its tables.
Afterwards every write is either done, or refused with "The session is closed: its results are
final."; nothing in the session's deal history is later than `closed_at`; the deals as the
close's thread read them right after the close returned are the deals at the end; and no rubber
of the closed session is in play.

Before the fix, a correction locked its rubber but not the session: a correction of
a complete rubber (which the close does not touch) committed after the close, and one of a
rubber in play, queued behind the close's lock on it, went on with the session it had read
before the close committed. An entry finishing a rubber as the close ran seated the next rubber
after the close had listed the rubbers in play, leaving it in play in a closed session.
"""

from __future__ import annotations

import datetime
import os
import random
import time
from typing import Any

import pytest

from clubs.models import Session
from games import services
from games.models import Deal, Rubber
from scoring.shared.errors import Conflict
from tests.factories import UserFactory, add_player, make_club, make_session
from tests.integration.test_table_change_race import run_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = int(os.environ.get("CLOSE_RACE_ROUNDS", "20"))
TABLES = 3
GAME = {"contract": "4S", "declarer": "N", "tricks": 10}
CLOSED = "The session is closed: its results are final."


def a_room(club: Any, r: int) -> Session:
    """TABLES tables of four, players of their own for the round, on a day of their own."""
    tables = [
        [add_player(club, f"R{r} T{t} {seat}") for seat in "NESW"] for t in range(1, TABLES + 1)
    ]
    return make_session(
        club, tables, movement="fixed", date=datetime.date(2026, 12, 1) + datetime.timedelta(r)
    )


def close_and_read(session: Session) -> dict[int, tuple[int, int]]:
    """Close the session, then read its deals at once: (rubber, version) by deal id, what the
    standings refresh that the close queued reads at the earliest."""
    services.session_close(session=session)
    return {
        pk: (rubber_id, version)
        for pk, rubber_id, version in Deal.objects.filter(rubber__session=session).values_list(
            "pk", "rubber_id", "version"
        )
    }


def later(job: Any, rng: random.Random) -> Any:
    """The job after a short random pause (0–20 ms), so the writes fall all over the close."""
    pause = rng.uniform(0, 0.02)

    def run() -> Any:
        time.sleep(pause)
        return job()

    return run


def assert_final(session: Session, results: dict[str, Any], read: str = "close") -> None:
    """The checks of the module docstring, for one round."""
    snapshot = results[read]
    assert not isinstance(snapshot, Exception), results
    session.refresh_from_db()
    assert session.status == Session.Status.CLOSED
    assert session.closed_at is not None
    for name, outcome in results.items():
        if isinstance(outcome, Exception):
            assert isinstance(outcome, Conflict) and str(outcome) == CLOSED, (name, results)
    late = Deal.history.filter(
        rubber__session=session, history_date__gt=session.closed_at
    ).values_list("number", "history_change_reason", "history_date")
    assert not late, (list(late), session.closed_at, results)
    now = {
        pk: (rubber_id, version)
        for pk, rubber_id, version in Deal.objects.filter(rubber__session=session).values_list(
            "pk", "rubber_id", "version"
        )
    }
    assert now == snapshot, results
    assert not session.rubbers.filter(status=Rubber.Status.IN_PLAY).exists(), results


def test_a_correction_and_a_close_at_once_never_change_a_closed_session() -> None:
    """At each table a complete rubber (won by NS in two deals) and the next one in play with one
    deal: a correction of a deal of each, at every table, at the moment the session closes."""
    director = UserFactory(username="td")
    club = make_club(director=director, slug="close-race")
    rng = random.Random(19)
    done = 0
    for r in range(ROUNDS):
        session = a_room(club, r)
        jobs: list[tuple[str, Any]] = [("close", lambda s=session: close_and_read(s))]
        for rubber in Rubber.objects.filter(session=session).order_by("table__number"):
            rubber.record_deal(number=1, **GAME, entered_by=director)
            rubber.record_deal(number=2, **GAME, entered_by=director)
            # The next rubber (the same seats: fixed partnerships) gets a deal too.
            following = Rubber.objects.get(table=rubber.table, status=Rubber.Status.IN_PLAY)
            following.record_deal(number=1, **GAME, entered_by=director)
            for which, deal in (
                ("complete", rubber.deals.get(number=1)),
                ("in play", following.deals.get(number=1)),
            ):
                correction = lambda deal=deal: deal.correct(  # noqa: E731
                    version=deal.version, changed_by=director, tricks=11
                )
                jobs.append((f"{which} {rubber.table.number}", later(correction, rng)))
        results = run_together(*jobs)
        assert_final(session, results)
        done += sum(isinstance(outcome, Deal) for outcome in results.values())
    # Both outcomes happen: the race was run, not avoided.
    assert 0 < done < ROUNDS * TABLES * 2


def test_an_entry_and_a_close_at_once_leave_no_rubber_in_play() -> None:
    """At each table the deal that wins the rubber (the next rubber is seated) at the moment the
    session closes: the entry lands before the close, whose list of rubbers in play then holds
    the next one, or is refused naming the closed session."""
    director = UserFactory(username="td")
    club = make_club(director=director, slug="close-race")
    rng = random.Random(20)
    entered = 0
    for r in range(ROUNDS):
        session = a_room(club, r)
        jobs: list[tuple[str, Any]] = [("close", lambda s=session: close_and_read(s))]
        for rubber in Rubber.objects.filter(session=session).order_by("table__number"):
            rubber.record_deal(number=1, **GAME, entered_by=director)
            entry = lambda rubber=rubber: rubber.record_deal(  # noqa: E731
                number=2, **GAME, entered_by=director
            )
            jobs.append((f"entry {rubber.table.number}", later(entry, rng)))
        results = run_together(*jobs)
        assert_final(session, results)
        entered += sum(isinstance(outcome, tuple) for outcome in results.values())
    assert 0 < entered < ROUNDS * TABLES
