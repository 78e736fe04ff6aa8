"""Re-seating a planned session (issue 18): the director plans its tables again with the
console's form, the same live hint and submit answer (`scoring.rules.seating.plan_tables`) and
the same checks as planning (`games.sessions.lifecycle.session_create`); the API takes the same
fields with PATCH. A started session, a player or a bad plan changes nothing. The race of a
re-seat with a start runs on PostgreSQL in tests/integration/test_reopen_race.py."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from clubs.models import Session, TableSeat
from games.sessions import lifecycle
from games.sessions.planning import plan_in_words
from tests.factories import Night, add_player, make_club

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seating(session: Session) -> tuple[Any, ...]:
    """The session's row and its tables' seats as stored."""
    session.refresh_from_db()
    seats = list(
        TableSeat.objects.filter(session=session)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id", "position", "active")
    )
    return (session.status, session.date, session.kind, session.movement, seats)


def players_of(night: Night, *names: str) -> list[int]:
    return [night.club.players.get(name=name).pk for name in names]


def test_the_page_shows_the_seated_players_and_replans_the_tables(
    director: Any, night: Night
) -> None:
    planned = night.planned
    client = signed_in(director)
    url = f"/clubs/riverside/sessions/{planned.pk}/seat/"
    block = client.get(f"/clubs/riverside/sessions/{planned.pk}/").content.decode()
    assert f'href="{url}"' in block
    page = client.get(url).content.decode()
    ticked = re.findall(r'<input type="checkbox" name="players" value="(\d+)"[^>]*checked', page)
    assert sorted(map(int, ticked)) == sorted(players_of(night, "Kim", "Lou", "Max", "Ned", "Eve"))
    assert plan_in_words(5)["text"] in page  # the live hint for the five seated
    eight = players_of(night, "Kim", "Lou", "Max", "Ned", "Eve", "Fay", "Gus", "Hal")
    response = client.post(
        url,
        {
            "date": "2026-12-02",
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": "0.50",
            "players": eight,
        },
    )
    assert response.status_code == 302
    planned.refresh_from_db()
    assert str(planned.date) == "2026-12-02"
    assert str(planned.stake_per_hundred) == "0.50"
    tables = [list(t.seats.values_list("player_id", flat=True)) for t in planned.tables.all()]
    assert [len(t) for t in tables] == [4, 4]
    assert sorted(p for t in tables for p in t) == sorted(eight)
    record = planned.history.order_by("-history_date", "-history_id").first()
    assert (record.history_change_reason, record.history_user_id) == ("reseated", director.pk)


@pytest.fixture
def night(director: Any) -> Night:
    from tests.factories import build_night

    night = build_night(director=director, public=True)
    for name in ("Gus", "Hal"):
        add_player(night.club, name)
    return night


@pytest.mark.parametrize(
    ("names", "movement", "count"),
    [
        (("Kim", "Lou", "Max", "Ned", "Eve", "Fay", "Gus"), "pivot", 7),
        (("Kim", "Lou", "Max", "Ned", "Eve"), "fixed", 5),
    ],
)
def test_a_plan_that_cannot_be_seated_gets_the_hints_words_and_changes_nothing(
    director: Any, night: Night, names: tuple[str, ...], movement: str, count: int
) -> None:
    before = seating(night.planned)
    response = signed_in(director).post(
        f"/clubs/riverside/sessions/{night.planned.pk}/seat/",
        {
            "date": "2026-11-30",
            "kind": "rubber",
            "movement": movement,
            "stake_per_hundred": "0",
            "players": players_of(night, *names),
        },
    )
    assert response.status_code == 200
    text = plan_in_words(count, "rubber", movement)["text"]
    assert response.context["form"].errors["players"] == [text]
    assert seating(night.planned) == before


def test_a_started_session_cannot_be_reseated(api: Any, director: Any, night: Night) -> None:
    running = night.running
    before = seating(running)
    client = signed_in(director)
    response = client.post(
        f"/clubs/riverside/sessions/{running.pk}/seat/",
        {"date": "2026-11-30", "kind": "rubber", "movement": "pivot", "stake_per_hundred": "0"},
        follow=True,
    )
    assert "Only a planned session can be re-seated" in response.content.decode()
    api.force_authenticate(director)
    answer = api.patch(f"/api/v1/sessions/{running.pk}/", {"movement": "fixed"}, format="json")
    assert answer.status_code == 409
    assert seating(running) == before


@pytest.mark.parametrize("persona", ["player", "outsider", "other_director"])
def test_only_the_director_reseats(api: Any, night: Night, persona: str) -> None:
    before = seating(night.planned)
    user = night.users[persona]
    url = f"/clubs/riverside/sessions/{night.planned.pk}/seat/"
    assert signed_in(user).post(url, {"players": players_of(night, "Fay")}).status_code == 403
    api.force_authenticate(user)
    ids = players_of(night, "Kim", "Lou", "Max", "Ned")
    answer = api.patch(
        f"/api/v1/sessions/{night.planned.pk}/", {"tables": [{"players": ids}]}, format="json"
    )
    assert answer.status_code == 403
    assert seating(night.planned) == before


def test_the_api_reseats_with_the_plannings_checks(api: Any, director: Any, night: Night) -> None:
    api.force_authenticate(director)
    url = f"/api/v1/sessions/{night.planned.pk}/"
    before = seating(night.planned)
    other = add_player(make_club(director=director, slug="elsewhere"), "Stranger")
    bad = [
        ({"tables": [{"players": players_of(night, "Kim", "Lou", "Max")}]}, "tables"),
        ({"tables": [{"players": [*players_of(night, "Kim", "Lou", "Max"), other.pk]}]}, "tables"),
        ({"movement": "fixed"}, "movement"),  # the kept table of five
        ({"kind": "misery"}, "tables"),  # a two-player game seats two
        ({"date": "soon"}, "date"),
    ]
    for body, field in bad:
        answer = api.patch(url, body, format="json")
        assert answer.status_code == 400, body
        assert field in answer.data["errors"], answer.data
        assert seating(night.planned) == before
    ids = players_of(night, "Ned", "Max", "Lou", "Kim")
    answer = api.patch(url, {"tables": [{"players": ids}], "movement": "fixed"}, format="json")
    assert answer.status_code == 200, answer.data
    assert answer.data["status"] == "planned"
    assert answer.data["movement"] == "fixed"
    assert [t["players"] for t in answer.data["tables"]] == [ids]


def test_a_player_of_a_running_session_may_be_named_but_starting_refuses(
    director: Any, night: Night
) -> None:
    """As when planning (docs/api.md, "One running session per player"): the page warns, naming
    the running session; starting is refused until the player is free."""
    client = signed_in(director)
    names = ("Kim", "Lou", "Max", "North")
    response = client.post(
        f"/clubs/riverside/sessions/{night.planned.pk}/seat/",
        {
            "date": "2026-11-30",
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": "0",
            "players": players_of(night, *names),
        },
        follow=True,
    )
    html = response.content.decode()
    assert "North already sits at table 1 of the running session of" in html
    with pytest.raises(ValidationError, match="North already sits"):
        lifecycle.session_start(session=night.planned, anyway=True)
    night.planned.refresh_from_db()
    assert night.planned.status == Session.Status.PLANNED


@pytest.mark.parametrize("huge", ["99999999999999999999999", "-99999999999999999999999"])
def test_a_player_id_beyond_the_databases_integers_is_a_form_error_not_a_500(
    director: Any, club: Any, huge: str
) -> None:
    """Probe of issue 18: the planning, re-seat and arrivals forms name an impossible player id
    as the field's error (an OverflowError from SQLite before)."""
    from clubs.forms import ArrivalsForm, SessionForm

    form = SessionForm(
        {
            "date": "2026-12-04",
            "kind": "rubber",
            "movement": "pivot",
            "stake_per_hundred": "0.10",
            "players": [huge],
        },
        club=club,
    )
    assert not form.is_valid() and "players" in form.errors
    session = Session.objects.create(club=club, date=datetime.date(2026, 12, 4))
    arrivals = ArrivalsForm({"players": [huge]}, session=session)
    assert not arrivals.is_valid() and "players" in arrivals.errors


def test_a_session_deleted_right_after_its_reseat_answers_as_a_missing_one(
    api: Any, director: Any, night: Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PATCH answers with the session read again: a planned session another director deleted
    before that read answers what the same PATCH answers once it is gone."""
    planned = night.planned
    reseat = lifecycle.session_reseat

    def deleted_after(*, session: Session, **changes: Any) -> None:
        reseat(session=session, **changes)
        Session.objects.filter(pk=session.pk).delete()

    monkeypatch.setattr(lifecycle, "session_reseat", deleted_after)
    api.force_authenticate(director)
    url, body = f"/api/v1/sessions/{planned.pk}/", {"date": "2026-12-03"}
    raced = api.patch(url, body, format="json")
    missing = api.patch(url, body, format="json")
    assert missing.status_code == 404
    assert (raced.status_code, raced.content) == (missing.status_code, missing.content)
