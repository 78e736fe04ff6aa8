"""Reopening a closed session for corrections (issue 18; docs/api.md, "Reopening").

The director reopens a closed session, with a confirmation; it runs again so deals can be
corrected (RULES 8.2), no rubber starts, the rubbers closed unfinished stay as played (RULES
2.6) and a corrected deal re-scores its own rubber; closing again recomputes the standings. The
history keeps who reopened and closed it, and when. Players cannot reopen; a reopen of a session
that is not closed is a 409 that changes nothing. The race of a reopen with a close or another
reopen runs on PostgreSQL in tests/integration/test_reopen_race.py.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client

from clubs.models import Session
from games.models import Conflict, Deal, Rubber
from games.sessions import lifecycle, table_changes
from scoring.standings.models import SessionStandingsState
from tests.factories import acting, make_session

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def state(session: Session) -> tuple[Any, ...]:
    """The session's row and every rubber and deal as stored."""
    session.refresh_from_db()
    rubbers = list(
        Rubber.objects.filter(session=session).order_by("pk").values_list("pk", "status")
    )
    deals = list(
        Deal.objects.filter(rubber__session=session)
        .order_by("pk")
        .values_list("pk", "version", "tricks")
    )
    return (session.status, session.closed_at, rubbers, deals, session.history.count())


@pytest.fixture
def closed_unfinished(running_session: Session, director: Any) -> Rubber:
    """Rubber 1: NS make 4S (a game, 120), EW 2H (a part score, 60); then the session closes,
    so the rubber is unfinished: NS 120 + 300 for the only game, EW 60 + 100 for the part score
    (RULES 2.6): 420 – 160."""
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=2, contract="2H", declarer="E", tricks=8, actor=acting(rubber, director)
    )
    lifecycle.session_close(session=running_session, by=director)
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.UNFINISHED
    assert rubber.scoresheet().result.totals == (420, 160)
    return rubber


