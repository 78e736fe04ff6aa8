"""A table's phone walks its screens on a 390×844 phone, in English and in Italian (issue 29):
it picks its seat, enters a deal, is handed to the other side, which confirms.

- Every interactive element on each of these screens, the header's and the footer's too, is at
  least 44×44 px (the pad with a deal also with the phone turned sideways): each link, button,
  form control (a radio button by the label that shows it), disclosure and focusable element
  the page has, found by the browser rather than listed here, with every disclosure open (the
  pad's figures and their explanations, History, Correct and its form, Honours, the dispute
  form). An outside probe found History, Correct, Honours and the pad's figures 20–23 px high,
  which a hand-picked list of buttons had let through. The open dispute form keeps Confirm's
  shape, its note field the form's width and 44 px high.
- Names wherever a seat is chosen or shown: the seat picker names each seat's player and who sits
  out, the pad's header who sits where and who sits out, the hand-over the other side's players.
- Buttons speak words, not glyphs: "spades", "made exactly", "undoubled", "declarer North, Clara
  Cole", and a seat "North, Clara Cole".

The English walk writes the README's screenshot of the pad's header (docs/screenshots/)."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player
from tests.factories import acting, add_player, make_session
from tests.games.test_browser import SHOTS

SPOKEN = {
    "en": ("spades", "made exactly", "undoubled", "declarer North", "two"),
    "it": ("picche", "mantenuto esatto", "non contrato", "dichiarante Nord", "due"),
}
WORDS = {
    "en": {"N": "North", "E": "East", "out": "Sitting out this rubber", "at": "At the table:"},
    "it": {"N": "Nord", "E": "Est", "out": "Fuori in questo rubber", "at": "Al tavolo:"},
}
NAMES = {"north": "Clara Cole", "east": "Dan Dray", "south": "Eva Ekberg", "west": "Gil Grant"}


#: Every element a finger can tap, as the browser finds it: each one's box, or for a radio button
#: or a checkbox (hidden, drawn by its label) its label's, with what it says. A disclosure's
#: content counts only once it is open (closed, its boxes are empty); hidden elements are left out.
MEASURE = """() => {
  const tappable = "a[href], button, input:not([type=hidden]), select, textarea, summary, "
    + "[tabindex]:not([tabindex='-1']), [role=button], [onclick]";
  const found = [];
  const seen = new Set();
  for (const element of document.querySelectorAll(tappable)) {
    const target = element.matches("input[type=radio], input[type=checkbox]")
      ? element.closest("label") || element.labels[0] || element : element;
    if (seen.has(target) || !target.getClientRects().length) continue;
    seen.add(target);
    if (getComputedStyle(target).visibility === "hidden") continue;
    const box = target.getBoundingClientRect();
    const words = (target.innerText || target.getAttribute("aria-label") || target.name || "");
    found.push({tag: target.tagName.toLowerCase(), id: target.id, words: words.trim().slice(0, 40),
                width: box.width, height: box.height});
  }
  return found;
}"""


def open_every_disclosure(page: Any) -> None:
    """Open each closed `<details>` on the page (the pad's figures, History, Correct, Honours,
    the dispute), as a player's taps would, and wait for a correction's form it fetches."""
    page.evaluate(
        """() => document.querySelectorAll("details:not([open]):not(.correction)")
                  .forEach(details => { details.open = true; })"""
    )
    # A correction is opened by a tap on its summary, as a player opens it: the pad keeps what
    # the player opened when a change is morphed in.
    corrections = page.locator("details.correction:not([open]) > summary")
    if corrections.count():
        corrections.first.click()
        page.locator("details.correction .correction-body form").first.wait_for()


def assert_tap_targets(page: Any) -> None:
    """Every tap target on the page is at least 44×44 px, with every disclosure open."""
    open_every_disclosure(page)
    targets = page.evaluate(MEASURE)
    assert len(targets) >= 5, targets  # the header's and footer's links at least
    small = [
        f"{t['tag']}#{t['id']} {t['words']!r} {t['width']:.0f}×{t['height']:.0f}"
        for t in targets
        if t["width"] < 44 or t["height"] < 44
    ]
    assert not small, f"under 44×44 px on {page.url}: {small}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_tables_phone_walks_seat_entry_hand_over_and_confirmation(
    live_server: Any, browser: Any, club: Any, table_of_four: dict[str, Any], language: str
) -> None:
    for key, player in table_of_four.items():
        Player.objects.filter(pk=player.pk).update(name=NAMES[key])
    fay = add_player(club, "Fay Fraser")
    session = make_session(club, [[*table_of_four.values(), fay]])
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    rubber = session.rubbers.get()
    rubber.fetch_players()
    out = rubber.out_players[0].name
    words = WORDS[language]
    code = rubber.table.code
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)

    page.goto(f"{live_server.url}/t/{code}")  # the seat screen
    assert page.locator("main button:visible").count() == 4
    assert page.locator("#sitting-out").inner_text() == f"{words['out']}: {out}."
    assert_tap_targets(page)
    page.get_by_role("button", name=f"{words['N']}, {rubber.north.name}", exact=True).click()

    page.locator(".deal-form .choices label").first.wait_for()  # the entry
    seating = page.locator("#seating").inner_text()
    assert seating.startswith(words["at"]) and seating.endswith(out), seating
    for seat, player in rubber.seats.items():
        assert page.locator(f"#seating [data-seat='{seat}']").inner_text().endswith(player.name)
    names = page.locator(".deal-form .choices label .sr-only").all_inner_texts()
    for spoken in SPOKEN[language]:
        assert any(name == spoken or name.startswith(f"{spoken}, ") for name in names), names
    assert f"{SPOKEN[language][3]}, {rubber.north.name}" in names
    assert page.get_by_role("radio", name=SPOKEN[language][0]).count() == 1
    if language == "en":
        page.evaluate("document.getElementById('pad-title').scrollIntoView()")
        top = page.locator("#pad-title").bounding_box()
        bottom = page.locator(".pad-head").bounding_box()
        assert top and bottom
        end = bottom["y"] + bottom["height"] + 8
        page.screenshot(
            path=str(SHOTS / "seat-names.png"),
            clip={"x": 0, "y": top["y"] - 8, "width": 390, "height": end - top["y"] + 8},
        )

    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, rubber.north.user)
    )
    page.reload()  # the entry with a deal: its figures on the pad, its History and Correct
    page.locator("#pad .pad-item").first.wait_for()
    assert_tap_targets(page)
    # The phone turned sideways (844 px wide, wider than the phone layout's 48rem): still a
    # finger's targets. A walk on a real server found the header, the crumbs, History, Correct,
    # Honours and the pad's figures 19-24 px high there.
    page.set_viewport_size({"width": 844, "height": 390})
    assert_tap_targets(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/t/{code}/hand-over?rubber={rubber.pk}")  # the hand-over
    page.locator("#hand-over-who").wait_for()
    assert_tap_targets(page)
    page.get_by_role("button", name=f"{words['E']}, {rubber.east.name}", exact=True).click()

    page.locator("#confirm-1 button").first.wait_for()  # the confirmation
    confirm = page.locator("#confirm-1 > form button")
    before = confirm.bounding_box()
    assert_tap_targets(page)  # with the dispute form open under Confirm
    page.locator("#dispute-1 .choices label").first.wait_for()
    after = confirm.bounding_box()
    assert after and before
    assert (after["width"], after["height"]) == (before["width"], before["height"])  # not "C o n…"
    assert page.locator("#dispute-1 .choices label").count() == 5
    note = page.locator("#dispute-1 input[name=note]").bounding_box()
    form = page.locator("#dispute-1 form").bounding_box()
    assert note and form
    assert note["height"] >= 44 and note["width"] >= form["width"] - 1, note
    assert note["y"] > after["y"] + after["height"]  # on its own row, under Confirm
    context.close()
