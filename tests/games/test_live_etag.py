"""A pad's live part answers 304 only while nothing it shows has changed (issue 17): besides
the rubber and its deals, the session's status (closed, reopened), whether opponents confirm
(the session's setting or the club's), whether table codes are on and the table's code. A phone
holding an old pad gets the changed one on its next poll, not a 304 until some deal changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.games.conftest import SIX_DEALS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_throttle():
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


@pytest.fixture
def console(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def live(client: Any, rubber: Any, etag: str | None = None) -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/rubbers/{rubber.pk}/live", **headers)


def poll_again(client: Any, rubber: Any, before: Any) -> str:
    """The pad after a change, asked for with the ETag of the one held before: 200, new."""
    after = live(client, rubber, before["ETag"])
    assert after.status_code == 200, "the phone kept its old pad (304)"
    assert after["ETag"] != before["ETag"]
    return after.content.decode()


def confirmation(console: Client, session: Any, on: bool, *, whole_club: bool) -> None:
    body = {"confirm": "on" if on else ""}
    if not whole_club:
        body["session"] = session.pk
    response = console.post(f"/clubs/{session.club.slug}/console/confirmation/", body)
    assert response.status_code == 302


@pytest.mark.parametrize("whole_club", [False, True])
def test_confirmation_turned_off_or_on_reaches_the_pad(
    client, console, rubber, running_session, enter, east, whole_club
):
    confirmation(console, running_session, True, whole_club=whole_club)
    enter(SIX_DEALS[:1])  # North enters deal 1: East's side confirms
    client.force_login(east)
    asking = live(client, rubber)
    assert 'id="confirm-1"' in asking.content.decode()
    confirmation(console, running_session, False, whole_club=whole_club)
    html = poll_again(client, rubber, asking)
    assert 'id="confirm-1"' not in html and "awaiting your confirmation" not in html
    not_asking = live(client, rubber)
    enter(SIX_DEALS[1:2], start=2)  # recorded while nobody is asked
    entered = live(client, rubber)
    assert entered["ETag"] != not_asking["ETag"]
    # Turned on again, the pad changes and asks for the next deal's confirmation; deals
    # recorded before (deal 2, while off) stand as recorded.
    confirmation(console, running_session, True, whole_club=whole_club)
    html = poll_again(client, rubber, entered)
    assert 'id="confirm-2"' not in html


def phone_at(rubber: Any, seat: str = "S") -> Client:
    phone = Client()
    assert phone.post(f"/t/{rubber.table.code}", {"seat": seat}).status_code == 302
    return phone


def codes(console: Client, session: Any, action: str) -> None:
    url = f"/clubs/{session.club.slug}/sessions/{session.pk}/codes/"
    assert console.post(url, {"action": action, "sure": "1"}).status_code == 302


@pytest.mark.parametrize("action", ["off", "regenerate"])
def test_a_code_turned_off_or_regenerated_takes_the_entry_form_off_the_phone(
    console, rubber, running_session, action
):
    phone = phone_at(rubber)
    entering = live(phone, rubber)
    assert 'id="entry"' in entering.content.decode()
    assert live(phone, rubber, entering["ETag"]).status_code == 304  # nothing changed yet
    codes(console, running_session, action)
    assert 'id="entry"' not in poll_again(phone, rubber, entering)


def test_codes_turned_on_again_give_the_phone_its_entry_form_back(console, rubber, running_session):
    """Codes off pause them: the phone that held one enters again once they are on."""
    phone = phone_at(rubber)
    codes(console, running_session, "off")
    paused = live(phone, rubber)
    assert 'id="entry"' not in paused.content.decode()
    codes(console, running_session, "on")
    assert 'id="entry"' in poll_again(phone, rubber, paused)


def test_closing_and_reopening_the_session_reach_the_pad_of_a_finished_rubber(
    client, console, rubber, running_session, enter, north
):
    """A rubber finished before the close keeps its row: the session's status tells its pads
    that corrections stop (closed) and start again for the director (reopened, RULES 8.2),
    not for the players (a reopened session is the director's alone: docs/security.md)."""
    enter(SIX_DEALS)  # rubber 1 complete: its deals may be corrected while the session runs
    client.force_login(north)
    running = {phone: live(phone, rubber) for phone in (client, console)}
    assert all('id="correct-1"' in pad.content.decode() for pad in running.values())
    base = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}"
    assert console.post(f"{base}/close/", {"anyway": "1"}).status_code == 302
    closed = {phone: live(phone, rubber, running[phone]["ETag"]) for phone in (client, console)}
    for pad in closed.values():
        assert pad.status_code == 200
        assert 'id="correct-1"' not in pad.content.decode()
    assert console.post(f"{base}/reopen/").status_code == 302
    assert 'id="correct-1"' in poll_again(console, rubber, closed[console])
    assert 'id="correct-1"' not in poll_again(client, rubber, closed[client])


