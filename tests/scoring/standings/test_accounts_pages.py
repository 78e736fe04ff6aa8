"""The season accounts' pages, API and CSV (RULES 4.4; docs/api.md, "Season accounts").

Money is its club's members' only: an outsider or an anonymous visitor gets exactly the 404 of
a missing club or player, a public club's included. Payments are the directors'; bad input is a
form error (page) or a 400 naming the field (API), and saves nothing."""

from __future__ import annotations

import csv
import datetime
import io
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.sessions import lifecycle
from scoring.standings.ledger import AccountEntry
from tests.factories import UserFactory, make_club, make_session

from .conftest import win_rubber

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(room: Any) -> Any:
    """The room with NS of table 1 winning 9 hundreds at 0.50 (RULES 4.2), closed."""
    win_rubber(room.rubbers.get(table__number=1))
    lifecycle.session_close(session=room)
    return room


def client_of(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_member_reads_the_balances_which_sum_to_the_cash_in_hand(
    closed: Any, north: Any, table_of_four: dict[str, Any]
) -> None:
    answer = client_of(north).get(f"/clubs/{closed.club.slug}/accounts/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'id="balances"' in page and "East" in page
    assert 'id="record-payment"' not in page  # a player does not record payments


def test_a_director_sees_the_payment_link(closed: Any, director: Any) -> None:
    page = client_of(director).get(f"/clubs/{closed.club.slug}/accounts/").content.decode()
    assert 'id="record-payment"' in page


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
@pytest.mark.parametrize(
    "path",
    [
        "/clubs/{slug}/accounts/",
        "/players/{player}/statement/",
        "/api/v1/clubs/{slug}/accounts",
        "/api/v1/players/{player}/statement",
    ],
)
def test_money_is_hidden_from_non_members_like_a_missing_club(
    closed: Any, table_of_four: dict[str, Any], who: str, path: str
) -> None:
    user = None if who == "anonymous" else UserFactory(username="stranger")
    client = client_of(user)
    real = path.format(slug=closed.club.slug, player=table_of_four["north"].pk)
    missing = path.format(slug="no-such-club", player=999999)
    hidden, absent = client.get(real), client.get(missing)
    assert hidden.status_code == absent.status_code == 404
    assert hidden.content == absent.content
    assert hidden["Content-Type"] == absent["Content-Type"]


def test_a_statement_page_shows_the_running_balance(
    closed: Any, north: Any, table_of_four: dict[str, Any]
) -> None:
    east = table_of_four["east"]
    answer = client_of(north).get(f"/players/{east.pk}/statement/")
    assert answer.status_code == 200
    assert 'data-kind="posting"' in answer.content.decode()


def test_the_payment_form_records_a_payment(
    closed: Any, director: Any, table_of_four: dict[str, Any]
) -> None:
    east = table_of_four["east"]
    url = f"/clubs/{closed.club.slug}/accounts/payments/new/"
    client = client_of(director)
    assert client.get(url).status_code == 200
    answer = client.post(
        url, {"player": east.pk, "kind": "paid_in", "amount": "4.50", "date": "2026-12-02"}
    )
    assert answer.status_code == 302
    entry = AccountEntry.objects.get(kind="paid_in")
    assert (entry.player, entry.amount, entry.created_by) == (east, Decimal("4.50"), director)


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "paid_in", "amount": "abc"},
        {"kind": "paid_in", "amount": "0"},
        {"kind": "paid_in", "amount": "-3"},
        {"kind": "posting", "amount": "3"},
        {"kind": "paid_in", "amount": "1.234"},
        {"kind": "paid_in", "amount": "3", "date": "2026-13-45"},
        {"kind": "paid_in", "amount": "3", "player": "999999"},
        # Issue 32: no date before the club existed or more than a year ahead, no huge amount.
        {"kind": "paid_in", "amount": "3", "date": "0001-01-01"},
        {"kind": "paid_in", "amount": "3", "date": "9999-12-31"},
        {"kind": "paid_in", "amount": "9999999999.99"},
        {"kind": "paid_in", "amount": "100000.01"},
    ],
)
def test_bad_payment_input_is_a_form_error_and_saves_nothing(
    closed: Any, director: Any, table_of_four: dict[str, Any], body: dict[str, str]
) -> None:
    data = {"player": str(table_of_four["east"].pk), **body}
    answer = client_of(director).post(f"/clubs/{closed.club.slug}/accounts/payments/new/", data)
    assert answer.status_code == 400
    assert "errorlist" in answer.content.decode()
    assert not AccountEntry.objects.filter(kind__in=AccountEntry.PAYMENTS).exists()


def test_a_player_may_not_record_a_payment(closed: Any, north: Any) -> None:
    url = f"/clubs/{closed.club.slug}/accounts/payments/new/"
    assert client_of(north).get(url).status_code == 403
    assert client_of(north).post(url, {"kind": "paid_in", "amount": "1"}).status_code == 403


