"""A Draw and Discard table's phone on a 390×844 screen (issue 29, two-player screens as exact
as rubber's), in English and in Italian: a new player picks who they are, taps Pass and sees
only the contract (as the rubber's entry for a passed-out deal), records it, opens Correct and
sees the live score line follow the taps as the entry's does; handed to the other player, who
confirms. Every tap target on the seat, entry, hand-over and confirmation screens is at least
44×44 px (`assert_tap_targets`, every interactive element, every disclosure open)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages.test_tap_targets_browser import assert_tap_targets

OTHERS = ("declarer", "strain", "doubled", "tricks")
LINE = {"en": "2♠ by {name}, 8 tricks: {name} +60", "it": "{name} +60"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_draw_and_discard_phone_passes_corrects_with_a_line_and_confirms(
    live_server: Any, browser: Any, two_player_session: Any, language: str
) -> None:
    session = two_player_session("draw_discard")
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    match = session.rubbers.get(table__number=1)
    first, second = (player.name for player in match.players)
    code = match.table.code
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)

    page.goto(f"{live_server.url}/t/{code}")  # the seat screen
    assert_tap_targets(page)
    page.get_by_role("button", name=first, exact=True).click()

    entry = page.locator("#entry")
    entry.locator(".field-level label").first.wait_for()  # the entry
    entry.locator('.field-level label[data-v="pass"]').click()
    for name in OTHERS:  # a pass has no declarer, strain, double or tricks
        assert entry.locator(f".field-{name}").is_hidden(), name
    assert entry.locator(".field-level").is_visible()
    entry.locator('.field-level label[data-v="2"]').click()
    for name in OTHERS:
        assert entry.locator(f".field-{name}").is_visible(), name
    entry.locator('.field-level label[data-v="pass"]').click()
    page.locator("#record").click()

    page.locator("#deals #deal-1").wait_for()  # deal 1, passed, on the pad
    assert_tap_targets(page)  # with its Correct open, the form fetched
    correction = page.locator("details.correction").first
    preview = correction.locator("output.preview")
    for name, value in (("level", "2"), ("strain", "S"), ("declarer", "0"), ("tricks", "8")):
        correction.locator(f'.field-{name} label[data-v="{value}"]').click()
    preview.filter(has_text=LINE[language].format(name=first)).wait_for()
    correction.locator("button[type=submit]").click()
    page.locator("#deals", has_text="2♠").wait_for()

    page.goto(f"{live_server.url}/t/{code}/hand-over?rubber={match.pk}")  # the hand-over
    page.locator("#hand-over-who").wait_for()
    assert_tap_targets(page)
    page.get_by_role("button", name=second, exact=True).click()
    page.locator("#confirm-1 button").first.wait_for()  # the confirmation
    assert_tap_targets(page)
    context.close()
