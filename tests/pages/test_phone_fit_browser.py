"""The rubber page and the home card fit a phone (390×844), in English and Italian (outside
probe 17): the correction form's result buttons wrap inside the screen, the deals table is no
wider than its box (also with a deal awaiting confirmation), the "Your table now" card's words
never run under its Open button, and a `.scroll-x` box shows a shadow where it scrolls. The
close-session preview and the rotations (console, session page, table cards) read as cards of
labelled cells, every figure and name on the screen (a later outside probe)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import sign_in
from tests.factories import UserFactory, acting
from tests.pages.test_phone_browser import night

WIDTH = 390
#: Screenshots for a human to look at (not docs/screenshots: these are not the docs' pictures).
SHOTS = Path(os.environ.get("BACKSCORE_FIT_SHOTS", "/tmp/backscore-fit-shots"))
LONG_CLUB = "Riverside Bridge Club of Greater Wellington-upon-Sea"


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return [b for b in (e.bounding_box() for e in page.locator(selector).all()) if b]


def within_screen(box: dict[str, float]) -> bool:
    return box["x"] >= 0 and box["x"] + box["width"] <= WIDTH


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
def test_correction_and_confirmation_fit_a_phone(
    live_server: Any, browser: Any, running_session: Any, language: str
) -> None:
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    club = running_session.club
    club.name = LONG_CLUB
    club.save(update_fields=["name"])
    rubber = running_session.rubbers.get()
    rubber.north.name = "Margherita Bellavista-Spadolini"  # "entered by" a long name
    rubber.north.save(update_fields=["name"])
    rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=11,
        actor=acting(rubber, rubber.north.user),
    )
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, is_mobile=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    SHOTS.mkdir(parents=True, exist_ok=True)

    # Home: the card's words and its Open button side by side, never overlapping.
    sign_in(page, live_server.url, rubber.east.user.username, "/")
    page.screenshot(path=str(SHOTS / f"home-{language}.png"))
    text = page.locator("#your-table .your-table-text").bounding_box()
    button = page.locator("#your-table .button").bounding_box()
    assert text is not None and button is not None
    assert text["x"] + text["width"] <= button["x"], (text, button)
    assert within_screen(text) and within_screen(button), (text, button)

    # The pad, as East (the other side): deal 1 awaits East's confirmation.
    page.goto(f"{live_server.url}/rubbers/{rubber.pk}/")
    awaiting = page.locator("#deals .awaiting")
    awaiting.wait_for()
    page.screenshot(path=str(SHOTS / f"awaiting-{language}.png"), full_page=True)
    fit = "e => [e.scrollWidth, e.clientWidth]"
    scroll_width, client_width = page.locator("#deals").locator("..").evaluate(fit)
    assert scroll_width <= client_width, (scroll_width, client_width)
    for selector in ("#deals th", "#deals td", "#deals .awaiting", "#confirm-1 button"):
        found = boxes(page, selector)
        assert found, selector
        assert all(within_screen(b) for b in found), (selector, found)
    # Correct deal 1: every result button is on the screen; the table still fits its box.
    page.locator("#correct-1").click()
    page.locator("#deals .correction .field-result label[data-v='0']").wait_for()
    page.screenshot(path=str(SHOTS / f"correction-{language}.png"), full_page=True)
    shown = [b for b in boxes(page, "#deals .correction .field-result label") if b["width"]]
    assert len(shown) >= 7  # 4♠: −10…+3, those a four-level contract can have
    assert all(within_screen(b) for b in shown), shown
    scroll_width, client_width = page.locator("#deals").locator("..").evaluate(fit)
    assert scroll_width <= client_width, (scroll_width, client_width)
    columns = boxes(page, "#deals thead th")
    assert all(within_screen(b) for b in columns), columns
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH

    # North wins the rubber: the back score shows, and holds in its box.
    rubber.south.name = "Bartolomeo Castiglioni-Ruffo"  # beside North on the back score
    rubber.south.save(update_fields=["name"])
    rubber.record_deal(
        number=2, contract="4S", declarer="N", tricks=10, actor=acting(rubber, rubber.north.user)
    )
    page.goto(f"{live_server.url}/rubbers/{rubber.pk}/")
    page.locator("#hundreds").wait_for()
    page.screenshot(path=str(SHOTS / f"hundreds-{language}.png"), full_page=True)
    # The back score: its box holds the whole table, no figure cut (issue 29: "2" for 23).
    scroll_width, client_width = page.locator("#hundreds").locator("..").evaluate(fit)
    assert scroll_width <= client_width, ("hundreds", scroll_width, client_width)
    clipped = page.locator("#hundreds td").evaluate_all(
        "cells => cells.filter(c => c.scrollWidth > c.clientWidth"
        " || c.getBoundingClientRect().right > c.closest('.scroll-x').getBoundingClientRect()"
        ".right + 0.5).map(c => c.textContent)"
    )
    assert clipped == [], clipped

    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_box_that_scrolls_shows_a_shadow_at_its_edge(live_server: Any, browser: Any) -> None:
    """The session standings of a night with long names (a table wider than a phone): the hint
    is CSS alone, shadows fixed to the box and white covers that move with the table, so the
    shadow shows only on an edge with more table beyond it."""
    pages = night(UserFactory(username="director"))
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "director", pages["standings"])
    wide = (
        page.locator(".scroll-x")
        .filter(has=page.locator("table"))
        .evaluate_all(
            """boxes => boxes.filter(e => e.scrollWidth > e.clientWidth).map(e => {
             const style = getComputedStyle(e);
             return [style.backgroundAttachment, style.backgroundImage,
                     getComputedStyle(e.querySelector('table')).backgroundColor];
           })"""
        )
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "scroll-hint.png"), full_page=True)
    assert wide, "no table wider than the phone: the hint is not exercised"
    for attachment, image, table_background in wide:
        assert attachment.split(", ")[:4] == ["local", "local", "scroll", "scroll"], attachment
        assert image.count("radial-gradient") == 2, image
        assert table_background == "rgba(0, 0, 0, 0)", table_background  # shows the covers
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    context.close()


#: Each shown cell of a stacked table: its box, its text, its label (the ::before) and the words
#: of its column's heading (the heading row is hidden on a phone).
CELLS = """
table => [...table.querySelectorAll("tbody td")].filter(td => td.offsetParent !== null).map(td => {
  const r = td.getBoundingClientRect();
  const heading = table.querySelectorAll("thead th")[td.cellIndex];
  return {x: r.x, width: r.width, text: td.innerText.trim(),
          label: getComputedStyle(td, "::before").content,
          heading: heading ? heading.textContent.trim() : null};
})
"""


def read_as_cards(page: Any, selector: str) -> list[dict[str, Any]]:
    """Every table matching `selector` reads as cards: its heading row hidden, its box not
    scrolling, each shown cell on the screen and labelled with its column's heading."""
    tables = page.locator(selector).all()
    assert tables, selector
    cells: list[dict[str, Any]] = []
    for table in tables:
        assert table.locator("thead").is_hidden()
        scroll_width, client_width = table.locator("..").evaluate(
            "e => [e.scrollWidth, e.clientWidth]"
        )
        assert scroll_width <= client_width, (selector, scroll_width, client_width)
        found = table.evaluate(CELLS)
        for cell in found:
            assert within_screen(cell), (selector, cell)
            assert cell["label"] == f'"{cell["heading"]}"', (selector, cell)
        cells += found
    return cells


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
def test_the_close_preview_and_the_rotations_read_on_a_phone(
    live_server: Any, browser: Any, language: str
) -> None:
    """Outside probe: at 390 px the close preview's "When closed 400–160" and "What happens"
    were scrolled off to the right, and the rotations cut at "S"/"Sou". On a phone each rubber
    is now a card; on a laptop the same tables are tables."""
    pages = night(UserFactory(username="director"))
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, is_mobile=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "director", pages["close"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"close-preview-{language}.png"), full_page=True)

    cells = read_as_cards(page, "table.close-preview")
    figures = {c["heading"]: c["text"] for c in cells}
    assert len(figures) == 6, figures
    now, closed, what = (
        page.locator(f"table.close-preview td.{k}") for k in ("now", "closed", "what")
    )
    assert now.inner_text() == "100 – 0" and closed.inner_text() == "100 – 0"
    # The rule book's name in the reader's language (docs/i18n.md): "REGOLE 2.6" in Italian.
    assert ("REGOLE 2.6" if language == "it" else "RULES 2.6") in what.inner_text()
    for figure in (now, closed, what):
        box = figure.bounding_box()
        assert box is not None and within_screen(box) and box["y"] + box["height"] <= 844, box

    for name in ("console", "session", "cards"):
        page.goto(live_server.url + pages[name])
        page.screenshot(path=str(SHOTS / f"rotation-{name}-{language}.png"), full_page=True)
        cells = read_as_cards(page, "table.rotation")
        names = [c["text"] for c in cells if c["heading"] and c["text"] and "," not in c["text"]]
        assert "Bartholomew Featherstonehaugh" in names, (name, names)
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, name
    context.close()

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_in(page, live_server.url, "director", pages["close"])
    assert page.locator("table.close-preview thead").is_visible()
    page.goto(live_server.url + pages["cards"])
    assert page.locator("table.rotation thead").first.is_visible()
    context.close()
