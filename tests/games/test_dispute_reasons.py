"""Disputes that say why and end (issue 29, items 2 and 3): a dispute takes a reason (contract,
declarer, result, honours, other) and optional words, shown to the director with the deal on
the pad, the console and the close page, in the history line and in the API; "Confirm all"
confirms the deals awaiting one side at once (disputes stay per deal); closing a session with
deals still awaiting or disputed lists them and asks first, then they stand as recorded and the
history says so, and the closed session lists nothing awaiting."""

from __future__ import annotations

from games.models import Deal
from games.sessions.pages import unconfirmed_deals
from tests.conftest import unchanged
from tests.factories import acting
from tests.games.test_confirmation import console, switch


def two_deals(client, session, director):
    """Two part scores North entered in a session that asks the opponents to confirm."""
    client.force_login(director)
    switch(client, session, "on")
    rubber = session.rubbers.get()
    actor = acting(rubber, rubber.north.user)
    first = rubber.record_deal(number=1, contract="2S", declarer="N", tricks=8, actor=actor)[0]
    second = rubber.record_deal(number=2, contract="1NT", declarer="N", tricks=7, actor=actor)[0]
    return rubber, first, second


def test_a_dispute_without_a_reason_is_refused_in_words(client, running_session, director, east):
    _rubber, deal, _second = two_deals(client, running_session, director)
    client.force_login(east)
    with unchanged():
        answer = client.post(
            f"/deals/{deal.pk}/dispute", {"version": 1}, headers={"HX-Request": "true"}
        )
    assert answer.status_code == 200
    assert "Say what is wrong: the contract, the declarer" in answer.content.decode()
    with unchanged():
        answer = client.post(
            f"/deals/{deal.pk}/dispute",
            {"version": 1, "reason": "vibes"},
            headers={"HX-Request": "true"},
        )
    assert "Choose what is wrong" in answer.content.decode()
    deal.refresh_from_db()
    assert not deal.disputed


