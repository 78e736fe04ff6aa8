"""Two-player screens as exact as rubber's (issue 29, item 4): the entry's live line scores the
deal before Record in every two-player game, by the engine, naming the players; the deal that
ends the match says who wins it, and the pad explains its bonus in the game's words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.games.two_player.conftest import play, post_deal

TAPS = {
    "bridge_for_two": {"declarer": "0", "strain": "S", "tricks": "10", "doubled": ""},
    "misery": {"declarer": "0", "declaration": "misery", "tricks": "1", "doubled": ""},
    "draw_discard": {"declarer": "1", "level": "4", "strain": "S", "tricks": "10", "doubled": ""},
    "turnover": {"tricks_0": "14", "tricks_1": "12"},
}
LINES = {
    "bridge_for_two": "♠ by North, 10 tricks: North +120",
    "misery": "misery NT by North, 1 trick: North +30",
    "draw_discard": "4♠ by East, 10 tricks: East +120",
    "turnover": "North 14 tricks, East 12: North wins the match",
}


def phone(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("kind", list(TAPS))
def test_the_live_line_scores_the_deal_before_record(
    kind: str, two_player_session: Any, north: Any
) -> None:
    match = two_player_session(kind).rubbers.get(north__user=north)
    client = phone(north)
    page = client.get(f"/rubbers/{match.pk}/").content.decode()
    assert 'id="preview"' in page
    assert "Tap the deal: its score shows here before you record it." in page
    line = client.get(f"/rubbers/{match.pk}/preview", TAPS[kind]).content.decode().strip()
    assert line == LINES[kind]


@pytest.mark.django_db
def test_the_line_says_what_is_missing_and_speaks_italian(
    two_player_session: Any, north: Any
) -> None:
    match = two_player_session("bridge_for_two").rubbers.get(north__user=north)
    client = phone(north)
    line = client.get(f"/rubbers/{match.pk}/preview", {"strain": "S"}).content.decode()
    assert line.strip() == "Choose the declarer: North or East."
    client.cookies["django_language"] = "it"
    line = client.get(f"/rubbers/{match.pk}/preview", TAPS["bridge_for_two"]).content.decode()
    assert line.strip() == "♠ giocato da North, 10 prese: North +120"


@pytest.mark.django_db
def test_the_deal_that_wins_the_match_says_so_and_the_pad_explains_the_bonus(
    api: Any, two_player_session: Any, north: Any
) -> None:
    match = two_player_session("bridge_for_two").rubbers.get(north__user=north)
    # North makes a game (4♠, 10 tricks): one more wins the match, 2–0.
    play(api, match, [{"declarer": 0, "strain": "S", "tricks": 10, "doubled": 0}], as_user=north)
    client = phone(north)
    line = client.get(f"/rubbers/{match.pk}/preview", TAPS["bridge_for_two"]).content.decode()
    assert line.strip().startswith("♠ by North, 10 tricks: North +")
    assert line.strip().endswith("— North wins the match")
    post_deal(
        api, match, 2, {"declarer": 0, "strain": "S", "tricks": 10, "doubled": 0}, as_user=north
    )
    pad = client.get(f"/rubbers/{match.pk}/").content.decode()
    assert "North won the match." in pad
    why = re.search(r'id="bonus-why">(.*?)</p>', pad)
    assert why is not None
    assert "rubber bonus" in why.group(1) and "North" in why.group(1), why.group(1)


#: Each game's deal 1 as played, then as corrected on its form (the form's own fields).
PLAYED = {
    "bridge_for_two": {"declarer": 0, "strain": "S", "tricks": 8, "doubled": 0},
    "misery": {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 8},
    "draw_discard": {"declarer": 1, "contract": "2S", "tricks": 8},
    "turnover": {"tricks": [14, 10]},
}
CORRECTED = {
    "bridge_for_two": ("♠ by North, 8 tricks: North +60", "♠ by North, 10 tricks: North +120"),
    "misery": ("♠ by North, 8 tricks: North +60", "misery NT by North, 1 trick: North +30"),
    "draw_discard": ("2♠ by East, 8 tricks: East +60", "4♠ by East, 10 tricks: East +120"),
    "turnover": (
        "North 14 tricks, East 10: North wins the match",
        "North 14 tricks, East 12: North wins the match",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", list(TAPS))
def test_a_correction_form_has_the_live_line_of_the_deal_in_its_place(
    kind: str, api: Any, two_player_session: Any, north: Any
) -> None:
    """As the entry's (issue 29): the correction form opens with the deal as recorded, scored
    in its place, and its line follows the taps; a tap still missing says what to tap."""
    match = two_player_session(kind).rubbers.get(north__user=north)
    play(api, match, [PLAYED[kind]], as_user=north)
    deal = match.deals.get(number=1)
    client = phone(north)
    form = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
    recorded, corrected = CORRECTED[kind]
    assert recorded in form.content.decode()
    p = f"deal{deal.pk}-"
    taps = {f"{p}{name}": value for name, value in TAPS[kind].items()}
    line = client.get(f"/deals/{deal.pk}/preview", taps).content.decode().strip()
    assert line == corrected
    if kind != "turnover":
        missing = client.get(f"/deals/{deal.pk}/preview", {**taps, f"{p}declarer": ""})
        assert missing.content.decode().strip().startswith("Choose the declarer")


@pytest.mark.django_db
def test_a_draw_and_discard_pass_needs_no_declarer_a_contract_does(
    two_player_session: Any, north: Any
) -> None:
    """Pass hides the declarer's buttons (issue 29): a pass is recorded without one, and a
    contract left without one is asked for it, as before."""
    match = two_player_session("draw_discard").rubbers.get(north__user=north)
    client = phone(north)
    taps = {k: v for k, v in TAPS["draw_discard"].items() if k != "declarer"}
    line = client.get(f"/rubbers/{match.pk}/preview", taps).content.decode().strip()
    assert line == "Choose the declarer: North or East."
    response = client.post(f"/rubbers/{match.pk}/deals/", {"number": 1, "level": "pass"})
    assert response.status_code == 302
    assert match.deals.get(number=1).data == {"contract": "pass"}
