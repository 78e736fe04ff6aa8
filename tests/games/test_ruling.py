"""A director rules on a disputed deal: "It stands" (the deal as recorded is right), next to Correct
on the pad and in the console's list of disputed deals (`Deal.rule`, games.deals.answers.rule_deal,
`POST /api/v1/deals/{id}/rule`). The ruling settles the deal as a confirmation does: it leaves the
console's list and the close's warning; a later correction clears it. Before this, a disputed deal
stayed disputed until someone changed it, and saving it unchanged said nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from clubs.models import Session
from games.models import Conflict, Deal
from games.sessions import lifecycle
from tests.conftest import unchanged
from tests.factories import UserFactory, acting

pytestmark = pytest.mark.django_db

IT_STANDS = "It stands"
RULED = "the director ruled it stands"
CLOSED = "The session is closed: its results are final."


@pytest.fixture
def deal(running_session: Any) -> Deal:
    """Deal 1, entered by North in a session whose opponents confirm, disputed by West."""
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    rubber = running_session.rubbers.get()
    entered, _ = rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, rubber.north.user),
    )
    return entered.dispute(version=1, actor=acting(entered, rubber.west.user))


def rule(client: Any, deal: Deal, **body: Any) -> Any:
    return client.post(f"/deals/{deal.pk}/rule", {"version": deal.version, **body})


def pad(client: Any, deal: Deal) -> str:
    return client.get(f"/rubbers/{deal.rubber_id}/").content.decode()


def console(client: Any, deal: Deal) -> str:
    session = Session.objects.select_related("club").get(rubbers__deals=deal)
    return client.get(f"/clubs/{session.club.slug}/console/").content.decode()


def code_phone(deal: Deal, seat: str) -> Client:
    phone = Client()
    table = deal.rubber.table
    assert phone.post(f"/t/{table.code}", {"seat": seat}).status_code == 302
    return phone


# --- the model -----------------------------------------------------------------------------------


def test_a_ruling_clears_the_dispute_and_settles_the_deal(deal: Deal, director: Any) -> None:
    assert deal.disputed and not deal.settled
    ruled = deal.rule(version=1, actor=acting(deal, director))
    assert (ruled.disputed, ruled.ruled, ruled.settled, ruled.version) == (False, True, True, 1)
    record = ruled.history.order_by("-history_id").first()
    assert (record.history_change_reason, record.history_user) == ("ruled", director)
    assert record.ruled and not record.disputed


def test_ruling_twice_is_harmless(deal: Deal, director: Any) -> None:
    deal.rule(version=1, actor=acting(deal, director))
    with unchanged():
        assert deal.rule(version=1, actor=acting(deal, director)).ruled


def test_a_deal_that_is_not_disputed_has_nothing_to_rule_on(deal: Deal, director: Any) -> None:
    Deal.objects.filter(pk=deal.pk).update(disputed=False)
    with unchanged(), pytest.raises(Conflict, match="Deal 1 is not disputed"):
        deal.rule(version=1, actor=acting(deal, director))


def test_a_ruled_deal_takes_no_dispute_and_a_confirmation_changes_nothing(
    deal: Deal, director: Any
) -> None:
    deal.rule(version=1, actor=acting(deal, director))
    with unchanged():
        assert deal.dispute(version=1, actor=acting(deal)).ruled
        assert (
            deal.confirm(version=1, actor=acting(deal, player=deal.rubber.east)).confirmed_by_id
            is None
        )


def test_a_ruling_is_never_also_a_dispute_in_the_database(deal: Deal) -> None:
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.filter(pk=deal.pk).update(ruled=True)


def test_a_later_correction_clears_the_ruling(deal: Deal, director: Any, north: Any) -> None:
    deal.rule(version=1, actor=acting(deal, director))
    corrected = deal.correct(version=1, tricks=9, actor=acting(deal, north))
    assert (corrected.ruled, corrected.disputed, corrected.settled) == (False, False, False)


# --- the pad -------------------------------------------------------------------------------------


def test_the_director_rules_on_the_pad_and_every_phone_reads_the_ruling(
    client: Any, deal: Deal, director: Any, east: Any
) -> None:
    client.force_login(director)
    html = pad(client, deal)
    assert 'id="rule-1"' in html and IT_STANDS in html and 'id="correct-1"' in html
    assert rule(client, deal).status_code == 302
    deal.refresh_from_db()
    assert deal.ruled and not deal.disputed
    for user in (director, east):
        client.force_login(user)
        html = pad(client, deal)
        assert RULED in html
        assert "disputed: the director will check it" not in html
        assert 'id="rule-1"' not in html and 'id="confirm-1"' not in html


def test_a_ruling_with_htmx_answers_the_live_pad(client: Any, deal: Deal, director: Any) -> None:
    client.force_login(director)
    response = client.post(f"/deals/{deal.pk}/rule", {"version": 1}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"') and RULED in html


def test_the_players_see_no_it_stands(client: Any, deal: Deal, north: Any, west: Any) -> None:
    for user in (north, west):
        client.force_login(user)
        html = pad(client, deal)
        assert "disputed: the director will check it" in html
        assert IT_STANDS not in html


def test_a_ruling_leaves_the_console_list_and_the_close_warning(
    client: Any, deal: Deal, director: Any
) -> None:
    client.force_login(director)
    assert "Deals awaiting confirmation" in console(client, deal)
    deal.rule(version=1, actor=acting(deal, director))
    assert "Deals awaiting confirmation" not in console(client, deal)
    session = deal.rubber.session
    close = f"/clubs/{session.club.slug}/sessions/{session.pk}/close/"
    assert "close-warning" not in client.get(close).content.decode()
    assert client.post(close).status_code == 302  # no warning first: nothing waits
    session.refresh_from_db()
    assert session.status == Session.Status.CLOSED


def test_the_console_offers_it_stands_next_to_correct_and_comes_back(
    client: Any, deal: Deal, director: Any
) -> None:
    client.force_login(director)
    block = console(client, deal).split('id="unconfirmed-', 1)[1].split("</ul>", 1)[0]
    assert f'href="/deals/{deal.pk}/correct#correct-1" data-action="correct"' in block
    assert f'action="/deals/{deal.pk}/rule"' in block and IT_STANDS in block
    back = f"/clubs/{deal.rubber.session.club.slug}/console/#session-{deal.rubber.session_id}"
    response = rule(client, deal, next=back)
    assert (response.status_code, response["Location"]) == (302, back)
    assert "Deal 1 stands as recorded" in client.get(back).content.decode()
    # Somewhere else than this site is not followed.
    Deal.objects.filter(pk=deal.pk).update(ruled=False, disputed=True)
    response = rule(client, deal, next="https://elsewhere.example/")
    assert response["Location"] == f"/rubbers/{deal.rubber_id}/#deal-1"


def test_the_close_page_lists_a_disputed_deal_without_rulings(
    client: Any, deal: Deal, director: Any
) -> None:
    session = deal.rubber.session
    client.force_login(director)
    html = client.get(f"/clubs/{session.club.slug}/sessions/{session.pk}/close/").content.decode()
    assert "disputed" in html and IT_STANDS not in html


# --- who may rule --------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["north", "west", "south", "member", "outsider"])
def test_only_a_director_of_the_club_rules(client: Any, deal: Deal, who: str, request: Any) -> None:
    """The seated players (either side), a member who does not play, and a signed-in outsider
    (the club is public: they read it) are refused with 403, and nothing changes."""
    if who == "member":
        from tests.factories import add_player

        user = UserFactory(username="mate")
        add_player(deal.rubber.session.club, "Mate", user=user)
    elif who == "outsider":
        user = UserFactory(username="outsider")
    else:
        user = request.getfixturevalue(who)
    client.force_login(user)
    with unchanged():
        assert rule(client, deal).status_code == 403
    assert Deal.objects.get(pk=deal.pk).disputed


def test_a_phone_holding_the_tables_code_does_not_rule(deal: Deal) -> None:
    phone = code_phone(deal, "E")
    assert IT_STANDS not in phone.get(f"/rubbers/{deal.rubber_id}/").content.decode()
    with unchanged():
        assert rule(phone, deal).status_code == 403


def test_an_anonymous_visitor_is_sent_to_sign_in(client: Any, deal: Deal) -> None:
    with unchanged():
        response = rule(client, deal)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_another_clubs_director_gets_the_missing_deals_answer(client: Any, deal: Deal) -> None:
    """In a members-only club the deal is hidden: the answer is the one for an id never made,
    on the page and in the API."""
    from tests.factories import make_club

    club = deal.rubber.session.club
    club.public = False
    club.save(update_fields=["public"])
    other = UserFactory(username="lakeside-td")
    make_club(director=other, slug="lakeside")
    client.force_login(other)
    never = Deal.objects.order_by("-pk").first().pk + 1000
    with unchanged():
        hidden = client.post(f"/deals/{deal.pk}/rule", {"version": 1})
        missing = client.post(f"/deals/{never}/rule", {"version": 1})
        api_hidden = client.post(
            f"/api/v1/deals/{deal.pk}/rule", {"version": 1}, content_type="application/json"
        )
        api_missing = client.post(
            f"/api/v1/deals/{never}/rule", {"version": 1}, content_type="application/json"
        )
    assert (hidden.status_code, hidden.content) == (missing.status_code, missing.content)
    assert hidden.status_code == 404
    assert (api_hidden.status_code, api_hidden.json()) == (
        api_missing.status_code,
        api_missing.json(),
    )
    assert api_hidden.status_code == 404


# --- refused in words ----------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_a_deal_corrected_since_is_not_ruled_on(
    client: Any, deal: Deal, director: Any, north: Any, htmx: bool
) -> None:
    deal.correct(version=1, tricks=9, actor=acting(deal, north))
    Deal.objects.filter(pk=deal.pk).update(disputed=True)  # disputed again, at version 2
    client.force_login(director)
    headers = {"HX-Request": "true"} if htmx else {}
    with unchanged():
        response = client.post(
            f"/deals/{deal.pk}/rule", {"version": 1}, headers=headers, follow=not htmx
        )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Deal 1 was corrected since you saw it: it is now" in html
    assert "Nothing was ruled: check it again." in html


def test_a_ruling_without_the_version_seen_is_refused(
    client: Any, deal: Deal, director: Any
) -> None:
    client.force_login(director)
    with unchanged():
        response = client.post(f"/deals/{deal.pk}/rule", {"version": "two"}, follow=True)
    assert "This page is out of date" in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_closed_sessions_deal_is_not_ruled_on(
    client: Any, deal: Deal, director: Any, htmx: bool
) -> None:
    lifecycle.session_close(session=deal.rubber.session)
    client.force_login(director)
    assert IT_STANDS not in pad(client, deal)
    headers = {"HX-Request": "true"} if htmx else {}
    with unchanged():
        response = client.post(
            f"/deals/{deal.pk}/rule", {"version": 1}, headers=headers, follow=not htmx
        )
        assert CLOSED in response.content.decode()
    with unchanged(), pytest.raises(Conflict, match=CLOSED):
        deal.rule(version=1, actor=acting(deal, director))


# --- a correction saved unchanged ---------------------------------------------------------------

FORM = {"level": "4", "strain": "S", "doubling": "", "declarer": "N", "result": "0"}


def correction(deal: Deal) -> dict[str, Any]:
    return {f"deal{deal.pk}-{k}": v for k, v in {**FORM, "version": deal.version}.items()}


@pytest.mark.parametrize("htmx", [False, True])
def test_a_director_saving_a_disputed_deal_unchanged_is_pointed_to_it_stands(
    client: Any, deal: Deal, director: Any, htmx: bool
) -> None:
    client.force_login(director)
    headers = {"HX-Request": "true"} if htmx else {}
    with unchanged():
        response = client.post(
            f"/deals/{deal.pk}/correct", correction(deal), headers=headers, follow=not htmx
        )
    html = response.content.decode()
    assert "Nothing changed. If the deal stands, tap It stands." in html
    assert "Deal 1 corrected." not in html
    assert Deal.objects.get(pk=deal.pk).disputed


def test_a_player_saving_a_deal_unchanged_is_told_nothing_changed(
    client: Any, deal: Deal, north: Any
) -> None:
    client.force_login(north)
    with unchanged():
        response = client.post(f"/deals/{deal.pk}/correct", correction(deal), follow=True)
    html = response.content.decode()
    assert "Nothing changed." in html and "tap It stands" not in html
    assert "Deal 1 corrected." not in html


def test_a_correction_on_the_pad_clears_the_dispute(client: Any, deal: Deal, north: Any) -> None:
    client.force_login(north)
    body = {**correction(deal), f"deal{deal.pk}-result": "-1"}
    response = client.post(f"/deals/{deal.pk}/correct", body, follow=True)
    assert "Deal 1 corrected." in response.content.decode()
    deal.refresh_from_db()
    assert (deal.version, deal.tricks, deal.disputed) == (2, 9, False)
    assert deal.history.order_by("-history_id").first().disputed is False


# --- the API -------------------------------------------------------------------------------------


def api_rule(api: Any, deal: Deal, user: Any, body: Any) -> Any:
    api.force_authenticate(user)
    return api.post(f"/api/v1/deals/{deal.pk}/rule", body, format="json")


def test_the_api_rules_and_answers_the_deal(api: Any, deal: Deal, director: Any) -> None:
    api.force_authenticate(None)
    assert api.get(f"/api/v1/deals/{deal.pk}/").json()["disputed"] is True
    response = api_rule(api, deal, director, {"version": 1})
    assert response.status_code == 200
    body = response.json()
    assert (body["disputed"], body["ruled"], body["version"]) == (False, True, 1)
    assert api_rule(api, deal, director, {"version": 1}).status_code == 200  # twice: harmless
    history = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    assert [e["reason"] for e in history] == ["entered", "disputed", "ruled"]
    assert history[-1]["user"] == "Director"


def test_the_api_refuses_everyone_but_a_director(
    api: Any, deal: Deal, north: Any, east: Any
) -> None:
    outsider = UserFactory(username="outsider")
    with unchanged():
        for user in (north, east, outsider):
            assert api_rule(api, deal, user, {"version": 1}).status_code == 403
        assert api_rule(api, deal, None, {"version": 1}).status_code == 401


@pytest.mark.parametrize("bad", ["two", 0, -1, 2**40, [1], None, ""])
def test_a_bad_version_is_a_400_naming_it(api: Any, deal: Deal, director: Any, bad: Any) -> None:
    with unchanged():
        response = api_rule(api, deal, director, {"version": bad})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["version"]


def test_a_missing_version_or_body_is_a_400(api: Any, deal: Deal, director: Any) -> None:
    with unchanged():
        for body in ({}, [1]):
            response = api_rule(api, deal, director, body)
            assert response.status_code == 400
            assert response.json()["errors"]


def test_the_api_refuses_in_words(api: Any, deal: Deal, director: Any, north: Any) -> None:
    """A version corrected since, a deal that is not disputed, and a closed session: 409."""
    deal.correct(version=1, tricks=9, actor=acting(deal, north))  # clears the dispute
    with unchanged():
        stale = api_rule(api, deal, director, {"version": 1})
        assert stale.status_code == 409
        assert stale.json()["detail"].startswith("Deal 1 was corrected since you saw it")
        undisputed = api_rule(api, deal, director, {"version": 2})
        assert undisputed.status_code == 409
        assert "not disputed" in undisputed.json()["detail"]
    Deal.objects.filter(pk=deal.pk).update(disputed=True)
    lifecycle.session_close(session=deal.rubber.session)
    with unchanged():
        closed = api_rule(api, deal, director, {"version": 2})
    assert (closed.status_code, closed.json()["detail"]) == (409, CLOSED)


def test_an_api_correction_clears_the_dispute_and_the_ruling(
    api: Any, deal: Deal, director: Any, north: Any
) -> None:
    api.force_authenticate(north)
    patched = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 9}, format="json")
    assert patched.status_code == 200
    assert (patched.json()["disputed"], patched.json()["ruled"]) == (False, False)
    Deal.objects.filter(pk=deal.pk).update(disputed=True)
    assert api_rule(api, deal, director, {"version": 2}).json()["ruled"] is True
    api.force_authenticate(north)
    patched = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 2, "tricks": 10}, format="json")
    assert patched.json()["ruled"] is False


def test_a_ruling_changes_the_cached_rubber_answer(
    api: Any, deal: Deal, director: Any, settings: Any
) -> None:
    from django.core.cache import cache

    from games.models import Rubber

    settings.RUBBER_CACHE_SECONDS = 60
    cache.clear()
    url = f"/api/v1/rubbers/{deal.rubber_id}/"
    api.force_authenticate(None)
    assert api.get(url).json()["deals"][0]["disputed"] is True
    before = Rubber.objects.answer_state(deal.rubber_id)
    deal.rule(version=1, actor=acting(deal, director))
    assert Rubber.objects.answer_state(deal.rubber_id) != before
    assert api.get(url).json()["deals"][0]["ruled"] is True
    cache.clear()


# --- Italian -------------------------------------------------------------------------------------


def test_an_italian_club_reads_the_ruling_in_italian(
    client: Any, deal: Deal, director: Any
) -> None:
    club = deal.rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    client.force_login(director)
    assert "È giusta" in pad(client, deal)
    deal.rule(version=1, actor=acting(deal, director))
    html = pad(client, deal)
    assert "il direttore l'ha giudicata giusta" in html
    assert "Direttore · giudicata giusta:" in html  # the history line
