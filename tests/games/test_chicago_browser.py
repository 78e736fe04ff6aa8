"""A Chicago on a phone: four counted deals, the next dealer shown, then the next Chicago."""

from __future__ import annotations

import pytest

from tests.factories import make_session
from tests.games.test_browser import tap_deal
from tests.games.two_player.test_browser import open_match

# (level, strain, doubling index, declarer, result offset from "=", honours)
DEALS = [
    ("pass", None, 0, None, None, ""),
    ("1", "NT", 0, "N", 1, ""),
    ("4", "S", 0, "E", 0, ""),
    ("3", "NT", 0, "S", 0, ""),
    ("2", "H", 0, "W", 0, ""),
]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_chicago_on_a_phone(live_server, browser, club, table_of_four):
    session = make_session(club, [list(table_of_four.values())], kind="chicago")
    chukker = session.rubbers.get(number=1)
    page = open_match(live_server, browser, chukker)
    assert page.locator("#next-deal").get_attribute("data-dealer") == "N"
    for number, deal in enumerate(DEALS, start=1):
        tap_deal(page, *deal)
        page.locator("#record").click()
        if number < len(DEALS):
            page.locator("#entry h2").filter(has_text=f"Deal {number + 1}").wait_for()
    page.locator("#result").filter(has_text="Chicago complete").wait_for()
    assert page.locator("#next-rubber").is_visible()
    assert int(page.locator("#total-ew").inner_text()) > 0
