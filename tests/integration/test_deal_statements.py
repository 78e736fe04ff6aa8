"""A deal's POST on PostgreSQL, statement by statement (issue 33, docs/benchmarks.md).

A token's entry of a deal costs these statements and no more: the token with its user (one read,
config/tokens.py), the entry check, the transaction (its rubber locked with its session, table and
seated players, its deals, the deal and its history row), and after the commit the standings
queued in one statement (mark, claim and the leaderboard's revision). The push reads the pad's
new version, which it publishes with its event (so that the pad's streams need not read it each,
games.push.hooks); the answer reads nothing more. The queue's one statement does what its steps
did: tested here on PostgreSQL.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from scoring.standings import queueing
from scoring.standings.models import LeaderboardRevision, SessionStandingsState
from tests.games.conftest import SIX_DEALS, seated_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: The statements of a deal's POST by a token, in order (their first words).
POST_STATEMENTS = [
    "SELECT",  # the token and its user
    "SELECT",  # the entry check: the rubber, its club, the user's role and player
    "BEGIN",
    "SELECT",  # the rubber locked, with its session, table and seated players
    "SELECT",  # its deals
    "WITH",  # the deal and its history, in one statement
    "COMMIT",
    "SELECT",  # the pad's new version, published with the push's event
    "WITH",  # the standings queued: marked stale, claimed, the leaderboard revised
]


@pytest.fixture
def rubber(running_session: Any) -> Any:
    return running_session.rubbers.get(number=1)


#: A director who does not sit in the rubber and has no player in the club: named "Director" in
#: the answer from the entry check's read (until 2026-12-03 a tenth statement read it).
DIRECTOR_STATEMENTS = POST_STATEMENTS


def _token_client(user: Any) -> APIClient:
    _, token = AuthToken.objects.create(user)
    return APIClient(HTTP_AUTHORIZATION=f"Token {token}")


@pytest.mark.parametrize(
    ("cache", "who"),
    [(60, "seated"), (0, "seated"), (60, "director")],
    ids=["leaderboard cached", "no cache", "a director not seated"],
)
def test_a_deal_posted_by_a_token_takes_nine_statements(
    rubber: Any, settings: Any, cache: int, who: str, director: Any
) -> None:
    settings.LEADERBOARD_CACHE_SECONDS = cache
    token_client = _token_client(director if who == "director" else seated_user(rubber, "N"))
    expected = DIRECTOR_STATEMENTS if who == "director" else POST_STATEMENTS
    url = f"/api/v1/rubbers/{rubber.pk}/deals/"
    # The first deal makes the session's state row (and the club's revision row).
    assert token_client.post(url, {"number": 1, **SIX_DEALS[0]}, format="json").status_code == 201
    for number in (2, 3):
        with CaptureQueriesContext(connection) as ctx:
            response = token_client.post(
                url, {"number": number, **SIX_DEALS[number - 1]}, format="json"
            )
        assert response.status_code == 201
        words = [q["sql"].split(None, 1)[0].upper() for q in ctx.captured_queries]
        assert words == expected, [q["sql"][:120] for q in ctx.captured_queries]
        answer = response.json()
        assert answer["number"] == number
        assert answer["rubber"]["players"] == {"N": "North", "E": "East", "S": "South", "W": "West"}
        assert len(answer["rubber"]["deals"]) == number
        # The answer made from the locked rows without DRF's serializers is, byte for byte, the
        # serializers' answer from the rubber read again through the ORM.
        assert response.content == _answer_read_again(answer["id"])
        if who == "director":
            assert answer["entered_by"] == "Director"
        _history_as_the_library_writes_it(answer["id"])


def _history_as_the_library_writes_it(deal_id: int) -> None:
    """The deal's history record, written in the deal's statement, is the one
    django-simple-history writes on a save: the deal's fields, "+", the user, the reason."""
    from games.models import Deal

    deal = Deal.objects.get(pk=deal_id)
    (record,) = deal.history.all()
    assert (record.history_type, record.history_change_reason) == ("+", "entered")
    assert record.history_user_id == deal.entered_by_id is not None
    for field in Deal._meta.concrete_fields:
        assert getattr(record, field.attname) == getattr(deal, field.attname), field.attname


def test_every_answer_of_a_whole_rubber_is_the_serializers(rubber: Any) -> None:
    """Each deal of a rubber, the last ending it: the answer made from the rows under the lock
    (its scoresheet the one scored there) is the serializers' from the rubber read again."""
    token_client = _token_client(seated_user(rubber, "N"))
    url = f"/api/v1/rubbers/{rubber.pk}/deals/"
    for number, deal in enumerate(SIX_DEALS, start=1):
        response = token_client.post(url, {"number": number, **deal}, format="json")
        assert response.status_code == 201
        answer = response.json()
        assert response.content == _answer_read_again(answer["id"], answer["next_rubber"])
    assert answer["rubber"]["status"] == "complete" and answer["next_rubber"] is not None


