"""A table-code phone's name in a deal's history is written by the write that makes the record
(games.models.change_note), never added afterwards to "the latest record": an outside probe saw
a repeated dispute from a code phone rename someone else's correction as the phone's."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Deal
from tests.games.conftest import seated_user

NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def label(seat: str) -> str:
    """How a table-code phone is named: the player in its seat, the code and the seat."""
    return f"{NAMES[seat]}, table 1 (code), seat {seat}"


@pytest.fixture(autouse=True)
def _confirmation_on(running_session):
    from django.core.cache import caches

    caches["throttle"].clear()
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])


def phone_at(rubber, seat):
    phone = Client()
    assert phone.post(f"/t/{rubber.table.code}", {"seat": seat}).status_code == 302
    return phone


def reasons(deal):
    return list(deal.history.order_by("history_id").values_list("history_change_reason", flat=True))


def test_a_repeated_dispute_changes_no_one_elses_record_and_an_api_correction_clears_it(
    api, rubber, enter
):
    enter([{"contract": "4S", "declarer": "E", "tricks": 10}])  # entered by North's login
    deal = Deal.objects.get(rubber=rubber)
    east_phone = phone_at(rubber, "E")
    assert (
        east_phone.post(f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}).status_code
        == 302
    )
    # Sent again (a double tap): the deal is disputed already; nothing is written.
    assert (
        east_phone.post(f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}).status_code
        == 302
    )
    assert reasons(deal) == ["entered", f"disputed · {label('E')}"]
    # South corrects it through the API: the new content is a new deal to confirm.
    api.force_authenticate(seated_user(rubber, "S"))
    answer = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 8}, "json")
    assert answer.status_code == 200
    deal.refresh_from_db()
    assert not deal.disputed and deal.version == 2
    assert "awaiting your confirmation" in east_phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert (
        east_phone.post(f"/deals/{deal.pk}/dispute", {"version": 2, "reason": "result"}).status_code
        == 302
    )
    assert reasons(deal) == [
        "entered",
        f"disputed · {label('E')}",
        "correction",
        f"disputed · {label('E')}",
    ]
    history = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    assert [(e["reason"], e["user"], e["code_phone"]) for e in history] == [
        ("entered", "North", ""),
        ("disputed", None, label("E")),
        ("correction", "South", ""),
        ("disputed", None, label("E")),
    ]


def test_a_repeated_confirmation_names_the_phone_once(rubber, enter):
    enter([{"contract": "4S", "declarer": "N", "tricks": 10}])
    deal = Deal.objects.get(rubber=rubber)
    west_phone = phone_at(rubber, "W")
    for _ in range(2):
        assert west_phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}).status_code == 302
    assert reasons(deal) == ["entered", f"confirmed · {label('W')}"]
