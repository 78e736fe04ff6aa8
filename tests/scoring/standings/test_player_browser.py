"""The player's page on a phone (Chromium at 390×844): the charts fit and read, the links work."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tests.scoring.standings.test_player_page import night  # noqa: F401  (the fixture)

SHOTS = ROOT / "docs" / "screenshots"
#: The pairs of elements (by text) whose boxes overlap.
OVERLAPS = """(selector) => {
    const boxes = [...document.querySelectorAll(selector)].map(
        (el) => [el.textContent, el.getBoundingClientRect()]);
    const hit = [];
    boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
        if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
            hit.push([a, b]);
    }));
    return hit;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_player_page_on_a_phone(live_server, browser, night, table_of_four):  # noqa: F811
    north = table_of_four["north"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    response = page.goto(f"{live_server.url}/players/{north.pk}/")
    assert response is not None and response.status == 200

    # Nothing wider than the phone: the page does not scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for chart in ("rating-bridge", "hundreds", "money"):
        svg = page.locator(f'svg[data-chart="{chart}"]')
        box = svg.bounding_box()
        assert box is not None and 300 <= box["width"] <= 390, chart
        # Its labels are drawn at a readable size on the phone (at least 10 px high), and
        # none runs into another (issue 31 probe 3).
        label = svg.locator("text").first.bounding_box()
        assert label is not None and label["height"] >= 10, chart
        assert page.evaluate(OVERLAPS, f'svg[data-chart="{chart}"] text') == [], chart
        # Its dates are text under it, within the screen.
        dates = page.locator(f'[data-chart-dates="{chart}"]')
        box = dates.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, chart
        assert dates.inner_text().strip(), chart
    rating = page.locator('svg[data-chart="rating-bridge"]')
    assert rating.locator("polygon.band").count() == 1
    assert rating.locator("circle").count() == night.rubbers.exclude(status="in_play").count()
    assert page.locator("#best-partner").is_visible()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "player-page.png"), full_page=True)

    # A recent rubber opens its pad.
    first = page.locator("table.recent a").first
    href = first.get_attribute("href")
    first.click()
    page.wait_for_url(f"**{href}")
    assert page.locator("#pad").is_visible()
    # Every resource the two pages asked for was served (the browser's own favicon aside).
    assert [url for url in failed if not url.endswith("/favicon.ico")] == []
    context.close()