def test_the_etag_is_keyed_with_the_secret_key(client, rubber, settings):
    """The state holds the table's code: an ETag anyone reading a public club gets must not
    let them find it by hashing guesses, so it is an HMAC under the SECRET_KEY."""
    first = live(client, rubber)["ETag"]
    assert live(client, rubber)["ETag"] == first
    settings.SECRET_KEY = "another key for this test only " * 2
    assert live(client, rubber)["ETag"] != first


def test_a_poll_holding_taps_for_a_deal_taken_meanwhile_gets_the_form_for_that_deal(
    rubber: Any, south: Any
) -> None:
    """A phone holding taps for deal 1 while North records it: the poll names deal 1, and the
    form it answers is deal 1's, as the phone holds it, so the phone can morph in the words
    around its taps (a name, the totals) without its heading or its number moving on."""
    from tests.factories import acting

    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, rubber.north.user)
    )
    phone = Client()
    phone.force_login(south)
    held = phone.get(f"/rubbers/{rubber.pk}/live?number=1").content.decode()
    assert "Deal 1 was already entered by North" in held
    assert '<h2 id="entry-title">Deal 1</h2>' in held
    assert 'name="number" value="1"' in held
    fresh = phone.get(f"/rubbers/{rubber.pk}/live").content.decode()
    assert '<h2 id="entry-title">Deal 2</h2>' in fresh and 'name="number" value="2"' in fresh


def test_a_form_served_back_with_taps_is_marked_held_and_a_fresh_one_is_not(
    rubber: Any, south: Any
) -> None:
    """The entry form an answer serves back holding the player's taps (a conflict moved them, or
    an error to put right) says so (`data-held`): the phone keeps those taps through the next
    change until they are sent (static/js/backscore.js)."""
    from tests.factories import acting

    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, rubber.north.user)
    )
    phone = Client()
    phone.force_login(south)
    taps = {"number": "1", "level": "2", "strain": "H", "declarer": "S", "result": "0"}
    moved = phone.post(f"/rubbers/{rubber.pk}/deals/", taps, HTTP_HX_REQUEST="true")
    assert 'id="entry" data-held' in moved.content.decode()
    assert "data-held" not in live(phone, rubber).content.decode()


def test_a_pad_made_while_a_deal_lands_is_not_answered_once_that_deal_is_deleted(
    console, rubber, monkeypatch
):
    """The state (the ETag, the kept pad's key) is read before the deals are: a deal landing
    between the two makes a pad newer than its state. Once that deal is deleted (the last one,
    recorded by mistake) the pad must not be the kept one showing it, nor a 304 to the phone
    that holds it."""
    from games.pad import live as live_module
    from tests.factories import acting

    rubber.record_deal(number=1, contract="2H", declarer="N", tricks=9, actor=acting(rubber))
    fetch = live_module._fetch

    def a_deal_lands_meanwhile(found: Any) -> Any:
        monkeypatch.setattr(live_module, "_fetch", fetch)
        rubber.record_deal(number=2, contract="pass", actor=acting(rubber))
        return fetch(found)

    monkeypatch.setattr(live_module, "_fetch", a_deal_lands_meanwhile)
    raced = live(console, rubber)
    assert 'id="deal-2"' in raced.content.decode()
    rubber.deals.get(number=2).delete_last(version=1, actor=acting(rubber))
    assert live(console, rubber, raced["ETag"]).status_code == 200, "a 304 kept the deleted deal"
    kept = _masked(live(console, rubber))
    assert 'id="deal-2"' not in kept
    from django.core.cache import cache

    cache.clear()
    assert kept == _masked(live(console, rubber))


def _masked(response: Any) -> str:
    """The answer with the request's own CSRF token, masked afresh for each, taken out."""
    import re

    return re.sub(r'value="[A-Za-z0-9]{64}"', 'value="token"', response.content.decode())
