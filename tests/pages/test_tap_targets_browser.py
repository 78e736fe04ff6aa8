"""On a 390×844 phone every button, button-styled link and button-styled radio of the seat
screen (a table code's "Which seat?"), the deal entry and the confirmation is at least 44×44 px
(issue 29: entry buttons were 36 px wide), and the entry buttons speak words, not glyphs
("spades", "made exactly", "undoubled", "declarer North"), in English and in Italian."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import sign_in
from tests.factories import acting

TARGETS = "main button:visible, main .button:visible, main .choices label:visible"
SPOKEN = {
    "en": ("spades", "made exactly", "undoubled", "declarer North", "two"),
    "it": ("picche", "mantenuto esatto", "non contrato", "dichiarante Nord", "due"),
}


def too_small(page: Any) -> list[str]:
    small = []
    for element in page.locator(TARGETS).all():
        box = element.bounding_box()
        if box and (box["width"] < 44 or box["height"] < 44):
            small.append(f"{element.inner_text()!r} {box['width']:.0f}×{box['height']:.0f}")
    return small


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
def test_seat_entry_and_confirmation_targets_are_44_px(
    live_server: Any, browser: Any, running_session: Any, language: str
) -> None:
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, rubber.north.user)
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)

    page.goto(f"{live_server.url}/t/{rubber.table.code}")
    assert page.locator("main button:visible").count() >= 4  # the seats
    assert too_small(page) == []

    sign_in(page, live_server.url, rubber.east.user.username, f"/rubbers/{rubber.pk}/")
    page.locator("#confirm-1 button").first.wait_for()
    page.locator(".deal-form .choices label").first.wait_for()
    assert too_small(page) == []
    names = page.locator(".deal-form .choices label .sr-only").all_inner_texts()
    for words in SPOKEN[language]:
        assert words in names, (words, names)
    assert page.get_by_role("radio", name=SPOKEN[language][0]).count() == 1
    context.close()
