"""Deal writes racing a session close, on PostgreSQL (RULES 8.4; docs/rules.md §8 decision 6,
"A closed session's results are final").

A close closes the rubbers in play as unfinished (RULES 2.6) and queues the standings refresh
that makes the results final. A deal write that started before the close must either commit
before it (so the close, and the refresh it queues, see it) or be refused with the
closed-session 409, never land after `closed_at`.

Each round, threads released together: the session's close and several writes at its tables
(corrections; entries that win a rubber; confirmations, disputes and a director's rulings).
Afterwards every write is either done, or refused with "The session is closed: its results are
final."; nothing in the session's deal history is later than `closed_at`; the deals as the close's
thread read them right after the close returned are the deals at the end; and no rubber of the
closed session is in play. Last, with no close, a ruling racing a correction of the same deal
(both lock the session, then the deal).

Before the fix, a correction locked its rubber, then (through the models' ordering) the session
last, the reverse of a close's order: the two deadlocked, and a correction of a complete rubber
(which the close does not lock), or one queued behind the close's lock on its rubber, committed
after the close. An entry finishing a rubber as the close ran seated the next rubber after the
close had listed the rubbers in play, leaving it in play in a closed session. A confirmation
read the session's status without locking it, and a dispute did not read it at all.
"""

from __future__ import annotations

import datetime
import os
import random
import time
from typing import Any

import pytest

from clubs.models import Session
from games.models import Deal, Rubber
from games.sessions import lifecycle
from scoring.shared.errors import Conflict
from tests.factories import UserFactory, acting, add_player, make_club, make_session
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


def deals_of(session: Session) -> dict[int, tuple[Any, ...]]:
    """The session's deals by id: rubber, version, confirmed by, disputed."""
    deals = Deal.objects.filter(rubber__session=session)
    return {
        row[0]: row[1:]
        for row in deals.values_list("pk", "rubber_id", "version", "confirmed_by_id", "disputed")
    }


def close_and_read(session: Session) -> dict[int, tuple[Any, ...]]:
    """Close the session, then read its deals at once: what the standings refresh that the close
    queued reads at the earliest."""
    lifecycle.session_close(session=session)
    return deals_of(session)


