"""Helpers for the games tests: a rubber in play and a way to enter deals through the API."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import acting

# A rubber NS win 2-1 in six deals (RULES 2): part score, game EW, game NS, pass, down, game NS.
SIX_DEALS: list[dict[str, Any]] = [
    {"contract": "2H", "declarer": "N", "tricks": 9},
    {"contract": "4S", "declarer": "E", "tricks": 10, "honours": {"side": "EW", "points": 100}},
    {"contract": "3NT", "declarer": "S", "tricks": 9},
    {"contract": "pass"},
    {"contract": "4HX", "declarer": "W", "tricks": 8},
    {"contract": "6D", "declarer": "N", "tricks": 12, "honours": {"side": "NS", "points": 150}},
]


def record_deals(rubber: Any, deals: list[dict[str, Any]], **writer: Any) -> None:
    """Record `deals` (as the API takes them, honours nested) as deals 1, 2, … of the rubber,
    by the model: `writer` names who writes, as `acting` takes it (entered_by: the user; seat,
    phone)."""
    for number, deal in enumerate(deals, start=1):
        honours = deal.get("honours") or {}
        fields = {k: v for k, v in deal.items() if k != "honours"}
        if honours:
            fields.update(honours_side=honours["side"], honours_points=honours["points"])
        actor = acting(
            rubber, writer.get("entered_by"), seat=writer.get("seat"), phone=writer.get("phone", "")
        )
        rubber.record_deal(number=number, **fields, actor=actor)


@pytest.fixture
def rubber(running_session: Any) -> Any:
    return running_session.rubbers.get(number=1)


def seated_user(rubber: Any, seat: str) -> Any:
    return rubber.seats[seat].user


@pytest.fixture
def enter(api: Any, rubber: Any) -> Any:
    """POST deals to a rubber as its North player; returns the last response."""

    def post(deals: list[dict[str, Any]], *, start: int = 1, target: Any = None) -> Any:
        target = target or rubber
        api.force_authenticate(seated_user(target, "N"))
        response = None
        for number, deal in enumerate(deals, start=start):
            response = api.post(
                f"/api/v1/rubbers/{target.pk}/deals/", {"number": number, **deal}, format="json"
            )
            assert response.status_code == 201, response.json()
        return response

    return post
