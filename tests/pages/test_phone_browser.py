"""On a phone (390×844) and a laptop (1280×800) no page scrolls sideways, in English and
Italian: wide tables scroll inside their own box (`.scroll-x`). Issue 18: the session standings
page was 837 px wide."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest

from games.sessions import lifecycle
from scoring.standings import services as scoring_services
from tests.conftest import sign_in
from tests.factories import UserFactory, acting, add_player, make_club, make_session

#: The elements that stick out of the viewport outside a scroll box, for the failure message.
PROBE = """
(width) => [...document.querySelectorAll("body *")]
  .filter(e => e.getBoundingClientRect().right > width + 1 && !e.closest(".scroll-x"))
  .slice(0, 8)
  .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
"""

WIDE_NAMES = (
    "Margherita Bellavista-Spadolini",
    "Bartholomew Featherstonehaugh",
    "Giancarlo Montecatini Terme",
    "Wilhelmina Cholmondeley-Smythe",
    "Massimiliano Santacroce",
    "Alessandra Castelfranco",
)


def night(director: Any) -> dict[str, str]:
    """A club night with long names: a table of six (rotation with sit-outs), a rubber played,
    standings refreshed; the pages a director and players visit."""
    club = make_club(director=director, slug="riverside")
    players = [add_player(club, name) for name in WIDE_NAMES]
    session = make_session(club, [players], stake=Decimal("0.50"))
    rubber = session.rubbers.get(number=1)
    for number in (1, 2):
        rubber.record_deal(
            number=number,
            contract="4S",
            declarer="N",
            tricks=10,
            actor=acting(rubber, director),
        )
    rubber.next_rubber().record_deal(
        number=1,
        contract="3NTX",
        declarer="E",
        tricks=8,
        actor=acting(rubber.next_rubber(), director),
    )
    scoring_services.standings_refresh(session_id=session.pk)
    # A planned session (to re-seat) and a closed one (to reopen), of the same players.
    planned = make_session(club, [players[:4]], start=False)
    closed = make_session(club, [players[2:6]], date=datetime.date(2026, 11, 23))
    lifecycle.session_close(session=closed)
    return {
        "home": "/",
        "club": f"/clubs/{club.slug}/",
        "session": f"/clubs/{club.slug}/sessions/{session.pk}/",
        "standings": f"/sessions/{session.pk}/standings/",
        "leaderboard": f"/clubs/{club.slug}/leaderboard/",
        "pad": f"/rubbers/{rubber.pk}/",
        "console": f"/clubs/{club.slug}/console/",
        "settlement": f"/sessions/{session.pk}/settlement/",
        "cards": f"/clubs/{club.slug}/sessions/{session.pk}/cards/",
        "settings": f"/clubs/{club.slug}/settings/",
        "close": f"/clubs/{club.slug}/sessions/{session.pk}/close/",
        "reseat": f"/clubs/{club.slug}/sessions/{planned.pk}/seat/",
        "delete": f"/clubs/{club.slug}/sessions/{planned.pk}/delete/",
        "closed session": f"/clubs/{club.slug}/sessions/{closed.pk}/",
        "reopen": f"/clubs/{club.slug}/sessions/{closed.pk}/reopen/",
        "api docs": "/api/docs/",
    }


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_no_main_page_scrolls_sideways(
    live_server: Any, browser: Any, language: str, viewport: tuple[int, int]
) -> None:
    director = UserFactory(username="director")
    pages = night(director)
    width, height = viewport
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=width < 500
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, "director")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    widths: dict[str, int] = {}
    sticking_out: dict[str, list[str]] = {}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        if name != "api docs":  # Swagger UI's own page, in English
            assert page.locator("html").get_attribute("lang") == language, path
        else:
            page.locator(".swagger-ui .opblock").first.wait_for()
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
        if widths[name] > width:
            sticking_out[name] = page.evaluate(PROBE, width)
    assert all(w <= width for w in widths.values()), f"{widths} {sticking_out}"
    context.close()
