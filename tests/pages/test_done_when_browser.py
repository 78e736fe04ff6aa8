"""Issue 18's "Done when", the parts tests/pages/test_director_night_browser.py does not drive,
in Chromium at a phone's (390×844) and a laptop's (1280×800) size: reopen a closed session with
its confirmation, correct a deal and close it again (the rubber re-scored, RULES 2.6); re-seat a
planned session with the planning hint; the settings page in both languages; the settlement
and leaderboard CSV downloads parsed back and compared with the JSON; `/api/docs/` rendering
with every other origin blocked. No page scrolls sideways at either size (checked on each)."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from clubs.models import Club, Session
from games.sessions import lifecycle
from scoring.standings import services as scoring_services
from tests.conftest import csv_cell, sign_in
from tests.factories import add_player, make_session
from tests.pages.test_director_night_browser import (
    SHOTS,
    VIEWPORTS,
    _club_with_two_running_sessions,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def _context(browser: Any, viewport: tuple[int, int]) -> Any:
    return browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]},
        is_mobile=viewport[0] < 500,
        accept_downloads=True,
    )


def _csrf(context: Any) -> str:
    return str(next(c["value"] for c in context.cookies() if c["name"] == "csrftoken"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_reopen_correct_and_close_again_then_reseat_a_planned_session(
    live_server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    world = _club_with_two_running_sessions()
    one, rubber = world["one"], world["rubber"]
    club: Club = world["club"]
    lifecycle.session_close(session=one)
    planned_players = [add_player(club, n) for n in ("Lou", "Mo")] + world["players"][-3:-1]
    planned = make_session(club, [planned_players], start=False, date=one.date)
    context = _context(browser, viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    sign_in(page, base, "director", f"/clubs/riverside/sessions/{one.pk}/")
    suffix = "phone" if viewport[0] < 500 else "desktop"

    # Reopen asks first and says what will happen.
    page.locator("#reopen-link").click()
    page.locator("#confirm-reopen").wait_for()
    assert "RULES 2.6" in page.locator("main").inner_text()
    _no_sideways_scroll(page, viewport[0])
    page.screenshot(path=str(SHOTS / f"reopen-session-{suffix}.png"), full_page=True)
    page.locator("#confirm-reopen").click()
    page.locator(".messages").filter(has_text="Session reopened").wait_for()
    assert page.locator("[data-reopened]").is_visible()
    assert page.locator('li[data-change="reopened"]').filter(has_text="Director").is_visible()
    assert page.locator(f'li[data-rubber="{rubber.pk}"] a').is_visible()  # its pad
    _no_sideways_scroll(page, viewport[0])

    # A correction re-scores the unfinished rubber: 2H by E down one, NS 120 + 50 + 300.
    deal = rubber.deals.get(number=2)
    answer = page.request.patch(
        f"{base}/api/v1/deals/{deal.pk}/",
        data=json.dumps({"version": deal.version, "tricks": 7}),
        headers={"Content-Type": "application/json", "X-CSRFToken": _csrf(context)},
    )
    assert answer.status == 200, answer.text()

    # Close again, with its confirmation: nothing is in play any more.
    page.get_by_role("link", name="Close the session…").click()
    page.locator("#confirm-close").click()
    page.locator(".messages").filter(has_text="Session closed").wait_for()
    one.refresh_from_db()
    assert one.status == Session.Status.CLOSED
    sheet = page.request.get(f"{base}/api/v1/rubbers/{rubber.pk}/").json()
    assert sheet["status"] == "unfinished"
    assert (sheet["scoresheet"]["NS"]["total"], sheet["scoresheet"]["EW"]["total"]) == (470, 0)

    # Re-seat the planned session: the form is filled, the hint follows the ticks.
    page.goto(f"{base}/clubs/riverside/sessions/{planned.pk}/")
    page.get_by_role("link", name="Re-seat…").click()
    page.locator("#suggestion").filter(has_text="4 players: one table of 4.").wait_for()
    page.get_by_label("Kit", exact=True).check()
    page.locator("#suggestion").filter(has_text="5 players: one table of 5.").wait_for()
    _no_sideways_scroll(page, viewport[0])
    page.locator("#seat-tables").click()
    page.locator(".messages").filter(has_text="Tables re-seated").wait_for()
    card = page.locator('[data-table="1"]')
    assert "Kit" in card.inner_text()
    assert planned.tables.get().seats.count() == 5
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_settings_in_both_languages_and_the_settlement_and_leaderboard_csv(
    live_server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    world = _club_with_two_running_sessions()
    one = world["one"]
    # A stake, so that the settlement has payments to download.
    Session.objects.filter(pk=one.pk).update(stake_per_hundred=Decimal("0.50"))
    lifecycle.session_close(session=one)
    scoring_services.standings_refresh(session_id=one.pk)
    context = _context(browser, viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    sign_in(page, base, "director", "/clubs/riverside/settings/")

    # House rules by name with a sentence each, never the raw codes; then a change saved.
    main = page.locator("main").inner_text()
    assert "Today's laws (ACBL)" in main and "The laws of rubber bridge as played today." in main
    assert not {"acbl", "club_50", "old_code", "pivot_gross"} & set(main.replace(",", " ").split())
    _no_sideways_scroll(page, viewport[0])
    page.locator("#id_default_stake").fill("0.75")
    page.locator("#settings-form button[type=submit]").click()
    page.locator(".messages").filter(has_text="Settings saved").wait_for()
    world["club"].refresh_from_db()
    assert str(world["club"].default_stake) == "0.75"
    context.add_cookies([{"name": "django_language", "value": "it", "url": base}])
    page.goto(f"{base}/clubs/riverside/settings/")
    main = page.locator("main").inner_text()
    if viewport[0] < 600:
        page.screenshot(path=str(SHOTS / "settings-italiano-phone.png"), full_page=True)
    assert "Regole attuali (ACBL)" in main
    assert "Le regole del rubber bridge come si gioca oggi." in main
    _no_sideways_scroll(page, viewport[0])
    context.add_cookies([{"name": "django_language", "value": "en", "url": base}])

    # The settlement's and the leaderboard's CSV, parsed back and compared with the JSON.
    for path, selector, api, rows_field in (
        (
            f"/sessions/{one.pk}/settlement/",
            "a.csv[href*='settlement']",
            f"/api/v1/sessions/{one.pk}/settlement",
            "payments",
        ),
        (
            "/clubs/riverside/leaderboard/",
            "a.csv[href*='leaderboard']",
            "/api/v1/clubs/riverside/leaderboard",
            "players",
        ),
    ):
        page.goto(base + path)
        _no_sideways_scroll(page, viewport[0])
        with page.expect_download() as download:
            page.locator(selector).click()
        text = Path(download.value.path()).read_text(encoding="utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text)))
        items = page.request.get(base + api).json()[rows_field]
        assert len(rows) == len(items) > 0, path
        for row, item in zip(rows, items, strict=True):
            for key, value in row.items():
                assert value == csv_cell(item[key]), (key, row)
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_api_docs_render_with_every_other_origin_blocked(
    live_server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    context = _context(browser, viewport)
    base = live_server.url
    elsewhere: list[str] = []

    def only_this_origin(route: Any) -> None:
        url = route.request.url
        if url.startswith(base + "/") or url == base:
            route.continue_()
        else:
            elsewhere.append(url)
            route.abort()

    context.route("**/*", only_this_origin)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/api/docs/")
    page.locator(".swagger-ui .opblock").first.wait_for()
    text = page.locator(".swagger-ui").inner_text()
    assert "/api/v1/sessions/{id}/reopen" in text
    assert "Backscore API" in text
    assert elsewhere == []
    context.close()
