"""Each player has a language (issue 30): the switch wins, then a signed-in player's own language,
then the club's, then the browser's (docs/i18n.md: Which language a page speaks)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from tests.conftest import unchanged
from tests.factories import UserFactory, add_player

pytestmark = pytest.mark.django_db

ENGLISH, ITALIAN = "Past sessions", "Serate passate"  # the club's home page, in each language


def speaks(client: Client, url: str, **headers: Any) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200
    return str(response["Content-Language"])


def test_language_or_club_is_the_players_own_else_the_clubs(club, table_of_four):
    north = table_of_four["north"]
    assert north.language == "" and north.language_or_club() == club.language == "en"
    north.language = "it"
    assert north.language_or_club() == "it"
    club.language = "it"
    north.language = ""
    assert north.language_or_club() == "it"


def test_rung_1_the_switch_beats_the_signed_in_players_language(client, club, table_of_four):
    north = table_of_four["north"]
    north.choose_language("it", by=north.user)
    client.force_login(north.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert speaks(client, club.get_absolute_url()) == "en"
    # Chosen on the phone and remembered: the switch posts to set_language, which keeps it.
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert speaks(client, club.get_absolute_url()) == "en"


def test_rung_2_a_signed_in_players_language_beats_the_clubs(client, club, running_session, north):
    player = running_session.club.players.get(user=north)
    player.choose_language("it", by=north)
    client.force_login(north)
    html = client.get(club.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ITALIAN in html
    rubber = running_session.rubbers.get()
    assert speaks(client, f"/rubbers/{rubber.pk}/") == "it"
    assert speaks(client, f"/players/{player.pk}/") == "it"
    # The pad's live part speaks it too (swapped into the Italian page).
    live = client.get(f"/rubbers/{rubber.pk}/live")
    assert live.status_code == 200 and "Sopra la linea" in live.content.decode()


def test_rung_2_elsewhere_a_signed_in_player_reads_their_language(client, table_of_four):
    north = table_of_four["north"]
    north.choose_language("it", by=north.user)
    assert speaks(client, "/", HTTP_ACCEPT_LANGUAGE="en") == "en"
    client.force_login(north.user)
    assert speaks(client, "/", HTTP_ACCEPT_LANGUAGE="en") == "it"


def test_rung_3_everyone_else_sees_the_clubs_language(
    client, italian_club, table_of_four, director
):
    east = table_of_four["east"]  # a player of the club with no language of their own
    url = italian_club.get_absolute_url()
    assert speaks(client, url, HTTP_ACCEPT_LANGUAGE="en") == "it"  # anyone
    client.force_login(east.user)
    assert speaks(client, url, HTTP_ACCEPT_LANGUAGE="en") == "it"
    # Another player's language is theirs only: north's English is not east's.
    table_of_four["north"].choose_language("en", by=director)
    assert speaks(client, url, HTTP_ACCEPT_LANGUAGE="en") == "it"


def test_rung_4_without_a_club_or_a_players_language_the_browser_decides(client, club, director):
    assert speaks(client, "/", HTTP_ACCEPT_LANGUAGE="it") == "it"
    client.force_login(director)  # a login with no player
    assert speaks(client, "/", HTTP_ACCEPT_LANGUAGE="it") == "it"
    assert speaks(client, "/", HTTP_ACCEPT_LANGUAGE="en") == "en"


def test_the_player_chooses_their_language_on_their_page(client, table_of_four):
    north = table_of_four["north"]
    client.force_login(north.user)
    page = client.get(f"/players/{north.pk}/").content.decode()
    assert 'id="language"' in page and 'name="language"' in page
    response = client.post(f"/players/{north.pk}/language/", {"language": "it"})
    assert response.status_code == 302 and response["Location"] == f"/players/{north.pk}/"
    north.refresh_from_db()
    assert north.language == "it"
    assert ITALIAN in client.get(north.club.get_absolute_url()).content.decode()
    client.post(f"/players/{north.pk}/language/", {"language": ""})  # back to the club's
    north.refresh_from_db()
    assert north.language == "" and north.language_or_club() == "en"


def test_a_director_chooses_a_players_language(client, club, director, table_of_four):
    east = table_of_four["east"]
    client.force_login(director)
    assert 'id="language"' in client.get(f"/players/{east.pk}/").content.decode()
    assert client.post(f"/players/{east.pk}/language/", {"language": "it"}).status_code == 302
    east.refresh_from_db()
    assert east.language == "it"


def test_nobody_else_chooses_a_players_language(client, club, table_of_four, outsider):
    north, east = table_of_four["north"], table_of_four["east"]
    url = f"/players/{north.pk}/language/"
    client.force_login(east.user)  # another player of the club
    assert 'id="language"' not in client.get(f"/players/{north.pk}/").content.decode()
    with unchanged(north):
        assert client.post(url, {"language": "it"}).status_code == 403
        client.force_login(outsider)
        assert client.post(url, {"language": "it"}).status_code == 403
        client.logout()
        assert client.post(url, {"language": "it"}).status_code == 302  # to sign in
        with pytest.raises(PermissionDenied):
            north.choose_language("it", by=east.user)


def test_a_language_not_offered_is_refused(client, table_of_four):
    north = table_of_four["north"]
    client.force_login(north.user)
    with unchanged(north):
        response = client.post(f"/players/{north.pk}/language/", {"language": "fr"})
        assert response.status_code == 400 and "errorlist" in response.content.decode()
        with pytest.raises(ValidationError):
            north.choose_language("fr", by=north.user)


def test_a_members_only_clubs_player_language_is_missing_to_an_outsider(client, director):
    from tests.factories import make_club

    hidden = make_club(director=director, slug="hidden", public=False)
    player = add_player(hidden, "Secret")
    client.force_login(UserFactory(username="stranger"))
    assert client.post(f"/players/{player.pk}/language/", {"language": "it"}).status_code == 404
    assert client.post("/players/999999/language/", {"language": "it"}).status_code == 404