def test_reopen_asks_first_then_reopens_and_the_history_says_who(
    director: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    client = signed_in(director)
    base = f"/clubs/riverside/sessions/{running_session.pk}/"
    page = client.get(base).content.decode()
    assert f'href="{base}reopen/"' in page
    confirm = client.get(f"{base}reopen/")
    assert confirm.status_code == 200
    assert 'id="confirm-reopen"' in confirm.content.decode()
    assert "RULES 2.6" in confirm.content.decode()
    running_session.refresh_from_db()
    closed_at = running_session.closed_at
    assert running_session.status == Session.Status.CLOSED  # a GET changes nothing

    response = client.post(f"{base}reopen/")
    assert response.status_code == 302
    running_session.refresh_from_db()
    assert running_session.status == Session.Status.RUNNING
    assert running_session.is_reopened
    assert running_session.closed_at == closed_at  # the last close, until it closes again
    # No rubber starts; the unfinished one stays as played.
    assert list(
        Rubber.objects.filter(session=running_session).values_list("status", flat=True)
    ) == [Rubber.Status.UNFINISHED]
    record = running_session.history.order_by("-history_date", "-history_id").first()
    assert record.history_change_reason == "reopened"
    assert record.history_user_id == director.pk

    html = client.get(base).content.decode()
    assert "data-reopened" in html
    # The reopened session's page lists its rubbers with their pads, where deals are corrected.
    assert f'href="/rubbers/{closed_unfinished.pk}/"' in html
    changes = [line for line in html.splitlines() if "data-change=" in line]
    assert [c.split('data-change="')[1].split('"')[0] for c in changes] == [
        "started",
        "closed",
        "reopened",
    ]
    assert "by Director" in changes[-1]
    assert "director" not in changes[-1].split("by ")[-1]  # the club's word, never the login


def test_a_player_cannot_reopen_by_page_or_api(
    api: Any, north: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    before = state(running_session)
    client = signed_in(north)
    url = f"/clubs/riverside/sessions/{running_session.pk}/reopen/"
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    api.force_authenticate(north)
    assert api.post(f"/api/v1/sessions/{running_session.pk}/reopen").status_code == 403
    assert state(running_session) == before
    html = client.get(f"/clubs/riverside/sessions/{running_session.pk}/").content.decode()
    assert "reopen" not in html


def test_reopening_a_session_that_is_not_closed_is_a_conflict_that_changes_nothing(
    api: Any, director: Any, club: Any, running_session: Session
) -> None:
    api.force_authenticate(director)
    before = state(running_session)
    response = api.post(f"/api/v1/sessions/{running_session.pk}/reopen")
    assert response.status_code == 409
    assert "only a closed session" in response.data["detail"].lower()
    assert state(running_session) == before
    planned = make_session(club, [list(running_session.club.players.all()[:4])], start=False)
    assert api.post(f"/api/v1/sessions/{planned.pk}/reopen").status_code == 409
    planned.refresh_from_db()
    assert planned.status == Session.Status.PLANNED
    page = signed_in(director).post(f"/clubs/riverside/sessions/{planned.pk}/reopen/", follow=True)
    assert "only a closed session can be reopened" in page.content.decode().lower()


def test_the_api_reopens_and_closes_again(
    api: Any, director: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    api.force_authenticate(director)
    reopened = api.post(f"/api/v1/sessions/{running_session.pk}/reopen")
    assert reopened.status_code == 200
    assert reopened.data["status"] == "running"
    assert reopened.data["closed_at"] is not None
    assert [t["current_rubber"] for t in reopened.data["tables"]] == [None]
    again = api.post(f"/api/v1/sessions/{running_session.pk}/reopen")
    assert again.status_code == 409
    closed = api.post(f"/api/v1/sessions/{running_session.pk}/close")
    assert closed.status_code == 200
    assert closed.data["status"] == "closed"
    reasons = list(
        running_session.history.order_by("history_date", "history_id").values_list(
            "history_change_reason", "history_user_id"
        )
    )
    assert reasons[-3:] == [
        ("closed", director.pk),
        ("reopened", director.pk),
        ("closed", director.pk),
    ]


def test_a_corrected_deal_rescores_its_unfinished_rubber_and_closing_again_recomputes(
    api: Any,
    director: Any,
    running_session: Session,
    closed_unfinished: Rubber,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """2H by E down one instead of made: NS 120 + 50 + 300 for the only game (RULES 2.6), EW
    nothing. The rubber stays unfinished; the standings follow after the second close."""
    api.force_authenticate(director)
    deal = closed_unfinished.deals.get(number=2)
    refused = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 7}, format="json")
    assert refused.status_code == 409  # closed: the results are final
    # The fixture's close claimed a refresh whose commit never came (tests run in a transaction).
    SessionStandingsState.objects.filter(session=running_session).update(pending_since=None)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.session_reopen(session=running_session, by=director)
    with django_capture_on_commit_callbacks(execute=True):
        corrected = api.patch(
            f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 7}, format="json"
        )
    assert corrected.status_code == 200, corrected.data
    closed_unfinished.refresh_from_db()
    assert closed_unfinished.status == Rubber.Status.UNFINISHED
    assert closed_unfinished.scoresheet().result.totals == (470, 0)
    with django_capture_on_commit_callbacks(execute=True):
        closed = api.post(f"/api/v1/sessions/{running_session.pk}/close")
    assert closed.status_code == 200
    assert not SessionStandingsState.objects.get(session=running_session).stale
    standings = api.get(f"/api/v1/sessions/{running_session.pk}/standings").data
    points = {row["name"]: row["points"] for row in standings["players"]}
    # NS (North, South) won the rubber's 470 points; EW none.
    assert points["North"] == points["South"] == 470
    assert points["East"] == points["West"] == 0


def test_no_deal_can_be_entered_into_a_reopened_session(
    director: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    lifecycle.session_reopen(session=running_session, by=director)
    before = state(running_session)
    with pytest.raises(Conflict):
        closed_unfinished.record_deal(
            number=3,
            contract="1NT",
            declarer="S",
            tricks=7,
            actor=acting(closed_unfinished, director),
        )
    assert state(running_session) == before


def test_a_correction_that_wins_an_unfinished_rubber_completes_it_and_starts_none(
    director: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    """2H by E corrected to 4S by N made: NS win their second game at the last deal, so the
    rubber was won (RULES 2.5): complete, 120 + 120 + 700; no rubber starts."""
    lifecycle.session_reopen(session=running_session, by=director)
    deal = closed_unfinished.deals.get(number=2)
    deal.correct(version=1, contract="4S", declarer="N", tricks=10, actor=acting(deal, director))
    closed_unfinished.refresh_from_db()
    assert closed_unfinished.status == Rubber.Status.COMPLETE
    assert closed_unfinished.scoresheet().result.totals == (940, 0)
    assert Rubber.objects.filter(session=running_session).count() == 1


def test_a_correction_that_uncompletes_the_last_rubber_leaves_it_unfinished(
    director: Any, running_session: Session
) -> None:
    """NS win rubber 1 with two games; rubber 2 starts and the session closes with it empty, so
    it is withdrawn. Reopened, deal 2 corrected to 4S down one: rubber 1 is no longer won and no
    rubber follows it, so play stopped there: unfinished, NS 120 + 300, EW 100 (RULES 2.6)."""
    first = running_session.rubbers.get()
    for number in (1, 2):
        first.record_deal(
            number=number, contract="4S", declarer="N", tricks=10, actor=acting(first, None)
        )
    assert Rubber.objects.filter(session=running_session).count() == 2
    lifecycle.session_close(session=running_session, by=director)
    assert list(Rubber.objects.filter(session=running_session)) == [first]
    lifecycle.session_reopen(session=running_session, by=director)
    first.deals.get(number=2).correct(
        version=1, tricks=9, actor=acting(first.deals.get(number=2), director)
    )
    first.refresh_from_db()
    assert first.status == Rubber.Status.UNFINISHED
    assert first.scoresheet().result.totals == (420, 100)
    assert Rubber.objects.filter(session=running_session).count() == 1


def test_a_reopened_session_does_not_hold_its_players(
    director: Any, club: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    """One player, one running session of a day (docs/api.md): a session reopened only for
    corrections seats nobody, so its players may start another session that day."""
    lifecycle.session_reopen(session=running_session, by=director)
    players = list(running_session.club.players.order_by("pk")[:4])
    later = make_session(club, [players], date=running_session.date)
    assert later.status == Session.Status.RUNNING
    assert running_session.date == datetime.date(2026, 11, 30)


def test_the_admin_shows_the_sessions_history(
    django_user_model: Any, director: Any, running_session: Session, closed_unfinished: Rubber
) -> None:
    lifecycle.session_reopen(session=running_session, by=director)
    staff = django_user_model.objects.create_superuser("staff", "staff@example.com", "x-pass-1")
    page = signed_in(staff).get(f"/admin/clubs/session/{running_session.pk}/history/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "reopened" in html and "closed" in html


def test_a_reopened_session_takes_corrections_only_not_table_changes(
    closed_unfinished: Rubber, director: Any
) -> None:
    """Probe of issue 18: a reopened session is for corrections; arrivals, substitutes, leavers
    and seat changes answer 409 and change nothing (no new table, player, rubber or deal)."""
    from clubs.models import Player, Table
    from tests.conftest import unchanged

    session = closed_unfinished.session
    lifecycle.session_reopen(session=session, by=director)
    session.refresh_from_db()
    table = Table.objects.get(session=session)
    east = Player.objects.get(pk=closed_unfinished.east_id)
    late = Player.objects.create(club=session.club, name="Late")
    api = signed_in(director)
    base = f"/api/v1/sessions/{session.pk}"
    with unchanged():
        for path, body in (
            (f"{base}/arrivals", {"names": ["Ra", "Rb", "Rc", "Rd"], "mode": "table"}),
            (f"{base}/tables/1/substitute", {"leaver": east.pk, "name": "Rsub"}),
            (f"{base}/tables/1/leave", {"leaver": east.pk}),
        ):
            response = api.post(path, body, content_type="application/json")
            assert response.status_code == 409, (path, response.content)
            assert "reopened for corrections only" in response.json()["detail"]
        with pytest.raises(Conflict, match="reopened for corrections only"):
            table_changes.table_remove_player(table=table, player=east)
        with pytest.raises(Conflict, match="reopened for corrections only"):
            table_changes.table_add_player(table=table, player=late)
