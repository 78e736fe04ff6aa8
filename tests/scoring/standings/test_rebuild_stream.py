"""The nightly rebuild's bulk path (``stream_sessions``: one ordered read of a chunk's deals,
rubbers scored from their keys) gives the very rows of the refresh's path (``compute_sessions``,
each match through its sheet), on random nights; and the rebuild leaves the club's ratings to
their own task, queued once per club after its last chunk (docs/standings.md)."""

from __future__ import annotations

import datetime
import io
import random
from decimal import Decimal
from typing import Any

import pytest
from celery import current_app
from django.core.management import call_command
from django.db import connection

from clubs.models import Club, Session
from games.models import Deal, Rubber
from scoring.standings import queueing, ratings, services
from scoring.standings.computation import compute_sessions, stream_sessions
from scoring.standings.models import (
    ClubRatingsState,
    PlayerRating,
    RatingStep,
    RubberResult,
    SessionPayment,
    SessionStanding,
    SessionStandingsState,
)
from tests.factories import acting, add_players, make_session
from tests.scoring.standings.conftest import down_one, win_rubber

SEEDS = (3, 17, 2026)


def random_nights(seed: int) -> Club:
    """A club's nights made at random from ``seed``: closed pivot nights of random deals cut
    into rubbers by the engine (``seed_synthetic``), then varied: honours claimed, a stake in
    fractions of a cent, a random ranking, a night still running with rubbers in play, a
    Chicago and a night of a two-player game."""
    rng = random.Random(seed)
    prefix = f"rnd{seed}"
    call_command(
        "seed_synthetic",
        clubs=1,
        players=9,
        sessions=3,
        tables=2,
        rubbers=3,
        seed=seed,
        prefix=prefix,
        no_progress=True,
        stdout=io.StringIO(),
    )
    club = Club.objects.get(slug__startswith=prefix)
    sessions = list(Session.objects.filter(club=club).order_by("pk"))
    for deal in Deal.objects.filter(rubber__session__club=club).exclude(contract="pass"):
        # RULES 3.7: a side holding four trump honours (100) took at least three tricks.
        side = "NS" if deal.declarer in "NS" else "EW"
        if "NT" not in deal.contract and deal.tricks >= 3 and rng.random() < 0.2:
            Deal.objects.filter(pk=deal.pk).update(honours_side=side, honours_points=100)
    odd = sessions[0]
    odd.stake_per_hundred = Decimal("0.125")  # cents to share out (RULES 4.2)
    odd.rules = {**odd.rules, "pivot_ranking": rng.choice(["gross", "net"])}
    odd.save(update_fields=["stake_per_hundred", "rules"])
    running = sessions[-1]
    Session.objects.filter(pk=running.pk).update(status=Session.Status.RUNNING, closed_at=None)
    for table in running.tables.all():
        last = Rubber.objects.filter(table=table).order_by("-number").first()
        if last is not None and rng.random() < 0.8:
            Rubber.objects.filter(pk=last.pk).update(status=Rubber.Status.IN_PLAY, ended_at=None)

    players = add_players(club, f"Extra {seed}", count=5)
    chicago = make_session(club, [players[:4]], kind="chicago", date=datetime.date(2026, 11, 2))
    match = chicago.rubbers.get()
    for number in range(1, rng.randint(2, 4) + 1):
        level = rng.randint(1, 4)
        match.record_deal(
            number=number,
            contract=f"{level}{rng.choice(['C', 'D', 'H', 'S', 'NT'])}",
            declarer=rng.choice("NESW"),
            tricks=min(13, 6 + level + rng.randint(-2, 1)),
            actor=acting(match, None),
        )
    four = make_session(club, [players[:4]], date=datetime.date(2026, 11, 3))
    rubber = win_rubber(four.rubbers.get(), rng.choice(["NS", "EW"]))
    down_one(rubber, 1)  # the next rubber, in play
    two = make_session(
        club,
        [players[:2], players[2:4]],
        kind="bridge_for_two",
        date=datetime.date(2026, 11, 4),
    )
    for table_number in (1, 2):
        duel = two.rubbers.get(table__number=table_number)
        for number in range(1, rng.randint(1, 3) + 1):
            duel.record_deal(
                number=number,
                data={"declarer": rng.randint(0, 1), "strain": "S", "tricks": rng.randint(6, 9)},
                actor=acting(duel, None),
            )
    return club