def test_the_api_records_a_payment_and_the_balances_follow(
    closed: Any, director: Any, api: Any, table_of_four: dict[str, Any]
) -> None:
    east = table_of_four["east"]
    api.force_authenticate(director)
    slug = closed.club.slug
    answer = api.post(
        f"/api/v1/clubs/{slug}/accounts/payments",
        {"player": east.pk, "kind": "paid_in", "amount": "5.00"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["amount"] == "5.00"
    sheet = api.get(f"/api/v1/clubs/{slug}/accounts").json()
    rows = {row["player"]: row for row in sheet["balances"]}
    assert rows[east.pk]["balance"] == "0.50"
    assert sheet["cash_in_hand"] == sheet["total"] == "5.00"
    total = sum(Decimal(row["balance"]) for row in sheet["balances"])
    assert total == Decimal(sheet["cash_in_hand"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "paid_in", "amount": "0"}, "amount"),
        ({"kind": "paid_in", "amount": "x"}, "amount"),
        ({"kind": "reversal", "amount": "1"}, "kind"),
        ({"kind": "paid_in", "amount": "1", "player": 999999}, "player"),
        ({"kind": "paid_in", "amount": "1", "balance": "9"}, "balance"),
        # Issue 32: no date before the club existed or more than a year ahead, no huge amount.
        ({"kind": "paid_in", "amount": "1", "date": "0001-01-01"}, "date"),
        ({"kind": "paid_in", "amount": "1", "date": "9999-12-31"}, "date"),
        ({"kind": "paid_in", "amount": "9999999999.99"}, "amount"),
        ({"kind": "paid_in", "amount": "100000.01"}, "amount"),
    ],
)
def test_a_bad_payment_is_a_400_naming_the_field(
    closed: Any,
    director: Any,
    api: Any,
    table_of_four: dict[str, Any],
    body: dict[str, Any],
    field: str,
) -> None:
    api.force_authenticate(director)
    data = {"player": table_of_four["east"].pk, **body}
    answer = api.post(f"/api/v1/clubs/{closed.club.slug}/accounts/payments", data, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    assert not AccountEntry.objects.filter(kind__in=AccountEntry.PAYMENTS).exists()


def test_the_largest_payment_and_one_dated_a_year_ahead_are_taken(
    closed: Any, director: Any, api: Any, table_of_four: dict[str, Any]
) -> None:
    api.force_authenticate(director)
    ahead = (timezone.localdate() + datetime.timedelta(days=366)).isoformat()
    data = {"player": table_of_four["east"].pk, "kind": "paid_in", "amount": "100000.00"}
    answer = api.post(
        f"/api/v1/clubs/{closed.club.slug}/accounts/payments", {**data, "date": ahead}
    )
    assert answer.status_code == 201, answer.content
    refused = api.post(
        f"/api/v1/clubs/{closed.club.slug}/accounts/payments", {**data, "date": "2000-01-01"}
    )
    (message,) = refused.json()["errors"]["date"]
    assert message.startswith("A payment may not be dated before the club existed (")


def test_a_player_of_another_club_is_refused(closed: Any, director: Any, api: Any) -> None:
    other = make_club(director=UserFactory(username="td2"), slug="lakeside")
    stranger = other.players.create(name="Stranger")
    api.force_authenticate(director)
    answer = api.post(
        f"/api/v1/clubs/{closed.club.slug}/accounts/payments",
        {"player": stranger.pk, "kind": "paid_in", "amount": "1"},
        format="json",
    )
    assert answer.status_code == 400 and "player" in answer.json()["errors"]


def test_a_member_who_is_not_a_director_gets_403(closed: Any, north: Any, api: Any) -> None:
    api.force_authenticate(north)
    answer = api.post(
        f"/api/v1/clubs/{closed.club.slug}/accounts/payments",
        {"player": 1, "kind": "paid_in", "amount": "1"},
        format="json",
    )
    assert answer.status_code == 403


def test_the_csvs_are_utf8_with_a_bom_and_a_plain_minus(
    closed: Any, director: Any, api: Any, table_of_four: dict[str, Any]
) -> None:
    api.force_authenticate(director)
    east = table_of_four["east"]
    for url, column in (
        (f"/api/v1/clubs/{closed.club.slug}/accounts?format=csv", "balance"),
        (f"/api/v1/players/{east.pk}/statement?format=csv", "amount"),
    ):
        body = api.get(url).content
        assert body.startswith(b"\xef\xbb\xbf")
        rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
        assert "-4.50" in [row[column] for row in rows]
        assert "\u2212" not in body.decode("utf-8-sig")


def test_the_balance_list_costs_the_same_queries_for_more_players(
    room: Any, north: Any, director: Any, table_of_four: dict[str, Any]
) -> None:
    client = client_of(north)
    url = f"/clubs/{room.club.slug}/accounts/"
    win_rubber(room.rubbers.get(table__number=1))
    lifecycle.session_close(session=room)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    others = [s.player for s in room.tables.get(number=2).seats.order_by("pk")]
    later = make_session(
        room.club,
        [list(table_of_four.values()), others],
        stake=Decimal("1"),
        date=datetime.date(2026, 12, 2),
    )
    for number in (1, 2):
        win_rubber(later.rubbers.get(table__number=number), side="EW")
    lifecycle.session_close(session=later)
    assert AccountEntry.objects.filter(session=later).count() == 8
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)
