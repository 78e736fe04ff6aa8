"""The printed table cards (issue 31): the code and its QR from planning, saying the code opens
the table when the session starts (and not before, nor after the close); the same rubbers
listed before and after the start; a closed session's cards say it is closed and show what was
played."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache, caches
from django.test import Client

from games.sessions import lifecycle
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_throttle() -> None:
    cache.clear()
    caches["throttle"].clear()


@pytest.fixture
def planned(club: Any) -> Any:
    players = [add_player(club, name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve")]
    return make_session(club, [players], start=False)


def cards(client: Client, session: Any) -> str:
    return client.get(f"/clubs/{session.club.slug}/sessions/{session.pk}/cards/").content.decode()


def rubbers_listed(html: str) -> list[str]:
    return re.findall(r'<td class="num" data-label="Rubber">(\d+)</td>', html)


def test_a_planned_card_carries_the_code_that_opens_the_table_once_started(
    client: Client, director: Any, planned: Any
) -> None:
    client.force_login(director)
    code = planned.tables.get().code
    html = cards(client, planned)
    assert f'data-code="{code}"' in html and 'class="segno"' in html
    assert "Opens when the session starts." in html
    phone = Client()
    assert phone.get(f"/t/{code}").status_code == 404  # not before the start
    lifecycle.session_start(session=planned)
    assert planned.tables.get().code == code
    html = cards(client, planned)
    assert f'data-code="{code}"' in html and "Opens when the session starts." not in html
    assert phone.get(f"/t/{code}").status_code == 200
    lifecycle.session_close(session=planned)
    assert phone.get(f"/t/{code}").status_code == 404  # nor after the close


def test_the_rubbers_on_a_card_stay_the_same_from_planning_to_start(
    client: Client, director: Any, planned: Any
) -> None:
    client.force_login(director)
    before = cards(client, planned)
    lifecycle.session_start(session=planned)
    after = cards(client, planned)
    assert rubbers_listed(before) == rubbers_listed(after) == [str(n) for n in range(1, 8)]
    seats = r'<td data-seat="(\w)"[^>]*>([^<]*)</td>'
    assert re.findall(seats, before) == re.findall(seats, after)


def test_a_closed_sessions_cards_say_it_is_closed_and_show_what_was_played(
    client: Client, director: Any, planned: Any
) -> None:
    lifecycle.session_start(session=planned)
    rubber = planned.rubbers.get(number=1)
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    lifecycle.session_close(session=planned)
    client.force_login(director)
    html = cards(client, planned)
    assert "This session is closed (since " in html
    assert "no longer opens the table" in html
    assert "<svg" not in html
    assert rubbers_listed(html) == ["1"]
    assert f'data-seat="N" data-label="North">{rubber.north.name}<' in html
