"""A phone at a table of two: tap a few deals of each game, watch the sheet change, correct one."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import sign_in
from tests.games.two_player.conftest import engine, play
from tests.games.two_player.test_api import MISERY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_match(live_server: Any, browser: Any, match: Any) -> Any:
    user = match.north.user
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server.url, user.username, f"/rubbers/{match.pk}/")
    return page


def tap(page: Any, field: str, index: int) -> None:
    page.locator(f"#entry label[for=id_{field}_{index}]").click()


def record(page: Any, wait_for: str, text: str) -> None:
    page.locator("#record").click()
    page.locator(wait_for).filter(has_text=text).wait_for()


def first_match(make: Any, kind: str) -> Any:
    return make(kind).rubbers.get(table__number=1, number=1)


def test_bridge_for_two_on_a_phone(live_server, browser, two_player_session):
    page = open_match(live_server, browser, first_match(two_player_session, "bridge_for_two"))
    tap(page, "declarer", 0)
    tap(page, "strain", 3)  # ♠
    tap(page, "tricks", 10)
    record(page, "#total-ns", "120")
    tap(page, "declarer", 1)
    tap(page, "strain", 1)  # ♦
    tap(page, "doubled", 1)
    tap(page, "tricks", 5)  # the opponent (North) wins 8: 2 odd tricks doubled, 80
    record(page, "#total-ns", "200")
    assert page.locator("#total-ew").inner_text() == "0"


def test_misery_on_a_phone(live_server, browser, two_player_session):
    page = open_match(live_server, browser, first_match(two_player_session, "misery"))
    tap(page, "declarer", 1)
    tap(page, "declaration", 2)  # misery
    assert page.locator("#entry .field-strain").is_hidden()  # misery is no trumps by itself
    tap(page, "tricks", 1)  # East took one trick: 5 × 6 to East, above the line
    record(page, "#total-ew", "30")
    tap(page, "declarer", 0)
    tap(page, "declaration", 1)  # eight tricks
    tap(page, "strain", 0)  # ♣
    tap(page, "tricks", 7)  # failed: 10 to East
    record(page, "#total-ew", "40")


def test_turnover_on_a_phone(live_server, browser, two_player_session):
    page = open_match(live_server, browser, first_match(two_player_session, "turnover"))
    page.fill("#id_tricks_0", "15")
    page.fill("#id_tricks_1", "10")
    record(page, "#entry-errors", "RULES 7.3")
    # The live line follows each keystroke (input events), not only a box's blur (change).
    page.fill("#id_tricks_0", "9")
    box = page.locator("#id_tricks_1")
    box.fill("")
    box.press_sequentially("1")
    preview = page.locator("#preview")
    preview.filter(has_text="RULES 7.3").wait_for()
    box.press("4")  # 9–14 without leaving the box
    preview.filter(has_text="North 9 tricks, East 14: East wins the match").wait_for()
    assert page.evaluate("document.activeElement.id") == "id_tricks_1"
    record(page, "#result", "East won by 5 tricks.")
    assert page.locator("#tricks-1").inner_text() == "14"


def test_draw_and_discard_on_a_phone(live_server, browser, two_player_session):
    page = open_match(live_server, browser, first_match(two_player_session, "draw_discard"))
    tap(page, "declarer", 1)
    tap(page, "level", 3)  # 4
    tap(page, "strain", 3)  # ♠
    tap(page, "tricks", 10)
    record(page, "#score-1", "120")
    assert "pct-25" in page.locator("#pad").inner_html()
    tap(page, "declarer", 0)
    tap(page, "level", 6)  # 7
    tap(page, "strain", 4)  # NT
    tap(page, "doubled", 2)  # XX
    tap(page, "tricks", 13)
    record(page, "#result", "North reached the target")


def test_correct_a_misery_deal_on_a_phone(live_server, browser, api, two_player_session):
    match = first_match(two_player_session, "misery")
    play(api, match, MISERY[:2], as_user=match.north.user)
    deal = match.deals.get(number=1)  # eight tricks at NT, 9 taken by North
    page = open_match(live_server, browser, match)
    assert page.locator("#total-ns").inner_text() == "200"

    correction = page.locator("details.correction").first
    correction.locator("summary").click()
    prefix = f"id_deal{deal.pk}"
    assert correction.locator(f"#{prefix}-strain_4").is_checked()  # NT, as recorded
    correction.locator(f"label[for='{prefix}-declaration_2']").click()  # misery
    correction.locator(f"label[for='{prefix}-tricks_0']").click()  # North took none
    correction.get_by_role("button", name="Save correction").click()

    corrected = [{"declarer": 0, "declaration": "misery", "tricks": 0}, MISERY[1]]
    totals = engine("misery", {"deals": corrected, "preset": "acbl"})["players"]
    page.locator("#total-ns", has_text=re.compile(rf"^{totals[0]['total']}$")).wait_for()
    assert page.locator("#total-ew").inner_text() == str(totals[1]["total"])
    assert "History (2)" in page.locator("#deals").inner_text()
    deal.refresh_from_db()
    assert deal.data == {
        "declarer": 0,
        "strain": "NT",
        "tricks": 0,
        "doubled": 0,
        "declaration": "misery",
    }
