"""Planning offers only the movements a game has (issue 29): each game's option carries its
seats from the engine's registry, and the page hides the movement (Pivot, Fixed partners,
Cut-in) while a two-player game is chosen."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.forms import SessionForm
from scoring.rules.games import GAMES


def test_each_game_option_says_its_seats(club: Any) -> None:
    html = str(SessionForm(club=club)["kind"]).replace(" selected", "")
    for code, entry in GAMES.items():
        assert f'value="{code}" data-seats="{entry.seats}"' in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_two_player_game_hides_the_movement(live_server: Any, browser: Any, club: Any) -> None:
    from tests.conftest import sign_in
    from tests.factories import add_player

    add_player(club, "Ann Archer")  # the planning form needs a player to pick
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    director = club.memberships.get(role="director").user
    sign_in(page, live_server.url, director.username, f"/clubs/{club.slug}/console/")
    movement = page.locator("#session-form .field-movement")
    assert movement.is_visible()
    page.select_option("#id_kind", "bridge_for_two")
    assert movement.is_hidden()
    page.select_option("#id_kind", "chicago")
    assert movement.is_visible()
    context.close()
