"""What the phone scores offline from (docs/offline.md, "A score offline"): the rubber page
carries the recorded deals as the engine reads them, the house rules and the names of the pad's
columns, and the words of the phone's figures in the page's language."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db

FIGURES = re.compile(r'<script id="offline-figures" type="application/json">(.*?)</script>', re.S)


def figures(html: str) -> dict[str, Any]:
    found = FIGURES.search(html)
    assert found is not None, "the page carries no figures for the phone"
    return json.loads(found[1])


def test_the_rubber_page_carries_the_deals_as_the_engine_reads_them(client, rubber, north):
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    client.force_login(north)
    data = figures(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    assert data["kind"] == "rubber"
    assert data["deals"] == [{"contract": "3NT", "declarer": "EW", "tricks": 8}]
    assert data["names"] == {"NS": "We", "EW": "They"}  # as North's pad names the sides
    assert data["order"] == ["NS", "EW"]
    assert data["options"]["insult_redoubled"] == 100  # the rubber's house rules (RULES 3.3)


def test_a_two_player_match_carries_its_players_and_their_deals(client, club, director):
    players = [add_player(club, "Anna"), add_player(club, "Bruno")]
    match = make_session(club, [players], kind="bridge_for_two").rubbers.get()
    deal = {"declarer": 0, "strain": "S", "tricks": 9, "doubled": 0}
    match.record_deal(number=1, data=deal, actor=acting(match, director))
    client.force_login(director)
    data = figures(client.get(f"/rubbers/{match.pk}/").content.decode())
    assert data["kind"] == "bridge_for_two"
    assert data["deals"] == [deal]
    assert data["names"] == {"0": "Anna", "1": "Bruno"}


def test_a_page_without_the_entry_form_carries_no_figures(client, rubber):
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()  # a visitor: nothing to enter
    assert 'id="offline-figures"' not in html


def test_the_phones_figures_speak_italian(client, rubber, north):
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    client.force_login(north)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "1 smazzata inviata." in html
    assert "%(count)s smazzate inviate." in html  # Italian plural: smazzata, smazzate
    assert "su questo telefono, non ancora inviata" in html
    assert "Punteggio con le smazzate tenute su questo telefono, non ancora inviate:" in html
    assert figures(html)["names"] == {"NS": "Noi", "EW": "Loro"}
    # The pad's own marks, and the rubber over on the phone (its deal's number filled in there).
    assert '<span data-key="unsent-short">non ancora inviata</span>' in html
    assert "Le cifre segnate “non ancora inviata” sono di questo telefono" in html
    assert "il rubber si è chiuso con la smazzata %(n)s (non ancora inviata)" in html


def test_a_two_player_match_ends_on_the_phone_in_its_own_words(client, club, director):
    """Offline, the match that ended on the phone is a match, not a rubber (GameWords)."""
    players = [add_player(club, "Anna"), add_player(club, "Bruno")]
    match = make_session(club, [players], kind="misery").rubbers.get()
    client.force_login(director)
    html = client.get(f"/rubbers/{match.pk}/").content.decode()
    assert "On this phone this match ended with deal %(n)s (not yet sent)" in html
    assert "this rubber ended" not in html
