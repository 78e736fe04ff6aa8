"""In Chromium at a phone's and a laptop's size (issue 18): a four-player early leaver handled
from the console (a substitute typed by name, who plays from the next rubber), then a late
arrival cutting in, each listed in the session's changes; no page scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubs.models import Player, Table
from games.models import Rubber
from tests.conftest import sign_in
from tests.factories import UserFactory, acting, add_player, make_club, make_session

VIEWPORTS = [(390, 844), (1280, 800)]

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_early_leaver_and_a_late_arrival_from_the_console(
    live_server: Any, browser: Any, viewport: tuple[int, int]
) -> None:
    director = UserFactory(username="director")
    club = make_club(director=director, slug="riverside")
    four = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev")]
    late = add_player(club, "Ivo")
    session = make_session(club, [four])
    rubber = Rubber.objects.get(session=session)
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    leaver = Player.objects.get(pk=rubber.east_id)
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "director", "/clubs/riverside/console/")

    # The early leaver: from the table's card to its page, which shows both ways.
    page.locator('.table-card [data-action="leaver"]').click()
    page.wait_for_url("**/tables/1/leaver/")
    no_sideways_scroll(page, width)
    assert "RULES 2.6" in page.locator("#replan").inner_text()
    suffix = "phone" if width < 600 else "desktop"
    page.screenshot(path=str(SHOTS / f"early-leaver-{suffix}.png"), full_page=True)
    page.get_by_label("Who leaves").select_option(label=leaver.name)
    # The explanations follow the select (issue 31), fetched for the one chosen.
    page.locator("#leaver-shown h2", has_text=f"What happens if {leaver.name} leaves").wait_for()
    page.locator("#consequence-substitute", has_text=f"takes {leaver.name}'s place").wait_for()
    # Neither a player nor a name: the form says so, and nothing changes.
    page.locator("#do-substitute").click()
    page.locator(".errorlist").filter(has_text="Choose a player or type a new name.").wait_for()
    assert [p.name for p in Table.objects.get(session=session).present_players()] == [
        p.name for p in four
    ]
    page.get_by_label("Who leaves").select_option(label=leaver.name)
    page.get_by_label("or a new player").fill("Zoe")
    page.locator("#do-substitute").click()
    page.wait_for_url("**/console/#session-*")
    message = f"Zoe replaces {leaver.name} at table 1 from rubber 2."
    page.get_by_text(message).first.wait_for()
    no_sideways_scroll(page, width)
    table = Table.objects.get(session=session)
    assert "Zoe" in [p.name for p in table.present_players()]
    rubber.refresh_from_db()
    assert rubber.east_id == leaver.pk  # the rubber in play keeps its seats and its deal
    assert rubber.deals.count() == 1

    # The late arrival: one player, so the suggestion is a cut-in at table 1.
    page.locator('[data-action="arrivals"]').click()
    page.wait_for_url("**/arrivals/")
    page.get_by_label("Ivo", exact=True).check()
    page.locator("#arrival-hint").filter(has_text="cut in at table 1").wait_for()
    no_sideways_scroll(page, width)
    page.locator("#seat-arrivals").click()
    page.wait_for_url("**/console/#session-*")
    page.get_by_text("Ivo joins table 1 from rubber 2.").first.wait_for()
    assert late.pk in [p.pk for p in table.present_players()]
    changes = page.locator(f"#changes-{session.pk}")
    changes.locator("summary").click()
    assert [changes.locator("li").nth(i).get_attribute("data-change") for i in range(2)] == [
        "substitute",
        "arrive",
    ]
    no_sideways_scroll(page, width)
    context.close()
