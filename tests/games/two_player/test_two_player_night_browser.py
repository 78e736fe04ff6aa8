"""In Chromium at 390×844: a two-player night as its director and players see it on a phone
(issues 17 and 18): the console and the table cards with two seats named by the players and no
compass seats or partners, a pad that names both players in the same order in every match, and
the club's ladder of that game apart from rubber bridge's."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.sessions import lifecycle
from scoring.standings import services
from tests.conftest import sign_in
from tests.factories import UserFactory, add_player, make_club, make_session
from tests.games.two_player.conftest import play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO
from tests.scoring.standings.conftest import win_rubber

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COMPASS = re.compile(r"\b(North|South|East|West|partners|Sitting out|Out)\b")

SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page at 390×844, closed after the test so that its polls stop with it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


@pytest.fixture
def night(api: Any) -> dict[str, Any]:
    """A rubber bridge night (N–S win 9 hundreds each) on 1 December, closed; then Bridge for Two
    on 2 December, Ann v Bea and Carl v Dora, both first matches played out (Ann and Carl win),
    so the second round is in play: Ann v Dora, Bea v Carl (RULES 7 round robin)."""
    director = UserFactory(username="director")
    club = make_club(director=director, slug="riverside")
    users = {n: UserFactory(username=n.lower()) for n in ("Ann", "Bea", "Carl", "Dora")}
    players = {n: add_player(club, n, user=u) for n, u in users.items()}
    ann, bea, carl, dora = players.values()
    rubber_night = make_session(club, [[ann, bea, carl, dora]], date=datetime.date(2026, 12, 1))
    win_rubber(rubber_night.rubbers.get(), "NS", by=director)
    lifecycle.session_close(session=rubber_night)
    services.standings_refresh(session_id=rubber_night.pk)
    session = make_session(
        club, [[ann, bea], [carl, dora]], kind="bridge_for_two", date=datetime.date(2026, 12, 2)
    )
    for table in (1, 2):
        play(api, session.rubbers.get(table__number=table), BRIDGE_FOR_TWO, as_user=director)
    services.standings_refresh(session_id=session.pk)
    return {"session": session, "players": players}


def test_a_two_player_night_on_a_phone(live_server, phone, night):
    session = night["session"]
    page = phone
    sign_in(page, live_server.url, "director", "/clubs/riverside/console/")

    # The console: table 1's second match in play, Ann v Dora (the round robin, RULES 7).
    card = page.locator(f"#session-{session.pk} .table-card[data-table='1']")
    assert "Match 2 in play" in card.inner_text()
    current = card.locator("table.two-seats tr.current td[data-player]")
    assert [current.nth(i).inner_text() for i in range(current.count())] == ["Ann", "Dora"]
    assert "Next: Ann plays Carl at table 1." in card.inner_text()
    assert not COMPASS.search(card.inner_text())
    no_sideways_scroll(page)

    # The printable table cards.
    page.goto(f"{live_server.url}/clubs/riverside/sessions/{session.pk}/cards/")
    printed = page.locator(".table-card[data-table='2']")
    assert "Bridge for Two: a game for two." in printed.inner_text()
    first = printed.locator("table.two-seats tbody tr").first.locator("td[data-player]")
    assert [first.nth(i).inner_text() for i in range(2)] == ["Carl", "Dora"]
    assert not COMPASS.search(printed.inner_text())
    no_sideways_scroll(page)
    printed.screenshot(path=str(SHOTS / "two-player-card.png"))

    # The pad of the first match names both players, in explanations and deals.
    match = session.rubbers.get(table__number=1, number=1)
    page.goto(f"{live_server.url}/rubbers/{match.pk}/")
    pad = page.locator("#pad")
    assert pad.locator(".pad-head .we").inner_text().startswith("Ann")
    assert pad.locator(".pad-head .they").inner_text().startswith("Bea")
    # Each figure's explanation (shown on a tap; the page's poll may redraw it, so read it).
    why = " ".join(pad.locator(".pad-item .why").all_text_contents())
    assert "Ann won the rubber by two games to none" in why
    assert "Bea held four trump honours in one hand" in why and "layer 0" not in why
    deals = page.locator("#deals").inner_text()
    assert "♣ by Bea, 8 tricks" in deals and "player 1" not in deals.lower()
    assert "Ann leads on points by" in page.locator("#result").inner_text()
    no_sideways_scroll(page)

    # The club's ladders: rubber bridge by default, Bridge for Two on its own tab.
    page.goto(f"{live_server.url}/clubs/riverside/leaderboard/")
    board = page.locator("table.leaderboard")
    assert board.get_attribute("data-kind") == "bridge"
    hundreds = board.locator("tbody tr td:nth-child(8)")
    # A true minus on the page (docs/i18n.md), as the pad writes it.
    shown = sorted(int(hundreds.nth(i).inner_text().replace("\u2212", "-")) for i in range(4))
    assert shown == [-9, -9, 9, 9]
    page.locator("nav.ladders a[data-kind='bridge_for_two']").click()
    page.locator("table.leaderboard[data-kind='bridge_for_two']").wait_for()
    names = page.locator("table.leaderboard tbody tr td:nth-child(2)")
    assert [names.nth(i).inner_text() for i in range(names.count())] == [
        "Ann",
        "Carl",
        "Bea",
        "Dora",
    ]
    assert "Matches" in page.locator("table.leaderboard thead").inner_text()
    no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "ladder-bridge-for-two.png"), full_page=True)


def test_a_players_pad_keeps_the_order_in_the_next_match(live_server, phone, night):
    """At the one table where Ann meets Bea again the engine's order swaps (Bea deals first);
    Ann's phone still shows Ann on the left."""
    session = night["session"]
    lifecycle.session_close(session=session)
    club = session.club
    ann, bea = night["players"]["Ann"], night["players"]["Bea"]
    duel = make_session(club, [[ann, bea]], kind="misery", date=datetime.date(2026, 12, 3))
    two_games = [
        {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 10},
        {"declarer": 0, "declaration": "ordinary", "strain": "H", "tricks": 10},
    ]
    play(APIClient(), duel.rubbers.get(number=1), two_games, as_user=ann.user)
    second = duel.rubbers.get(number=2)
    assert second.north_id == bea.pk
    page = phone
    sign_in(page, live_server.url, "ann", f"/rubbers/{second.pk}/")
    # The buttons too keep Ann first: Bea, player 0 of this match, is the second button.
    declarers = page.locator("#entry input[name=declarer]")
    assert [declarers.nth(i).get_attribute("value") for i in range(2)] == ["1", "0"]
    page.locator("#entry label[for=id_declarer_1]").click()
    page.locator("#entry label[for=id_declaration_0]").click()
    page.locator("#entry label[for=id_strain_3]").click()  # ♠
    page.locator("#entry label[for=id_tricks_10]").click()
    page.locator("#record").click()
    page.locator("#total-ns").filter(has_text="120").wait_for()
    assert page.locator(".pad-head .we").inner_text().startswith("Ann")
    assert page.locator(".pad-head .they").inner_text().startswith("Bea")
    # Bea's 120 is in the right-hand column.
    assert page.locator(".pad-total .they").inner_text() == "120"
    assert page.locator(".pad-total .we").inner_text() == "0"
    assert "♠ by Bea, 10 tricks" in page.locator("#deals").inner_text()
    no_sideways_scroll(page)


def test_two_player_console_and_cards_on_a_desktop(
    live_server: Any, browser: Any, night: dict[str, Any]
) -> None:
    """Issue 18 at 1280×800: the console and the printable cards of a two-player session show
    two seats by name, the match in play, and no compass seats or partnership text."""
    session = night["session"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, live_server.url, "director", "/clubs/riverside/console/")
        card = page.locator(f"#session-{session.pk} .table-card[data-table='1']")
        assert "Match 2 in play" in card.inner_text()
        current = card.locator("table.two-seats tr.current td[data-player]")
        assert [current.nth(i).inner_text() for i in range(current.count())] == ["Ann", "Dora"]
        assert not COMPASS.search(card.inner_text())
        page.goto(f"{live_server.url}/clubs/riverside/sessions/{session.pk}/cards/")
        printed = page.locator(".table-card[data-table='2']")
        first = printed.locator("table.two-seats tbody tr").first.locator("td[data-player]")
        assert [first.nth(i).inner_text() for i in range(2)] == ["Carl", "Dora"]
        assert not COMPASS.search(printed.inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    finally:
        context.close()
