"""The director's console follows the room live (issue 17): a poll answers 304 until a deal is
entered or corrected somewhere, then the sessions part with each table's latest deal."""

from __future__ import annotations

import pytest

from tests.conftest import sign_in
from tests.factories import acting


def test_the_console_poll_answers_304_until_a_deal_changes(client, running_session, director):
    url = f"/clubs/{running_session.club.slug}/console/live/"
    client.force_login(director)
    first = client.get(url)
    assert first.status_code == 200
    assert 'id="console-sessions"' in first.content.decode()
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, rubber.north.user),
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert "Deal 1: 4♠ by North, made" in changed.content.decode()
    deal = rubber.deals.get()
    deal.correct(version=1, tricks=9, actor=acting(deal, None))
    again = client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert "Deal 1: 4♠ by North, −1" in again.content.decode()


def test_only_the_director_polls_the_console(client, running_session, north):
    client.force_login(north)
    assert client.get(f"/clubs/{running_session.club.slug}/console/live/").status_code == 403


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_console_shows_a_new_deal_without_a_reload(
    live_server, browser, running_session, director
):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(
        page, live_server.url, director.username, f"/clubs/{running_session.club.slug}/console/"
    )
    page.locator(".table-card").first.wait_for()
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1, contract="3NT", declarer="S", tricks=10, actor=acting(rubber, None)
    )
    page.locator("[data-last-deal]", has_text="Deal 1: 3NT by South, +1").wait_for(timeout=5_000)
    context.close()
