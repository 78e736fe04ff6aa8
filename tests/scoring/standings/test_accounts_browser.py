"""The results sheet prints on one A4 page, and the season accounts read right in a browser
(Chromium; RULES 4.2, 4.4; issue 32).

- A night of three tables (and the most the sheet is made for, six tables of six) prints its
  results sheet to PDF on exactly one A4 page (the print CSS in static/css/backscore.css).
- After two nights and a payment recorded through the director's form, a player's statement
  shows each line and the running balance, and the club's balance list sums to the cash in hand;
  each night's postings sum to zero.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

import pytest

from clubs.models import Session
from games.sessions import lifecycle
from scoring.standings import services
from scoring.standings.ledger import AccountEntry
from tests.conftest import ROOT, sign_in
from tests.factories import UserFactory, add_player, make_club, make_session

from .conftest import win_rubber

SHOTS = ROOT / "docs" / "screenshots"
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fern", "Gus", "Hana", "Ivo", "Jo", "Kit", "Lia"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _night(club: Any, tables: list[list[Any]], date: datetime.date, sides: str) -> Session:
    """A closed night: at each table the side in `sides` (N or E, one per table) wins a rubber;
    its standings computed (the refresh the close queues)."""
    session = make_session(club, tables, stake=Decimal("0.50"), date=date)
    for number, side in enumerate(sides, start=1):
        win_rubber(session.rubbers.get(table__number=number), side="NS" if side == "N" else "EW")
    lifecycle.session_close(session=session)
    services.standings_refresh(session_id=session.pk)
    return session


def _pages(pdf: bytes) -> int:
    """The pages of a PDF: its page objects (/Type /Page, not /Pages)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize(("tables", "size"), [(3, 4), (6, 6)])
def test_the_results_sheet_prints_on_one_a4_page(
    live_server: Any, browser: Any, tables: int, size: int
) -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="riverside")
    players = [
        add_player(club, f"{NAMES[i % 12]} {chr(65 + i // 12)}") for i in range(tables * size)
    ]
    seated = [players[t * size : (t + 1) * size] for t in range(tables)]
    session = _night(club, seated, datetime.date(2026, 12, 1), "NENENE"[:tables])
    page = browser.new_page(viewport={"width": 1000, "height": 1200})
    page.goto(f"{live_server.url}/sessions/{session.pk}/standings/")
    page.locator("#results-sheet").click()
    page.wait_for_url(f"**/sessions/{session.pk}/results-sheet/")
    sheet = page.locator("article.results-sheet")
    assert sheet.locator("tbody tr").count() == tables * size
    assert sheet.locator(".prizes li").count() >= tables  # a pair that won shares its prize
    assert sheet.locator(".payments li").count() >= 1
    if tables == 3:
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "results-sheet.png"), full_page=True)
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF")
    assert _pages(pdf) == 1
    # A payment stays whole across the settlement's columns, on screen as in print.
    assert sheet.locator(".payments li").first.evaluate("e => getComputedStyle(e).breakInside") == (
        "avoid"
    )
    # On a 375 px phone the page does not widen: the standings table scrolls in its own box.
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.close()


def test_two_nights_and_a_payment_make_the_statement_and_balances_right(
    live_server: Any, browser: Any
) -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="riverside")
    four = [add_player(club, name) for name in ("Ada", "Ben", "Cleo", "Dev")]
    first = _night(club, [four], datetime.date(2026, 12, 1), "N")  # Ada, Cleo +4.50
    second = _night(club, [four], datetime.date(2026, 12, 8), "E")  # Ben, Dev +4.50
    for night in (first, second):
        assert AccountEntry.objects.filter(session=night).total() == 0

    page = browser.new_page(viewport={"width": 1000, "height": 900})
    sign_in(page, live_server.url, "td", f"/clubs/{club.slug}/")
    page.locator("#season-accounts").click()
    page.locator("#record-payment").click()
    page.select_option("select[name=player]", label="Ada")
    page.select_option("select[name=kind]", value="paid_out")
    page.fill("input[name=amount]", "0")
    page.locator("#payment-form button[type=submit]").click()
    assert page.locator("#payment-form .errorlist").count() >= 1  # a form error, not a 500
    assert not AccountEntry.objects.filter(kind__in=AccountEntry.PAYMENTS).exists()
    page.fill("input[name=amount]", "2.00")
    page.fill("input[name=date]", "2026-12-09")  # the day after the second night
    page.fill("input[name=note]", "Cash on the night")
    page.locator("#payment-form button[type=submit]").click()
    page.wait_for_url(f"**/clubs/{club.slug}/accounts/")

    # The balance list: Ada's nights cancel (+4.50 − 4.50), she was paid 2.00 out: −2.00; the
    # balances sum to the cash in hand, −2.00.
    rows = page.locator("#balances tbody tr")
    assert rows.count() == 4
    balances = {
        rows.nth(i).locator("td").first.inner_text(): _amount(
            rows.nth(i).locator("td.balance").inner_text()
        )
        for i in range(4)
    }
    assert balances == {
        "Ada": Decimal("-2.00"),
        "Ben": Decimal("0.00"),
        "Cleo": Decimal("0.00"),
        "Dev": Decimal("0.00"),
    }
    assert _amount(page.locator("#balances-total").inner_text()) == Decimal("-2.00")
    assert "-€2.00" in page.locator("#cash-in-hand").inner_text()
    assert sum(balances.values()) == AccountEntry.objects.for_club(club.pk).cash_in_hand()

    page.locator("#balances a", has_text="Ada").click()
    page.wait_for_url(f"**/players/{four[0].pk}/statement/")
    lines = page.locator("#statement tbody tr")
    assert [lines.nth(i).get_attribute("data-kind") for i in range(3)] == [
        "posting",
        "posting",
        "paid_out",
    ]
    running = [_amount(lines.nth(i).locator("td.running").inner_text()) for i in range(3)]
    assert running == [Decimal("4.50"), Decimal("0.00"), Decimal("-2.00")]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "player-statement.png"), full_page=True)
    page.close()


def _amount(text: str) -> Decimal:
    """ "-€2.00" → Decimal("-2.00") (the pages write money with its symbol)."""
    return Decimal(re.sub(r"[^\d.\-]", "", text))
