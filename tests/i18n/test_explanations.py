"""The engine's explanations, translated at the edge (scoring.shared.i18n)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from scoring.rules import Contract, Side, score_rubber
from scoring.rules.contract import Doubling, Strain
from scoring.rules.deal import DealInput
from scoring.rules.items import Item
from scoring.rules.two_player import PlayerItem
from scoring.shared.i18n import (
    _item_from_dict,
    explain_item,
    localize_explanations,
    templates_for,
)


def sheet() -> Any:
    deals = [
        DealInput.create("4SX", "NS", 11),
        DealInput.create("3NT", "EW", 7),
        DealInput.create("6H", "NS", 12),
    ]
    return score_rubber(deals)


def all_items(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        own = [data] if "explanation" in data and "reason" in data else []
        return own + [item for value in data.values() for item in all_items(value)]
    if isinstance(data, list):
        return [item for value in data for item in all_items(value)]
    return []


def test_in_english_the_sentences_are_the_engines() -> None:
    data = sheet().to_dict()
    with translation.override("en"):
        assert localize_explanations(data) == data


@pytest.mark.usefixtures("italian")
def test_in_italian_every_explanation_of_a_rubber_is_translated() -> None:
    english = all_items(sheet().to_dict())
    italian = all_items(localize_explanations(sheet().to_dict()))
    assert len(italian) == len(english) > 5
    for before, after in zip(english, italian, strict=True):
        assert after["explanation"] != before["explanation"]
        assert {k: v for k, v in after.items() if k != "explanation"} == {
            k: v for k, v in before.items() if k != "explanation"
        }


@pytest.mark.usefixtures("italian")
@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (
            Item(Side.NS, "below", 120, "trick_points", Contract.parse("4S"), False, 4, 1),
            "4♠ mantenuto, in prima: 120 sotto la linea per 4 prese dichiarate oltre le sei"
            " (REGOLE 3.1)",
        ),
        (
            Item(Side.NS, "above", 200, "overtricks", Contract.parse("4SX"), True, 1, 1),
            "4♠ contrato mantenuto con una presa in più, in zona: 200 per la presa in più"
            " (REGOLE 3.2)",
        ),
        (
            Item(Side.EW, "above", 500, "undertricks", Contract.parse("4HX"), True, 2, 2),
            "4♥ contrato sotto di 2, in zona: 500 ai difensori per le prese di caduta (REGOLE 3.4)",
        ),
        (
            Item(Side.NS, "above", 750, "slam", Contract.parse("6D"), True, 6, 3),
            "6♦ mantenuto, in zona: 750 per il piccolo slam (REGOLE 3.5)",
        ),
        (
            Item(Side.EW, "above", 100, "honours", Contract.parse("4S"), None, 4, 2),
            "EO aveva quattro onori d'atout in una mano: 100 per gli onori (REGOLE 3.6)",
        ),
        (
            Item(Side.NS, "above", 500, "rubber_bonus", None, None, 1, None),
            "NS ha vinto il rubber per due manche a una: 500 di premio di rubber (REGOLE 2.4)",
        ),
    ],
)
def test_italian_sentences_use_the_club_words(item: Item, expected: str) -> None:
    assert explain_item(item) == expected


@pytest.mark.usefixtures("italian")
def test_a_two_player_item_is_translated_too() -> None:
    item = PlayerItem(
        player=1,
        line="below",
        points=120,
        reason="two_player_declarer_tricks",
        count=2,
        strain=Strain.H,
        doubling=Doubling.DOUBLED,
    )
    text = explain_item(item)
    # Player 1 of the engine is the second player: counted from 1, nobody is "giocatore 0".
    assert text.startswith("Il giocatore 2") and "contrato" in text and "120" in text
    data = localize_explanations({"items": [item.to_dict()]})
    assert data["items"][0]["explanation"] == text


def test_the_tables_are_built_once_per_language() -> None:
    assert templates_for("it") is templates_for("it")
    assert templates_for("it")["_words"]["vulnerable"] == "in zona"
    assert templates_for("en")["_words"]["vulnerable"] == "vulnerable"


@pytest.mark.usefixtures("italian")
@pytest.mark.parametrize(
    ("item", "section"),
    [
        (Item(Side.NS, "below", 120, "trick_points", Contract.parse("4S"), False, 4, 1), "3.1"),
        (Item(Side.EW, "above", 500, "undertricks", Contract.parse("4HX"), True, 2, 2), "3.4"),
        (Item(Side.EW, "above", 100, "honours", Contract.parse("4S"), None, 4, 2), "3.6"),
        (Item(Side.NS, "above", 500, "rubber_bonus", None, None, 1, None), "2.4"),
        (Item(Side.NS, "above", 300, "game_bonus", Contract.parse("4S"), False, None, 1), "5"),
        (PlayerItem(0, "above", 10, "eight_tricks_failed", 7, Strain.S), "7.2"),
        (PlayerItem(1, "above", 50, "two_player_unfinished_game"), "7.1"),
    ],
)
def test_rules_explanations_name_their_section_in_italian(item: Any, section: str) -> None:
    text = explain_item(item)
    assert text.endswith(f" (REGOLE {section})")
    with translation.override("en"):
        english = explain_item(item)
    assert english.endswith(f" (RULES {section})") and english != text


def test_an_item_explained_is_kept_by_its_fields_and_their_types() -> None:
    """A rubber's answer explains its earlier deals' items again after every deal: each item's
    dict is kept by its language and fields (scoring.shared.i18n), each field with its type, so
    `1` is never answered as `true`; the dict handed out is a copy."""
    item = Item(Side.EW, "above", 500, "undertricks", Contract.parse("4HX"), True, 2, 2).to_dict()
    as_one = {**item, "vulnerable": 1}
    with translation.override("en"):
        first = localize_explanations({"items": [item]})["items"][0]
        first["points"] = -1
        again = localize_explanations({"items": [item, as_one]})["items"]
    assert again[0] == item and again[0]["vulnerable"] is True
    assert again[1]["vulnerable"] == 1 and again[1]["vulnerable"] is not True
    with translation.override("it"):
        italian = localize_explanations({"items": [item]})["items"][0]
    assert italian["explanation"] != item["explanation"]
    assert {**italian, "explanation": item["explanation"]} == item


def test_an_item_with_a_field_that_is_no_key_is_explained_as_it_is() -> None:
    item = {**Item(Side.NS, "above", 500, "rubber_bonus", None, None, 1, None).to_dict()}
    item["extra"] = {"nested": [1]}
    with translation.override("en"):
        assert localize_explanations({"items": [item]}) == {"items": [item]}


@pytest.mark.usefixtures("italian")
def test_a_sheet_explained_again_from_the_kept_items_is_the_same() -> None:
    first = localize_explanations(sheet().to_dict())
    again = localize_explanations(sheet().to_dict())
    assert again == first
    for data in all_items(again):
        assert data["explanation"] == explain_item(_item_from_dict(data))


@pytest.mark.parametrize("kind", ["rubber", "chicago"])
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_four_player_sheet_in_english_is_the_engines_as_localized(
    kind: str, language: str
) -> None:
    """A four-player sheet in the engine's own language is not rewritten (games/sheets.py):
    it is what the localization would make of it; in Italian it is localized."""
    from games import sheets
    from games.models.values import DealFields
    from scoring.rules import HouseRules

    deals = [
        DealFields("4SX", "N", 11, "", None),
        DealFields("3NT", "E", 7, "NS", 150),
        DealFields("6H", "S", 10, "", None),
        DealFields("2C", "W", 6, "", None),
    ]
    sheet = sheets.score(kind, deals, closed=False, options=HouseRules())
    with translation.override(language):
        written = sheet.to_dict()
        assert written == localize_explanations(sheet.score.to_dict())
    assert (written == sheet.score.to_dict()) is (language == "en")
