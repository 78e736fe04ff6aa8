"""Queueing, coalescing and idempotence of the standings refresh (CONVENTIONS: test the enqueue
and the task apart)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from games.models import Deal
from scoring.rules import ScoringError
from scoring.standings import queueing, services
from scoring.standings.models import RubberResult, SessionStanding, SessionStandingsState
from scoring.standings.tasks import (
    fan_out_standings_rebuild,
    rebuild_all_standings,
    refresh_session_standings,
)
from tests.conftest import ROOT
from tests.factories import acting
from tests.scoring.standings.conftest import down_one, win_rubber


@pytest.fixture
def sent(monkeypatch):
    """The refresh messages published (nothing runs: a broker nobody consumes yet)."""
    messages: list[tuple] = []
    monkeypatch.setattr(
        refresh_session_standings, "apply_async", lambda args, **kw: messages.append(args)
    )
    return messages


def test_a_web_process_knows_the_refresh_tasks_it_queues_by_name():
    """The services queue the refreshes by task name (they import no task module); a web
    process, which imports no task itself, must still find them, or every write's refresh would
    be dropped until the minute sweep."""
    script = (
        "import config.wsgi\n"
        "from celery import current_app\n"
        "from scoring.standings.queueing import RATINGS, STANDINGS\n"
        "print(sorted({STANDINGS.task, RATINGS.task} - set(current_app.tasks)))\n"
    )
    env = {**os.environ, "DEBUG": "true", "SECRET_KEY": "test-only-key"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def state(session) -> SessionStandingsState:
    return SessionStandingsState.objects.get(session=session)


def rows(session) -> list[tuple]:
    return sorted(
        SessionStanding.objects.filter(session=session).values_list(
            "id", "player_id", "rank", "hundreds", "money", "prize_choice"
        )
    ) + sorted(RubberResult.objects.filter(session=session).values_list("id", "hundreds"))


@pytest.mark.django_db
def test_twenty_quick_entries_queue_one_refresh(
    running_session, north, sent, django_capture_on_commit_callbacks
):
    rubber = running_session.rubbers.get()
    SessionStandingsState.objects.filter(session=running_session).update(pending_since=None)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        for number in range(1, 21):
            down_one(rubber, number, "N" if number % 2 else "E", by=north)
    # The standings' own callbacks, by what they publish (the push channel adds its own per
    # write, games.push.hooks; a ratings refresh would be one of queueing._publish's).
    ours = [c for c in callbacks if getattr(c, "func", c).__module__.startswith("scoring.")]
    assert [getattr(c, "func", c) for c in ours] == [queueing._publish_refresh]
    assert sent == [(running_session.pk,)]
    assert state(running_session).stale is True
    assert state(running_session).dirty >= 20


@pytest.mark.django_db
def test_a_write_after_the_refresh_started_queues_one_more(
    running_session, north, sent, django_capture_on_commit_callbacks
):
    rubber = running_session.rubbers.get()
    SessionStandingsState.objects.filter(session=running_session).update(pending_since=None)
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(1, 11):
            down_one(rubber, number, by=north)
    services.standings_refresh(session_id=running_session.pk)  # the worker takes the message
    assert state(running_session).stale is False
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(11, 21):
            down_one(rubber, number, by=north)
    assert len(sent) == 2
    assert state(running_session).stale is True


@pytest.mark.django_db
def test_a_rolled_back_write_queues_nothing(
    running_session, sent, django_capture_on_commit_callbacks
):
    SessionStandingsState.objects.filter(session=running_session).update(pending_since=None)
    before = state(running_session).dirty
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                queueing.queue_session_refresh(running_session.pk)
                raise RuntimeError("the write failed")
        except RuntimeError:
            pass
    assert callbacks == [] and sent == []
    assert state(running_session).dirty == before


@pytest.mark.django_db
def test_a_dead_broker_never_reaches_the_writer(
    running_session, north, monkeypatch, django_capture_on_commit_callbacks
):
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6390. Connection refused.")

    monkeypatch.setattr(refresh_session_standings, "apply_async", refuse)
    SessionStandingsState.objects.filter(session=running_session).update(pending_since=None)
    rubber = running_session.rubbers.get()
    with django_capture_on_commit_callbacks(execute=True):
        deal, created = rubber.record_deal(
            number=1,
            contract="4S",
            declarer="N",
            tricks=10,
            actor=acting(rubber, north),
        )
    assert created and deal.pk
    with django_capture_on_commit_callbacks(execute=True):
        down_one(rubber, 2, "E", by=north)
    current = state(running_session)
    assert current.stale is True
    assert current.pending_since is None  # the claim was given back: a later write retries
    assert len(calls) == 1  # the second publish was skipped while the broker is backing off


@pytest.mark.django_db
def test_the_sweeper_queues_stale_sessions_whose_claim_was_lost(running_session, sent):
    SessionStandingsState.objects.filter(session=running_session).update(
        stale=True, pending_since=timezone.now() - timedelta(hours=1)
    )
    assert queueing.standings_queue_stale() == 1
    assert sent == [(running_session.pk,)]
    assert queueing.standings_queue_stale() == 0  # a live claim covers it now


@pytest.mark.django_db
def test_a_refresh_twice_changes_nothing(running_session, north):
    win_rubber(running_session.rubbers.get(), "NS", by=north)
    first = services.standings_refresh(session_id=running_session.pk)
    before = rows(running_session)
    second = services.standings_refresh(session_id=running_session.pk)
    assert first.changed and not second.changed
    assert rows(running_session) == before
    assert state(running_session).stale is False


@pytest.mark.django_db
def test_a_write_during_the_refresh_leaves_the_standings_stale(running_session, north, monkeypatch):
    compute = services.standings_compute

    def compute_while_a_deal_arrives(*, session_id):
        result = compute(session_id=session_id)
        queueing.queue_session_refresh(session_id)
        return result

    monkeypatch.setattr(services, "standings_compute", compute_while_a_deal_arrives)
    outcome = services.standings_refresh(session_id=running_session.pk)
    assert outcome.written and outcome.stale
    assert state(running_session).pending_since is not None  # the next refresh is queued


@pytest.mark.django_db
def test_an_older_refresh_never_overwrites_a_newer_one(running_session, north):
    services.standings_refresh(session_id=running_session.pk)
    SessionStandingsState.objects.filter(session=running_session).update(computed_dirty=10**6)
    outcome = services.standings_refresh(session_id=running_session.pk)
    assert not outcome.written


@pytest.mark.django_db
def test_the_nightly_rebuild_repairs_and_reports_differences_then_finds_none(room, director):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    SessionStanding.objects.filter(session=room, rank=1).update(hundreds=99)
    summary = rebuild_all_standings()
    assert summary["sessions"] >= 1
    assert summary["differences"] == {str(room.pk): ["standings"]}
    assert not SessionStanding.objects.filter(hundreds=99).exists()
    before = rows(room)
    again = rebuild_all_standings()
    assert again["repaired"] == 0 and again["differences"] == {} and again["failed"] == []
    assert rows(room) == before


@pytest.mark.django_db
def test_the_nightly_fan_out_repairs_as_the_rebuild_does(room, director, caplog):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    repaired = rows(room)
    SessionStanding.objects.filter(session=room, rank=1).update(hundreds=99)
    with caplog.at_level(logging.WARNING, logger="scoring.standings.services"):
        fan_out_standings_rebuild()  # eager here: the chunks, then the summary, run in turn
    assert f"{{'{room.pk}': ['standings']}}" in caplog.text
    assert not SessionStanding.objects.filter(hundreds=99).exists()
    assert rebuild_all_standings()["repaired"] == 0
    assert [row[1:] for row in rows(room)] == [row[1:] for row in repaired]


def test_the_nightly_rebuild_runs_at_night_on_its_own_queue(settings) -> None:
    """Its chunks go to "bulk", which a worker without `-Q` consumes with "celery" (where the
    refreshes go), each queue with its own exchange so no message reaches both."""
    from celery.schedules import crontab

    from config.celery import app

    nightly = settings.CELERY_BEAT_SCHEDULE["nightly-standings-rebuild"]
    assert nightly["task"] == fan_out_standings_rebuild.name
    assert isinstance(nightly["schedule"], crontab)
    at = (
        os.environ.get("STANDINGS_REBUILD_HOUR", "3"),
        os.environ.get("STANDINGS_REBUILD_MINUTE", "30"),
    )
    assert (nightly["schedule"].hour, nightly["schedule"].minute) == ({int(at[0])}, {int(at[1])})

    def queue(task: str) -> tuple[str, str, str]:
        route = app.amqp.router.route({}, task)
        return route["queue"].name, route["queue"].exchange.name, route["queue"].routing_key

    for task in ("rebuild_standings_chunk", "finish_standings_rebuild", "rebuild_all_standings"):
        assert queue(f"scoring.tasks.{task}") == ("bulk", "bulk", "bulk")
    for task in ("refresh_session_standings", "refresh_stale_standings", "record_heartbeat"):
        assert queue(f"scoring.tasks.{task}") == ("celery", "celery", "celery")
    assert set(app.amqp.queues) == {"celery", "bulk"}


@pytest.mark.django_db
def test_a_chunk_that_fails_is_retried_session_by_session(room, running_session, director):
    from games.models import Deal

    down_one(room.rubbers.get(table__number=1), 1, by=director)
    # A stored deal the engine refuses (RULES 1: no 8-level contract): written past the API.
    Deal.objects.filter(rubber__session=room).update(contract="8S")
    with pytest.raises(ScoringError):
        services.standings_compute(session_id=room.pk)
    part = services.standings_rebuild_chunk(session_ids=[room.pk, running_session.pk])
    assert part["failed"] == [room.pk]
    assert state(running_session).computed_at is not None


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_refresh_runs_eagerly_after_each_commit(
    club, table_of_four, north, settings
):
    from tests.factories import make_session

    assert settings.CELERY_TASK_ALWAYS_EAGER is True
    session = make_session(club, [list(table_of_four.values())])
    win_rubber(session.rubbers.get(), "NS", by=north)
    current = state(session)
    assert current.stale is False and current.computed_at is not None
    assert current.pending_since is None
    assert sorted(
        SessionStanding.objects.filter(session=session).values_list("hundreds", flat=True)
    ) == [-9, -9, 9, 9]


@pytest.mark.django_db(transaction=True)
def test_an_eager_refresh_that_fails_does_not_fail_the_entry(
    club, table_of_four, north, monkeypatch
):
    from tests.factories import make_session

    session = make_session(club, [list(table_of_four.values())])

    def broken(*, session_id):
        raise RuntimeError("a bug in the refresh")

    monkeypatch.setattr(services, "standings_compute", broken)
    deal, created = session.rubbers.get().record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(session.rubbers.get(), north),
    )
    assert created and deal.pk
    current = state(session)
    assert current.stale is True and current.pending_since is None
    assert queueing._broker_down_until == 0.0  # not the broker's fault: no back-off


@pytest.mark.django_db
def test_a_finished_rebuild_leaves_the_sweep_nothing_to_do(room, running_session, director, sent):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    SessionStandingsState.objects.update(pending_since=None)
    chunks = services.standings_rebuild_begin()
    assert SessionStandingsState.objects.filter(rebuild_queued_at__isnull=False).count() == 2
    for ids in chunks:
        services.standings_rebuild_chunk(session_ids=ids)
    assert not SessionStandingsState.objects.filter(rebuild_queued_at__isnull=False).exists()
    assert queueing.standings_queue_stale() == 0 and sent == []


@pytest.mark.django_db
def test_the_sweep_refreshes_what_a_dead_rebuild_chunk_left_after_the_grace(
    room, director, settings, caplog
):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    repaired = rows(room)
    SessionStandingsState.objects.update(pending_since=None)
    services.standings_rebuild_begin()  # its chunk never runs: the worker died holding it
    SessionStanding.objects.filter(session=room, rank=1).update(hundreds=99)
    settings.STANDINGS_REBUILD_GRACE = 300
    assert queueing.standings_queue_stale() == 0  # the chunk may still be waiting in the queue
    SessionStandingsState.objects.update(rebuild_queued_at=timezone.now() - timedelta(seconds=301))
    with caplog.at_level(logging.WARNING, logger="scoring.standings"):
        assert queueing.standings_queue_stale() == 1  # eager here: the refresh runs now
    assert f"The rebuild queued sessions [{room.pk}]" in caplog.text
    assert [row[1:] for row in rows(room)] == [row[1:] for row in repaired]
    assert state(room).rebuild_queued_at is None and state(room).stale is False
    assert queueing.standings_queue_stale() == 0


def test_beat_sweeps_every_standings_sweep_seconds(settings) -> None:
    sweep = settings.CELERY_BEAT_SCHEDULE["refresh-stale-standings"]
    assert sweep["task"] == "scoring.tasks.refresh_stale_standings"
    assert (
        sweep["schedule"]
        == settings.STANDINGS_SWEEP_SECONDS
        == int(os.environ.get("STANDINGS_SWEEP_SECONDS", "60"))
    )


@pytest.mark.django_db
def test_the_one_process_rebuild_stamps_its_sessions_too(room, monkeypatch):
    stamped = []

    def chunk(*, session_ids):
        stamped.append(
            list(
                SessionStandingsState.objects.filter(rebuild_queued_at__isnull=False).values_list(
                    "pk", flat=True
                )
            )
        )
        return {"differences": {}, "failed": []}

    monkeypatch.setattr(services, "standings_rebuild_chunk", chunk)
    services.standings_rebuild_all()
    assert stamped == [[room.pk]]


def _a_minute_passes() -> None:
    """Age the rebuild stamps left (only those: a cleared stamp stays cleared) past the grace."""
    SessionStandingsState.objects.filter(rebuild_queued_at__isnull=False).update(
        rebuild_queued_at=F("rebuild_queued_at") - timedelta(hours=1)
    )


@pytest.mark.django_db
def test_a_session_the_rebuild_reports_failed_is_not_swept_every_minute(
    room, director, sent, caplog
):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    SessionStandingsState.objects.update(pending_since=None, stale=False)
    # A hand edit the engine refuses (RULES 1: no 8-level contract), written past the API.
    Deal.objects.filter(rubber__session=room, number=1).update(contract="8S")
    summary = services.standings_rebuild_all()
    assert summary["failed"] == [room.pk]  # reported once, here
    assert state(room).rebuild_queued_at is None
    queued = []
    with caplog.at_level(logging.WARNING, logger="scoring.standings"):
        for _minute in range(3):
            _a_minute_passes()
            queued.append(queueing.standings_queue_stale())
    assert queued == [0, 0, 0] and sent == []
    assert "never stored them" not in caplog.text


@pytest.mark.django_db
def test_the_sweep_repairs_a_lost_chunk_once_and_names_a_repair_that_fails(
    room, director, sent, caplog
):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    SessionStandingsState.objects.update(pending_since=None, stale=False)
    services.standings_rebuild_begin()  # its chunk never runs: the worker died holding it
    Deal.objects.filter(rubber__session=room, number=1).update(contract="8S")
    queued = []
    with caplog.at_level(logging.WARNING, logger="scoring.standings"):
        for _minute in range(3):
            _a_minute_passes()
            queued.append(queueing.standings_queue_stale())
            for (session_id,) in sent:  # what the worker does with each message
                with pytest.raises(ScoringError):
                    services.standings_refresh(session_id=session_id)
            sent.clear()
    assert queued == [1, 0, 0]
    assert caplog.text.count("never stored them") == 1
    assert f"Computing the standings of session {room.pk} failed" in caplog.text
    assert state(room).rebuild_queued_at is None
