"""A two-player game speaks of its match, never of a rubber (issue 29: the pages said "Rubber 2
in play" and "Rubber unfinished." for a Turnover or Misery match), in English and Italian."""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.registry import pages
from scoring.rules.games import GAMES
from tests.factories import acting
from tests.games.test_pages import visible_text


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("kind", [code for code, entry in GAMES.items() if entry.seats == 2])
def test_every_word_of_a_two_player_game_names_a_match(kind: str, language: str) -> None:
    words = pages(kind).words
    with translation.override(language):
        for field in fields(words):
            value = getattr(words, field.name)
            if value is not None:
                text = re.sub(r"%\(\w+\)s", "", str(value))  # the placeholders' names aside
                assert "rubber" not in text.lower(), (field.name, text)


#: A deal of each two-player game as the API takes it.
PLAYED = {
    "bridge_for_two": {"declarer": 0, "strain": "S", "tricks": 8, "doubled": 0},
    "misery": {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 8},
    "draw_discard": {"declarer": 1, "contract": "2S", "tricks": 8},
    "turnover": {"tricks": [14, 10]},
}
#: Words of the pages below that are not about a match: the planning form's choice of game (its
#: movements' descriptions, a rubber bridge session's, are left out with their `.movements`).
NOT_A_MATCH = ("Rubber bridge", "Bridge rubber")
#: What the scan leaves out: scripts, the offline scorer's words (templates/games/_offline.html)
#: and the planning form's movements.
LEFT_OUT = re.compile(
    r'<script.*?</script>|<div id="offline-text".*?</div>|<(dl|p) class="movements.*?</\1>',
    re.S,
)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("kind", list(PLAYED))
def test_a_two_player_nights_pages_never_say_rubber(
    kind: str, language: str, two_player_session: Any, north: Any, director: Any, club: Any
) -> None:
    """The pages a two-player night shows, with a deal awaiting confirmation: the table phone's
    seat, pad and hand-over, the player's home and pad, the director's console, room, session,
    close page, table and cards. Each says "match" where a rubber night says "rubber" (the
    registry's `GameWords`): "Table 1 · match 1", the close page's "Match" column, "No deal of
    this match awaits …"."""
    session = two_player_session(kind)
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    match = session.rubbers.get(north__user=north)
    clients = {who: Client() for who in ("phone", "anyone", "north", "director")}
    for client in clients.values():
        client.cookies["django_language"] = language
    clients["north"].force_login(north)
    clients["director"].force_login(director)
    code, slug, at = match.table.code, club.slug, f"/clubs/{club.slug}/sessions/{session.pk}"
    assert clients["phone"].post(f"/t/{code}", {"seat": "N"}).status_code == 302
    empty = clients["phone"].get(f"/t/{code}/hand-over?rubber={match.pk}").content.decode()
    match.record_deal(number=1, data=PLAYED[kind], actor=acting(match, north))
    pages = {
        "hand-over, nothing to confirm": ("phone", empty),
        **{
            name: (who, clients[who].get(path).content.decode())
            for name, (who, path) in {
                "seat": ("anyone", f"/t/{code}"),
                "phone's pad": ("phone", f"/rubbers/{match.pk}/"),
                "hand-over": ("phone", f"/t/{code}/hand-over?rubber={match.pk}"),
                "home": ("north", "/"),
                "player's pad": ("north", f"/rubbers/{match.pk}/"),
                "console": ("director", f"/clubs/{slug}/console/"),
                "room": ("director", f"/clubs/{slug}/room/"),
                "session": ("director", f"{at}/"),
                "close": ("director", f"{at}/close/"),
                "table": ("director", f"/tables/{match.table_id}/"),
                "cards": ("director", f"{at}/cards/"),
            }.items()
        },
    }
    said = []
    for name, (_who, html) in pages.items():
        for line in visible_text(LEFT_OUT.sub(" ", html)).splitlines():
            if "rubber" in line.lower() and not any(words in line for words in NOT_A_MATCH):
                said.append(f"{name}: {' '.join(line.split())}")
    assert not said, said
    match_words = pages["close"][1] + pages["home"][1]
    assert ("Match" if language == "en" else "Incontro") in match_words
