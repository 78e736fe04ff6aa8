"""What an outside tester found playing an Italian club on a phone (issue 30): the pages' Italian
(and English, where it had the same fault) as a reader sees it: genders, singular counts, one
wording for "both vulnerable", flash messages in the page's language, the club address's
placeholder, the ties note only when a place is shared, and a true minus for negative hundreds."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games.sessions.table_changes import table_substitute
from scoring.standings import ratings, services
from tests.factories import acting, make_session
from tests.games.two_player.conftest import play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO
from tests.scoring.standings.conftest import win_rubber

from .test_glossary_pages import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_throttle() -> None:
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


@pytest.fixture
def evening(italian_club: Any, table_of_four: dict[str, Any], director: Any) -> Any:
    """One rubber won by East–West (each player's record: one rubber, one rated match)."""
    session = make_session(italian_club, [list(table_of_four.values())])
    win_rubber(session.rubbers.get(), "EW", by=director)
    services.standings_refresh(session_id=session.pk)
    ratings.ratings_refresh(club_id=italian_club.pk)
    return session


def page_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", text_of(response.content.decode())).replace(" ,", ",")


def in_english(club: Any) -> None:
    club.language = "en"
    club.save(update_fields=["language"])


# 2 and 6: a rubber is masculine; one of anything is singular.


def test_a_won_rubber_is_vinto_and_the_record_counts_in_the_singular(
    client: Client, evening: Any, table_of_four: dict[str, Any]
) -> None:
    west, north = table_of_four["west"], table_of_four["north"]
    page = page_text(client, f"/players/{west.pk}/")
    assert "1 rubber: 1 vinto, 0 persi" in page, page
    assert re.search(r"Rubber 1, tavolo 1 Rubber bridge \d+ -?\d+ vinto\b", page), page
    assert "dopo 1 incontro valutato" in page and "incontri" not in page
    page = page_text(client, f"/players/{north.pk}/")
    assert "1 rubber: 0 vinti, 1 perso" in page, page
    assert re.search(r"Rubber 1, tavolo 1 Rubber bridge \d+ .?\d+ perso\b", page), page
    assert "vinta" not in page and "persa" not in page


def test_the_english_record_counts_in_the_singular(
    client: Client, evening: Any, table_of_four: dict[str, Any]
) -> None:
    in_english(evening.club)
    page = page_text(client, f"/players/{table_of_four['west'].pk}/")
    assert "1 rubber: 1 won, 0 lost" in page
    assert "after 1 rated match " in page and "rated matches" not in page


# 4: the early leaver's mark needs no gender.


def test_the_early_leavers_mark_needs_no_gender(
    client: Client, evening: Any, table_of_four: dict[str, Any], director: Any
) -> None:
    table = evening.rubbers.first().table
    table_substitute(table=table, leaver=table_of_four["south"], new_name="Marta", by=director)
    services.standings_refresh(session_id=evening.pk)
    page = page_text(client, f"/sessions/{evening.pk}/standings/")
    assert "South uscita anticipata" in page, page
    assert "uscito" not in page


# 5: no "a" + a name, and the club's language said as Italian says it.


def test_the_language_box_needs_no_preposition_before_a_name(
    client: Client, evening: Any, table_of_four: dict[str, Any], director: Any
) -> None:
    client.force_login(director)
    page = page_text(client, f"/players/{table_of_four['east'].pk}/")
    assert "East riceve i messaggi in questa lingua" in page, page
    assert "Lingua del circolo: italiano." in page
    assert "inviato a" not in page and "è Italiano" not in page
    in_english(evening.club)
    page = page_text(client, f"/players/{table_of_four['east'].pk}/")
    assert "The club's language is English." in page


# 7: one wording for both sides vulnerable, in the deal list as on the pad.


def test_the_deal_list_says_both_vulnerable_as_the_pad_does(
    client: Client, evening: Any, director: Any
) -> None:
    rubber = evening.rubbers.get(status="in_play")  # the next rubber, started by the first
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=2, contract="4H", declarer="E", tricks=10, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=3, contract="1C", declarer="N", tricks=7, actor=acting(rubber, director)
    )
    client.force_login(director)
    page = page_text(client, f"/rubbers/{rubber.pk}/")
    # Deal 3, both sides with a game: the words of the pad's "tutti in zona".
    assert "mantenuto (tutti in zona)" in page, page
    assert "NS+EO" not in page
    in_english(evening.club)
    page = page_text(client, f"/rubbers/{rubber.pk}/")
    assert "(both vulnerable)" in page and "NS+EW" not in page, page


