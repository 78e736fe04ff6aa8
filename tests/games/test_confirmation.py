"""Opponent confirmation as a club or session setting the director turns on in the console
(issue 17): the other side confirms in one tap or disputes; the console lists what waits;
closing a session with unconfirmed deals warns first."""

from __future__ import annotations

import pytest

from tests.conftest import sign_in, unchanged
from tests.factories import acting


def console(client, session):
    return client.get(f"/clubs/{session.club.slug}/console/").content.decode()


def switch(client, session, value, *, whole_club=False):
    body = {"confirm": value} if whole_club else {"confirm": value, "session": session.pk}
    return client.post(f"/clubs/{session.club.slug}/console/confirmation/", body)


def test_the_director_turns_confirmation_on_for_a_session_or_the_club(
    client, running_session, director
):
    client.force_login(director)
    assert switch(client, running_session, "on").status_code == 302
    running_session.refresh_from_db()
    assert running_session.confirm_entries and not running_session.club.confirm_entries
    assert switch(client, running_session, "on", whole_club=True).status_code == 302
    running_session.club.refresh_from_db()
    assert running_session.club.confirm_entries


CLUB_ASKS = "This club asks the opponents to confirm every deal, in every session."
CLUB_DEFAULT_OFF = (
    "By default this club does not ask the opponents to confirm deals: a session can ask on its "
    "own (below)."
)
SESSION_WORDS = {
    # (club asks, session asks): what the session's box says, and its button if any.
    (True, True): (
        "This session asks the opponents to confirm each deal, as the club does in every session.",
        None,
    ),
    (True, False): (
        "The opponents confirm each deal of this session: the club asks in every session.",
        None,
    ),
    (False, True): (
        "This session asks the opponents to confirm each deal (the club does not by default).",
        "Stop asking in this session",
    ),
    (False, False): (
        "The opponents do not confirm this session's deals.",
        "Ask opponents to confirm each deal of this session",
    ),
}


@pytest.mark.parametrize(("club_asks", "session_asks"), list(SESSION_WORDS))
def test_the_club_and_session_boxes_say_what_holds(
    client, running_session, director, club_asks, session_asks
):
    """The club's box speaks of the club's setting (every session, or none by default), the
    session's box of what holds for that session and why; never one saying deals are not
    confirmed while the other asks (an outside usability probe read exactly that)."""
    club = running_session.club
    club.confirm_entries = club_asks
    club.save(update_fields=["confirm_entries"])
    running_session.confirm_entries = session_asks
    running_session.save(update_fields=["confirm_entries"])
    client.force_login(director)
    html = console(client, running_session)
    club_box = html.split('id="club-confirmation"', 1)[1].split("</form>", 1)[0]
    session_box = html.split('class="inline confirm-setting"', 1)[1].split("</form>", 1)[0]
    if club_asks:
        assert CLUB_ASKS in club_box and "Stop asking" in club_box
    else:
        assert CLUB_DEFAULT_OFF in club_box
        assert "Ask opponents to confirm every deal, in every session" in club_box
    words, button = SESSION_WORDS[(club_asks, session_asks)]
    assert words in session_box
    others = [w for key, (w, _b) in SESSION_WORDS.items() if key != (club_asks, session_asks)]
    assert not any(other in html for other in others)
    if button is None:
        assert "<button" not in session_box
    else:
        assert f'<button type="submit">{button}</button>' in session_box
    assert running_session.asks_confirmation == (club_asks or session_asks)


def test_the_switch_says_what_now_holds(client, running_session, director):
    client.force_login(director)
    said = lambda response: [str(m) for m in response.context["messages"]]  # noqa: E731
    on = client.post(
        f"/clubs/{running_session.club.slug}/console/confirmation/",
        {"confirm": "on", "session": running_session.pk},
        follow=True,
    )
    assert said(on) == ["The opponents now confirm each deal of this session."]
    club_on = client.post(
        f"/clubs/{running_session.club.slug}/console/confirmation/", {"confirm": "on"}, follow=True
    )
    assert said(club_on) == ["The opponents now confirm every deal, in every session."]
    session_off = client.post(
        f"/clubs/{running_session.club.slug}/console/confirmation/",
        {"confirm": "off", "session": running_session.pk},
        follow=True,
    )
    # The club still asks: the session's deals are still confirmed, and it says so.
    assert said(session_off) == ["The opponents now confirm each deal of this session."]
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    club_off = client.post(
        f"/clubs/{running_session.club.slug}/console/confirmation/", {"confirm": "off"}, follow=True
    )
    assert said(club_off) == [
        "The club no longer asks the opponents to confirm deals; a session that asks on its own "
        "still does."
    ]
    running_session.refresh_from_db()
    assert running_session.asks_confirmation


