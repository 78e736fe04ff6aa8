"""The close page says what closing does to the session's own game (issue 30, outside tester):
a Misery match stopped scores RULES 7.1's 50 to the player with the only game, while the page
used to cite RULES 2.6's 300 "alla linea" beside figures that rose by 50."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import acting, make_session

pytestmark = pytest.mark.django_db


def close_page(client: Client, session: Any, language: str = "en") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/clubs/{session.club.slug}/sessions/{session.pk}/close/")
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(text))


@pytest.fixture
def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def test_a_misery_match_closes_by_rules_7_1_with_its_50(
    director_client: Client, director: Any, club: Any, table_of_four: dict[str, Any]
) -> None:
    session = make_session(club, [[table_of_four["north"], table_of_four["east"]]], kind="misery")
    match = session.rubbers.get()
    # RULES 7.2: eight tricks in NT made with 9 → 200 below to player 0, a game.
    deal = {"declarer": 0, "declaration": "eight", "strain": "NT", "tricks": 9}
    match.record_deal(number=1, data=deal, actor=acting(match, director))

    english = close_page(director_client, session)
    assert "0 – 200 0" not in english  # the figures: 200 – 0 now, 250 – 0 when closed (+50)
    assert "200 – 0" in english and "250 – 0" in english
    assert (
        "Each match still in play closes as unfinished and is scored by RULES 7.1: 50 to the "
        "player with the only completed game, nothing for a part score." in english
    ), english
    assert "Closes unfinished (RULES 7.1)" in english
    assert "RULES 2.6" not in english and "300" not in english

    italian = close_page(director_client, session, "it")
    assert (
        "Ogni incontro ancora in gioco si chiude incompiuto ed è conteggiato secondo le "
        "REGOLE 7.1: 50 al giocatore che ha fatto l'unica manche conclusa, niente per un "
        "parziale." in italian
    ), italian
    assert "Si chiude incompiuto (REGOLE 7.1)" in italian
    assert "REGOLE 2.6" not in italian and "linea" not in italian


def test_a_rubber_closes_by_rules_2_6_with_the_house_rules_figures(
    director_client: Client, director: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    english = close_page(director_client, running_session)
    assert (
        "scored by RULES 2.6: 300 to a side with the only completed game, 100 to a side with a "
        "part score in the unfinished game when the other side has none there." in english
    ), english
    italian = close_page(director_client, running_session, "it")
    assert (
        "secondo le REGOLE 2.6: 300 alla linea che ha fatto l'unica manche conclusa, 100 alla "
        "linea che ha un parziale nella manche incompiuta" in italian
    ), italian
    assert "Si chiude incompiuto (REGOLE 2.6)" in italian


def test_a_chicago_closes_as_it_stands_with_no_bonus(
    director_client: Client, director: Any, club: Any, table_of_four: dict[str, Any]
) -> None:
    session = make_session(club, [list(table_of_four.values())], kind="chicago")
    chicago = session.rubbers.get()
    chicago.record_deal(
        number=1, contract="2H", declarer="E", tricks=8, actor=acting(chicago, director)
    )
    english = close_page(director_client, session)
    assert "with no bonus for the deals not played (RULES 5)" in english, english
    assert "Closes as it stands (RULES 5)" in english
    assert "RULES 2.6" not in english
