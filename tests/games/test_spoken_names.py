"""The entry buttons' spoken names are words in both languages (issue 29, accessibility): the
page carries them beside each glyph, which is hidden from screen readers."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.forms.spoken import spoken


@pytest.mark.parametrize(
    ("language", "field", "value", "words"),
    [
        ("en", "level", "2", "two"),
        ("en", "strain", "S", "spades"),
        ("en", "strain", "NT", "no trumps"),
        ("en", "doubling", "", "undoubled"),
        ("en", "doubled", "X", "doubled"),
        ("en", "declarer", "N", "declarer North"),
        ("en", "result", "0", "made exactly"),
        ("en", "result", "-1", "down 1 trick"),
        ("en", "result", "2", "made, 2 overtricks"),
        ("it", "strain", "S", "picche"),
        ("it", "doubling", "", "non contrato"),
        ("it", "declarer", "W", "dichiarante Ovest"),
        ("it", "result", "0", "mantenuto esatto"),
        ("it", "result", "-3", "3 prese sotto"),
        ("en", "honours", "100NS", ""),
        ("en", "level", "pass", ""),
    ],
)
def test_each_button_has_words(language: str, field: str, value: str, words: str) -> None:
    with translation.override(language):
        assert spoken(field, value) == words


def test_the_entry_form_speaks_its_words(client, running_session) -> None:
    rubber = running_session.rubbers.get()
    client.force_login(running_session.club.memberships.get(role="director").user)
    page = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert '<span aria-hidden="true">♣</span><span class="sr-only">clubs</span>' in page
    assert '<span class="sr-only">made exactly</span>' in page
