"""Every table of numbers a director sees downloads as CSV: the same endpoints answer `text/csv`
with `?format=csv`, UTF-8, one header row, the same rows and figures as the JSON, under the same
permissions (API.md: Formats; issue 18)."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from scoring.shared.renderers import (
    LeaderboardCSV,
    SessionDealsCSV,
    SettlementCSV,
    StandingsCSV,
    neutralise,
)
from scoring.standings import services
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.scoring.standings.conftest import down_one, win_rubber

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(room: Any, director: Any) -> Any:
    """Table 1: a 3NT doubled made and a rubber won by NS; table 2: EW win one."""
    first = room.rubbers.get(table__number=1)
    first.record_deal(
        number=1, contract="3NTX", declarer="S", tricks=9, actor=acting(first, director)
    )
    down_one(first, 2)
    first.record_deal(
        number=3, contract="4H", declarer="N", tricks=10, actor=acting(first, director)
    )
    win_rubber(room.rubbers.get(table__number=2), "EW", by=director)
    services.standings_refresh(session_id=room.pk)
    return room


def _csv(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    assert "utf-8" in response["Content-Type"].lower()
    assert response["Content-Disposition"].startswith("attachment; filename=")
    # A byte order mark first: Excel then reads the file as UTF-8 (names, 4♠).
    assert response.content.startswith(b"\xef\xbb\xbf")
    text = response.content.decode("utf-8-sig")
    assert "\u2212" not in text  # the pages' minus sign, written "-"
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    rows = [dict(zip(header, row, strict=True)) for row in reader]
    assert header and all(not cell.isdigit() for cell in header)  # one header row
    return rows


def _same(rows: list[dict[str, str]], items: list[dict[str, Any]], header: list[str]) -> None:
    assert len(rows) == len(items)
    for row, item in zip(rows, items, strict=True):
        assert list(row) == header
        for key in header:
            value = item[key]
            if isinstance(value, bool):  # as the JSON writes it
                value = "true" if value else "false"
            written = "" if value is None else str(value).replace("\u2212", "-")
            assert row[key] == written, (key, row, item)


@pytest.mark.parametrize(
    ("path", "renderer"),
    [
        ("/api/v1/sessions/{pk}/standings", StandingsCSV),
        ("/api/v1/sessions/{pk}/settlement", SettlementCSV),
        ("/api/v1/sessions/{pk}/deals", SessionDealsCSV),
        ("/api/v1/clubs/riverside/leaderboard", LeaderboardCSV),
    ],
)
def test_the_csv_has_the_json_rows_and_figures(api: Any, played: Any, path: str, renderer: Any):
    url = path.format(pk=played.pk)
    body = api.get(url).json()
    items = body[renderer.rows_field]
    assert items, "the fixture has rows to compare"
    rows = _csv(api.get(url + "?format=csv"))
    _same(rows, items, renderer.header)


def test_the_deals_csv_has_every_deal_with_its_running_totals(api: Any, played: Any) -> None:
    rows = _csv(api.get(f"/api/v1/sessions/{played.pk}/deals?format=csv"))
    assert [(r["table"], r["rubber_number"], r["number"]) for r in rows] == [
        ("1", "1", "1"),
        ("1", "1", "2"),
        ("1", "1", "3"),
        ("2", "1", "1"),
        ("2", "1", "2"),
    ]
    assert rows[0]["contract"] == "3NTX" and rows[0]["contract_display"] == "3NTX"
    assert rows[2]["contract_display"] == "4♥"
    # 3NT doubled made: 200 below + 50 for the insult (RULES 3.1, 3.4); then 4S one down,
    # vulnerable now: 100 to EW.
    assert (rows[0]["total_0"], rows[0]["total_1"]) == ("250", "0")
    assert (rows[1]["total_0"], rows[1]["total_1"]) == ("250", "100")


def test_the_display_column_is_in_the_language_asked_for(played: Any, director: Any) -> None:
    client = Client(headers={"accept-language": "it"})
    client.force_login(director)
    response = client.get(f"/api/v1/sessions/{played.pk}/deals?format=csv")
    rows = _csv(response)
    assert rows[0]["contract"] == "3NTX" and rows[0]["contract_display"] == "3SAX"
    assert rows[2]["contract_display"] == "4♥"


def test_the_deals_csv_names_the_players_and_who_entered_and_confirmed(
    api: Any, played: Any, table_of_four: dict[str, Any]
) -> None:
    rows = _csv(api.get(f"/api/v1/sessions/{played.pk}/deals?format=csv"))
    first = rows[0]
    names = {seat: p.name for seat, p in table_of_four.items()}
    assert first["side_0"] == f"{names['north']} & {names['south']}"
    assert first["side_1"] == f"{names['east']} & {names['west']}"
    # The director entered the deals of the fixture but the one down, which the server's
    # fixture wrote (no one to name); none was confirmed.
    entered = {(r["table"], r["number"]): r["entered_by"] for r in rows}
    assert entered.pop(("1", "2")) == ""
    assert set(entered.values()) == {"Director"}
    assert {r["confirmed_by"] for r in rows} == {""}
    down = [r for r in rows if r["table"] == "1" and r["number"] == "2"]
    assert down[0]["result"] == "-1" and "−" not in down[0]["summary"]
    assert "4♠" in {r["contract_display"] for r in rows}


def test_a_leaderboard_period_applies_to_the_csv(api: Any, played: Any) -> None:
    rows = _csv(api.get("/api/v1/clubs/riverside/leaderboard?from=2030-01-01&format=csv"))
    assert rows == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/sessions/{pk}/standings?format=csv",
        "/api/v1/sessions/{pk}/settlement?format=csv",
        "/api/v1/sessions/{pk}/deals?format=csv",
        "/api/v1/clubs/{slug}/leaderboard?format=csv",
    ],
)
def test_a_members_only_clubs_csv_is_missing_to_an_outsider(api: Any, path: str) -> None:
    director = UserFactory(username="boss")
    club = make_club(director=director, slug="hidden", public=False)
    players = [add_player(club, name) for name in ("A", "B", "C", "D")]
    session = make_session(club, [players])
    url = path.format(pk=session.pk, slug=club.slug)
    api.force_authenticate(UserFactory(username="stranger"))
    hidden = api.get(url)
    missing = api.get(path.format(pk=999_999, slug="no-such-club"))
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content
    api.force_authenticate(director)
    assert api.get(url).status_code == 200


def test_the_pages_link_their_csv(played: Any, director: Any) -> None:
    client = Client()
    client.force_login(director)
    pk = played.pk
    expected = {
        f"/sessions/{pk}/standings/": [
            f"/api/v1/sessions/{pk}/standings?format=csv",
            f"/api/v1/sessions/{pk}/deals?format=csv",
        ],
        f"/sessions/{pk}/settlement/": [f"/api/v1/sessions/{pk}/settlement?format=csv"],
        "/clubs/riverside/leaderboard/?from=2026-01-01": [
            "/api/v1/clubs/riverside/leaderboard?format=csv&amp;from=2026-01-01"
        ],
        f"/clubs/riverside/sessions/{pk}/": [f"/api/v1/sessions/{pk}/deals?format=csv"],
    }
    for page, links in expected.items():
        html = client.get(page).content.decode()
        for link in links:
            assert f'href="{link}"' in html, (page, link)


# --- CSV injection -------------------------------------------------------------------------------

HYPERLINK = '=HYPERLINK("http://x")'
FORMULA_NAMES = {"north": HYPERLINK, "east": "-Bob", "south": "+Carl", "west": "@Dee"}


def _as_written(value: Any) -> str:
    """What the CSV must hold for a JSON value: a text that a spreadsheet would run quoted,
    everything else (numbers, numbers as text, a lone "=") as the JSON has it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value).replace("\u2212", "-")  # the pages' minus sign, plain in the CSV
    is_number = isinstance(value, int | float) or re.fullmatch(r"[+-]?\d+(\.\d+)?", text)
    if isinstance(value, str) and len(text) > 1 and text[0] in "=+-@\t\r" and not is_number:
        return "'" + text
    return text


