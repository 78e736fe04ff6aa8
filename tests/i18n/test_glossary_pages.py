"""The pages of an Italian club say what its players say (issue 30): the seat picker, a phone's
line, the pad and deal list, a player's page, the standings and the settlement, read as text,
use none of the banned words of ``test_glossary`` (W for West, EW, NT, RULES, vuln., gomma,
partita, ...)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client

from scoring.standings import ratings, services
from tests.factories import acting, make_session
from tests.scoring.standings.conftest import win_rubber

from .test_glossary import banned_words

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_throttle() -> None:
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


@pytest.fixture
def evening(italian_club: Any, table_of_four: dict[str, Any], director: Any) -> Any:
    """A rubber won by East–West, then one in play: 3NT doubled by West down two, a part score
    with East–West's honours."""
    session = make_session(italian_club, [list(table_of_four.values())])
    rubber = win_rubber(session.rubbers.get(), "EW", by=director)
    rubber.record_deal(
        number=1, contract="3NTX", declarer="W", tricks=7, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=2,
        contract="2H",
        declarer="E",
        tricks=8,
        honours_side="EW",
        honours_points=100,
        actor=acting(rubber, director),
    )
    services.standings_refresh(session_id=session.pk)
    ratings.ratings_refresh(club_id=italian_club.pk)
    return session


def text_of(page: str) -> str:
    """What a reader sees: no scripts, styles or tags; entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_seat_picker_names_west_o(client: Client, evening: Any) -> None:
    rubber = evening.rubbers.get(status="in_play")
    page = text_of(client.get(f"/t/{rubber.table.code}").content.decode())
    assert f"O · {rubber.seats['W'].name}" in page and f"N · {rubber.seats['N'].name}" in page
    assert banned_words(page) == []


def test_a_phone_seated_west_reads_o(client: Client, evening: Any) -> None:
    rubber = evening.rubbers.get(status="in_play")
    client.post(f"/t/{rubber.table.code}", {"seat": "W"})
    page = text_of(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    assert f"Questo telefono: {rubber.seats['W'].name}, O" in page
    assert banned_words(page) == []
    taps = {"number": 3, "level": "1", "strain": "C", "declarer": "W", "result": "0"}
    assert client.post(f"/rubbers/{rubber.pk}/deals/", taps).status_code == 302
    page = text_of(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    assert "tavolo 1 (codice), posto O" in page  # who entered deal 3, in the deal list
    assert banned_words(page) == []


@pytest.mark.parametrize("status", ["complete", "in_play"])
def test_the_pad_and_its_deals_speak_the_clubs_words(
    client: Client, evening: Any, director: Any, status: str
) -> None:
    rubber = evening.rubbers.get(status=status)
    client.force_login(director)
    page = text_of(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    if status == "in_play":
        assert "3SA contrato giocato da O" in page or "3SAX giocato da O" in page
        assert "onori EO 100" in page or "onori 100 a EO" in page
    else:
        assert "premio di rubber" in page
    assert banned_words(page) == []


def test_the_player_page_speaks_the_clubs_words(
    client: Client, evening: Any, table_of_four: dict[str, Any]
) -> None:
    west = table_of_four["west"]  # East–West won the first rubber: West with East, 1 of 1
    page = text_of(client.get(f"/players/{west.pk}/").content.decode())
    assert re.search(r"Vince di più con\s+\w+\s*: 1 rubber su 1\.", page), page
    assert banned_words(page) == []
    history = client.get(f"/players/{west.pk}/history/").content.decode()
    assert re.search(r"<td[^>]*>O</td>", history)  # West's seat in the first rubber
    assert banned_words(text_of(history)) == []


@pytest.mark.parametrize(
    ("view", "moment"),
    [
        ("standings", r"\d\d:\d\d:\d\d"),  # a time only: the standings refresh during play
        ("settlement", r"\d{1,2} [a-z]+ \d{4}, \d\d:\d\d"),  # "2 dicembre 2026, 14:05"
    ],
)
def test_the_results_say_when_they_were_computed(
    client: Client, evening: Any, director: Any, view: str, moment: str
) -> None:
    """Not "Calcolata alle 2 dicembre 2026": a label, whatever follows it."""
    client.force_login(director)
    page = text_of(client.get(f"/sessions/{evening.pk}/{view}/").content.decode())
    assert re.search(rf"Ultimo calcolo: {moment}\.", page), page
    assert banned_words(page) == []


def test_the_api_explains_in_italian_with_the_clubs_words(
    api: Any, evening: Any, director: Any
) -> None:
    """The API's scoresheet explanations follow Accept-Language (docs/api.md): in Italian, with
    the rule book named REGOLE and the sides NS and EO."""
    api.force_authenticate(director)
    texts = []
    for rubber in evening.rubbers.all():
        body = api.get(f"/api/v1/rubbers/{rubber.pk}/", HTTP_ACCEPT_LANGUAGE="it").json()
        texts += re.findall(r'"explanation": "([^"]*)"', json.dumps(body, ensure_ascii=False))
    assert texts and all(re.search(r"\(REGOLE [0-9.]+\)$", text) for text in texts), texts
    assert any("EO" in text for text in texts), texts
    assert [word for text in texts for word in banned_words(text)] == []