def test_a_player_cannot_turn_confirmation_on(client, running_session, north):
    client.force_login(north)
    assert switch(client, running_session, "on").status_code == 403
    running_session.refresh_from_db()
    assert not running_session.confirm_entries


def enter_deal(rubber):
    return rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, rubber.north.user),
    )[0]


def test_the_other_side_confirms_in_one_tap(client, running_session, director, east, south):
    client.force_login(director)
    switch(client, running_session, "on")
    rubber = running_session.rubbers.get()
    deal = enter_deal(rubber)
    client.force_login(south)  # North's partner: nothing to confirm
    assert "awaiting your confirmation" not in client.get(f"/rubbers/{rubber.pk}/").content.decode()
    client.force_login(east)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "awaiting your confirmation" in html and "Deal 1 is awaiting your confirmation." in html
    client.force_login(director)
    assert "Deals awaiting confirmation" in console(client, running_session)
    client.force_login(east)
    assert client.post(f"/deals/{deal.pk}/confirm", {"version": 1}).status_code == 302
    deal.refresh_from_db()
    assert deal.confirmed_by == rubber.east
    client.force_login(director)
    assert "Deals awaiting confirmation" not in console(client, running_session)


def test_a_dispute_flags_the_deal_for_the_director(client, running_session, director, west, south):
    client.force_login(director)
    switch(client, running_session, "on")
    rubber = running_session.rubbers.get()
    deal = enter_deal(rubber)
    client.force_login(south)
    with unchanged():
        # A partner does not dispute.
        assert (
            client.post(f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}).status_code
            == 403
        )
    client.force_login(west)
    assert (
        client.post(f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}).status_code
        == 302
    )
    deal.refresh_from_db()
    assert deal.disputed and deal.confirmed_by is None
    assert deal.history.order_by("-history_id").first().history_change_reason == "disputed"
    client.force_login(director)
    html = console(client, running_session)
    assert "Table 1, rubber 1, deal 1" in html and "disputed" in html


def test_closing_with_unconfirmed_deals_warns_first(client, running_session, director):
    client.force_login(director)
    switch(client, running_session, "on")
    enter_deal(running_session.rubbers.get())
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/close/"
    warning = client.post(url)
    assert warning.status_code == 200
    assert "1 deal is not confirmed by the opponents yet" in warning.content.decode()
    running_session.refresh_from_db()
    assert running_session.status == "running"
    assert client.post(url, {"anyway": "1"}).status_code == 302
    running_session.refresh_from_db()
    assert running_session.status == "closed"


def test_without_confirmation_closing_does_not_ask(client, running_session, director):
    client.force_login(director)
    enter_deal(running_session.rubbers.get())
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/close/"
    assert client.post(url).status_code == 302
    running_session.refresh_from_db()
    assert running_session.status == "closed"


def disputed_slam(client, session, director, east):
    """Issue 29, item 2: North records 6♠× N = with "We 100" and East disputes it."""
    client.force_login(director)
    switch(client, session, "on")
    rubber = session.rubbers.get()
    deal = rubber.record_deal(
        number=1,
        contract="6SX",
        declarer="N",
        tricks=12,
        honours_side="NS",
        honours_points=100,
        actor=acting(rubber, rubber.north.user),
    )[0]
    client.force_login(east)
    assert (
        client.post(f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}).status_code
        == 302
    )
    return rubber, deal


def assert_settled_everywhere(client, session, rubber, deal, director, north, east):
    deal.refresh_from_db()
    assert not deal.disputed and deal.settled
    for player in (north, east):
        client.force_login(player)
        assert (
            "awaiting your confirmation"
            not in client.get(f"/rubbers/{rubber.pk}/").content.decode()
        )
    client.force_login(director)
    html = console(client, session)
    assert "Deals awaiting confirmation" not in html and "Table 1, rubber 1, deal 1" not in html
    # The close asks nothing: no deal is left awaiting or disputed.
    close = client.post(f"/clubs/{session.club.slug}/sessions/{session.pk}/close/")
    assert close.status_code == 302


def test_a_directors_correction_on_the_page_settles_the_dispute(
    client, running_session, director, north, east
):
    from games.forms import entry_initial

    rubber, deal = disputed_slam(client, running_session, director, east)
    taps = {**entry_initial(deal), "honours": "", "version": deal.version}
    client.force_login(director)
    answer = client.post(
        f"/deals/{deal.pk}/correct", {f"deal{deal.pk}-{k}": v for k, v in taps.items()}
    )
    assert answer.status_code == 302
    deal.refresh_from_db()
    assert deal.honours_side == "" and deal.version == 2
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    # The dispute's line changes nothing and says so once; the correction's shows what changed.
    disputed = "6♠X by N, 12 tricks, honours 100 to NS"
    assert f"{disputed} → {disputed}" not in html
    assert f"{disputed} → 6♠X by N, 12 tricks</li>" in html
    # Settled by the correction, and said so: not "ruled it stands", which it no longer does.
    assert '<strong class="ruled">corrected by the director</strong>' in html
    assert "the director ruled it stands" not in html
    assert_settled_everywhere(client, running_session, rubber, deal, director, north, east)


