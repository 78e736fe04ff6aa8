"""A tie decided by a recorded cut, and a player's page on a phone (Chromium; RULES 6.3,
issue 31): the director records who won the cut from the standings, the prize list keeps the
shared place and puts the cut's winner first, the session's history keeps the cut; the player's
page at 390×844 does not scroll sideways."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.standings import services
from tests.conftest import sign_in
from tests.factories import UserFactory, acting, add_player, make_club, make_session

from .conftest import win_rubber

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_tie_decided_by_a_recorded_cut_and_a_players_page_on_a_phone(
    live_server: Any, browser: Any
) -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="riverside")
    players = [add_player(club, name) for name in ("Ada Lovelace", "Ben", "Cleo", "Dev")]
    session = make_session(club, [players])
    rubber = session.rubbers.get(number=1)
    win_rubber(rubber, "NS", by=director)
    in_play = session.rubbers.get(number=2)
    in_play.record_deal(
        number=1, contract="2H", declarer="E", tricks=8, actor=acting(in_play, director)
    )
    services.standings_refresh(session_id=session.pk)
    north, south = rubber.seats["N"], rubber.seats["S"]

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    standings = f"/sessions/{session.pk}/standings/"
    sign_in(page, live_server.url, "td", standings)
    prizes = page.locator("ol.prizes li")
    assert prizes.count() == 2
    assert all(text.startswith("=1") for text in prizes.all_inner_texts())
    page.locator("#record-cut").click()
    page.wait_for_url(f"**/sessions/{session.pk}/prize-cut/")
    page.get_by_label(f"{south.name} (=1)").check()
    page.locator("#prize-cut-form button[type=submit]").click()
    page.wait_for_url(f"**{standings}")
    first, second = prizes.all_inner_texts()
    assert first.startswith(f"=1 {south.name}")
    assert f"{south.name} won the cut, chooses first (before {north.name})" in first
    assert second.startswith(f"=1 {north.name}")
    assert f"{north.name} lost the cut, chooses after {south.name}" in second
    assert page.locator("#record-cut").count() == 0
    page.goto(f"{live_server.url}{session.get_absolute_url()}")
    cut = page.locator('#session-history li[data-change="cut"]')
    assert f"{south.name} won against {north.name}" in cut.inner_text()
    context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    assert page.goto(f"{live_server.url}/players/{north.pk}/").status == 200
    assert page.locator("table.recent tr[data-in-play]").count() == 1
    for table in ("table.partners", "table.recent"):
        box = page.locator(table).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, table
    wide, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide <= inner
    phone.close()