def _answer_read_again(deal_id: int, next_rubber: int | None = None) -> bytes:
    from rest_framework.renderers import JSONRenderer

    from games.models import Deal, Rubber
    from games.serializers import DealWithRubberSerializer

    rubber_id = Deal.objects.get(pk=deal_id).rubber_id
    rubber = Rubber.objects.with_deals().get(pk=rubber_id)
    rubber.fetch_players()
    deal = next(d for d in rubber.deals.all() if d.pk == deal_id)
    context = {"rubber": rubber, "next_rubber": next_rubber}
    data = DealWithRubberSerializer(deal, context=context).data
    return JSONRenderer().render(data)


def _state(session_id: int) -> SessionStandingsState:
    return SessionStandingsState.objects.get(pk=session_id)


def test_the_queue_in_one_statement_marks_claims_and_revises(rubber: Any, settings: Any) -> None:
    settings.LEADERBOARD_CACHE_SECONDS = 60
    session_id, club_id = rubber.session_id, rubber.session.club_id
    SessionStandingsState.objects.filter(pk=session_id).delete()
    LeaderboardRevision.objects.filter(pk=club_id).delete()
    # No rows yet: done in steps, which make them.
    assert queueing._queue_in_one(session_id) is None
    queueing.queue_session_refresh(session_id)
    first = _state(session_id)
    assert (first.stale, first.dirty, first.pending_since is not None) == (True, 1, True)
    revision = LeaderboardRevision.objects.get(pk=club_id).revision
    # The claim is held: marked and revised, not claimed again.
    assert queueing._queue_in_one(session_id) is False
    second = _state(session_id)
    assert (second.dirty, second.pending_since) == (2, first.pending_since)
    assert LeaderboardRevision.objects.get(pk=club_id).revision == revision + 1
    # A claim given back (a refresh started) or older than its lifetime is taken.
    SessionStandingsState.objects.filter(pk=session_id).update(pending_since=None, stale=False)
    assert queueing._queue_in_one(session_id) is True
    assert _state(session_id).stale
    old = timezone.now() - datetime.timedelta(hours=1)
    SessionStandingsState.objects.filter(pk=session_id).update(pending_since=old)
    assert queueing._queue_in_one(session_id) is True
    assert _state(session_id).pending_since > old
    # The club's revision row missing: made, as revise_leaderboards makes it.
    LeaderboardRevision.objects.filter(pk=club_id).delete()
    assert queueing._queue_in_one(session_id) is False
    assert LeaderboardRevision.objects.filter(pk=club_id).exists()
    # With the cache off the revision is left alone.
    settings.LEADERBOARD_CACHE_SECONDS = 0
    kept = LeaderboardRevision.objects.get(pk=club_id).revision
    assert queueing._queue_in_one(session_id) is False
    assert LeaderboardRevision.objects.get(pk=club_id).revision == kept


#: The statements of the benchmark's floor (config/plain.py ``floor``): the POST's writes alone.
FLOOR_STATEMENTS = ["BEGIN", "SELECT", "WITH", "COMMIT", "WITH"]


def test_the_floor_writes_the_same_rows_in_five_statements(rubber: Any, settings: Any) -> None:
    """The floor the HTTP benchmark sets the POST against (docs/benchmarks.md)."""
    from django.test import RequestFactory

    from config.plain import floor
    from games.models import Deal

    settings.LEADERBOARD_CACHE_SECONDS = 60
    queueing.queue_session_refresh(rubber.session_id)  # the state and revision rows, as a POST's
    state = _state(rubber.session_id)
    revision = LeaderboardRevision.objects.get(pk=rubber.session.club_id).revision
    body = '{"number": 1, "contract": "4S", "declarer": "N", "tricks": 9}'
    request = RequestFactory().post("/", body, content_type="application/json")
    with CaptureQueriesContext(connection) as ctx:
        response = floor(request, rubber.pk)
    assert response.status_code == 201
    words = [q["sql"].split(None, 1)[0].upper() for q in ctx.captured_queries]
    assert words == FLOOR_STATEMENTS
    deal = Deal.objects.get(rubber=rubber, number=1)
    assert (deal.contract, deal.declarer, deal.tricks) == ("4S", "N", 9)
    assert deal.history.count() == 1
    assert _state(rubber.session_id).dirty == state.dirty + 1
    assert LeaderboardRevision.objects.get(pk=rubber.session.club_id).revision == revision + 1