def test_the_director_reads_why_with_the_deal(client, running_session, director, east):
    rubber, deal, _second = two_deals(client, running_session, director)
    client.force_login(east)
    body = {"version": 1, "reason": "honours", "note": "nobody held four honours"}
    assert client.post(f"/deals/{deal.pk}/dispute", body).status_code == 302
    deal.refresh_from_db()
    assert (deal.disputed, deal.dispute_reason, deal.dispute_note) == (
        True,
        "honours",
        "nobody held four honours",
    )
    said = "about the honours: “nobody held four honours”"
    client.force_login(director)
    assert said in console(client, running_session)
    pad = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert said in pad
    # The history line says who disputed and why.
    assert "East · disputed (the honours: “nobody held four honours”)" in pad
    close = client.get(f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/close/")
    assert said in close.content.decode()


def test_the_api_dispute_takes_a_reason_and_shows_it_on_the_deal(
    api, client, running_session, director, east
):
    _rubber, deal, _second = two_deals(client, running_session, director)
    api.force_authenticate(east)
    url = f"/api/v1/deals/{deal.pk}/dispute"
    with unchanged():
        bad = api.post(url, {"version": 1, "reason": "vibes"}, format="json")
        assert bad.status_code == 400 and "reason" in bad.json()["errors"]
        long = api.post(url, {"version": 1, "reason": "other", "note": "x" * 201}, format="json")
        assert long.status_code == 400 and "note" in long.json()["errors"]
        missing = api.post(url, {"version": 1}, format="json")
        assert missing.status_code == 400 and "reason" in missing.json()["errors"]
    answer = api.post(url, {"version": 1, "reason": "result", "note": "one down"}, format="json")
    assert answer.status_code == 200
    body = answer.json()
    assert (body["disputed"], body["dispute_reason"], body["dispute_note"]) == (
        True,
        "result",
        "one down",
    )
    assert api.get(f"/api/v1/deals/{deal.pk}/").json()["dispute_reason"] == "result"
    entries = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    last = entries[-1] if isinstance(entries, list) else entries["results"][-1]
    assert (last["reason"], last["why"]) == ("disputed", "the result: “one down”")


def test_confirm_all_confirms_every_deal_awaiting_the_side(
    client, running_session, director, east, south
):
    rubber, first, second = two_deals(client, running_session, director)
    client.force_login(east)
    pad = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "Confirm all 2 deals" in pad
    seen = [f"{first.pk}:1", f"{second.pk}:1"]
    client.force_login(south)  # North's partner confirms nothing
    with unchanged():
        assert client.post(f"/rubbers/{rubber.pk}/confirm-all", {"deal": seen}).status_code == 403
    assert Deal.objects.filter(rubber=rubber, confirmed_by__isnull=False).count() == 0
    client.force_login(east)
    answer = client.post(
        f"/rubbers/{rubber.pk}/confirm-all", {"deal": seen}, headers={"HX-Request": "true"}
    )
    assert "2 deals confirmed by East." in answer.content.decode()
    assert set(Deal.objects.filter(rubber=rubber).values_list("confirmed_by", flat=True)) == {
        rubber.east.pk
    }


def test_confirm_all_leaves_a_dispute_and_refuses_a_deal_corrected_since(
    client, running_session, director, east
):
    rubber, first, second = two_deals(client, running_session, director)
    client.force_login(east)
    client.post(f"/deals/{first.pk}/dispute", {"version": 1, "reason": "contract"})
    # The second deal was corrected since the page listed it: nothing is confirmed.
    second.correct(version=1, actor=acting(rubber, rubber.north.user), tricks=8)
    seen = [f"{first.pk}:1", f"{second.pk}:1"]
    with unchanged():
        answer = client.post(
            f"/rubbers/{rubber.pk}/confirm-all", {"deal": seen}, headers={"HX-Request": "true"}
        )
    assert "was just corrected" in answer.content.decode()
    client.post(f"/rubbers/{rubber.pk}/confirm-all", {"deal": [f"{first.pk}:1", f"{second.pk}:2"]})
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.disputed and first.confirmed_by is None  # the dispute stays the director's
    assert second.confirmed_by == rubber.east


def test_closing_lists_what_waits_then_it_stands_as_recorded(
    client, running_session, director, east
):
    rubber, first, second = two_deals(client, running_session, director)
    client.force_login(east)
    client.post(f"/deals/{first.pk}/dispute", {"version": 1, "reason": "declarer"})
    client.force_login(director)
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/close/"
    warning = client.post(url).content.decode()
    assert "2 deals are not confirmed by the opponents yet" in warning
    assert "they stand as recorded and their history says so" in warning
    assert "about the declarer" in warning
    assert client.post(url, {"anyway": "1"}).status_code == 302
    for deal in (first, second):
        deal.refresh_from_db()
        assert deal.settled and not deal.disputed
        assert deal.history.order_by("-history_id").first().history_change_reason == (
            "stood at close"
        )
    pad = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "stands as recorded: the session closed" in pad
    # The closed session lists nothing awaiting, on the console and on its own page.
    assert "Deals awaiting confirmation" not in console(client, running_session)
    running_session.refresh_from_db()
    assert unconfirmed_deals([running_session]) == {}
    client.force_login(east)
    assert "awaiting your confirmation" not in client.get(f"/rubbers/{rubber.pk}/").content.decode()


def test_the_declarer_buttons_name_who_sits_there(client, running_session, director, north):
    """Issue 29, item 1: the entry and correction forms name each seat's player."""
    rubber = running_session.rubbers.get()
    client.force_login(north)
    pad = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    for seat, player in rubber.seats.items():
        assert f"{seat} · {player.name}" in pad
    deal = rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, rubber.north.user)
    )[0]
    form = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
    assert f"W · {rubber.west.name}" in form.content.decode()
