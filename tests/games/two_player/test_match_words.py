"""A two-player game speaks of its match, never of a rubber (issue 29: the pages said "Rubber 2
in play" and "Rubber unfinished." for a Turnover or Misery match), in English and Italian."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from django.utils import translation

from games.registry import pages
from scoring.rules.games import GAMES


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
