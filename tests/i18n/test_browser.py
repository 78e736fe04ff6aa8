"""In Chromium: switch the header to Italiano, enter a deal, read NOI / LORO on the pad."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import sign_in

SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "pad-italiano.png"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_switch_to_italian_enter_a_deal_and_read_noi_loro(live_server, browser, running_session):
    rubber = running_session.rubbers.get(number=1)
    north = rubber.north.user
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, north.username, f"/rubbers/{rubber.pk}/")
    page.locator("#entry h2").filter(has_text="Deal 1").wait_for()

    # The header's switcher posts to set_language and comes back to the same page.
    page.locator("select[name=language]").select_option("it")
    page.locator("#entry h2").filter(has_text="Smazzata 1").wait_for()
    assert page.locator("html").get_attribute("lang") == "it"

    # 4♠ by North, made exactly: tap level, strain, declarer and result.
    page.locator("#entry label[for=id_level_3]").click()
    page.locator("#entry label[for=id_strain_3]").click()
    page.locator("#entry label[for=id_declarer_0]").click()
    page.locator("#entry label[for=id_result_13]").click()
    page.locator("#record").click()
    page.locator("#entry h2").filter(has_text="Smazzata 2").wait_for()

    head = page.locator("#pad .pad-head")
    # innerText applies the CSS text-transform: this is what the player reads.
    assert head.locator(".we .side-label").inner_text() == "NOI"
    assert head.locator(".they .side-label").inner_text() == "LORO"
    assert page.locator("#total-ns").inner_text() == "120"
    page.locator("#pad .pad-item summary").first.click()
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT), full_page=True)
    why = page.locator("#pad .pad-item .why").first.inner_text()
    assert "mantenuto" in why and "sotto la linea" in why, why
    context.close()
