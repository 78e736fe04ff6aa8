"""Numbers a phone or a page sends by hand (a deal number on the live poll, a version in the
offline queue, a session in the console's confirmation setting) are ASCII digits or nothing:
"²" and "٣" pass `str.isdigit()`, `int()` refuses "²" and more than 4300 digits. An odd one is
never a 500: it is ignored where it is only a hint, and a plain refusal where it is needed."""

from __future__ import annotations

import pytest

from tests.conftest import unchanged
from tests.factories import acting
from tests.games.conftest import SIX_DEALS
from tests.games.test_offline import queued, snapshot
from tests.games.test_pages import TAP_4S_MADE

pytestmark = pytest.mark.django_db

ODD = ["²", "٣", "9" * 5000, "-1", ""]

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.parametrize("number", ODD)
def test_the_live_poll_ignores_an_odd_deal_number(client, rubber, north, enter, number):
    enter(SIX_DEALS[:3])  # deals 1 to 3: "٣" would name deal 3 if read as 3
    client.force_login(north)
    response = client.get(f"/rubbers/{rubber.pk}/live", {"number": number})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="deal-3"' in html
    assert "was already entered" not in html


def test_the_live_poll_names_a_deal_entered_meanwhile(client, rubber, north, enter):
    """The hint at work (the tests above would pass if it were never read)."""
    enter(SIX_DEALS[:3])
    client.force_login(north)
    html = client.get(f"/rubbers/{rubber.pk}/live", {"number": "3"}).content.decode()
    assert "Deal 3 was already entered by North" in html


@pytest.mark.parametrize("version", ["²", "٣", "9" * 5000, "-1"])
def test_the_queue_refuses_an_odd_version_to_replace(client, rubber, north, version):
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": version})
    assert response.status_code == 400
    assert response.json() == {"status": "refused", "detail": "Bad version."}


def test_the_queue_takes_an_empty_version_as_no_replacement(client, rubber, north):
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": ""})
    assert response.status_code == 201
    assert snapshot(rubber) == [(1, "4S", "N", 10, 1)]


def switch(client, club, session):
    return client.post(
        f"/clubs/{club.slug}/console/confirmation/", {"confirm": "on", "session": session}
    )


@pytest.mark.parametrize("session", ["²", "9" * 5000, "-1", "arabic-indic"])
def test_the_confirmation_setting_refuses_an_odd_session(
    client, club, running_session, director, session
):
    if session == "arabic-indic":  # the running session's own id in other digits
        session = str(running_session.pk).translate(ARABIC_INDIC)
    client.force_login(director)
    with unchanged():
        assert switch(client, club, session).status_code == 404


def test_the_confirmation_setting_with_no_session_is_the_clubs(
    client, club, running_session, director
):
    client.force_login(director)
    assert switch(client, club, "").status_code == 302
    club.refresh_from_db()
    running_session.refresh_from_db()
    assert club.confirm_entries and not running_session.confirm_entries