# 8: a flash message speaks the language of the page that shows it.


def test_a_new_italian_clubs_home_greets_its_director_in_italian(
    client: Client, director: Any
) -> None:
    client.force_login(director)
    form = {
        "name": "Circolo del Bridge",
        "slug": "circolo",
        "rules_preset": "acbl",
        "default_stake": "0.10",
        "currency": "EUR",
        "language": "it",
    }
    response = client.post("/clubs/new/", form, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    page = re.sub(r"\s+", " ", text_of(response.content.decode()))
    assert "Circolo creato. Ne sei il direttore." in page, page
    assert "Club created" not in page


def test_a_language_saved_is_said_in_the_new_language(
    client: Client, italian_club: Any, table_of_four: dict[str, Any]
) -> None:
    north = table_of_four["north"]
    client.force_login(north.user)
    response = client.post(f"/players/{north.pk}/language/", {"language": "en"}, follow=True)
    page = text_of(response.content.decode())
    assert "Language saved." in page and "Lingua salvata" not in page
    response = client.post(f"/players/{north.pk}/language/", {"language": ""}, follow=True)
    page = text_of(response.content.decode())  # back to the club's: Italian
    assert "Lingua salvata." in page and "Language saved" not in page


def test_a_director_saving_a_players_language_reads_their_own(
    client: Client, italian_club: Any, table_of_four: dict[str, Any], director: Any
) -> None:
    client.force_login(director)  # no player of the club: the page speaks the club's Italian
    east = table_of_four["east"]
    response = client.post(f"/players/{east.pk}/language/", {"language": "en"}, follow=True)
    page = text_of(response.content.decode())
    assert "Lingua salvata." in page and "Language saved" not in page


# 12: the club address's placeholder survives in both languages.


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "/clubs/<address>/"), ("it", "/clubs/<indirizzo>/")],
)
def test_the_club_address_help_shows_its_placeholder(
    client: Client, director: Any, language: str, expected: str
) -> None:
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = text_of(client.get("/clubs/new/").content.decode())
    assert expected in page and "/clubs//" not in page


# 13: the ties note only when a place is shared; a true minus for negative hundreds.


def test_the_ties_note_shows_only_when_a_place_is_shared(
    api: Any, client: Client, italian_club: Any, table_of_four: dict[str, Any], director: Any
) -> None:
    p = table_of_four
    session = make_session(italian_club, [[p["north"], p["east"]]], kind="bridge_for_two")
    play(api, session.rubbers.get(), BRIDGE_FOR_TWO, as_user=director)
    services.standings_refresh(session_id=session.pk)
    page = page_text(client, f"/sessions/{session.pk}/standings/")
    assert "=1" not in page and "condividono il posto" not in page, page
    assert "−" in page and not re.search(r"(?<![\w:])-\d", page), page


def test_a_shared_place_keeps_its_note_and_the_hundreds_their_minus(
    client: Client, evening: Any
) -> None:
    page = page_text(client, f"/sessions/{evening.pk}/standings/")
    assert "=1" in page and "I giocatori alla pari condividono il posto" in page
    assert " −9 " in page and not re.search(r" -\d", page), page
    in_english(evening.club)
    raw = html.unescape(client.get(f"/sessions/{evening.pk}/standings/").content.decode())
    assert "Equal players share a place" in raw and ">−9<" in raw and ">-9<" not in raw


@pytest.mark.parametrize("where", ["pad", "leaderboard", "history"])
def test_negative_hundreds_have_a_true_minus_on_every_page(
    client: Client, evening: Any, table_of_four: dict[str, Any], director: Any, where: str
) -> None:
    """North–South lost the rubber by 9 hundreds: "−9" on the pad, the club's leaderboard and
    North's full history, as the pad writes a result ("−1")."""
    client.force_login(director)
    url = {
        "pad": f"/rubbers/{evening.rubbers.get(status='complete').pk}/",
        "leaderboard": f"/clubs/{evening.club.slug}/leaderboard/",
        "history": f"/players/{table_of_four['north'].pk}/history/",
    }[where]
    raw = html.unescape(client.get(url).content.decode())
    cell = r'class="num"(?: data-label="[^"]*")?>\s*'
    assert re.search(cell + r"−9\s*<", raw) and not re.search(cell + r"-\d", raw)
