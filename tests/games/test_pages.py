"""The rubber page: score pad, phone entry (with and without htmx), corrections, errors."""

from __future__ import annotations

import re

import pytest

from games.models import Deal
from games.sessions.lifecycle import session_close
from tests.conftest import unchanged
from tests.games.conftest import SIX_DEALS


def visible_text(html: str) -> str:
    """What a page says, without its tags and attributes."""
    return re.sub(r"<[^>]*>", " ", html)


TAP_4S_MADE = {"number": 1, "level": "4", "strain": "S", "declarer": "N", "result": "0"}


def test_the_pad_shows_we_and_they_lines_vulnerability_and_explanations(
    client, rubber, enter, north
):
    enter(SIX_DEALS[:3])
    client.force_login(north)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "We" in html and "They" in html
    assert "pad-line" in html and "pad-game-line" in html
    assert "Vulnerable" in html
    assert "<details>" in html
    assert "4♠ made, not vulnerable: 120 below the line" in html


def test_rules_2_3_the_pad_of_a_rubber_closed_unfinished_shows_nobody_vulnerable(
    client, rubber, enter, director
):
    enter(SIX_DEALS[:3])
    client.force_login(director)
    url = f"/rubbers/{rubber.pk}/"
    assert 'class="vul"' in client.get(url).content.decode()  # a game each: both vulnerable
    session_close(session=rubber.session)
    html = client.get(url).content.decode()
    assert "Rubber unfinished." in html
    assert 'class="vul"' not in html


def test_a_finished_rubber_shows_result_back_score_and_next_rubber(client, rubber, enter, north):
    enter(SIX_DEALS)
    client.force_login(north)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="result"' in html
    assert "We won the rubber" in html
    assert "Back score" in html
    assert 'id="next-rubber"' in html


def test_entry_without_javascript_posts_and_redirects(client, rubber, north):
    client.force_login(north)
    response = client.post(f"/rubbers/{rubber.pk}/deals/", TAP_4S_MADE)
    assert response.status_code == 302
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.declarer, deal.tricks) == ("4S", "N", 10)


def test_entry_with_htmx_returns_the_live_partial(client, rubber, north):
    client.force_login(north)
    response = client.post(
        f"/rubbers/{rubber.pk}/deals/",
        {**TAP_4S_MADE, "result": "1", "doubling": "X", "honours": "NS100"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"')
    assert "<html" not in html
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.tricks, deal.honours_points) == ("4SX", 11, 100)


@pytest.mark.parametrize(
    ("data", "field_id"),
    [
        ({**TAP_4S_MADE, "strain": ""}, "strain-errors"),
        ({**TAP_4S_MADE, "declarer": ""}, "declarer-errors"),
        ({**TAP_4S_MADE, "result": ""}, "result-errors"),
        ({**TAP_4S_MADE, "level": "pass"}, "entry-errors"),
        ({**TAP_4S_MADE, "strain": "NT", "honours": "NS100"}, "honours-errors"),
        ({**TAP_4S_MADE, "level": "7", "result": "+6"}, "result-errors"),
        ({**TAP_4S_MADE, "level": "9"}, "level-errors"),
    ],
)
def test_form_errors_are_shown_beside_the_fields(client, rubber, north, data, field_id):
    client.force_login(north)
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", data)
    assert response.status_code == 200
    assert f'id="{field_id}"' in response.content.decode()


def test_a_conflict_is_shown_on_the_form(client, rubber, north, enter):
    enter(SIX_DEALS[:1])
    client.force_login(north)
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "number": 3})
    assert response.status_code == 200
    assert 'id="entry-errors"' in response.content.decode()


def test_junk_posts_never_500(client, rubber, north):
    client.force_login(north)
    for data in ({}, {"number": "x", "level": "x", "tricks": "many"}, {"number": "-1"}):
        assert client.post(f"/rubbers/{rubber.pk}/deals/", data).status_code == 200


def test_anonymous_entry_goes_to_sign_in_and_outsiders_are_refused(client, rubber, outsider):
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", TAP_4S_MADE)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    with unchanged():
        assert client.post(f"/rubbers/{rubber.pk}/deals/", TAP_4S_MADE).status_code == 403
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="entry"' not in html


def _correction(deal, **taps):
    prefix = f"deal{deal.pk}"
    return {f"{prefix}-{name}": value for name, value in taps.items()}


def test_correction_from_the_page_keeps_history(client, rubber, north, enter):
    enter(SIX_DEALS[:2])
    deal = rubber.deals.get(number=2)
    client.force_login(north)
    taps = {"level": "4", "strain": "S", "declarer": "E", "honours": ""}
    response = client.post(
        f"/deals/{deal.pk}/correct", _correction(deal, version="1", result="-1", **taps)
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert (deal.tricks, deal.honours_side, deal.version) == (9, "", 2)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "History (2)" in html
    stale = client.post(
        f"/deals/{deal.pk}/correct", _correction(deal, version="1", result="0", **taps)
    )
    assert stale.status_code == 200
    body = stale.content.decode()
    # In plain words, with what the deal is now; no API words on a page.
    assert "Deal 2 was just corrected by North: it is now 4♠ by East, −1." in body
    assert "version" not in visible_text(body).lower()
    deal.refresh_from_db()
    assert (deal.tricks, deal.version) == (9, 2)


def test_a_members_only_rubber_page_is_hidden(client, rubber, club, outsider):
    club.public = False
    club.save()
    client.force_login(outsider)
    assert client.get(f"/rubbers/{rubber.pk}/").status_code == 404


def test_rules_3_7_impossible_honours_are_shown_beside_the_honours(client, rubber, north):
    client.force_login(north)
    # 7NT made: the defenders, who took no trick, cannot hold the four aces.
    data = {**TAP_4S_MADE, "level": "7", "strain": "NT", "honours": "EW150"}
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="honours-errors"' in html and "RULES 3.7" in html


def test_rules_the_explanation_on_tap_names_its_section(client, rubber, enter):
    enter(SIX_DEALS[:3])
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "2♥ made, not vulnerable: 60 below the line for 2 odd tricks bid (RULES 3.1)" in html
    assert "EW held four trump honours in one hand: 100 for honours (RULES 3.6)" in html
