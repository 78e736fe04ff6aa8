"""Issue 31 in Chromium, at a laptop's size (1280×800) then a phone's (390×844): a director's
night of three tables run through the room at a glance. A session left running from an earlier
day is flagged; planning warns that a ticked player sits there, and starting asks first; deals
entered through the API reach their tiles without a reload (a finished rubber's result stays on
its tile); no tile's content, and no console table card's rotation, is wider than its box. The
room's screenshot in docs/ comes from this test."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.utils import timezone

from clubs.models import Session
from tests.conftest import ROOT, sign_in
from tests.factories import UserFactory, add_player, make_club, make_session
from tests.pages.test_tap_targets_browser import assert_tap_targets

SHOT = ROOT / "docs" / "screenshots" / "room-at-a-glance.png"
#: Long names too, as clubs have them: a rotation's S, W and Out columns must stay in their card.
NAMES = [
    "Ada",
    "Bartholomew Higginbotham",
    "Cleo",
    "Maximiliana Fitzgerald-Oyelaran",
    "Edith",
    "Konstantinos Papadopoulos",
    "Gwen",
    "Hugo",
    "Ivo",
    "Jill",
    "Kit",
    "Lou",
]
#: Every tile (and the console's table cards' rotation boxes) no wider inside than its box.
FITS = """(selector) => [...document.querySelectorAll(selector)].filter(
    (el) => el.scrollWidth > el.clientWidth).map((el) => el.id || el.className)"""


def _csrf(context: Any) -> str:
    return str(next(c["value"] for c in context.cookies() if c["name"] == "csrftoken"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_directors_night_of_three_tables_in_the_room(live_server: Any, browser: Any) -> None:
    director = UserFactory(username="director")
    club = make_club(director=director, slug="riverside")
    players = [add_player(club, name) for name in NAMES]
    left = [players[0], *(add_player(club, n) for n in ("Max", "Ned", "Oz"))]
    stale = make_session(club, [left], date=timezone.localdate() - datetime.timedelta(days=3))
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, base, "director", "/clubs/riverside/console/")

    # The session left running is flagged; planning tonight warns that Ada sits there.
    page.locator(f'[data-stale="{stale.pk}"]').wait_for()
    for name in NAMES:
        page.get_by_label(name, exact=True).check()
    page.locator("#suggestion").filter(has_text="tables of 4, 4, 4").wait_for()
    warning = page.locator("[data-seated-elsewhere]")
    warning.filter(has_text="Ada sits at table 1 of the running session of").wait_for()
    close = f"/clubs/riverside/sessions/{stale.pk}/close/"
    assert warning.get_by_role("link", name="close it…").get_attribute("href") == close
    page.locator("#seat-tables").click()
    page.get_by_role("button", name="Start the session").click()
    # Starting asks first: Ada would sit in both sessions (never silently, issue 31).
    asked = page.locator("#start-warning")
    asked.filter(has_text="Ada: table 1 of the session of").wait_for()
    assert asked.get_by_role("link", name="close that session…").get_attribute("href") == close
    page.locator("#start-anyway").click()
    page.locator(".messages").filter(has_text="Session started").wait_for()
    tonight = Session.objects.get(club=club, date=timezone.localdate())
    assert page.evaluate(FITS, ".table-card .scroll-x") == []

    # The room: tonight's three tables and the stale session's one, flagged.
    page.goto(f"{base}/clubs/riverside/room/")
    page.locator(f'[data-stale="{stale.pk}"]').wait_for()
    tiles = page.locator(f"#room-session-{tonight.pk} .tile")
    assert tiles.count() == 3

    # Deals entered through the API reach their tiles live.
    headers = {"Content-Type": "application/json", "X-CSRFToken": _csrf(context)}
    deals = {1: [("4S", "N", 10), ("4H", "S", 10)], 2: [("3NT", "E", 10)], 3: [("2H", "S", 7)]}
    for number, entries in deals.items():
        rubber = tonight.rubbers.get(table__number=number)
        for n, (contract, declarer, tricks) in enumerate(entries, start=1):
            answer = page.request.post(
                f"{base}/api/v1/rubbers/{rubber.pk}/deals/",
                data=json.dumps(
                    {"number": n, "contract": contract, "declarer": declarer, "tricks": tricks}
                ),
                headers=headers,
            )
            assert answer.status == 201, answer.text()
    tile = {n: page.locator(f'#room-session-{tonight.pk} .tile[data-table="{n}"]') for n in deals}
    tile[1].locator('[data-finished="1"]').filter(has_text="won by N–S").wait_for()
    assert "Rubber 2 · 0 deals" in tile[1].inner_text()
    tile[2].locator("[data-last-deal]").filter(has_text="Deal 1: 3NT by East, +1").wait_for()
    tile[3].locator("[data-score]").filter(has_text="E–W").wait_for()
    assert "Deal 1: 2♥ by South, −1" in tile[3].inner_text()
    assert page.evaluate(FITS, ".tile") == []
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT), full_page=True)

    # On a phone: one tile a row, nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    tiles.first.wait_for()
    assert page.evaluate(FITS, ".tile") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Every link and button of the room and of the console is a 44×44 px tap target there
    # too, as the table's screens are (issue 29): a phone walk found the tiles' links 25×19.
    assert_tap_targets(page)
    page.goto(f"{base}/clubs/riverside/console/")
    page.locator("#room-link").wait_for()
    assert_tap_targets(page)
    page.goto(f"{base}/clubs/riverside/room/")
    tiles.first.wait_for()

    # Closed from its flag, the stale session leaves the room.
    page.locator(f'[data-stale="{stale.pk}"] a').click()
    page.locator("#confirm-close").click()
    page.locator(".messages").filter(has_text="Session closed").wait_for()
    page.goto(f"{base}/clubs/riverside/room/")
    tiles.first.wait_for()
    assert page.locator("[data-stale]").count() == 0
    assert page.locator(".tile").count() == 3
    context.close()