def stored(club: Club) -> list[list[tuple[Any, ...]]]:
    """Every derived row of the club's sessions, ids aside, in a fixed order."""
    sessions = Session.objects.filter(club=club)
    results = RubberResult.objects.filter(session__in=sessions).values_list(
        "session_id",
        "rubber_id",
        "player_id",
        "seat",
        "side",
        "status",
        "provisional",
        "deals",
        "points",
        "net",
        "hundreds",
        "won",
        "money",
    )
    standings = SessionStanding.objects.filter(session__in=sessions).values_list(
        "session_id",
        "player_id",
        "rank",
        "table_number",
        "table_rank",
        "prize_choice",
        "rubbers",
        "won",
        "points",
        "net",
        "hundreds",
        "money",
        "running_points",
        "running_hundreds",
    )
    payments = SessionPayment.objects.filter(session__in=sessions).values_list(
        "session_id", "position", "payer_id", "payee_id", "amount"
    )
    return [sorted(rows) for rows in (results, standings, payments)]


@pytest.mark.django_db
@pytest.mark.parametrize("seed", SEEDS)
def test_the_bulk_path_computes_the_rows_of_the_refresh_on_random_nights(seed):
    club = random_nights(seed)
    ids = list(Session.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    assert Rubber.objects.filter(session_id__in=ids, status=Rubber.Status.IN_PLAY).exists()
    assert Rubber.objects.filter(session_id__in=ids, status=Rubber.Status.UNFINISHED).exists()
    previous = compute_sessions(ids)
    assert stream_sessions(ids) == previous
    assert stream_sessions(ids[1::2]) == {pk: previous[pk] for pk in ids[1::2]}
    assert sum(len(c.payments) for c in previous.values()) > 0


@pytest.mark.django_db
@pytest.mark.parametrize("seed", SEEDS[:1])
def test_the_rebuild_stores_what_the_refresh_stored_on_random_nights(seed):
    club = random_nights(seed)
    ids = list(Session.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    for pk in ids:
        services.standings_refresh(session_id=pk)  # the refresh's path
    by_refresh = stored(club)
    assert all(by_refresh)
    for model in (RubberResult, SessionStanding, SessionPayment, SessionStandingsState):
        model.objects.all().delete()
    summary = services.standings_rebuild_all(chunk=2)  # emptied tables, the bulk path
    assert summary["failed"] == [] and summary["repaired"] == len(ids)
    assert stored(club) == by_refresh
    assert services.standings_rebuild_all(chunk=3)["repaired"] == 0


@pytest.fixture
def published(monkeypatch) -> list[tuple[str, int]]:
    """The refreshes sent to the broker, by task name and key (none runs)."""
    sent: list[tuple[str, int]] = []
    monkeypatch.setattr(queueing, "_publish", lambda derived, key: sent.append((derived.task, key)))
    return sent


def _nights(club: Any, players: dict[str, Any], director: Any, count: int) -> list[Session]:
    """``count`` closed-off nights of the same four, each with a rubber won."""
    four = list(players.values())
    nights = []
    for day in range(count):
        session = make_session(club, [four], date=datetime.date(2026, 10, 1 + day))
        win_rubber(session.rubbers.get(), "NS" if day % 2 else "EW", by=director)
        nights.append(session)
    return nights


def _ratings_queued() -> int:
    """Ratings refreshes waiting for the commit (a test runs in a transaction)."""
    return sum(
        getattr(func, "func", None) is queueing._publish and func.args[0] is queueing.RATINGS
        for _, func, _ in connection.run_on_commit
    )


@pytest.mark.django_db
def test_the_rebuild_computes_no_rating_and_queues_each_club_once_at_its_end(
    club, table_of_four, director, published, monkeypatch, django_capture_on_commit_callbacks
):
    nights = _nights(club, table_of_four, director, 3)
    RubberResult.objects.all().delete()  # every chunk finds the results of ended rubbers changed
    published.clear()
    replayed: list[int] = []
    monkeypatch.setattr(ratings, "ratings_compute", lambda *, club_id: replayed.append(club_id))
    done: list[int] = []
    chunk = services.standings_rebuild_chunk

    def chunk_then_note(*, session_ids):
        part = chunk(session_ids=session_ids)
        done.append(_ratings_queued())  # what was queued by the end of this chunk
        return part

    monkeypatch.setattr(services, "standings_rebuild_chunk", chunk_then_note)
    with django_capture_on_commit_callbacks(execute=True):
        summary = services.standings_rebuild_all(chunk=1)
        assert _ratings_queued() == 1
    assert done == [0] * len(nights)  # no chunk queued a ratings refresh
    assert published == [("scoring.tasks.refresh_club_ratings", club.pk)]  # once, at the end
    assert summary["ratings"] == [club.pk]
    assert replayed == []  # and nothing replayed the ratings in the rebuild's own process
    state = ClubRatingsState.objects.get(pk=club.pk)
    assert state.stale is True and state.pending_since is not None  # claimed for that message


@pytest.mark.django_db
def test_a_rebuild_that_changes_no_ended_result_queues_no_ratings(
    club, table_of_four, director, published
):
    _nights(club, table_of_four, director, 2)
    for pk in Session.objects.values_list("pk", flat=True):
        services.standings_refresh(session_id=pk)  # their refreshes were only sent
    published.clear()
    waiting = _ratings_queued()  # the refreshes' own, for after the test's transaction
    summary = services.standings_rebuild_all(chunk=1)
    assert _ratings_queued() == waiting
    assert summary["repaired"] == 0 and summary["ratings"] == [] and published == []


@pytest.mark.django_db
def test_after_the_rebuild_the_ratings_task_stores_the_ratings_of_the_results(
    club, table_of_four, director, django_capture_on_commit_callbacks, monkeypatch
):
    """Eager Celery (the embedded default, also when the environment names a broker): the task
    the rebuild queued runs after it, and the ratings equal those the refreshes had stored,
    row for row."""
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    with django_capture_on_commit_callbacks(execute=True):  # each write's refresh, then ratings
        _nights(club, table_of_four, director, 3)
    before = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "matches"))
    steps = RatingStep.objects.count()
    assert before and steps
    PlayerRating.objects.all().delete()
    RatingStep.objects.all().delete()
    RubberResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        services.standings_rebuild_all(chunk=1)
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "matches")) == before
    assert RatingStep.objects.count() == steps
    assert ClubRatingsState.objects.get(pk=club.pk).stale is False
    assert ratings.ratings_refresh(club_id=club.pk) is False  # idempotent: nothing to write


@pytest.mark.django_db
def test_the_refresh_after_a_write_queues_the_ratings_and_never_computes_them(
    club, table_of_four, director, monkeypatch, django_capture_on_commit_callbacks
):
    session = make_session(club, [list(table_of_four.values())])
    win_rubber(session.rubbers.get(), "NS", by=director)
    RubberResult.objects.all().delete()
    replayed: list[int] = []
    monkeypatch.setattr(ratings, "ratings_compute", lambda *, club_id: replayed.append(club_id))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcome = services.standings_refresh(session_id=session.pk)
    assert outcome.rated_club == club.pk and replayed == []
    ours = [c for c in callbacks if getattr(c, "func", None) is queueing._publish]
    assert [c.args for c in ours] == [(queueing.RATINGS, club.pk)]
