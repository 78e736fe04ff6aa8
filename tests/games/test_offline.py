"""The offline queue's endpoint (games/deals/offline.py) and the installable app (config/pwa.py):
a re-sent deal is answered 200 and written once; another phone's deal for the number is a 409
with both versions; a refused deal says why and changes nothing (docs/offline.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.staticfiles import finders

from games.models import Deal, DealFields
from games.permissions import Viewer
from games.sessions.lifecycle import session_close
from tests.conftest import unchanged
from tests.factories import acting
from tests.games.conftest import SIX_DEALS
from tests.games.test_pages import TAP_4S_MADE

pytestmark = pytest.mark.django_db

THREE_NT_DOWN = {"number": 1, "level": "3", "strain": "NT", "declarer": "E", "result": "-1"}


def queued(rubber: Any) -> str:
    return f"/rubbers/{rubber.pk}/deals/queued"


def snapshot(rubber: Any) -> list[tuple[Any, ...]]:
    return list(
        Deal.objects.filter(rubber=rubber)
        .order_by("number")
        .values_list("number", "contract", "declarer", "tricks", "version")
    )


def test_a_queued_deal_is_recorded_once_and_its_retry_answers_200(client, rubber, north):
    client.force_login(north)
    first = client.post(queued(rubber), TAP_4S_MADE)
    assert first.status_code == 201
    assert first.json() == {"status": "recorded", "number": 1}
    again = client.post(queued(rubber), TAP_4S_MADE)
    assert again.status_code == 200
    assert again.json() == {"status": "already recorded", "number": 1}
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.declarer, deal.tricks, deal.entered_by) == ("4S", "N", 10, north)
    assert deal.history.count() == 1


def test_the_entry_page_takes_a_resent_deal_as_recorded_not_as_a_conflict(client, rubber, north):
    """A phone that lost the answer to its post and posts the same deal again (RULES 8.1)."""
    client.force_login(north)
    client.post(f"/rubbers/{rubber.pk}/deals/", TAP_4S_MADE, HTTP_HX_REQUEST="true")
    response = client.post(f"/rubbers/{rubber.pk}/deals/", TAP_4S_MADE, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="entry-errors"' not in response.content.decode()
    assert snapshot(rubber) == [(1, "4S", "N", 10, 1)]


def test_other_content_for_the_number_answers_409_with_both_versions(client, rubber, north, south):
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, south)
    )
    client.force_login(north)
    response = client.post(queued(rubber), TAP_4S_MADE)
    assert response.status_code == 409
    answer = response.json()
    deal = Deal.objects.get(rubber=rubber)
    assert answer == {
        "status": "conflict",
        "detail": "Another phone entered deal 1 first.",
        "server": {
            "number": 1,
            "summary": "3NT by E, 8 tricks",
            "version": 1,
            "entered_by": "South",  # the player's name in the club, never a login
        },
        "mine": {"number": 1, "summary": "4♠ by N, 10 tricks"},
        "can_correct": answer["can_correct"],  # the correction policy's (below)
    }
    assert snapshot(rubber) == [(1, "3NT", "E", 8, 1)]
    assert deal.history.count() == 1


def test_the_player_who_entered_the_other_version_may_correct_it_to_theirs(client, rubber, north):
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    client.force_login(north)
    conflict = client.post(queued(rubber), TAP_4S_MADE).json()
    assert conflict["can_correct"] is True
    response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
    assert response.status_code == 200
    assert response.json() == {"status": "corrected", "number": 1}
    assert snapshot(rubber) == [(1, "4S", "N", 10, 2)]


def test_correcting_to_mine_from_a_stale_version_is_another_conflict(client, rubber, north):
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    deal.correct(version=1, contract="2NT", actor=acting(deal, north))
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
    assert response.status_code == 409
    assert response.json()["server"]["version"] == 2
    assert snapshot(rubber) == [(1, "2NT", "E", 8, 2)]


@pytest.mark.parametrize("may_correct", [True, False])
def test_the_conflict_says_whether_the_player_may_correct(
    client, rubber, north, south, monkeypatch, may_correct
):
    """Who may correct is `Viewer.can_correct` (games/permissions.py); the answer follows it."""
    monkeypatch.setattr(Viewer, "can_correct", lambda self, deal: may_correct)
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, south)
    )
    client.force_login(north)
    assert client.post(queued(rubber), TAP_4S_MADE).json()["can_correct"] is may_correct


def test_a_player_who_may_not_correct_cannot_replace_the_other_one(
    client, rubber, north, south, monkeypatch
):
    monkeypatch.setattr(Viewer, "can_correct", lambda self, deal: False)
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, south)
    )
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "1"})
    assert response.status_code == 403
    assert snapshot(rubber) == [(1, "3NT", "E", 8, 1)]


def test_a_bad_version_is_refused(client, rubber, north):
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "replace_version": "x"})
    assert response.status_code == 400
    assert snapshot(rubber) == [(1, "3NT", "E", 8, 1)]


def test_a_gap_in_the_numbers_is_refused_with_the_reason_and_no_versions(client, rubber, north):
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "number": 3})
    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "refused" and "server" not in answer
    assert answer["detail"]
    assert snapshot(rubber) == []


def test_a_gap_names_the_next_number_the_phone_may_record_it_as(client, rubber, north, enter):
    """A deal kept offline after a deal the director deleted meanwhile: refused (RULES 8.1),
    with the number it may take (`next`); sent again as that number, it is recorded."""
    enter(
        [
            {"contract": "3NT", "declarer": "E", "tricks": 8},
            {"contract": "2H", "declarer": "N", "tricks": 8},
        ]
    )
    rubber.deals.get(number=2).delete_last(
        version=1, actor=acting(rubber.deals.get(number=2), None, director=True)
    )
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**TAP_4S_MADE, "number": 3})
    assert response.status_code == 409
    answer = response.json()
    assert (answer["status"], answer["next"]) == ("refused", 2)
    assert "The next deal of this rubber is number 2, not 3." in answer["detail"]
    assert client.post(queued(rubber), {**TAP_4S_MADE, "number": 2}).status_code == 201
    assert [(d.number, d.contract) for d in rubber.deals.order_by("number")] == [
        (1, "3NT"),
        (2, "4S"),
    ]


def test_a_deal_after_the_end_of_the_rubber_is_refused(client, rubber, north, enter):
    enter(SIX_DEALS)  # the rubber is over after six deals (RULES 2)
    client.force_login(north)
    with unchanged():
        response = client.post(queued(rubber), {**TAP_4S_MADE, "number": 7})
    assert response.status_code == 409
    assert response.json()["status"] == "refused"
    # The phone lists it under its number with these words, until the player drops it.
    assert response.json()["detail"] == (
        "Rubber 1 is complete: a deal after the end of a rubber belongs to the next rubber "
        "(RULES 8.1)."
    )


def test_a_deal_for_a_closed_session_is_kept_for_the_director(
    client, rubber, north, running_session
):
    """The phone keeps it (`closed`: not a refusal it drops) and shows it to the director; a
    session reopened for corrections answers the same (tests/security/test_reopen_codes.py)."""
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, north)
    )
    session_close(session=running_session)
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "number": 2})
    assert response.status_code == 409
    assert response.json() == {
        "status": "closed",
        "detail": "This session is closed: show these to the director.",
    }
    assert snapshot(rubber) == [(1, "3NT", "E", 8, 1)]


def test_an_impossible_deal_is_refused_with_the_forms_reason(client, rubber, north):
    client.force_login(north)
    response = client.post(queued(rubber), {**TAP_4S_MADE, "result": "9"})  # 4♠ +9: no such
    assert response.status_code == 400
    assert response.json()["status"] == "refused"
    assert snapshot(rubber) == []


def test_a_signed_out_phone_is_told_to_sign_in(client, rubber):
    response = client.post(queued(rubber), TAP_4S_MADE)
    assert response.status_code == 403
    assert response.json() == {
        "status": "sign in",
        "detail": (
            "Sign in, or open your table's code again, to send the deals kept on this phone."
        ),
    }
    assert snapshot(rubber) == []


def test_an_outsider_cannot_enter_a_queued_deal(client, rubber, outsider):
    client.force_login(outsider)
    response = client.post(queued(rubber), TAP_4S_MADE)
    assert response.status_code == 403
    assert snapshot(rubber) == []


def test_a_members_only_rubber_is_missing_to_an_outsider(client, rubber, outsider):
    club = rubber.session.club
    club.public = False
    club.save(update_fields=["public"])
    client.force_login(outsider)
    hidden = client.post(queued(rubber), TAP_4S_MADE)
    missing = client.post("/rubbers/999999/deals/queued", TAP_4S_MADE)
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json() == {"status": "refused", "detail": "No such rubber."}
    assert snapshot(rubber) == []


def test_a_queued_deal_needs_the_csrf_token(rubber, north):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(north)
    assert client.post(queued(rubber), TAP_4S_MADE).status_code == 403
    assert snapshot(rubber) == []


def test_a_conflict_speaks_the_clubs_language(client, rubber, north, south):
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=8, actor=acting(rubber, south)
    )
    client.force_login(north)
    answer = client.post(queued(rubber), TAP_4S_MADE).json()
    assert answer["detail"] == "Un altro telefono ha inserito prima la smazzata 1."
    assert answer["mine"]["summary"] == "4♠ giocato da N, 10 prese"


def test_a_two_player_deal_corrected_to_mine_loses_what_mine_does_not_have(client, club, director):
    from tests.factories import add_player, make_session

    players = [add_player(club, "Anna"), add_player(club, "Bruno")]
    match = make_session(club, [players], kind="misery").rubbers.get()
    match.record_deal(
        number=1,
        data={
            "declarer": 0,
            "declaration": "ordinary",
            "strain": "S",
            "tricks": 8,
            "honours": {"player": 0, "points": 100},
        },
        actor=acting(match, director),
    )
    mine = {"number": 1, "declarer": "1", "declaration": "misery", "tricks": "1"}
    client.force_login(director)
    with unchanged():
        conflict = client.post(queued(match), mine)
    assert conflict.status_code == 409
    # Both versions name the players, as the pad does (issue 17).
    assert conflict.json()["server"]["summary"] == "♠ by Anna, 8 tricks, honours 100 to Anna"
    assert conflict.json()["mine"]["summary"] == "misery NT by Bruno, 1 trick"
    response = client.post(queued(match), {**mine, "replace_version": "1"})
    assert response.status_code == 200, response.json()
    deal = Deal.objects.get(rubber=match)
    as_if_recorded = DealFields.build(
        kind="misery", data={"declarer": 1, "declaration": "misery", "tricks": 1}
    )
    assert (deal.fields(), deal.version) == (as_if_recorded, 2)
    assert "honours" not in (deal.data or {})


# --- the installable app ------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root_uncached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert b'addEventListener("fetch"' in response.content
    assert client.post("/sw.js").status_code == 405


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == (
        "Backscore",
        "/",
        "standalone",
    )
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon


def test_the_manifest_speaks_italian(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="it")
    assert response.json()["description"] == "I punti del rubber bridge, inseriti al tavolo."
    assert response.json()["lang"] == "it"


def test_every_page_links_the_manifest_and_the_offline_script(client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'src="/static/js/offline.js" data-sw="/sw.js"' in html
    assert 'data-sign-out="/accounts/logout/"' in html


def test_the_rubber_page_carries_the_queue_and_its_words_in_italian(client, rubber):
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert f'data-queue-url="/rubbers/{rubber.pk}/deals/queued"' in html
    assert "salvata su questo telefono, non ancora inviata" in html
    assert "%(count)s smazzate attendono di essere inviate." in html
    assert "non inviata, resta su questo telefono" in html  # a closed session's, kept


# --- a phone at the table by its code (games/codes/) ------------------------------------------


@pytest.fixture
def _empty_throttle() -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.mark.usefixtures("_empty_throttle")
def test_a_phone_with_its_tables_code_sends_its_queued_deals(client, rubber):
    client.post(f"/t/{rubber.table.code}", {"seat": "W"})
    response = client.post(queued(rubber), TAP_4S_MADE)
    assert response.status_code == 201
    assert client.post(queued(rubber), TAP_4S_MADE).status_code == 200  # a retry
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.entered_by_id) == ("4S", None)
    assert deal.history.get().history_change_reason == "entered · West, table 1 (code), seat W"


@pytest.mark.usefixtures("_empty_throttle")
def test_a_phone_whose_code_changed_keeps_its_deals_until_it_opens_the_code_again(client, rubber):
    client.post(f"/t/{rubber.table.code}", {"seat": "W"})
    rubber.table.regenerate_code()
    response = client.post(queued(rubber), TAP_4S_MADE)
    assert response.status_code == 403
    assert response.json()["status"] == "sign in"
    assert snapshot(rubber) == []
