"""Suits as ♣ ♦ ♥ ♠ in every language, no trump as SA in Italian: "1C" reads as hearts (Cuori)
to an Italian (issue 18). Pads, explanations, deal lists and exports' display columns."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from scoring.rules import Contract
from scoring.rules.contract import Side
from scoring.rules.items import Item
from scoring.shared.i18n import contract_display, explain_item
from tests.factories import acting

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("contract", "english", "italian"),
    [
        ("1C", "1♣", "1♣"),
        ("2D", "2♦", "2♦"),
        ("4HX", "4♥X", "4♥X"),
        ("6S", "6♠", "6♠"),
        ("3NT", "3NT", "3SA"),
        ("7NTXX", "7NTXX", "7SAXX"),
        ("pass", "pass", "pass"),
    ],
)
def test_a_contract_reads_in_each_language(contract: str, english: str, italian: str) -> None:
    with translation.override("en"):
        assert contract_display(contract) == english
    with translation.override("it"):
        assert contract_display(contract) == italian


def test_an_explanation_says_sa_in_italian() -> None:
    item = Item(
        side=Side.NS,
        line="below",
        points=100,
        reason="trick_points",
        contract=Contract.parse("3NT"),
        vulnerable=False,
        count=3,
        deal=1,
    )
    with translation.override("it"):
        assert explain_item(item).startswith("3SA ")
    with translation.override("en"):
        assert explain_item(item).startswith("3NT ")


@pytest.mark.parametrize(("language", "no_trump"), [("en", "3NT"), ("it", "3SA")])
def test_the_pad_shows_symbols_and_the_languages_no_trump(
    running_session: Any, director: Any, language: str, no_trump: str
) -> None:
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1, contract="1C", declarer="N", tricks=8, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=2, contract="3NT", declarer="W", tricks=9, actor=acting(rubber, director)
    )
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = language
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "1♣" in html and no_trump in html
    assert ">1C " not in html and "1C N" not in html