def test_a_name_a_spreadsheet_would_run_is_quoted_and_no_number_is(
    api: Any, played: Any, table_of_four: dict[str, Any]
) -> None:
    """An outside probe: a player named `=HYPERLINK(...)` became a live formula in a
    spreadsheet. Text cells starting with = + - @ tab or CR get a leading quote (OWASP); a
    negative score or amount stays a number (docs/api.md: CSV; docs/security.md)."""
    for seat, name in FORMULA_NAMES.items():
        player = table_of_four[seat]
        player.name = name
        player.save(update_fields=["name"])
    services.standings_refresh(session_id=played.pk)
    pk = played.pk
    checked: dict[str, list[Any]] = {}
    for path, renderer in [
        (f"/api/v1/sessions/{pk}/standings", StandingsCSV),
        (f"/api/v1/sessions/{pk}/settlement", SettlementCSV),
        (f"/api/v1/sessions/{pk}/deals", SessionDealsCSV),
        ("/api/v1/clubs/riverside/leaderboard", LeaderboardCSV),
    ]:
        items = api.get(path).json()[renderer.rows_field]
        rows = _csv(api.get(path + "?format=csv"))
        assert [list(r.values()) for r in rows] == [
            [_as_written(item[key]) for key in renderer.header] for item in items
        ], path
        checked[path] = rows
    standings = {r["name"]: r for r in checked[f"/api/v1/sessions/{pk}/standings"]}
    assert set(standings) >= {"'" + HYPERLINK, "'-Bob", "'+Carl", "'@Dee"}
    negative = [r["net"] for r in standings.values() if r["net"].startswith("-")]
    assert negative and all(re.fullmatch(r"-\d+", net) for net in negative), negative
    owed = [r["money"] for r in standings.values() if r["money"].startswith("-")]
    assert owed and all(re.fullmatch(r"-\d+\.\d\d", money) for money in owed), owed
    amounts = [r["amount"] for r in checked[f"/api/v1/sessions/{pk}/settlement"]]
    assert amounts and not any(a.startswith("'") for a in amounts)
    names = {r["from_name"] for r in checked[f"/api/v1/sessions/{pk}/settlement"]}
    names |= {r["to_name"] for r in checked[f"/api/v1/sessions/{pk}/settlement"]}
    assert names & {"'" + HYPERLINK, "'-Bob", "'+Carl", "'@Dee"}
    results = {r["result"] for r in checked[f"/api/v1/sessions/{pk}/deals"]}
    # Made exactly, one down: the JSON's "\u22121" with a plain minus, a number to a spreadsheet.
    assert results == {"=", "-1"}
    board = {r["name"] for r in checked["/api/v1/clubs/riverside/leaderboard"]}
    assert "'" + HYPERLINK in board and "'-Bob" in board


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        (HYPERLINK, "'" + HYPERLINK),
        ("-Bob", "'-Bob"),
        ("+1+1", "'+1+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Bob", "Bob"),
        (-300, -300),
        (Decimal("-12.50"), Decimal("-12.50")),
        ("-12.50", "-12.50"),
        ("+2", "+2"),
        ("=", "="),
        (None, None),
        # Where a spreadsheet splitting at ";" (decimal-comma locales) or a tab starts a cell.
        ("Eve;=1+1", "Eve;'=1+1"),
        ("Mal; @SUM(A1)", "Mal; '@SUM(A1)"),
        ("Zed\t=5", "Zed\t'=5"),
        ("Smith-Jones; Ann", "Smith-Jones; Ann"),
    ],
)
def test_only_text_cells_that_would_run_are_quoted(cell: Any, written: Any) -> None:
    assert neutralise(cell) == written


