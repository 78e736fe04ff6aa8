"""A false deal deleted on a phone (390×844): the pad goes back, and so does the other phone's.

A Chicago, where it matters most (RULES 5: the dealer and vulnerability follow the counted
deals): deal 2 recorded by mistake is deleted from its Correct panel, which asks once naming it;
the pad is back on deal 2, dealt by East with East–West vulnerable, and East's phone, polling,
shows the same within a few seconds, its taps for the next deal moved to deal 2 (docs/rules.md,
§8 decision 7).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Deal
from tests.conftest import sign_in
from tests.factories import make_session
from tests.games.conftest import record_deals
from tests.games.test_browser import tap_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15_000


def phone(live_server: Any, browser: Any, user: Any, path: str) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    sign_in(page, live_server.url, user.username, path)
    return page


def test_a_false_deal_is_deleted_and_every_pad_goes_back(live_server, browser, club, table_of_four):
    session = make_session(club, [list(table_of_four.values())], kind="chicago")
    chukker = session.rubbers.get(number=1)
    record_deals(
        chukker,
        [
            {"contract": "1NT", "declarer": "N", "tricks": 8},
            {"contract": "3NT", "declarer": "E", "tricks": 6},  # never played: entered by mistake
        ],
        entered_by=None,
    )
    path = f"/rubbers/{chukker.pk}/"
    north = phone(live_server, browser, chukker.north.user, path)
    east = phone(live_server, browser, chukker.east.user, path)
    for page in (north, east):
        expect(page.locator("#next-deal")).to_have_attribute("data-dealer", "S")
        expect(page.locator("#deal-2")).to_be_visible()

    # East is tapping the next deal in meanwhile (deal 3, as East's pad numbers it now).
    tap_deal(east, "2", "S", 0, "W", 0, "")

    # The last deal's Correct panel offers "Delete deal 2"; it asks once, naming the deal.
    north.locator("#correct-1").click()
    expect(north.locator("#delete-1")).to_have_count(0, timeout=TIMEOUT)  # not the last deal
    north.locator("#correct-2").click()
    north.locator("#delete-2").click()
    question = north.locator("#delete-ask-2")
    expect(question).to_contain_text("Delete deal 2 (3NT by East, −3)?")
    question.get_by_role("link", name="Keep it").click()  # changes nothing
    expect(north.locator("#delete-2")).to_be_visible()
    assert Deal.objects.filter(rubber=chukker).count() == 2
    north.locator("#delete-2").click()
    north.locator("#delete-ask-2").get_by_role("button", name="Delete").click()

    # The pad is back on deal 2: East deals, East–West vulnerable (RULES 5).
    expect(north.locator("#notice")).to_have_text("Deal 2 deleted.")
    expect(north.locator("#deal-2")).to_have_count(0)
    expect(north.locator("#entry h2")).to_have_text("Deal 2")
    expect(north.locator("#next-deal")).to_have_attribute("data-dealer", "E")
    expect(north.locator("#next-deal")).to_contain_text("EW vulnerable")
    expect(north.locator("#deleted-deals")).to_contain_text("Deal 2 deleted (3NT by E, 6 tricks)")
    assert list(Deal.objects.filter(rubber=chukker).values_list("number", flat=True)) == [1]

    # The other phone's pad follows on its next poll (every 2 s), and East's taps, kept, are
    # deal 2 now: the poll says so, and Record records them as deal 2 (never after a gap).
    expect(east.locator("#deal-2")).to_have_count(0, timeout=6_000)
    expect(east.locator("#next-deal")).to_have_attribute("data-dealer", "E", timeout=6_000)
    expect(east.locator("#notice")).to_contain_text("what you tapped is now deal 2")
    expect(east.locator("#entry h2")).to_have_text("Deal 2")
    east.locator("#record").click()
    expect(east.locator("#deal-2")).to_contain_text("2♠ by West")
    assert Deal.objects.get(rubber=chukker, number=2).contract == "2S"
    east.context.close()
    north.context.close()
