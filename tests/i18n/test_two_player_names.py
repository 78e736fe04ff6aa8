"""The two players' names in the Italian sentences of a two-player pad (issue 17, RULES 7.1):
the named sentences are the numbered ones with the name for "il giocatore N"."""

from __future__ import annotations

import re

import pytest

from scoring.shared.i18n import MARKED, NAMED
from tests.factories import add_player, make_session
from tests.games.two_player.conftest import play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO

pytestmark = pytest.mark.django_db


def test_every_numbered_two_player_sentence_has_a_named_one():
    numbered = {r: set(f) for r, f in MARKED.items() if "{player}" in str(next(iter(f.values())))}
    assert {r: set(f) for r, f in NAMED.items()} == numbered


def test_the_italian_pad_names_the_players(client, api, director, italian_club):
    ann, bea = add_player(italian_club, "Ann"), add_player(italian_club, "Bea")
    match = make_session(italian_club, [[ann, bea]], kind="bridge_for_two").rubbers.get()
    play(api, match, BRIDGE_FOR_TWO, as_user=director)
    client.force_login(director)
    html = client.get(f"/rubbers/{match.pk}/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index('id="live"') :]))
    assert "Bea ha dichiarato ♣ e ha vinto 2 prese oltre le sei: 40 sotto la linea" in text
    assert "Ann ha vinto il rubber per due manche a zero" in text
    assert "♠ giocato da Ann, 10 prese, onori 100 a Bea" in text
    assert not re.search(r"[Gg]iocatore [01]\b", text)
