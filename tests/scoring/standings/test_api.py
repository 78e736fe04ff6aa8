"""GET standings, settlement and leaderboard (API.md: Standings), with query-count guards."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from scoring.standings import services
from tests.factories import acting, add_player, make_club, make_session
from tests.scoring.standings.conftest import win_rubber

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(room, director):
    """Table 1: NS win a rubber (9 hundreds each); table 2: EW win one."""
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    win_rubber(room.rubbers.get(table__number=2), "EW", by=director)
    services.standings_refresh(session_id=room.pk)
    return room


def test_session_standings_shape(api, played):
    body = api.get(f"/api/v1/sessions/{played.pk}/standings").json()
    assert body["stale"] is False and body["computed_at"]
    assert body["ranking"] == "net"
    assert len(body["players"]) == 8
    first = body["players"][0]
    assert set(first) >= {"player", "name", "rank", "rubbers", "won", "points", "hundreds", "money"}
    assert first["rank"] == 1 and first["hundreds"] == 9 and first["money"] == "4.50"
    assert [t["number"] for t in body["tables"]] == [1, 2]
    # RULES 6.3: after one rubber the winning partners are equal: they share the table's first
    # place, so a cut decides the winner; the four winners' figures are equal, so both prizes'
    # choices are shared ("=1") as well.
    assert all(t["winner"] is None and len(t["winners"]) == 2 for t in body["tables"])
    assert first["place"] == "=1" and first["left_early"] is False
    assert [(p["choice"], p["place"], p["shared"]) for p in body["prizes"]] == [(1, "=1", True)] * 4
    assert {p["table"] for p in body["prizes"]} == {1, 2}


def test_standings_say_stale_while_a_refresh_is_pending(api, played, director):
    rubber = played.rubbers.get(table__number=1, status="in_play")
    rubber.record_deal(
        number=1, contract="2H", declarer="E", tricks=8, actor=acting(rubber, director)
    )
    body = api.get(f"/api/v1/sessions/{played.pk}/standings").json()
    assert body["stale"] is True


def test_settlement_lists_who_pays_whom(api, played):
    body = api.get(f"/api/v1/sessions/{played.pk}/settlement").json()
    assert body["stake_per_hundred"] == "0.50" and body["stale"] is False
    assert body["payments"]
    assert set(body["payments"][0]) == {"from", "from_name", "to", "to_name", "amount"}
    assert sum(Decimal(p["amount"]) for p in body["payments"]) == Decimal("18.00")


def test_leaderboard_all_time_and_by_period(api, club, played, table_of_four, director):
    later = make_session(club, [list(table_of_four.values())], date=datetime.date(2027, 3, 1))
    win_rubber(later.rubbers.get(), "EW", by=director)
    services.standings_refresh(session_id=later.pk)
    everyone = api.get(f"/api/v1/clubs/{club.slug}/leaderboard").json()
    assert everyone["stale"] is False and everyone["computed_at"]
    assert max(p["sessions"] for p in everyone["players"]) == 2
    assert sum(p["hundreds"] for p in everyone["players"]) == 0
    season = api.get(f"/api/v1/clubs/{club.slug}/leaderboard?from=2027-01-01&to=2027-12-31")
    body = season.json()
    assert body["from"] == "2027-01-01" and body["to"] == "2027-12-31"
    assert {p["sessions"] for p in body["players"]} == {1} and len(body["players"]) == 4
    ranks = [p["rank"] for p in body["players"]]
    assert ranks == [1, 1, 3, 3]
    # RULES 6.3: shared places written "=1", listed by player id among equals.
    assert [p["place"] for p in body["players"]] == ["=1", "=1", "=3", "=3"]
    assert all(p["place_shared"] for p in body["players"])
    ids = [p["player"] for p in body["players"]]
    assert ids[:2] == sorted(ids[:2]) and ids[2:] == sorted(ids[2:])


@pytest.mark.parametrize(
    ("query", "field"),
    [("from=yesterday", "from"), ("to=2026-02-30", "to"), ("from=2026-05-01&to=2026-04-01", "to")],
)
def test_bad_leaderboard_dates_are_400_with_field_errors(api, club, query, field):
    response = api.get(f"/api/v1/clubs/{club.slug}/leaderboard?{query}")
    assert response.status_code == 400
    assert field in response.json()["errors"]


@pytest.fixture
def private_session(director, make_user):
    club = make_club(director=director, slug="hidden", public=False)
    member = make_user("member")
    players = [add_player(club, "Member", user=member)] + [
        add_player(club, name) for name in ("B", "C", "D")
    ]
    return make_session(club, [players]), member


@pytest.mark.parametrize("path", ["standings", "settlement"])
def test_members_only_sessions_are_hidden_from_outsiders(api, private_session, outsider, path):
    session, member = private_session
    url = f"/api/v1/sessions/{session.pk}/{path}"
    assert api.get(url).status_code == 404
    api.force_authenticate(outsider)
    assert api.get(url).status_code == 404
    api.force_authenticate(member)
    assert api.get(url).status_code == 200


def test_members_only_leaderboard_is_hidden_from_outsiders(api, private_session, outsider):
    _session, member = private_session
    api.force_authenticate(outsider)
    assert api.get("/api/v1/clubs/hidden/leaderboard").status_code == 404
    api.force_authenticate(member)
    assert api.get("/api/v1/clubs/hidden/leaderboard").status_code == 200


def test_unknown_ids_are_404(api):
    assert api.get("/api/v1/sessions/999999/standings").status_code == 404
    assert api.get("/api/v1/sessions/999999/settlement").status_code == 404
    assert api.get("/api/v1/clubs/nope/leaderboard").status_code == 404


def test_reads_take_a_constant_small_number_of_queries(
    api, played, club, django_assert_num_queries
):
    # Session (with club), freshness, rows: 3 for an anonymous reader of a public club, and the
    # recorded cuts when winners share a prize's choice (here: partners who won together).
    with django_assert_num_queries(4):
        assert api.get(f"/api/v1/sessions/{played.pk}/standings").status_code == 200
    with django_assert_num_queries(3):
        assert api.get(f"/api/v1/sessions/{played.pk}/settlement").status_code == 200
    with django_assert_num_queries(3):
        assert api.get(f"/api/v1/clubs/{club.slug}/leaderboard").status_code == 200


def test_the_schema_documents_every_standings_status(api):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/v1/sessions/{id}/standings"]["get"]["responses"]) == {"200", "404"}
    assert set(paths["/api/v1/sessions/{id}/settlement"]["get"]["responses"]) == {"200", "404"}
    board = paths["/api/v1/clubs/{slug}/leaderboard"]["get"]
    assert set(board["responses"]) == {"200", "400", "404"}
    assert {p["name"] for p in board["parameters"]} >= {"from", "to"}
