"""Two-player pads name the players everywhere, in one order in every match (issue 17): the
explanations, the deal list, the history, the results with their margin. The engine numbers
them player 0 (who deals first) and player 1, and at one table they take turns (RULES 7, the
round robin), so the numbering swaps between matches while the names must not move."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import add_player, make_session
from tests.games.two_player.conftest import engine, named, play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO, DRAW_DISCARD, MISERY

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann_and_bea(club: Any) -> tuple[Any, Any]:
    return add_player(club, "Ann"), add_player(club, "Bea")


def night(club: Any, players: tuple[Any, Any], kind: str) -> Any:
    """One table of two: Ann deals first in match 1, Bea in match 2 (RULES 7 round robin)."""
    return make_session(club, [list(players)], kind=kind)


def main_text(client: Any, match: Any) -> str:
    response = client.get(f"/rubbers/{match.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    html = html[html.index('id="live"') :]
    html = re.sub(r"<(script|template)[^>]*>.*?</\1>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def column_heads(client: Any, match: Any) -> list[str]:
    html = client.get(f"/rubbers/{match.pk}/").content.decode()
    head = html[html.index('class="pad-head"') :]
    return re.findall(r'<div class="(?:we|they)">\s*([^<\s][^<]*?)\s*<', head)[:2]


def test_the_pad_of_bridge_for_two_names_both_players(client, director, club, ann_and_bea):
    """RULES 7.1: each explanation, deal and history line says who, never "player 0"."""
    match = night(club, ann_and_bea, "bridge_for_two").rubbers.get(number=1)
    play(client_api(), match, BRIDGE_FOR_TWO, as_user=director)
    client.force_login(director)
    text = main_text(client, match)
    assert not re.search(r"[Pp]layer [01]\b", text), text
    # The engine's sentences, with the players' names (RULES 7.1, 3.6).
    assert "Bea declared ♣ and won 2 odd tricks: 40 below the line (RULES 7.1)" in text
    assert "Bea held four trump honours in one hand: 100 for honours (RULES 3.6)" in text
    assert "Ann won 2 odd tricks against ♥ doubled: 120 below the line (RULES 7.1)" in text
    assert "Ann won the rubber by two games to none: 100 rubber bonus (RULES 7.1)" in text
    # The deal list and its history.
    assert "♠ by Ann, 10 tricks, honours 100 to Bea" in text
    assert "♥ by Bea, 5 tricks, doubled" in text
    # The result with its margin, the engine's net.
    sheet = engine("bridge-for-two", {"deals": BRIDGE_FOR_TWO, "preset": "acbl"})
    margin = sheet["net"][0]
    assert margin > 0
    assert f"Ann leads on points by {margin}." in text


def test_the_api_keeps_the_engines_figures_and_names_the_players(api, director, club, ann_and_bea):
    """API.md: the scoresheet is the engine's JSON, as `python -m scoring` prints it, figures
    and numbering alike; its explanations are text and name the players as the pad does."""
    match = night(club, ann_and_bea, "bridge_for_two").rubbers.get(number=1)
    body = play(api, match, BRIDGE_FOR_TWO, as_user=director)
    expected = engine("bridge-for-two", {"deals": BRIDGE_FOR_TWO, "preset": "acbl"})
    assert body["rubber"]["scoresheet"] == named(expected, ("Ann", "Bea"))
    assert [p["name"] for p in body["rubber"]["match_players"]] == ["Ann", "Bea"]
    said = [i["explanation"] for p in body["rubber"]["scoresheet"]["players"] for i in p["above"]]
    assert "Ann won the rubber by two games to none: 100 rubber bonus (RULES 7.1)" in said


def explanations(sheet: Any) -> list[str]:
    return [
        i["explanation"] for p in sheet["players"] for line in ("above", "below") for i in p[line]
    ]


def test_the_api_and_the_csv_name_the_players_in_italian(api, director, club, ann_and_bea):
    """Issue 30: "Il giocatore 0 ha dichiarato SA" named nobody; the pad says "Ann"."""
    session = night(club, ann_and_bea, "misery")
    match = session.rubbers.get(number=1)
    play(api, match, MISERY, as_user=director)
    api.force_authenticate(director)
    body = api.get(f"/api/v1/rubbers/{match.pk}/", HTTP_ACCEPT_LANGUAGE="it").json()
    said = explanations(body["scoresheet"])
    won = "Ann ha vinto il rubber per due manche a zero: 100 di premio di rubber (REGOLE 7.1)"
    assert won in said, said
    assert not [s for s in said if re.search(r"[Gg]iocatore [01]\b", s)], said
    csv = api.get(
        f"/api/v1/sessions/{session.pk}/deals?format=csv", HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "miseria: SA giocato da Bea, 1 presa" in csv, csv
    assert "giocatore 0" not in csv and "giocatore 1" not in csv
    english = api.get(f"/api/v1/sessions/{session.pk}/deals?format=csv").content.decode()
    assert "misery NT by Bea, 1 trick" in english, english


def test_a_two_player_deal_without_names_counts_its_players_from_one(club, ann_and_bea):
    """Where no name is known, the engine's player 0 is "player 1": nobody is player 0."""
    from django.utils import translation

    from games.models import Deal, Rubber
    from scoring.rules.two_player import PlayerItem
    from scoring.shared.i18n import explain_item

    deal = Deal(
        rubber=Rubber(kind="bridge_for_two"),
        data={"declarer": 0, "strain": "S", "tricks": 10, "honours": {"player": 1, "points": 100}},
    )
    assert deal.summary() == "♠ by player 1, 10 tricks, honours 100 to player 2"
    item = PlayerItem(player=0, line="above", points=100, reason="two_player_rubber_bonus", count=0)
    with translation.override("it"):
        assert explain_item(item).startswith("Il giocatore 1 ha vinto il rubber"), explain_item(
            item
        )


