"""Planning warns, before seating, when a ticked player sits at a table of another running
session (issue 31): one of an earlier day most likely should be closed, tonight's holds them;
the movements are explained where they are chosen, and the form is reached from the top."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import add_player, make_session

pytestmark = pytest.mark.django_db


def _suggest(client: Any, club: Any, ids: list[Any]) -> str:
    response = client.get(f"/clubs/{club.slug}/console/suggest/", {"players": ids})
    assert response.status_code == 200
    return response.content.decode()


def test_the_hint_names_players_seated_in_a_session_left_running(
    client: Any, director: Any, club: Any
) -> None:
    old = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev")]
    earlier = make_session(club, [old], date=timezone.localdate() - datetime.timedelta(days=3))
    free = add_player(club, "Edith")
    client.force_login(director)
    html = _suggest(client, club, [old[0].pk, free.pk])
    assert 'id="seated-elsewhere" aria-live="polite" hx-swap-oob="true"' in html
    assert 'data-seated-elsewhere="1"' in html
    assert "Ada sits at table 1 of the running session of" in html
    assert f'href="/clubs/{club.slug}/sessions/{earlier.pk}/close/"' in html
    assert "Edith" not in html


def test_tonights_running_session_holds_its_players(client: Any, director: Any, club: Any) -> None:
    seated = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev")]
    make_session(club, [seated], date=timezone.localdate())
    client.force_login(director)
    html = _suggest(client, club, [p.pk for p in seated[:2]])
    assert 'data-seated-elsewhere="2"' in html
    assert html.count("This session cannot start until they leave that table.") == 2


def test_nothing_to_warn_of_and_junk_values_are_left_out(
    client: Any, director: Any, club: Any
) -> None:
    free = add_player(club, "Edith")
    client.force_login(director)
    html = _suggest(client, club, [free.pk, "x", "-1", "99999999999"])
    assert "data-seated-elsewhere" not in html


def test_the_console_explains_the_movements_and_links_the_planning_form(
    client: Any, director: Any, club: Any
) -> None:
    add_player(club, "Ada")
    client.force_login(director)
    html = client.get(f"/clubs/{club.slug}/console/").content.decode()
    assert html.index('id="plan-link"') < html.index('id="console-sessions"')
    assert 'href="#new-session"' in html and 'href="/clubs/riverside/room/"' in html
    for words in (
        "after each rubber the other three move one seat round her",
        "The same partnerships in the same seats all evening",
        "Partners change each rubber so that everyone partners everyone as evenly as possible",
    ):
        assert words in html
    assert 'id="seated-elsewhere"' in html
