"""Per-game validation through the API: 400 naming the field and the rule (RULES 7.x)."""

from __future__ import annotations

import html

import pytest
from django.utils import translation

from scoring.rules import ScoringError
from scoring.shared.error_messages import error_sentence
from tests.conftest import unchanged
from tests.games.two_player.conftest import play, post_deal
from tests.games.two_player.test_api import DRAW_DISCARD, first_match

pytestmark = pytest.mark.django_db


def error_of(response) -> tuple[str, str]:
    assert response.status_code == 400, response.json()
    ((field, messages),) = response.json()["errors"].items()
    return field, messages[0]


@pytest.mark.parametrize(
    ("kind", "fields", "field", "rule"),
    [
        ("turnover", {"tricks": [15, 10]}, "tricks", "RULES 7.3"),
        ("turnover", {"tricks": [14, 13]}, "tricks", "RULES 7.3"),
        ("turnover", {"tricks": [12]}, "tricks", "RULES 7.3"),
        (
            "misery",
            {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 9, "doubled": 1},
            "doubled",
            "RULES 7.2",
        ),
        ("misery", {"declarer": 0, "strain": "S", "tricks": 9}, "declaration", "RULES 7.2"),
        (
            "misery",
            {"declarer": 0, "declaration": "misery", "strain": "H", "tricks": 1},
            "strain",
            "RULES 7.2",
        ),
        ("bridge_for_two", {"declarer": 2, "strain": "S", "tricks": 9}, "declarer", "RULES 7.1"),
        ("bridge_for_two", {"declarer": 0, "strain": "X", "tricks": 9}, "strain", "RULES 7.1"),
        ("bridge_for_two", {"declarer": 0, "strain": "S", "tricks": 14}, "tricks", "RULES 1"),
        (
            "bridge_for_two",
            {"declarer": 0, "strain": "NT", "tricks": 9, "honours": {"player": 0, "points": 100}},
            "honours.points",
            "RULES 3.6",
        ),
        ("draw_discard", {"declarer": 0, "contract": "4S"}, "tricks", "RULES 1"),
        ("draw_discard", {"contract": "pass", "declarer": 1}, "declarer", "RULES 3.8"),
    ],
)
def test_an_impossible_deal_is_refused_naming_the_field_and_rule(
    api, two_player_session, north, kind, fields, field, rule
):
    match = first_match(two_player_session(kind))
    got_field, message = error_of(post_deal(api, match, 1, fields, as_user=north))
    assert got_field == field
    assert rule in message
    assert not match.deals.exists()


def test_an_unknown_field_is_refused(api, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    field, _ = error_of(post_deal(api, match, 1, {"tricks": [14, 2], "tip": 1}, as_user=north))
    assert field == "tip"


def test_a_deal_after_the_draw_and_discard_target_is_refused(api, two_player_session, north):
    match = first_match(two_player_session("draw_discard"))
    play(api, match, DRAW_DISCARD, as_user=north)
    extra = {"declarer": 0, "contract": "2S", "tricks": 8}
    field, message = error_of(post_deal(api, match, 6, extra, as_user=north))
    assert field == "number" and "RULES 7.4" in message and "target" in message


def test_a_second_turnover_result_is_a_conflict(api, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    play(api, match, [{"tricks": [14, 0]}], as_user=north)
    assert post_deal(api, match, 2, {"tricks": [14, 1]}, as_user=north).status_code == 409


def test_a_four_player_deal_shape_is_refused_at_a_table_of_two(api, two_player_session, north):
    match = first_match(two_player_session("bridge_for_two"))
    response = post_deal(
        api, match, 1, {"contract": "4S", "declarer": "N", "tricks": 10}, as_user=north
    )
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("bridge_for_two",
         {"declarer": 0, "strain": "S", "tricks": 11, "honours": {"player": 1, "points": 150}}),
        ("misery",
         {"declarer": 0, "declaration": "eight", "strain": "S", "tricks": 4,
          "honours": {"player": 0, "points": 150}}),
    ],
)  # fmt: skip
def test_rules_3_7_impossible_honours_are_refused_through_the_api(
    api, two_player_session, north, kind, fields
):
    match = first_match(two_player_session(kind))
    field, message = error_of(post_deal(api, match, 1, fields, as_user=north))
    assert field == "honours" and "RULES 3.7" in message
    assert not match.deals.exists()


def test_rules_7_3_a_turnover_played_out_is_recorded(api, two_player_session, north):
    match = first_match(two_player_session("turnover"))
    response = post_deal(api, match, 1, {"tricks": [16, 10]}, as_user=north)
    assert response.status_code == 201, response.json()
    match.refresh_from_db()
    assert match.scoresheet().result.winner == 0


MISERY_WITH_ACES = {
    "declarer": 0,
    "declaration": "misery",
    "tricks": 1,
    "honours": {"player": 1, "points": 150},
}


def no_honours_in(language: str) -> str:
    """The refusal of RULES 7.2 as the reader of `language` reads it."""
    with translation.override(language):
        return error_sentence(
            ScoringError("honours", "a misery deal scores no honours", "RULES 7.2")
        )


def test_rules_7_2_a_misery_deal_with_honours_is_refused_in_both_languages(
    api, two_player_session, north
):
    match = first_match(two_player_session("misery"))
    assert no_honours_in("en") == "a misery deal scores no honours (RULES 7.2)"
    assert no_honours_in("it") != no_honours_in("en") and "7.2" in no_honours_in("it")
    for language in ("en", "it"):
        api.force_authenticate(north)
        with unchanged():
            response = api.post(
                f"/api/v1/rubbers/{match.pk}/deals/",
                {"number": 1, **MISERY_WITH_ACES},
                format="json",
                HTTP_ACCEPT_LANGUAGE=language,
            )
        assert response.status_code == 400
        assert response.json() == {"errors": {"honours": [no_honours_in(language)]}}


def test_rules_7_2_the_misery_form_refuses_honours_on_a_misery_deal_in_both_languages(
    client, two_player_session, north
):
    match = first_match(two_player_session("misery"))
    client.force_login(north)
    form = {"number": 1, "declarer": "0", "declaration": "misery", "tricks": "1"}
    for language in ("en", "it"):
        client.cookies["django_language"] = language
        with unchanged():
            page = client.post(f"/rubbers/{match.pk}/deals/", {**form, "honours": "1:150"})
        assert page.status_code == 200
        message = no_honours_in(language)  # as a page writes a refusal: a sentence
        sentence = f"{message[0].upper()}{message[1:]}."
        assert f"<li>{sentence}</li>" in html.unescape(page.content.decode())