def client_api() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


def test_the_columns_keep_their_order_when_the_dealer_changes(client, director, club, ann_and_bea):
    ann, bea = ann_and_bea
    session = night(club, ann_and_bea, "bridge_for_two")
    first = session.rubbers.get(number=1)
    play(client_api(), first, BRIDGE_FOR_TWO, as_user=director)
    second = session.rubbers.get(number=2)
    assert (second.north_id, second.east_id) == (bea.pk, ann.pk)  # Bea is player 0 now
    # Bea declares ♠ and makes 10 tricks: 120 to Bea, who is in the right-hand column.
    play(client_api(), second, [{"declarer": 0, "strain": "S", "tricks": 10}], as_user=director)
    client.force_login(director)
    assert column_heads(client, first) == ["Ann", "Bea"]
    assert column_heads(client, second) == ["Ann", "Bea"]
    html = client.get(f"/rubbers/{second.pk}/").content.decode()
    totals = re.findall(r'class="pad-col (we|they)" id="total-(ns|ew)">(\d+)<', html)
    # Ann (player 1, the engine's EW place) on the left with 0, Bea on the right with 120.
    assert totals == [("we", "ew", "0"), ("they", "ns", "120")]
    text = main_text(client, second)
    assert "Bea declared ♠ and won 4 odd tricks: 120 below the line (RULES 7.1)" in text
    assert "Games: Ann 0, Bea 1" in text
    # The entry and correction buttons keep the order too: Ann (player 1 now) first.
    assert re.findall(r'name="declarer" value="(\d)"', html)[:2] == ["1", "0"]
    honours = re.findall(r'name="honours" value="(\d:\d+)"', html)
    assert honours[:4] == ["1:100", "1:150", "0:100", "0:150"]
    deals_head = re.search(r"<thead><tr><th>#</th>.*?</tr></thead>", html, re.S)
    assert deals_head is not None
    assert re.findall(r'class="num">([^<]+)<', deals_head.group(0)) == ["Ann", "Bea"]
    row = re.search(r'id="deal-1">(.*?)</tr>', html, re.S)
    assert row is not None
    assert re.findall(r'class="num">(\d+)<', row.group(1)) == ["0", "120"]


def test_turnover_and_the_race_show_the_winner_by_name_and_margin(
    client, director, club, ann_and_bea
):
    """RULES 7.3 and 7.4: in match 2 Bea deals first; the counters stay Ann, Bea."""
    session = night(club, ann_and_bea, "turnover")
    play(client_api(), session.rubbers.get(number=1), [{"tricks": [14, 9]}], as_user=director)
    second = session.rubbers.get(number=2)
    play(client_api(), second, [{"tricks": [10, 16]}], as_user=director)  # Ann took 16
    client.force_login(director)
    text = main_text(client, session.rubbers.get(number=1))
    assert "Ann won by 5 tricks." in text
    html = client.get(f"/rubbers/{second.pk}/").content.decode()
    # The correction form of the deal asks Ann's tricks first too (its fields keep their places).
    deal = second.deals.get()
    form = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
    assert re.findall(r'name="deal\d+-tricks_(\d)"', form.content.decode()) == ["1", "0"]
    counters = re.findall(
        r'<strong>(\w+)</strong>\s*<span class="num" id="tricks-(\d)">(\d+)<', html
    )
    # The ids keep the engine's places (tricks-1 is Ann's here), the order stays Ann, Bea.
    assert counters == [("Ann", "1", "16"), ("Bea", "0", "10")]
    assert "Ann won by 6 tricks." in main_text(client, second)


def test_draw_and_discard_names_the_winner_with_the_margin(client, director, club, ann_and_bea):
    match = night(club, ann_and_bea, "draw_discard").rubbers.get(number=1)
    play(client_api(), match, DRAW_DISCARD, as_user=director)
    game = engine("draw-discard", {"deals": DRAW_DISCARD, "preset": "acbl"})
    scores = game["scores"]
    client.force_login(director)
    text = main_text(client, match)
    assert f"Bea reached the target and won by {scores[1] - scores[0]} points." in text
    assert "4♠ by Bea, 10 tricks" in text
    assert "player 1" not in text


def test_the_console_names_the_last_deal(client, director, club, ann_and_bea):
    match = night(club, ann_and_bea, "bridge_for_two").rubbers.get(number=1)
    play(client_api(), match, BRIDGE_FOR_TWO[:1], as_user=director)
    client.force_login(director)
    html = client.get("/clubs/riverside/console/").content.decode()
    assert "Deal 1: ♣ by Bea, 8 tricks" in html
