"""A table's phone walks its screens on a 390×844 phone, in English and in Italian (issue 29):
it picks its seat, enters a deal, is handed to the other side, which confirms.

- Every button, button-styled link and button-styled radio there is at least 44×44 px, and every
  text link at least 44 px high (entry buttons were 36 px wide, links 16–24 px high). So is the
  open dispute form's reasons, under Confirm (which keeps its shape), its note field the form's
  width and 44 px high.
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

TARGETS = "main button:visible, main .button:visible, main .choices label:visible"
LINKS = "main a:not(.button):visible"
SPOKEN = {
    "en": ("spades", "made exactly", "undoubled", "declarer North", "two"),
    "it": ("picche", "mantenuto esatto", "non contrato", "dichiarante Nord", "due"),
}
WORDS = {
    "en": {"N": "North", "E": "East", "out": "Sitting out this rubber", "at": "At the table:"},
    "it": {"N": "Nord", "E": "Est", "out": "Fuori in questo rubber", "at": "Al tavolo:"},
}
NAMES = {"north": "Clara Cole", "east": "Dan Dray", "south": "Eva Ekberg", "west": "Gil Grant"}


def too_small(page: Any) -> list[str]:
    small = []
    for element in page.locator(TARGETS).all():
        box = element.bounding_box()
        if box and (box["width"] < 44 or box["height"] < 44):
            small.append(f"{element.inner_text()!r} {box['width']:.0f}×{box['height']:.0f}")
    for element in page.locator(LINKS).all():
        box = element.bounding_box()
        if box and box["height"] < 44:
            small.append(f"link {element.inner_text()!r} {box['width']:.0f}×{box['height']:.0f}")
    return small


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
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)

    page.goto(f"{live_server.url}/t/{code}")  # the seat screen
    assert page.locator("main button:visible").count() == 4
    assert page.locator("#sitting-out").inner_text() == f"{words['out']}: {out}."
    assert too_small(page) == []
    page.get_by_role("button", name=f"{words['N']}, {rubber.north.name}", exact=True).click()

    page.locator(".deal-form .choices label").first.wait_for()  # the entry
    seating = page.locator("#seating").inner_text()
    assert seating.startswith(words["at"]) and seating.endswith(out), seating
    for seat, player in rubber.seats.items():
        assert page.locator(f"#seating [data-seat='{seat}']").inner_text().endswith(player.name)
    assert too_small(page) == []
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
    page.goto(f"{live_server.url}/t/{code}/hand-over?rubber={rubber.pk}")  # the hand-over
    page.locator("#hand-over-who").wait_for()
    assert too_small(page) == []
    page.get_by_role("button", name=f"{words['E']}, {rubber.east.name}", exact=True).click()

    page.locator("#confirm-1 button").first.wait_for()  # the confirmation
    assert too_small(page) == []
    confirm = page.locator("#confirm-1 > form button")
    before = confirm.bounding_box()
    page.locator("#dispute-1 summary").click()  # the dispute form, open under Confirm
    page.locator("#dispute-1 .choices label").first.wait_for()
    assert too_small(page) == []
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
