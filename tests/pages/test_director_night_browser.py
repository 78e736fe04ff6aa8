"""In Chromium at a phone's and a laptop's size (issue 18): every running session on the club
page, the planning hint for 5 (fixed partners) and 7 players, close with its confirmation, the
closed session page's rubbers, and the CSV downloads parsed back and compared with the JSON."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from scoring.standings import services as scoring_services
from tests.conftest import csv_cell, sign_in
from tests.factories import UserFactory, acting, add_player, make_club, make_session

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
VIEWPORTS = [(390, 844), (1280, 800)]


def _club_with_two_running_sessions() -> dict[str, Any]:
    director = UserFactory(username="director")
    club = make_club(director=director, slug="riverside")
    first = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev")]
    second = [add_player(club, n) for n in ("Edith", "Farid", "Gwen", "Hugo")]
    spare = [add_player(club, n) for n in ("Ivo", "Jill", "Kit")]
    one = make_session(club, [first])
    two = make_session(club, [second])
    rubber = one.rubbers.get()
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=2, contract="2H", declarer="E", tricks=8, actor=acting(rubber, director)
    )
    scoring_services.standings_refresh(session_id=one.pk)
    return {
        "club": club,
        "one": one,
        "two": two,
        "rubber": rubber,
        "players": first + second + spare,
    }


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_directors_night_in_the_browser(
    live_server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    world = _club_with_two_running_sessions()
    one, two, rubber = world["one"], world["two"], world["rubber"]
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "director", "/clubs/riverside/")
    suffix = "phone" if viewport[0] < 500 else "desktop"

    # Both running sessions are on the club page, with their tables and rubber links.
    for session in (one, two):
        block = page.locator(f'[data-session="{session.pk}"]')
        assert block.is_visible()
        link = block.locator(f'a[href="/rubbers/{session.rubbers.get().pk}/"]')
        assert link.is_visible()
    page.screenshot(path=str(SHOTS / f"club-running-sessions-{suffix}.png"), full_page=True)

    # The console's hint for 7 players, and for 5 with fixed partners.
    page.goto(f"{live_server.url}/clubs/riverside/console/")
    for name in ("Ada", "Ben", "Cleo", "Dev", "Edith", "Farid", "Gwen"):
        page.get_by_label(name, exact=True).check()
    page.locator("#suggestion").filter(has_text="tables of 5 here").wait_for()
    page.get_by_label("Gwen", exact=True).uncheck()
    page.get_by_label("Farid", exact=True).uncheck()
    page.locator("#id_movement").select_option("fixed")
    page.locator("#suggestion").filter(has_text="cannot play fixed partnerships").wait_for()
    assert "With the pivot movement: tables of 5." in page.locator("#suggestion").inner_text()

    # The CSV downloads, parsed back and compared with the JSON.
    page.goto(f"{live_server.url}/sessions/{one.pk}/standings/")
    for selector, api, rows_field in (
        ("a.csv[href*='standings']", f"/api/v1/sessions/{one.pk}/standings", "players"),
        ("a.csv[href*='deals']", f"/api/v1/sessions/{one.pk}/deals", "deals"),
    ):
        with page.expect_download() as download:
            page.locator(selector).click()
        text = Path(download.value.path()).read_text(encoding="utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text)))
        items = page.request.get(live_server.url + api).json()[rows_field]
        assert len(rows) == len(items) > 0
        for row, item in zip(rows, items, strict=True):
            for key, value in row.items():
                assert value == csv_cell(item[key]), (key, row)

    # Close asks first, shows what will happen, then closes.
    page.goto(f"{live_server.url}/clubs/riverside/sessions/{one.pk}/")
    page.get_by_role("link", name="Close the session…").click()
    page.locator("table.close-preview").wait_for()
    assert "RULES 2.6" in page.locator("main").inner_text()
    row = page.locator(f'tr[data-rubber="{rubber.pk}"]')
    assert "120 – 60" in row.inner_text() and "420 – 160" in row.inner_text()
    page.screenshot(path=str(SHOTS / f"close-session-{suffix}.png"), full_page=True)
    page.locator("#confirm-close").click()
    page.locator(".messages").filter(has_text="Session closed").wait_for()

    # The closed session's page lists its rubbers with links to their pads.
    page.goto(f"{live_server.url}/clubs/riverside/sessions/{one.pk}/")
    item = page.locator(f'li[data-rubber="{rubber.pk}"]')
    assert "Unfinished" in item.inner_text()
    item.locator("a").click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
    context.close()
