"""At the table on a phone, 390×844 (issue 17): your table after sign-in, the whole entry on
one screen, only possible results, the live line, a conflict in words, We for East–West."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import ROOT, Held, sign_in, wait_for
from tests.factories import acting
from tests.games.conftest import SIX_DEALS

SHOTS = ROOT / "docs" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}


def phone(browser: Any) -> Any:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def wait_in_view(page: Any, selector: str) -> None:
    """Wait until the element's box is within the screen, top to bottom (the page scrolls once
    htmx has settled the answer, a moment after the answer is in)."""
    page.wait_for_function(
        "selector => { const box = document.querySelector(selector).getBoundingClientRect();"
        " return box.top >= 0 && box.bottom <= innerHeight; }",
        arg=selector,
        timeout=5_000,
    )


def tap(page: Any, field: str, value: str) -> None:
    page.locator(f"#entry .field-{field} label[data-v='{value}']").click()


def record_visible(page: Any) -> None:
    box = page.locator("#record").bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box


def enter_api(rubber: Any, deals: list[dict[str, Any]]) -> None:
    from games.models import DealFields

    for number, deal in enumerate(deals, start=1):
        honours = deal.get("honours") or {}
        fields = DealFields.build(
            contract=deal["contract"],
            declarer=deal.get("declarer"),
            tricks=deal.get("tricks"),
            honours_side=honours.get("side"),
            honours_points=honours.get("points"),
        )
        rubber.record_deal(
            number=number, **fields.as_kwargs(), actor=acting(rubber, rubber.north.user)
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_in_lands_on_your_table_and_the_entry_fits_one_screen(
    live_server, browser, running_session
):
    rubber = running_session.rubbers.get(number=1)
    enter_api(rubber, SIX_DEALS[:3])  # a pad with games on it: both sides vulnerable
    context, page = phone(browser)
    sign_in(page, live_server.url, rubber.north.user.username, "/")

    # Your table now: first on the page after sign-in, one tap away.
    card = page.locator("#your-table")
    assert card.bounding_box()["y"] < 300
    card.click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/")
    page.locator("#entry h2").filter(has_text="Deal 4").wait_for()
    record_visible(page)

    # Only the results the level can have: 7 → −13 … =; 1 → −7 … +6.
    tap(page, "level", "7")
    assert page.locator("#entry .field-result label[data-v='1']").is_hidden()
    assert page.locator("#entry .field-result label[data-v='-13']").is_visible()
    tap(page, "level", "1")
    assert page.locator("#entry .field-result label[data-v='-8']").is_hidden()
    assert page.locator("#entry .field-result label[data-v='6']").is_visible()
    record_visible(page)

    # The live line, scored by the engine before Record: both sides are vulnerable now.
    tap(page, "level", "4")
    tap(page, "strain", "S")
    tap(page, "doubling", "X")
    tap(page, "declarer", "N")
    tap(page, "result", "-2")
    page.locator("#preview", has_text="4♠× by North, −2: They +500").wait_for()
    record_visible(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "entry-screen.png"))

    # A result tapped, then a level that cannot have it: unticked, not sent.
    tap(page, "result", "3")  # 4 +3 = 13 tricks
    tap(page, "level", "5")
    assert page.locator("#entry input[name=result]:checked").count() == 0
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_deal_entered_on_another_phone_is_told_in_words(live_server, browser, running_session):
    rubber = running_session.rubbers.get(number=1)
    north_ctx, north = phone(browser)
    east_ctx, east = phone(browser)
    sign_in(north, live_server.url, rubber.north.user.username, f"/rubbers/{rubber.pk}/")
    sign_in(east, live_server.url, rubber.east.user.username, f"/rubbers/{rubber.pk}/")
    for page in (north, east):
        page.locator("#entry h2").filter(has_text="Deal 1").wait_for()

    # East's pad: East–West are We, on the left.
    head = east.locator("#pad .pad-head")
    assert head.locator(".we .side-label").inner_text() == "WE"
    assert "East & West" in head.locator(".we").inner_text()

    # East's phone has not heard of North's deal yet (its push stream and its poll, with or
    # without the deal's number, are lost on the way), as on a bad network; otherwise the live
    # pad would move East's taps to deal 2 before the conflict.
    east.route(re.compile(r"/(live|events)(\?|$)"), lambda route: route.abort())
    for page, seat in ((north, "N"), (east, "E")):
        tap(page, "level", "4")
        tap(page, "strain", "S")
        tap(page, "declarer", seat)
        tap(page, "result", "0")
    north.locator("#record").click()
    north.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    # East's screen shows Record at its top, the top of the page above it (a longer pad).
    east.locator("#record").evaluate("e => e.scrollIntoView({block: 'start'})")
    east.locator("#record").click()
    notice = east.locator("#notice")
    notice.wait_for()
    assert "Deal 1 was already entered by North: 4♠ by North, made. Correct it?" in (
        notice.inner_text()
    )
    # In view: the answer replaced the pad under Record, and a walk found the phone left at
    # Record's height, the notice above the screen's top edge.
    wait_in_view(east, "#notice")
    east.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    assert east.locator("#entry input[name=number]").input_value() == "2"
    # The taps moved with it, and the pad says so: Record names the deal, the live line shows them.
    assert east.locator("#record").inner_text() == "Record as deal 2"
    assert east.locator("#preview").inner_text() == "4♠ by East, made: We +120"
    assert east.locator("#taps-moved").is_visible()
    # The correction opens with the entry's buttons, filled from the deal.
    notice.locator("a").click()
    correction = east.locator("details.correction").first
    assert correction.get_attribute("open") is not None
    assert correction.locator("input[name$='-declarer'][value=N]").is_checked()
    assert list(rubber.deals.values_list("number", "declarer")) == [(1, "N")]
    north_ctx.close()
    east_ctx.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_another_phone_at_the_table_sees_the_deal_without_a_reload(
    live_server, browser, running_session
):
    rubber = running_session.rubbers.get(number=1)
    north_ctx, north = phone(browser)
    south_ctx, south = phone(browser)
    # North's stream is held open and silent (the test server, WSGI, ends a stream at once):
    # the test tells the page what the push channel would.
    north.route(re.compile(r"/events"), lambda route: None)
    sign_in(north, live_server.url, rubber.north.user.username, f"/rubbers/{rubber.pk}/")
    sign_in(south, live_server.url, rubber.south.user.username, f"/rubbers/{rubber.pk}/")
    south.locator("#entry h2").filter(has_text="Deal 1").wait_for()
    tap(south, "level", "3")  # South has started tapping: the taps survive the refresh

    north.locator("#entry h2").filter(has_text="Deal 1").wait_for()
    for field, value in (("level", "4"), ("strain", "S"), ("declarer", "N"), ("result", "0")):
        tap(north, field, value)
    north.locator("#record").click()

    # Within 5 s, with no reload: the deal on South's pad; South's form, holding a tap, keeps
    # its number and says at once that deal 1 is taken (never moved on silently).
    south.locator("#deal-1").wait_for(timeout=5_000)
    south.locator("#notice", has_text="Deal 1 was already entered by North").wait_for(timeout=5_000)
    assert south.locator("#total-ns").inner_text() == "120"
    assert south.locator("#entry h2").inner_text() == "Deal 1"
    assert south.locator("#entry input[name=number]").input_value() == "1"
    assert south.locator("#entry input[name=level][value='3']").is_checked()
    north_ctx.close()
    south_ctx.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_second_phone_with_unsaved_taps_never_records_a_duplicate(
    live_server, browser, running_session
):
    """Issue 17 probe: Clara taps 3NT by W −1 and waits; Alice records that deal. Clara's poll
    must not move her taps to the next number silently (Record would store the deal twice)."""
    rubber = running_session.rubbers.get(number=1)
    alice_ctx, alice = phone(browser)
    clara_ctx, clara = phone(browser)
    sign_in(alice, live_server.url, rubber.north.user.username, f"/rubbers/{rubber.pk}/")
    sign_in(clara, live_server.url, rubber.south.user.username, f"/rubbers/{rubber.pk}/")
    for page in (alice, clara):
        page.locator("#entry h2").filter(has_text="Deal 1").wait_for()
    for page in (clara, alice):
        for field, value in (("level", "3"), ("strain", "NT"), ("declarer", "W"), ("result", "-1")):
            tap(page, field, value)
    alice.locator("#record").click()
    alice.locator("#entry h2").filter(has_text="Deal 2").wait_for()

    # Clara's poll brings Alice's deal: the notice at once, her form still on deal 1.
    clara.bring_to_front()
    clara.locator("#deal-1").wait_for(timeout=5_000)
    notice = clara.locator("#notice")
    notice.filter(has_text="Deal 1 was already entered by North").wait_for(timeout=5_000)
    assert clara.locator("#entry h2").inner_text() == "Deal 1"
    assert clara.locator("#entry input[name=number]").input_value() == "1"

    # Record anyway: the same deal under the same number is taken as already there (not
    # stored again), and the form moves on.
    clara.locator("#record").click()
    clara.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    assert list(rubber.deals.values_list("number", "contract", "declarer")) == [(1, "3NT", "W")]
    alice_ctx.close()
    clara_ctx.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_table_code_opens_entry_on_a_phone_with_no_account(
    live_server, browser, running_session, director
):
    rubber = running_session.rubbers.get(number=1)
    # The director's table card: the code and its QR.
    desk = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    card_page = desk.new_page()
    card_page.set_default_timeout(15_000)
    cards = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/cards/"
    sign_in(card_page, live_server.url, director.username, cards)
    card = card_page.locator(".table-card").first
    code = card.locator(".table-qr .code").inner_text()
    assert code == rubber.table.code
    assert card.locator("svg.segno").is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    card_page.screenshot(path=str(SHOTS / "table-card.png"))
    desk.close()

    # A fresh browser, no account: the code, a seat, then the entry.
    context, page = phone(browser)
    page.goto(f"{live_server.url}/t/{code}")
    page.get_by_role("button", name="West, West").click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/")
    assert page.locator("#pad .pad-head .we").inner_text().startswith("WE")
    for field, value in (("level", "3"), ("strain", "NT"), ("declarer", "W"), ("result", "0")):
        tap(page, field, value)
    page.locator("#preview", has_text="3NT by West, made: We +100").wait_for()
    record_visible(page)
    page.locator("#record").click()
    page.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    deal = rubber.deals.get()
    assert (deal.contract, deal.declarer, deal.entered_by_id) == ("3NT", "W", None)
    page.locator("#deals details.history summary").first.click()
    history = page.locator("#deals details.history").first.inner_text()
    assert "West, table 1 (code), seat W" in history
    context.close()


def preview_says(page: Any, text: str) -> None:
    """The live line shows `text` and keeps showing it: no answer to an older request (sent
    before the pad unticked what it hid) replaces it after a moment."""
    from playwright.sync_api import expect

    expect(page.locator("#preview")).to_have_text(text)
    page.wait_for_timeout(500)
    expect(page.locator("#preview")).to_have_text(text)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_line_follows_the_taps_the_pad_keeps(live_server, browser, running_session):
    """A tap that hides choices (Pass; a level that cannot have the result tapped) unticks them
    before the live line is asked for: the line speaks of the taps shown, and Record sends only
    those (issue 17)."""
    from games.models import Deal

    rubber = running_session.rubbers.get(number=1)
    context, page = phone(browser)
    sign_in(page, live_server.url, rubber.north.user.username, f"/rubbers/{rubber.pk}/")
    page.locator("#entry h2").filter(has_text="Deal 1").wait_for()
    checked = page.locator("#entry input:checked")

    # 3♠ by West, made; then Pass: only Pass is ticked, and the line says so.
    for field, value in (("level", "3"), ("strain", "S"), ("declarer", "W"), ("result", "0")):
        tap(page, field, value)
    preview_says(page, "3♠ by West, made: They +90")
    tap(page, "level", "pass")
    preview_says(page, "passed out: no score")
    assert [checked.nth(i).get_attribute("value") for i in range(checked.count())] == ["pass"]

    # 1♣ by North, +3; then 7: +3 is hidden and unticked, the line asks for the result.
    for field, value in (("level", "1"), ("strain", "C"), ("declarer", "N"), ("result", "3")):
        tap(page, field, value)
    preview_says(page, "1♣ by North, +3: We +80")
    tap(page, "level", "7")
    preview_says(page, "Choose the result: made, or how many over or down.")
    assert page.locator("#entry input[name=result]:checked").count() == 0
    record_visible(page)

    # Honours folded away are not hidden by the level: another level keeps them.
    fold = page.locator("#entry details.honours summary")
    fold.click()
    tap(page, "honours", "NS100")
    fold.click()
    tap(page, "level", "6")
    assert page.locator("#entry input[name=honours]:checked").get_attribute("value") == "NS100"

    # Record sends what is shown: no result, so the form asks for it; nothing is recorded.
    page.locator("#record").click()
    page.locator("#entry").filter(has_text="Choose the result").wait_for()
    assert "is not a possible result" not in page.locator("#entry").inner_text()
    assert not Deal.objects.filter(rubber=rubber).exists()
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_line_follows_the_last_tap_when_the_poll_lands_meanwhile(
    live_server, browser, running_session
):
    """The pad's poll lands while the live line is being asked for and the next taps' request
    waits behind it. The poll re-processed the whole pad with htmx, and the line (marked by its
    request) was taken for a changed element and reset: the waiting request was dropped and the
    line stayed on an early tap. CI saw it under load (the first poll after the page opens)."""
    from playwright.sync_api import expect

    rubber = running_session.rubbers.get(number=1)
    # No service worker: it would make the poll's requests, and the page's routes not see them.
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(15_000)
    polls, previews = Held(), Held()
    page.route(re.compile(rf"/rubbers/{rubber.pk}/live"), polls)
    page.route(re.compile(rf"/rubbers/{rubber.pk}/preview\?"), previews)
    sign_in(page, live_server.url, rubber.north.user.username, f"/rubbers/{rubber.pk}/")
    page.locator("#entry h2").filter(has_text="Deal 1").wait_for()
    tap(page, "level", "3")
    wait_for(lambda: page.evaluate("1") and bool(previews.routes))  # asked for, not answered
    for field, value in (("strain", "NT"), ("declarer", "N"), ("result", "0")):
        tap(page, field, value)  # their request waits behind it
    wait_for(lambda: page.evaluate("1") and bool(polls.routes))
    page.evaluate("document.querySelector('#pad').dataset.beforePoll = 'true'")
    polls.release()
    page.locator("#pad:not([data-before-poll])").wait_for(state="attached")  # the poll's pad
    previews.release()
    expect(page.locator("#preview")).to_have_text("3NT by North, made: We +100")
    context.close()


# What the push channel's script does when it hears that the pad changed.
CHANGED = "document.dispatchEvent(new CustomEvent('backscore:changed', {detail: {version: %d}}))"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_pushed_change_is_fetched_once_and_morphed_around_what_the_player_holds(
    live_server, browser, running_session
):
    """Issue 28: a page whose push channel is up does not poll; a burst of `backscore:changed`
    events fetches its live part once and morphs it in. Taps in progress and an open
    correction (its form fetched when opened) survive the incoming change."""
    rubber = running_session.rubbers.get(number=1)
    north_ctx, north = phone(browser)
    south_ctx, south = phone(browser)
    # North's stream is held open and silent (the test server, WSGI, ends a stream at once):
    # the test tells the page what the push channel would.
    north.route(re.compile(r"/events"), lambda route: None)
    sign_in(north, live_server.url, rubber.north.user.username, f"/rubbers/{rubber.pk}/")
    sign_in(south, live_server.url, rubber.south.user.username, f"/rubbers/{rubber.pk}/")
    for page in (north, south):
        page.locator("#entry h2").filter(has_text="Deal 1").wait_for()
    # Counted by the page itself (resource timing: when each fetch started), not by Playwright's
    # request events: under load, the event of a poll sent just before push was up arrived after
    # the listener was added, and CI counted it.
    up_at = north.evaluate(
        "document.documentElement.dataset.push = 'up'; performance.setResourceTimingBufferSize"
        "(10000); performance.now()"
    )

    def asked() -> int:
        return int(
            north.evaluate(
                "(t) => performance.getEntriesByType('resource')"
                ".filter((e) => e.name.includes('/live') && e.startTime > t).length",
                up_at,
            )
        )

    def record(page: Any, taps: tuple[tuple[str, str], ...], number: int) -> None:
        for field, value in taps:
            tap(page, field, value)
        page.locator("#record").click()
        page.locator("#entry h2").filter(has_text=f"Deal {number + 1}").wait_for()

    record(south, (("level", "4"), ("strain", "S"), ("declarer", "N"), ("result", "0")), 1)
    north.wait_for_timeout(2_500)  # more than two polls' time: none is made while push is up
    assert asked() == 0 and north.locator("#deal-1").count() == 0
    north.evaluate(f"for (let i = 0; i < 3; i++) {CHANGED % 7}")
    north.locator("#deal-1").wait_for()
    assert north.locator("#total-ns").inner_text() == "120"
    # The morph moved North's untouched form to deal 2; the same version again asks nothing.
    north.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    north.evaluate(CHANGED % 7)
    north.wait_for_timeout(500)
    assert asked() == 1

    # North taps deal 2 and opens deal 1's correction; South records deal 2.
    tap(north, "level", "3")
    north.locator("#correct-1").click()
    correction = north.locator("details.correction").first
    correction.locator("form").wait_for()
    record(south, (("level", "2"), ("strain", "H"), ("declarer", "E"), ("result", "0")), 2)
    north.evaluate(CHANGED % 8)
    north.locator("#deal-2").wait_for()
    assert asked() == 2
    assert correction.get_attribute("open") is not None
    assert correction.locator("form").count() == 1
    assert north.locator("#entry input[name=level][value='3']").is_checked()
    assert north.locator("#entry h2").inner_text() == "Deal 2"
    north.locator("#notice", has_text="Deal 2 was already entered by South").wait_for()
    north_ctx.close()
    south_ctx.close()