def test_the_deals_csv_names_a_player_who_entered_and_the_opponent_who_confirmed(
    api: Any, room: Any, table_of_four: dict[str, Any]
) -> None:
    room.confirm_entries = True
    room.save(update_fields=["confirm_entries"])
    rubber = room.rubbers.get(table__number=1)
    north, east = rubber.seats["N"], rubber.seats["E"]
    rubber.record_deal(
        number=1, contract="2H", declarer="N", tricks=8, actor=acting(rubber, north.user)
    )
    deal = rubber.deals.get(number=1)
    deal.confirm(actor=acting(deal, east.user), version=deal.version)
    (row,) = _csv(api.get(f"/api/v1/sessions/{room.pk}/deals?format=csv"))
    assert (row["entered_by"], row["confirmed_by"]) == (north.name, east.name)


def test_the_deals_export_reads_a_constant_number_of_queries(
    api: Any, played: Any, director: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = f"/api/v1/sessions/{played.pk}/deals?format=csv"
    with CaptureQueriesContext(connection) as before:
        first = _csv(api.get(url))
    # More deals and rubbers: the names and who entered each are read once for all.
    for rubber in played.rubbers.filter(status="in_play"):
        rubber.record_deal(
            number=rubber.deals.count() + 1,
            contract="1NT",
            declarer="E",
            tricks=7,
            actor=acting(rubber, director),
        )
    with CaptureQueriesContext(connection) as after:
        rows = _csv(api.get(url))
    assert len(rows) > len(first)
    assert len(after.captured_queries) == len(before.captured_queries)
