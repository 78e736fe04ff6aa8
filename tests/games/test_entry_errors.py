"""The deal forms of a pad say what is wrong in plain words (issue 17: no API words on a page).

A hostile or stale post (a value the page does not offer, a field left empty, a bad hidden
deal number or version) is a form error a player understands, named as the pad names the field,
and records nothing. A result the rules forbid is still refused naming the rule (RULES 1, 3.6,
3.7, 7.x). The API keeps its own wording (docs/api.md): these are the page's words only.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from games.models import Deal
from tests.conftest import unchanged
from tests.games.conftest import SIX_DEALS
from tests.games.test_pages import TAP_4S_MADE, visible_text

#: Django's and the API's wording, which a page never shows.
API_WORDS = (
    "Select a valid choice",
    "is not one of the available choices",
    "This field is required",
    "is required (",
    "Enter a whole number",
    "Ensure this value",
)
STALE_ENTRY = "This page is out of date: reload it to enter the next deal."
STALE_CORRECTION = "This page is out of date: reload it to correct this deal."
#: Hidden `number`/`version` values only a stale or tampered page sends (the model's numbers are
#: small integers: beyond them is no database error either).
BAD_NUMBERS = ["abc", "-1", "0", "", "99999999999999999999", "1.5"]


def page_text(response: Any) -> str:
    return html.unescape(visible_text(response.content.decode()))


def errors_at(response: Any, element_id: str) -> str:
    """The text of the error block `element_id` of the page."""
    page = response.content.decode()
    match = re.search(rf'id="{re.escape(element_id)}"[^>]*>(.*?)</div>', page, flags=re.S)
    assert match, f"no #{element_id} on the page"
    return html.unescape(visible_text(match.group(1))).strip()


def assert_plain(response: Any) -> None:
    text = page_text(response)
    assert not [words for words in API_WORDS if words in text], text


# --- four players: entry ------------------------------------------------------------------------

CHOOSE_RESULT = "Choose the result: made, or how many over or down."
CHOOSE_LEVEL = "Choose the contract: a level from 1 to 7, or Pass."
CHOOSE_STRAIN = "Choose the strain: ♣, ♦, ♥, ♠ or NT."
CHOOSE_DECLARER = "Choose the declarer: N, E, S or W."
CHOOSE_DOUBLING = "Choose whether the contract was doubled: –, X or XX."
CHOOSE_HONOURS = "Choose who held honours, or None."

#: Taps the page does not offer, or leaves out: (changed taps, error block, plain words).
ENTRY_MISTAKES = [
    ({"result": "7"}, "result-errors", CHOOSE_RESULT),  # +7 is offered by no level
    ({"result": ""}, "result-errors", CHOOSE_RESULT),
    ({"result": "made"}, "result-errors", CHOOSE_RESULT),
    ({"level": "9"}, "level-errors", CHOOSE_LEVEL),
    ({"level": ""}, "level-errors", CHOOSE_LEVEL),
    ({"strain": "Q"}, "strain-errors", CHOOSE_STRAIN),
    ({"strain": ""}, "strain-errors", CHOOSE_STRAIN),
    ({"declarer": ""}, "declarer-errors", CHOOSE_DECLARER),
    ({"declarer": "Z"}, "declarer-errors", CHOOSE_DECLARER),
    ({"doubling": "XXX"}, "doubling-errors", CHOOSE_DOUBLING),
    ({"honours": "NS300"}, "honours-errors", CHOOSE_HONOURS),
]


@pytest.mark.parametrize(("taps", "block", "words"), ENTRY_MISTAKES)
def test_a_tap_the_page_does_not_offer_is_said_in_plain_words(
    client, rubber, north, taps, block, words
):
    client.force_login(north)
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, **taps})
    assert response.status_code == 200
    assert errors_at(response, block) == words
    assert_plain(response)
    assert not Deal.objects.exists()


def test_with_htmx_the_plain_words_come_in_the_live_part(client, rubber, north):
    client.force_login(north)
    with unchanged():
        response = client.post(
            f"/rubbers/{rubber.pk}/deals/",
            {**TAP_4S_MADE, "result": "7"},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert errors_at(response, "result-errors") == CHOOSE_RESULT
    assert_plain(response)


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_a_bad_deal_number_says_the_page_is_out_of_date(client, rubber, north, number):
    client.force_login(north)
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "number": number})
    assert response.status_code == 200
    assert errors_at(response, "entry-errors") == STALE_ENTRY
    assert_plain(response)


def test_a_post_with_no_deal_number_says_the_page_is_out_of_date(client, rubber, north):
    client.force_login(north)
    taps = {k: v for k, v in TAP_4S_MADE.items() if k != "number"}
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", taps)
    assert errors_at(response, "entry-errors") == STALE_ENTRY
    assert_plain(response)


def test_an_out_of_date_number_and_a_missing_result_are_both_said(client, rubber, north):
    client.force_login(north)
    with unchanged():
        response = client.post(
            f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "number": "abc", "result": ""}
        )
    assert errors_at(response, "entry-errors") == STALE_ENTRY
    assert errors_at(response, "result-errors") == CHOOSE_RESULT


#: Results the rules forbid: refused naming the rule, the sides named as the pad names them.
RULE_REFUSALS = [
    (
        {"level": "7", "result": "1"},
        "result-errors",
        "+1 is not a possible result of a 7-level contract: the declaring side takes 0 to 13 "
        "tricks (RULES 1).",
    ),
    (
        {"strain": "NT", "honours": "NS100"},
        "honours-errors",
        "At no trumps only the four aces count (150) (RULES 3.6).",
    ),
    (
        {"result": "-10", "honours": "NS150"},
        "honours-errors",
        "We took only 0 tricks: the side holding these honours takes at least 5 (RULES 3.7).",
    ),
    (
        {"level": "pass", "strain": "", "declarer": "", "result": "", "honours": "EW100"},
        "honours-errors",
        "No honours on a passed-out deal (RULES 3.8).",
    ),
]


@pytest.mark.parametrize(("taps", "block", "words"), RULE_REFUSALS)
def test_a_result_the_rules_forbid_is_refused_naming_the_rule(
    client, rubber, north, taps, block, words
):
    client.force_login(north)
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, **taps})
    assert response.status_code == 200
    assert errors_at(response, block) == words
    assert_plain(response)


def test_an_east_west_player_reads_the_other_side_as_they(client, rubber, east):
    client.force_login(east)
    taps = {**TAP_4S_MADE, "result": "-10", "honours": "NS150"}
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", taps)
    assert errors_at(response, "honours-errors").startswith("They took only 0 tricks")


def test_the_live_line_says_what_to_tap_in_the_same_words(client, rubber, north):
    client.force_login(north)
    line = client.get(
        f"/rubbers/{rubber.pk}/preview", {"level": "4", "strain": "S", "declarer": "N"}
    ).content.decode()
    assert CHOOSE_RESULT in html.unescape(line)
    assert not [words for words in API_WORDS if words in line]


def test_the_api_keeps_its_own_words(api, rubber, north):
    """docs/api.md is a contract: the page's plain words are the page's only."""
    api.force_authenticate(north)
    with unchanged():
        response = api.post(
            f"/api/v1/rubbers/{rubber.pk}/deals/",
            {"number": 1, "contract": "4S", "declarer": "N"},
            format="json",
        )
    assert response.status_code == 400
    assert "is required" in repr(response.json())
    assert CHOOSE_RESULT not in repr(response.json())


# --- four players: correction -------------------------------------------------------------------


def correct(client: Any, deal: Any, fields: dict[str, str]) -> Any:
    prefix = f"deal{deal.pk}"
    return client.post(
        f"/deals/{deal.pk}/correct", {f"{prefix}-{name}": v for name, v in fields.items()}
    )


#: The correction of deal 1 (2♥ by North, +1) as its form sends it.
AS_RECORDED = {"version": "1", "level": "2", "strain": "H", "declarer": "N", "result": "1"}


@pytest.mark.parametrize(("taps", "block", "words"), ENTRY_MISTAKES)
def test_the_correction_says_it_in_the_same_words(client, rubber, north, enter, taps, block, words):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get()
    client.force_login(north)
    with unchanged():
        response = correct(client, deal, {**AS_RECORDED, **taps})
    assert response.status_code == 200
    assert errors_at(response, f"deal{deal.pk}-{block}") == words
    assert '<details class="correction" open>' in response.content.decode()
    assert_plain(response)


@pytest.mark.parametrize("version", BAD_NUMBERS)
def test_a_bad_version_says_the_correction_is_out_of_date(client, rubber, north, enter, version):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get()
    client.force_login(north)
    with unchanged():
        response = correct(client, deal, {**AS_RECORDED, "version": version, "result": "2"})
    assert response.status_code == 200
    text = page_text(response)
    assert STALE_CORRECTION in text
    assert '<details class="correction" open>' in response.content.decode()
    assert_plain(response)


def test_the_correction_refuses_a_forbidden_result_naming_the_rule(client, rubber, north, enter):
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get()
    client.force_login(north)
    with unchanged():
        response = correct(client, deal, {**AS_RECORDED, "level": "7", "result": "1"})
    assert errors_at(response, f"deal{deal.pk}-result-errors").endswith("(RULES 1).")