def later(job: Any, rng: random.Random) -> Any:
    """The job after a short random pause (0–20 ms), so the writes fall all over the close. The
    close pauses too: started at once, it took the session's lock before any write on a warm
    database (a full run saw no write land in 20 rounds), and the race was not run."""
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
    assert deals_of(session) == snapshot, results
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
        jobs: list[tuple[str, Any]] = [("close", later(lambda s=session: close_and_read(s), rng))]
        for rubber in Rubber.objects.filter(session=session).order_by("table__number"):
            rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
            rubber.record_deal(number=2, **GAME, actor=acting(rubber, director))
            # The next rubber (the same seats: fixed partnerships) gets a deal too.
            following = Rubber.objects.get(table=rubber.table, status=Rubber.Status.IN_PLAY)
            following.record_deal(number=1, **GAME, actor=acting(following, director))
            for which, deal in (
                ("complete", rubber.deals.get(number=1)),
                ("in play", following.deals.get(number=1)),
            ):
                by = acting(deal, director)
                correction = lambda deal=deal, by=by: deal.correct(  # noqa: E731
                    version=deal.version, tricks=11, actor=by
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
        jobs: list[tuple[str, Any]] = [("close", later(lambda s=session: close_and_read(s), rng))]
        for rubber in Rubber.objects.filter(session=session).order_by("table__number"):
            rubber.record_deal(number=1, **GAME, actor=acting(rubber, director))
            by = acting(rubber, director)
            entry = lambda rubber=rubber, by=by: rubber.record_deal(  # noqa: E731
                number=2, **GAME, actor=by
            )
            jobs.append((f"entry {rubber.table.number}", later(entry, rng)))
        results = run_together(*jobs)
        assert_final(session, results)
        entered += sum(isinstance(outcome, tuple) for outcome in results.values())
    assert 0 < entered < ROUNDS * TABLES


def test_a_confirmation_or_a_dispute_and_a_close_at_once_never_change_a_closed_session() -> None:
    """A session whose opponents confirm entries: at each table, East confirms deal 1 and West
    disputes deal 2 (both entered by the director, so either side may) at the moment the session
    closes. A closed session takes neither (docs/api.md, `POST /api/v1/deals/{id}/confirm`)."""
    director = UserFactory(username="td")
    club = make_club(director=director, slug="close-race")
    rng = random.Random(21)
    landed = 0
    for r in range(ROUNDS):
        session = a_room(club, r)
        Session.objects.filter(pk=session.pk).update(confirm_entries=True)
        jobs: list[tuple[str, Any]] = [("close", later(lambda s=session: close_and_read(s), rng))]
        for rubber in Rubber.objects.filter(session=session).order_by("table__number"):
            rubber.record_deal(
                number=1, contract="2H", declarer="N", tricks=8, actor=acting(rubber, director)
            )
            rubber.record_deal(
                number=2, contract="2H", declarer="N", tricks=8, actor=acting(rubber, director)
            )
            first, second = rubber.deals.order_by("number")
            east = acting(first, player=rubber.east)
            confirm = lambda deal=first, by=east: deal.confirm(actor=by)  # noqa: E731
            server = acting(second)
            dispute = lambda deal=second, by=server: deal.dispute(actor=by)  # noqa: E731
            jobs.append((f"confirm {rubber.table.number}", later(confirm, rng)))
            jobs.append((f"dispute {rubber.table.number}", later(dispute, rng)))
        results = run_together(*jobs)
        assert_final(session, results)
        landed += sum(
            isinstance(outcome, Deal) and (outcome.disputed or outcome.confirmed_by_id is not None)
            for outcome in results.values()
        )
    assert 0 < landed < ROUNDS * TABLES * 2


def test_a_ruling_and_a_close_at_once_never_change_a_closed_session() -> None:
    """At each table the director rules that a disputed deal stands (`Deal.rule`: it locks the
    session, then the deal, as a confirmation does) at the moment the session closes: the ruling
    lands before the close, or is refused naming the closed session."""
    director = UserFactory(username="td")
    club = make_club(director=director, slug="close-race")
    rng = random.Random(22)
    ruled = 0
    for r in range(ROUNDS):
        session = a_room(club, r)
        Session.objects.filter(pk=session.pk).update(confirm_entries=True)
        jobs: list[tuple[str, Any]] = [("close", later(lambda s=session: close_and_read(s), rng))]
        for rubber in Rubber.objects.filter(session=session).order_by("table__number"):
            deal, _ = rubber.record_deal(
                number=1,
                contract="2H",
                declarer="N",
                tricks=8,
                actor=acting(rubber, director),
            )
            deal.dispute(actor=acting(deal))
            by = acting(deal, director)
            ruling = lambda deal=deal, by=by: deal.rule(version=1, actor=by)  # noqa: E731
            jobs.append((f"rule {rubber.table.number}", later(ruling, rng)))
        results = run_together(*jobs)
        assert_final(session, results)
        ruled += sum(isinstance(outcome, Deal) and outcome.ruled for outcome in results.values())
        for deal in Deal.objects.filter(rubber__session=session):
            assert deal.ruled != deal.disputed  # settled by the ruling, or still disputed
    assert 0 < ruled < ROUNDS * TABLES


def test_a_ruling_and_a_correction_at_once_never_leave_a_stale_ruling() -> None:
    """A disputed deal: the director rules on version 1 in one tab as he corrects it in another.
    Either the ruling lands first and the correction replaces it, or the correction lands first
    and the ruling is refused as of a version corrected since; never a ruling on the corrected
    deal, and never a deal both ruled and disputed. A director's correction itself settles the
    dispute (tests/games/test_confirmation.py), so the corrected deal ends settled either way."""
    director = UserFactory(username="td")
    club = make_club(director=director, slug="rule-race")
    rng = random.Random(23)
    outcomes = set()
    for r in range(ROUNDS):
        session = a_room(club, r)
        Session.objects.filter(pk=session.pk).update(confirm_entries=True)
        rubber = Rubber.objects.filter(session=session).order_by("table__number").first()
        deal, _ = rubber.record_deal(
            number=1,
            contract="2H",
            declarer="N",
            tricks=8,
            actor=acting(rubber, director),
        )
        deal.dispute(actor=acting(deal))
        by = acting(deal, director)
        results = run_together(
            ("rule", later(lambda deal=deal, by=by: deal.rule(version=1, actor=by), rng)),
            (
                "correct",
                later(
                    lambda deal=deal: deal.correct(
                        version=1, tricks=9, actor=acting(deal, director)
                    ),
                    rng,
                ),
            ),
        )
        assert isinstance(results["correct"], Deal), results
        final = Deal.objects.get(pk=deal.pk)
        assert (final.version, final.tricks, final.ruled, final.disputed) == (2, 9, True, False)
        reasons = list(
            final.history.order_by("history_date", "history_id").values_list(
                "history_change_reason", flat=True
            )
        )
        if isinstance(results["rule"], Deal):
            assert reasons == ["entered", "disputed", "ruled", "correction"], reasons
            outcomes.add("ruled first")
        else:
            assert isinstance(results["rule"], Conflict), results
            assert "was corrected since you saw it" in str(results["rule"])
            assert reasons == ["entered", "disputed", "correction"], reasons
            outcomes.add("corrected first")
    # Both orders happen: the race was run, not avoided.
    assert outcomes == {"ruled first", "corrected first"}, outcomes
