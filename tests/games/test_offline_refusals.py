"""The offline queue's refusals say their own reason (games/deals/offline.py; issue 29): a
correction to "mine" refused for another reason than another phone's entry says that reason and
offers no correction; one that would withdraw the next, empty rubber asks first, as the pad's
correction form does; a bad deal number is named as such; a missing deal is "no such deal"."""

from __future__ import annotations

import pytest

from games.models import Deal, Rubber
from tests.conftest import unchanged
from tests.factories import acting
from tests.games.test_offline import THREE_NT_DOWN, queued, snapshot
from tests.games.test_pages import TAP_4S_MADE
from tests.games.test_reopening import NEXT_DEALS, finish_and_start_next

pytestmark = pytest.mark.django_db

# Deal 6 of SIX_DEALS as the phone kept it: 6♦ by N one down, so rubber 1 reopens.
REOPEN_MINE = {
    "number": 6,
    "level": "6",
    "strain": "D",
    "declarer": "N",
    "result": "-1",
    "honours": "NS150",
}


def test_a_correction_the_next_rubbers_deals_refuse_says_so_and_offers_none(
    client, rubber, enter, north
):
    """Rubber 2 already holds deals: correcting deal 6 to "mine" is refused with that reason,
    never "another phone entered it first" with the same offer again."""
    finish_and_start_next(enter, rubber, NEXT_DEALS)
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**REOPEN_MINE, "replace_version": "1"})
    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "refused"
    assert "server" not in answer and "can_correct" not in answer
    assert "Another phone" not in answer["detail"]
    assert "rubber 2" in answer["detail"].lower()


def test_a_stale_version_says_the_deal_changed_since_with_its_new_version(client, rubber, north):
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    deal.correct(version=1, contract="2NT", actor=acting(deal, north))
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "conflict"
    assert (
        answer["detail"] == "Deal 1 changed since this phone read it: it is now 2NT by E, 8 tricks."
    )
    assert answer["server"]["version"] == 2


@pytest.mark.parametrize("language", ["en", "it"])
def test_correcting_to_mine_asks_before_it_withdraws_the_empty_next_rubber(
    client, rubber, enter, north, language
):
    following = finish_and_start_next(enter, rubber, [])
    client.force_login(north)
    client.cookies["django_language"] = language
    body = {**REOPEN_MINE, "replace_version": "1"}
    with unchanged():
        response = client.post(queued(rubber), body)
    assert response.status_code == 409
    answer = response.json()
    question, button = {
        "en": (
            "This correction reopens rubber 1: rubber 2, not yet started, will be removed.",
            "Save and remove rubber 2",
        ),
        "it": (
            "Questa correzione riapre il rubber 1: il rubber 2, non ancora iniziato, sarà "
            "eliminato.",
            "Salva ed elimina il rubber 2",
        ),
    }[language]
    assert answer == {
        "status": "withdraw",
        "detail": question,
        "button": button,
        "withdraw_next": 2,
        "version": 1,
    }
    with unchanged():  # another number than the one asked about asks again
        assert client.post(queued(rubber), {**body, "withdraw_next": "3"}).status_code == 409
    response = client.post(queued(rubber), {**body, "withdraw_next": "2"})
    assert response.json() == {"status": "corrected", "number": 6}
    assert not Rubber.objects.filter(pk=following.pk).exists()
    assert Deal.objects.get(rubber=rubber, number=6).tricks == 11


@pytest.mark.parametrize("number", ["abc", "-5", "٣", "", "99999999999", "0", "32768"])
def test_a_bad_deal_number_is_named_as_such(client, rubber, north, number):
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**THREE_NT_DOWN, "number": number})
    assert response.status_code == 400
    detail = "The deal number is not valid: a whole number from 1 to 32767."
    assert response.json() == {
        "status": "refused",
        "detail": detail,
        "errors": {"number": [detail]},
    }


def test_correcting_a_deal_that_does_not_exist_is_no_such_deal(client, rubber, north):
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
    assert response.status_code == 404
    assert response.json() == {
        "status": "refused",
        "detail": "There is no deal 1 in this rubber.",
    }
    assert snapshot(rubber) == []


def test_a_hidden_rubber_answers_as_a_missing_one_with_a_replace_version(client, rubber, outsider):
    """A members-only club's rubber: the same answer as a rubber that does not exist."""
    club = rubber.session.club
    club.public = False
    club.save(update_fields=["public"])
    client.force_login(outsider)
    body = {**TAP_4S_MADE, "replace_version": "1"}
    hidden = client.post(queued(rubber), body)
    missing = client.post("/rubbers/999999/deals/queued", body)
    assert (hidden.status_code, hidden.json()) == (missing.status_code, missing.json())
    assert hidden.status_code == 404


def test_a_deal_corrected_to_mine_meanwhile_is_already_recorded(client, rubber, north):
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    deal.correct(version=1, contract="4S", declarer="N", tricks=10, actor=acting(deal, north))
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
    assert (response.status_code, response.json()) == (
        200,
        {"status": "already recorded", "number": 1},
    )
