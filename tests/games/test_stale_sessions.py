"""A session left running from an earlier day is flagged where a director acts on sessions (the
console, the room, the club page), with a link to close it (issue 31); tonight's is not."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import add_player, make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_nights(club: Any) -> tuple[Any, Any]:
    earlier = make_session(
        club,
        [[add_player(club, f"Old {i}") for i in range(4)]],
        date=timezone.localdate() - datetime.timedelta(days=3),
    )
    tonight = make_session(
        club, [[add_player(club, f"New {i}") for i in range(4)]], date=timezone.localdate()
    )
    return earlier, tonight


@pytest.mark.parametrize("page", ["console/", "room/", ""])
def test_a_session_left_running_is_flagged_with_a_link_to_close_it(
    client: Any, director: Any, club: Any, two_nights: tuple[Any, Any], page: str
) -> None:
    earlier, tonight = two_nights
    client.force_login(director)
    html = client.get(f"/clubs/{club.slug}/{page}").content.decode()
    assert html.count('data-stale="') == 1
    assert f'data-stale="{earlier.pk}"' in html
    day = earlier.date.strftime("%B ") + str(earlier.date.day)
    assert f"Still running since {day}" in html
    assert f'href="/clubs/{club.slug}/sessions/{earlier.pk}/close/"' in html
    assert f'data-stale="{tonight.pk}"' not in html


def test_the_flag_is_a_property_of_the_date_and_status(club: Any, two_nights: Any) -> None:
    earlier, tonight = two_nights
    assert earlier.left_running and not tonight.left_running
    planned = make_session(
        club,
        [[add_player(club, f"Later {i}") for i in range(4)]],
        start=False,
        date=timezone.localdate() - datetime.timedelta(days=1),
    )
    assert not planned.left_running


def test_a_player_sees_the_flag_without_the_close_link(
    client: Any, club: Any, two_nights: Any, outsider: Any
) -> None:
    earlier, _ = two_nights
    add_player(club, "Jill", user=outsider)
    client.force_login(outsider)
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'data-stale="{earlier.pk}"' in html
    assert "/close/" not in html
