"""A Chicago on a phone: four counted deals, the next dealer shown, then the next Chicago.

Each step waits for the answer to Record (htmx swaps the pad with the rubber as written): the
entry form headed by the next deal and no longer being posted, then the result. The live poll
(every 2 s) leaves the pad alone while a deal is being recorded: it once moved the heading to the
next deal before the answer, on a loaded machine the taps that followed went partly to the form
the answer then replaced, and "Chicago complete" never came (a CI flake, and lost taps for a
player on a slow connection).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from games.deals import entry
from tests.factories import make_session
from tests.games.test_browser import tap_deal
from tests.games.two_player.test_browser import open_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (level, strain, doubling index, declarer, result offset from "=", honours)
DEALS = [
    ("pass", None, 0, None, None, ""),
    ("1", "NT", 0, "N", 1, ""),
    ("4", "S", 0, "E", 0, ""),
    ("3", "NT", 0, "S", 0, ""),
    ("2", "H", 0, "W", 0, ""),
]
#: The project's browser timeout (the other tests' `page.set_default_timeout(15_000)`).
TIMEOUT = 15_000


def answered(page: Any, number: int) -> None:
    """The answer to Record is in: the entry form is on deal `number` and not being posted."""
    expect(page.locator("#entry h2")).to_have_text(f"Deal {number}", timeout=TIMEOUT)
    expect(page.locator("#entry")).not_to_have_class(re.compile(r"htmx-request"), timeout=TIMEOUT)


def test_a_chicago_on_a_phone(live_server, browser, club, table_of_four):
    session = make_session(club, [list(table_of_four.values())], kind="chicago")
    chukker = session.rubbers.get(number=1)
    page = open_match(live_server, browser, chukker)
    page.set_default_timeout(TIMEOUT)
    assert page.locator("#next-deal").get_attribute("data-dealer") == "N"
    for number, deal in enumerate(DEALS, start=1):
        tap_deal(page, *deal)
        page.locator("#record").click()
        if number < len(DEALS):
            answered(page, number + 1)
    expect(page.locator("#result")).to_contain_text("Chicago complete", timeout=TIMEOUT)
    expect(page.locator("#next-rubber")).to_be_visible(timeout=TIMEOUT)
    assert int(page.locator("#total-ew").inner_text()) > 0
    assert chukker.deals.count() == len(DEALS)


def test_the_pad_stays_on_the_deal_being_recorded_until_the_answer(
    live_server, browser, club, table_of_four, monkeypatch
):
    """A loaded server answers Record after the live poll has run (3 s, the poll every 2 s): the
    heading moves to the next deal only with the answer, never while the form is being posted,
    and the taps that follow are all recorded."""
    render = entry.render_pad

    def slow(request: Any, *args: Any, **kwargs: Any) -> Any:
        if request.method == "POST":
            time.sleep(3)  # after the deal is saved, before the answer
        return render(request, *args, **kwargs)

    monkeypatch.setattr(entry, "render_pad", slow)
    session = make_session(club, [list(table_of_four.values())], kind="chicago")
    chukker = session.rubbers.get(number=1)
    page = open_match(live_server, browser, chukker)
    page.set_default_timeout(TIMEOUT)
    # Counts the answers to Record as htmx receives them (before it swaps them in).
    page.evaluate(
        """() => {
            window.answers = 0;
            document.body.addEventListener("htmx:beforeSwap", (event) => {
                if (event.detail.requestConfig.verb === "post") window.answers += 1;
            });
        }"""
    )
    for number, deal in enumerate(DEALS[:2], start=1):
        tap_deal(page, *deal)
        page.locator("#record").click()
        # The answers received at the first frame that shows the next deal's heading.
        seen = page.wait_for_function(
            """(heading) => {
                const title = document.querySelector("#entry h2");
                return title && title.textContent.trim() === heading && [window.answers];
            }""",
            arg=f"Deal {number + 1}",
            timeout=TIMEOUT,
        ).json_value()
        assert seen == [number], "the heading moved before the answer to Record came"
        answered(page, number + 1)
    assert [d.contract for d in chukker.deals.order_by("number")] == ["pass", "1NT"]
