"""The live pad's morph (static/js/backscore.js) on its own, in Chromium with no server: a page
and its next live part are served by the test, a `backscore:changed` event fetches the part and
morphs it in. What the player holds stays; the words around it follow (issue 28)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.browser

ORIGIN = "http://pad.test"
SCRIPTS = {
    "/idiomorph.js": ROOT / "static" / "vendor" / "idiomorph" / "idiomorph.js",
    "/backscore.js": ROOT / "static" / "js" / "backscore.js",
}


def served(page: Any, first: str, then: str) -> list[str]:
    """Open a page whose live part is `first`; its next fetch answers `then`. The live part's
    fetches are listed in the list returned."""
    asked: list[str] = []

    def answer(route: Any) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?")[0]
        if path == "/live":
            asked.append(route.request.url.removeprefix(ORIGIN))
        if path in SCRIPTS:
            route.fulfill(body=SCRIPTS[path].read_text(), content_type="text/javascript")
        elif path == "/live":
            route.fulfill(body=then, content_type="text/html")
        else:
            body = (
                '<!doctype html><html data-push="up"><body>'
                f"{first}"
                '<script src="/idiomorph.js"></script><script src="/backscore.js"></script>'
                "</body></html>"
            )
            route.fulfill(body=body, content_type="text/html")

    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/pad")
    return asked


def change(page: Any) -> None:
    """Tell the page its live part changed, and wait for the morph."""
    page.evaluate(
        """() => new Promise((done) => {
            document.addEventListener("backscore:morphed", done, { once: true });
            const detail = { version: "2" };
            document.dispatchEvent(new CustomEvent("backscore:changed", { detail }));
        })"""
    )


def part(inner: str) -> str:
    return f'<div id="live" data-poll-url="/live">{inner}</div>'


def entry(number: int, west: str, total: int) -> str:
    return part(
        f'<form id="entry"><h2>Deal {number}</h2><span id="mini">We {total}</span>'
        f'<input type="hidden" name="number" value="{number}">'
        '<label><input type="radio" name="level" value="4"> 4</label>'
        f'<label><input type="radio" name="declarer" value="W"> <span>W · {west}</span></label>'
        '<output id="preview">Tap the contract.</output></form>'
    )


def test_a_form_holding_taps_keeps_them_and_its_number_while_its_words_follow(
    browser: Any,
) -> None:
    page = browser.new_page()
    served(page, entry(1, "Dev", 0), entry(2, "Zoe", 120))
    page.locator("input[name=level]").check()
    page.evaluate("document.getElementById('preview').textContent = 'Four, by West?'")
    change(page)
    assert page.locator("label", has_text="W · Zoe").count() == 1
    assert page.locator("#mini").inner_text() == "We 120"
    assert page.locator("input[name=level]").is_checked()
    assert page.locator("input[name=number]").input_value() == "1"
    assert page.locator("#preview").inner_text() == "Four, by West?"  # the live line of the taps
    assert page.locator("form").count() == 1


def test_a_form_served_back_holding_taps_is_held_until_sent(browser: Any) -> None:
    """A conflict's answer moved the taps to deal 2 (the server marks the form it serves back
    with them): the next change keeps them and the note, and asks for deal 2's pad."""
    page = browser.new_page()
    moved = part(
        '<p id="notice" role="alert">Deal 1 was already entered by North.</p>'
        '<form id="entry" data-held><input type="hidden" name="number" value="2">'
        '<p id="taps-moved">Your taps are now on deal 2.</p>'
        '<label><input type="radio" name="level" value="4" checked> 4</label></form>'
    )
    asked = served(page, moved, entry(2, "Dev", 120))
    change(page)
    assert asked == ["/live?number=2"]
    assert page.locator("#taps-moved").count() == 1
    assert page.locator("#notice").count() == 1  # what the pad said of these taps
    assert page.locator("input[name=level]").is_checked()
    assert page.locator("#mini").inner_text() == "We 120"


def test_a_list_left_on_its_first_choice_is_not_held(browser: Any) -> None:
    """A <select> served with no choice marked shows (and sends) its first: not the player's,
    so the form follows the change; it was taken for held and kept beside the new one."""
    page = browser.new_page()
    late = '<p>Table 1</p><form class="late"><select name="player">{}</select></form>'
    served(
        page,
        part(late.format('<option value="4">Dev</option>')),
        part('<p class="new">Deals awaiting</p>' + late.format('<option value="5">Eve</option>')),
    )
    change(page)
    assert page.locator("form.late").count() == 1
    assert page.locator("select option").all_inner_texts() == ["Eve"]


def test_an_open_correction_served_with_the_page_keeps_its_form(browser: Any) -> None:
    """The console's Correct opens the pad with the deal's form in an open <details>; the live
    part carries only a link there: the form stays while it is open."""
    page = browser.new_page()
    correction = '<details class="correction"{}><summary>Correct</summary><div>{}</div></details>'
    form = '<form class="fix"><input type="radio" name="honours" value=""></form>'
    served(
        page,
        part(correction.format(" open", form)),
        part(correction.format("", '<a href="/correct">Correct deal 1</a>')),
    )
    change(page)
    assert page.locator("form.fix").count() == 1
    assert page.locator("details.correction").get_attribute("open") is not None
