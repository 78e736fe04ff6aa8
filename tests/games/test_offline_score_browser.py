"""A score offline (docs/offline.md, "A score offline"): the phone scores the deals it keeps
itself, marked "not yet sent", across a reload; when they go it says how many, and the pad is
the server's again (Chromium, 390×844)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Deal
from tests.conftest import wait_for
from tests.games.test_browser import SHOTS, tap_deal
from tests.games.test_offline_browser import (
    FOUR_SPADES,
    THREE_NT_DOWN,
    kept_page_has,
    open_rubber,
    record,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: 4♥ by S, made with an overtrick (11 tricks): 120 below and 30 above, the game (RULES 2.2).
FOUR_HEARTS_UP = ("4", "H", 0, "S", 1, "")


@pytest.fixture(autouse=True)
def _close_phones(transactional_db: Any, live_server: Any, browser: Any) -> Any:
    yield
    for context in browser.contexts:
        context.close()


def test_deals_kept_offline_are_scored_on_the_phone_until_the_server_has_them(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    record(page, THREE_NT_DOWN, 1)  # online: the server scores it (We +50)
    page.locator("#deals #deal-1").wait_for()
    wait_for(lambda: kept_page_has(page, 'id="deal-1"'))  # the copy a reload brings back

    context.set_offline(True)
    page.locator("#offline.is-offline").wait_for()
    # The live line is the phone's: 4♠ by N made, not vulnerable (RULES 3.1).
    page.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    tap_deal(page, *FOUR_SPADES)
    preview = page.locator("#preview")
    assert preview.inner_text() == "We +120 (on this phone, not yet sent)"
    page.locator("#record").click()
    page.locator("#offline-pending li[data-number='2']").wait_for()
    # The cleared form keeps no line of the deal just kept.
    assert preview.inner_text() == "Tap the contract, the declarer and the result."
    # The next deal is scored after it: We have a game, so 4♥ by S is vulnerable; it wins the
    # rubber 2–0 (RULES 2.4: 700).
    page.locator("#entry h2").filter(has_text="Deal 3").wait_for()
    tap_deal(page, *FOUR_HEARTS_UP)
    assert preview.inner_text() == "We +850, with the rubber bonus (on this phone, not yet sent)"
    page.locator("#record").click()
    page.locator("#offline-pending li[data-number='3']").wait_for()

    pending = page.locator("#offline-pending li")
    assert pending.nth(0).inner_text() == (
        "Deal 2 4 ♠ N =: We +120 — saved on this phone, not yet sent"
    )
    assert pending.nth(1).inner_text() == (
        "Deal 3 4 ♥ S +1: We +850, with the rubber bonus — saved on this phone, not yet sent"
    )
    score = "Score with the deals kept on this phone, not yet sent: We 1020 · They 0"
    assert page.locator("#offline-score").inner_text() == score
    pad_shows_the_kept_deals(page)
    page.locator("#offline").screenshot(path=str(SHOTS / "offline-score.png"))
    page.locator(".pad-col-wrap").screenshot(path=str(SHOTS / "offline-pad.png"))

    # Deal 3 won the rubber on the phone: the form takes no deal 4 (it belongs to the next
    # rubber, which only the server opens) and says so.
    over = (
        "On this phone this rubber ended with deal 3 (not yet sent): it takes no more deals. "
        "When the connection returns, the deals are sent and the page leads to the next rubber; "
        "record the next deals there."
    )
    rubber_over_on_the_phone(page, over)

    page.reload()  # from the worker's copy, the deals from the phone: the same figures
    page.locator("#offline-pending li[data-number='3'] .offline-points").filter(
        has_text="We"
    ).wait_for()
    assert page.locator("#offline-score").inner_text() == score
    pad_shows_the_kept_deals(page)
    rubber_over_on_the_phone(page, over)
    assert not Deal.objects.filter(rubber=rubber, number__gt=1).exists()

    context.set_offline(False)
    sent = page.locator("#offline-sent")
    sent.filter(has_text="2 deals sent.").wait_for()
    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-3").wait_for()
    assert page.locator("#offline-score").is_hidden()
    # The server's figures replace the phone's: no mark is left, the totals are the server's.
    assert page.locator("[data-unsent], .unsent, #offline-over").count() == 0
    assert page.locator("#total-ns").inner_text() == "1020"
    assert Deal.objects.filter(rubber=rubber).count() == 3


def pad_shows_the_kept_deals(page: Any) -> None:
    """The pad itself has the kept deals, each figure marked "not yet sent": their rows in the
    deal list with the running totals, their items in the columns (deal 2's game line drawn),
    and the totals with them."""
    rows = page.locator("#deals tr.unsent")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().split("\t") == ["2", "4 ♠ N = not yet sent", "170", "0"]
    assert rows.nth(1).inner_text().split("\t") == ["3", "4 ♥ S +1 not yet sent", "1020", "0"]
    items = page.locator("#pad .pad-item.unsent")
    assert [items.nth(i).inner_text() for i in range(items.count())] == [
        "30 #3 not yet sent",  # above the line: the overtrick
        "700 #3 not yet sent",  # the rubber bonus, 2–0 (RULES 2.4)
        "120 #2 not yet sent",  # below: deal 2's game
        "120 #3 not yet sent",  # under a new line, the next game
    ]
    assert page.locator("#pad .pad-game-line.unsent").count() == 1
    assert page.locator("#total-ns.unsent").inner_text() == "1020"
    assert page.locator("#total-ew").inner_text() == "0"
    assert page.locator("#pad-unsent").inner_text().startswith("Figures marked “not yet sent”")


def rubber_over_on_the_phone(page: Any, over: str) -> None:
    """The form says the rubber is over and keeps no further deal, even a submit forced."""
    page.locator("#offline-over").filter(has_text=over).wait_for()
    assert page.locator("#record").is_disabled()
    # Said once (issue 29): the notice, not again beside Record, which looks disabled.
    assert page.locator("#entry").inner_text().count("this rubber ended") == 1
    assert page.locator("#preview").inner_text() == ""
    look = page.locator("#record").evaluate(
        "b => { const s = getComputedStyle(b); return [Number(s.opacity), s.cursor]; }"
    )
    assert look[0] <= 0.5 and look[1] == "not-allowed", look
    page.evaluate("document.querySelector('#entry').requestSubmit()")
    page.wait_for_timeout(300)
    assert page.locator("#offline-pending li").count() == 2
