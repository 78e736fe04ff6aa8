"""Misery Bridge on a 390×844 phone (RULES 7.2): a misery declaration is played at no trumps
and scores no honours, so tapping Misery hides the strain and honours buttons before Record;
an ordinary declaration shows them again. A strain other than NT tapped before stays in sight
(the engine would refuse it), for the player to change. At no trumps the honours offered are the
four aces' 150 only (RULES 3.6). As on the rubber's screen, the live line scores the deal before
Record, naming the players, in the game's own words, in English and in Italian (issue 29)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import sign_in


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_misery_hides_the_strain_and_honours(
    live_server: Any, browser: Any, two_player_session: Any
) -> None:
    match = two_player_session("misery").rubbers.get(table__number=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, match.north.user.username, f"/rubbers/{match.pk}/")
    strain, honours = page.locator("#entry .field-strain"), page.locator("#entry .field-honours")
    prompt = "Tap the deal: its score shows here before you record it."
    assert page.locator("#preview").inner_text() == prompt
    assert strain.is_visible() and honours.is_visible()
    page.locator('#entry label[data-v="misery"]').click()
    assert strain.is_hidden() and honours.is_hidden()
    page.locator('#entry label[data-v="ordinary"]').click()
    assert strain.is_visible()
    page.locator('#entry .field-strain label[data-v="S"]').click()
    page.locator('#entry label[data-v="misery"]').click()
    assert strain.is_visible() and honours.is_hidden()
    page.locator('#entry .field-strain label[data-v="NT"]').click()
    assert strain.is_hidden()
    # An ordinary deal at no trumps: only the four aces count (150), so no 100 is offered.
    page.locator('#entry label[data-v="ordinary"]').click()
    assert honours.locator('label[data-v$=":150"]:visible').count() == 2
    assert honours.locator('label[data-v$=":100"]:visible').count() == 0
    page.locator('#entry .field-strain label[data-v="S"]').click()
    assert honours.locator('label[data-v$=":100"]:visible').count() == 2
    page.locator('#entry .field-strain label[data-v="NT"]').click()
    page.locator('#entry label[data-v="misery"]').click()

    assert page.title() == "Misery Bridge, match 1, table 1 · Backscore"
    north, east = match.north.name, match.east.name
    assert page.locator("#seating").inner_text() in (
        f"At the table: {north} and {east}",
        f"At the table: {east} and {north}",
    )
    preview = page.locator("#preview")
    preview.filter(has_text="Choose the declarer").wait_for()  # the taps so far, by the server
    page.locator('#entry .field-declarer label[data-v="0"]').click()
    page.locator('#entry .field-tricks label[data-v="1"]').click()
    preview.filter(has_text=f"misery NT by {north}, 1 trick: {north} +30").wait_for()

    context.add_cookies([{"name": "django_language", "value": "it", "url": live_server.url}])
    page.reload()
    assert page.title() == "Bridge Miseria, incontro 1, tavolo 1 · Backscore"
    page.locator('#entry label[data-v="misery"]').click()
    page.locator('#entry .field-declarer label[data-v="0"]').click()
    page.locator('#entry .field-tricks label[data-v="1"]').click()
    preview.filter(has_text=f"{north} +30").wait_for()
    page.locator("#record").click()
    page.locator("#deals #deal-1").wait_for()
    context.close()