def test_a_directors_correction_through_the_api_settles_the_dispute(
    api, client, running_session, director, north, east
):
    rubber, deal = disputed_slam(client, running_session, director, east)
    api.force_authenticate(director)
    body = {"version": 1, "honours": None}
    assert api.patch(f"/api/v1/deals/{deal.pk}/", body, format="json").status_code == 200
    entries = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    last = entries[-1] if isinstance(entries, list) else entries["results"][-1]
    assert last["reason"] == "correction"
    assert_settled_everywhere(client, running_session, rubber, deal, director, north, east)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_confirmation_round_trip_on_two_phones(live_server, browser, running_session):
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    rubber = running_session.rubbers.get()
    phones = {}
    for seat in ("north", "east"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        sign_in(
            page, live_server.url, getattr(rubber, seat).user.username, f"/rubbers/{rubber.pk}/"
        )
        phones[seat] = (context, page)
    north, east = phones["north"][1], phones["east"][1]
    for field, value in (("level", "4"), ("strain", "S"), ("declarer", "N"), ("result", "0")):
        north.locator(f"#entry .field-{field} label[data-v='{value}']").click()
    north.locator("#record").click()
    north.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    # East's phone learns of it without a reload, and confirms in one tap.
    east.locator("#awaiting", has_text="Deal 1 is awaiting your confirmation.").wait_for()
    east.locator("#confirm-1 button", has_text="Confirm").click()
    east.locator("#deals", has_text="confirmed by East").wait_for()
    north.locator("#deals", has_text="confirmed by East").wait_for()
    deal = rubber.deals.get()
    assert deal.confirmed_by == rubber.east
    for context, _page in phones.values():
        context.close()


@pytest.mark.parametrize("whole_club", [False, True], ids=["session", "club"])
def test_deals_recorded_before_confirmation_is_turned_on_stand_as_recorded(
    client, running_session, director, east, whole_club
):
    """Issue 31 probe 2: turned on mid-session, confirmation marked the deals already recorded
    as awaiting. They stand as recorded (their history says why); the next deal awaits. The
    pad, the console, the room's tile and the close page agree."""
    rubber = running_session.rubbers.get()
    actor = acting(rubber, rubber.north.user)
    before = rubber.record_deal(number=1, contract="2S", declarer="N", tricks=8, actor=actor)[0]
    client.force_login(director)
    said = switch(client, running_session, "on", whole_club=whole_club)
    assert said.status_code == 302
    after = rubber.record_deal(number=2, contract="1NT", declarer="N", tricks=7, actor=actor)[0]
    before.refresh_from_db()
    assert before.settled and not after.settled
    assert before.history.latest("history_id").history_change_reason == (
        "recorded before confirmation"
    )
    slug = running_session.club.slug
    room = client.get(f"/clubs/{slug}/room/").content.decode()
    assert 'data-awaiting="1"' in room
    close = client.get(f"/clubs/{slug}/sessions/{running_session.pk}/close/").content.decode()
    listed = console(client, running_session)
    for page in (listed, close):
        assert f'href="{after.get_absolute_url()}"' in page
        assert f'href="{before.get_absolute_url()}"' not in page
    client.force_login(east)
    pad = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert pad.count('<strong class="awaiting">') == 1
    assert "entered before confirmation was asked: stands as recorded" in pad


def test_the_settings_page_turning_confirmation_on_lets_recorded_deals_stand(
    client, running_session, director
):
    """The club's settings page is the other switch: the same rule as the console's."""
    rubber = running_session.rubbers.get()
    actor = acting(rubber, rubber.north.user)
    before = rubber.record_deal(number=1, contract="2S", declarer="N", tricks=8, actor=actor)[0]
    club = running_session.club
    client.force_login(director)
    form = {
        "name": club.name,
        "public": "on",
        "rules_preset": club.rules_preset,
        "default_stake": "0.50",
        "currency": "EUR",
        "language": "en",
        "confirm_entries": "on",
        "table_codes": "on",
    }
    assert client.post(f"/clubs/{club.slug}/settings/", form).status_code == 302
    club.refresh_from_db()
    before.refresh_from_db()
    assert club.confirm_entries and before.settled
    after = rubber.record_deal(number=2, contract="1NT", declarer="N", tricks=7, actor=actor)[0]
    assert not after.settled
