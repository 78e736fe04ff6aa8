"""In Chromium: a director plans a two-table session from the console, starts it and sees
both tables' first seatings (the screenshot in docs/ comes from this test)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ROOT, sign_in
from tests.factories import UserFactory, add_player, make_club

SCREENSHOT = ROOT / "docs" / "screenshots" / "director-console.png"
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Edith", "Farid", "Gwen", "Hugo"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_director_runs_a_two_table_session_from_the_console(live_server: Any, page: Any) -> None:
    director = UserFactory(username="director")
    club = make_club(director=director, slug="riverside")
    for name in NAMES:
        add_player(club, name)

    sign_in(page, live_server.url, "director", "/clubs/riverside/console/")

    for name in NAMES:
        page.get_by_label(name, exact=True).check()
    page.locator("#suggestion").filter(has_text="tables of 4, 4").wait_for()
    page.get_by_role("button", name="Seat the tables").click()
    page.get_by_role("button", name="Start the session").click()

    cards = page.locator(".table-card")
    cards.nth(1).wait_for()
    assert cards.count() == 2
    for i in range(2):
        card = cards.nth(i)
        assert "Rubber 1 in play" in card.inner_text()
        current = card.locator("tr.current td[data-seat]")
        seated = [current.nth(j).inner_text() for j in range(4)]
        assert len(set(seated)) == 4 and set(seated) <= set(NAMES)
    assert page.locator("[data-status]").first.inner_text() == "Running"

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1100, "height": 900})
    page.screenshot(path=str(SCREENSHOT), full_page=True)
