"""The club's language is the default for its pages; the visitor's choice wins (docs/i18n.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import unchanged


def test_a_club_in_italian_speaks_italian_to_a_new_visitor(client: Client, italian_club: Any):
    response = client.get(italian_club.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "it"
    assert "Serate passate" in response.content.decode()


def test_the_rubber_page_of_an_italian_club_is_in_italian(
    client: Client, italian_club: Any, running_session: Any, north: Any
):
    rubber = running_session.rubbers.get(number=1)
    client.force_login(north)  # a player at the table: their side is Noi
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "Noi" in html and "Loro" in html and "Sopra la linea" in html


def test_the_visitors_choice_beats_the_clubs_language(client: Client, italian_club: Any):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(italian_club.get_absolute_url())
    assert response["Content-Language"] == "en"
    assert "Past sessions" in response.content.decode()


def test_choosing_in_the_header_switches_and_remembers(client: Client, club: Any):
    page = club.get_absolute_url()
    response = client.post("/i18n/setlang/", {"language": "it", "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert "Serate passate" in client.get(page).content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": page})
    assert "Past sessions" in client.get(page).content.decode()


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_language_menu_names_each_language_in_its_own_words(
    client: Client, club: Any, language: str
):
    """Someone who switched to Italian by mistake finds "English", not "Inglese" (outside
    probe): each option is the language's own name, the page's language aside."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(club.get_absolute_url())
    assert response["Content-Language"] == language
    menu = re.search(r'<select name="language".*?</select>', response.content.decode(), re.S)
    assert menu is not None
    options = re.findall(
        r'<option value="(\w+)" lang="(\w+)"( selected)?>([^<]*)</option>', menu[0]
    )
    assert options == [
        ("en", "en", " selected" if language == "en" else "", "English"),
        ("it", "it", " selected" if language == "it" else "", "Italiano"),
    ]
    assert "Inglese" not in menu[0] and "Italian<" not in menu[0]


def test_the_clubs_language_beats_the_browsers(client: Client, club: Any):
    html = client.get(club.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Past sessions" in html


def test_pages_of_no_club_follow_the_browser(client: Client, club: Any):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Circoli" in html and "Circolo pubblico" in html


def test_a_director_creates_a_club_in_italian(client: Client, director: Any):
    client.force_login(director)
    response = client.post(
        "/clubs/new/",
        {
            "name": "Circolo del Bridge",
            "slug": "circolo",
            "rules_preset": "acbl",
            "default_stake": "0.10",
            "currency": "EUR",
            "language": "it",
        },
    )
    assert response.status_code == 302
    from clubs.models import Club

    assert Club.objects.get(slug="circolo").language == "it"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "This slug is reserved; choose another."), ("it", "Questo indirizzo è riservato")],
)
def test_api_errors_follow_accept_language(
    api: Any, director: Any, language: str, expected: str
) -> None:
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            "/api/v1/clubs/",
            {"slug": "new", "name": "X"},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
    assert response.status_code == 400
    assert response.json()["errors"]["slug"][0].startswith(expected)
