"""The club settings page for directors (issue 18): house rules shown by readable names with a
sentence each, in both languages; stake, currency, language, public or members only."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from clubs import rules_text
from clubs.models import Club
from scoring.rules.options import PRESETS, HouseRules
from tests.conftest import unchanged

pytestmark = pytest.mark.django_db

URL = "/clubs/riverside/settings/"


def test_every_preset_and_option_has_words() -> None:
    assert set(rules_text.PRESETS) == set(PRESETS)
    assert set(rules_text.OPTIONS) == set(HouseRules().to_dict())
    for preset in PRESETS.values():
        for row in rules_text.describe(preset):
            assert row["sentence"] and row["name"]


@pytest.mark.parametrize(
    ("language", "preset", "sentence"),
    [
        ("en", "Old code (1993)", "The fourth and later undertricks cost 300 each."),
        ("it", "Codice antico (1993)", "La quarta presa di caduta e le successive costano 300"),
    ],
)
def test_the_rules_are_named_not_coded(
    director: Any, club: Club, language: str, preset: str, sentence: str
) -> None:
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = language
    html = client.get(URL).content.decode()
    assert preset in html and sentence in html
    for code in ("club_50", "old_code", "pivot_gross"):
        assert f">{code}<" not in html and f"{code}," not in html


def test_a_director_changes_the_settings(director: Any, club: Club) -> None:
    client = Client()
    client.force_login(director)
    response = client.post(
        URL,
        {
            "name": "Riverside BC",
            "rules_preset": "club_50",
            "default_stake": "0.25",
            "currency": "gbp",
            "language": "it",
        },
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.rules_preset, club.default_stake, club.currency, club.language) == (
        "Riverside BC",
        "club_50",
        Decimal("0.25"),
        "GBP",
        "it",
    )
    assert club.public is False
    assert club.house_rules().unfinished_partscore == 50


def test_bad_input_is_a_form_error_and_changes_nothing(director: Any, club: Club) -> None:
    client = Client()
    client.force_login(director)
    with unchanged():
        response = client.post(
            URL,
            {"name": "X", "rules_preset": "nonsense", "default_stake": "-1", "currency": "E1"},
        )
    assert response.status_code == 200
    form = response.context["form"]
    assert {"rules_preset", "default_stake", "currency"} <= set(form.errors)


def test_a_player_may_not_change_the_settings(club: Club, north: Any) -> None:
    client = Client()
    client.force_login(north)
    assert client.get(URL).status_code == 403
    with unchanged():
        response = client.post(
            URL,
            {
                "name": "Hacked",
                "rules_preset": "acbl",
                "default_stake": "0",
                "currency": "EUR",
                "language": "en",
            },
        )
    assert response.status_code == 403


def test_opponent_confirmation_and_table_codes_are_club_settings(
    director: Any, club: Club, table_of_four: dict[str, Any]
) -> None:
    """Issue 18: the settings page carries opponent confirmation and table codes; new sessions
    take them (the console still turns either on or off for one running session)."""
    import datetime

    from games.sessions import lifecycle

    client = Client()
    client.force_login(director)
    html = client.get(URL).content.decode()
    assert 'name="confirm_entries"' in html and 'name="table_codes"' in html
    form = {
        "name": "Riverside",
        "public": "on",
        "rules_preset": "acbl",
        "default_stake": "0",
        "currency": "EUR",
        "language": "en",
        "confirm_entries": "on",
    }
    assert client.post(URL, form).status_code == 302  # table_codes left unticked: off
    club.refresh_from_db()
    assert (club.confirm_entries, club.table_codes) == (True, False)
    session = lifecycle.session_create(
        club=club, date=datetime.date(2026, 12, 1), tables=[list(table_of_four.values())]
    )
    assert session.table_codes is False and session.asks_confirmation is True

    assert client.post(URL, {**form, "table_codes": "on"}).status_code == 302
    club.refresh_from_db()
    later = lifecycle.session_create(
        club=club, date=datetime.date(2026, 12, 2), tables=[list(table_of_four.values())]
    )
    assert later.table_codes is True
