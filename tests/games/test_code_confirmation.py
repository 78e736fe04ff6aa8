"""Opponent confirmation with table codes (issue 17): a phone holding the table's code writes
from the seat it chose, so the other side confirms, never the side (or the seat) that entered
it; a correction makes the deal its writer's, which the other side then confirms; the deal
list and history name the code and seat ("South, table 1 (code), seat S"). The phone that entered a
deal is handed to the other side to confirm it and comes back (games.codes, the hand-over)."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.core import signing
from django.test import Client

from clubs.models import Player
from games.codes import tokens as codes
from games.models import Deal
from games.permissions import NotAllowed
from games.sessions import lifecycle
from tests.conftest import unchanged
from tests.factories import acting, add_player, make_session

TAPS = {"number": 1, "level": "4", "strain": "S", "declarer": "N", "result": "0"}


@pytest.fixture(autouse=True)
def _confirmation_on(running_session):
    from django.core.cache import caches

    caches["throttle"].clear()
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])


def phone_at(rubber, seat, phone=None):
    phone = phone or Client()
    assert phone.post(f"/t/{rubber.table.code}", {"seat": seat}).status_code == 302
    return phone


def test_a_code_entry_is_confirmed_by_the_other_side_only(rubber):
    south = phone_at(rubber, "S")
    assert south.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    deal = Deal.objects.get(rubber=rubber)
    assert deal.written_seat == "S" and deal.written_phone
    # The phone that entered it, and a second phone of the same side, may not confirm.
    north = phone_at(rubber, "N")
    for same_side in (south, north):
        assert (
            "awaiting your confirmation"
            not in same_side.get(f"/rubbers/{rubber.pk}/").content.decode()
        )
        with unchanged():
            assert same_side.post(f"/deals/{deal.pk}/confirm", {"version": 1}).status_code == 403
            assert (
                same_side.post(
                    f"/deals/{deal.pk}/dispute", {"version": 1, "reason": "result"}
                ).status_code
                == 403
            )
    east = phone_at(rubber, "E")
    assert "awaiting your confirmation" in east.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert east.post(f"/deals/{deal.pk}/confirm", {"version": 1}).status_code == 302
    deal.refresh_from_db()
    assert deal.confirmed_by == rubber.east
    assert deal.history.order_by("-history_id").first().history_change_reason == (
        "confirmed · East, table 1 (code), seat E"
    )


def test_the_entering_phone_handed_to_the_other_side_says_so_in_the_history(rubber):
    phone = phone_at(rubber, "N")
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    deal = Deal.objects.get(rubber=rubber)
    # Bridgemate's way: the phone goes round the table and West says who they are.
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert (
        f'<a href="/t/{rubber.table.code}/hand-over?rubber={rubber.pk}" class="hand-over">'
        "hand this phone to the other side to confirm</a>"
    ) in html
    handed = phone.post(f"/t/{rubber.table.code}/hand-over?rubber={rubber.pk}", {"seat": "W"})
    assert handed.status_code == 302
    assert phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}).status_code == 302
    deal.refresh_from_db()
    assert deal.confirmed_by == rubber.west
    assert deal.history.order_by("-history_id").first().history_change_reason == (
        "confirmed · West, table 1 (code), seat W · on the phone that entered it"
    )


def test_the_deal_list_names_the_code_and_seat_that_entered(client, rubber):
    south = phone_at(rubber, "S")
    assert south.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "entered by South, table 1 (code), seat S" in html


def test_a_correction_is_confirmed_by_the_other_side_from_its_writer(rubber, east, north):
    deal, _ = rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, north)
    )
    assert deal.written_seat == "N"
    deal.correct(version=1, tricks=9, actor=acting(deal, east))  # East says it went one down
    deal.refresh_from_db()
    assert (deal.written_seat, deal.confirmed_by) == ("E", None)
    # East (or West) does not confirm their own correction; North or South does (the write
    # policy refuses it before any lock: games.permissions.check_confirm).
    with unchanged(), pytest.raises(NotAllowed, match="other side"):
        deal.confirm(actor=acting(deal, player=rubber.west))
    deal.confirm(actor=acting(deal, player=Player.objects.get(pk=rubber.north_id)))
    deal.refresh_from_db()
    assert deal.confirmed_by_id == rubber.north_id


def test_a_director_outside_the_rubber_writes_from_no_seat(rubber, director):
    deal, _ = rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, director),
    )
    assert deal.written_seat == ""  # any seated player may confirm it
    deal.confirm(actor=acting(deal, player=rubber.north))
    assert Deal.objects.get(pk=deal.pk).confirmed_by_id == rubber.north_id


def test_the_migration_gives_old_deals_their_entrants_seat(rubber, north, director):
    by_north, _ = rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, north),
    )
    by_director, _ = rubber.record_deal(number=2, contract="pass", actor=acting(rubber, director))
    Deal.objects.update(written_seat="")  # as they were before the field
    migration = importlib.import_module("games.migrations.0004_deal_written_seat_and_phone")
    migration.seat_of_entrant(apps, None)
    seats = dict(Deal.objects.values_list("pk", "written_seat"))
    assert seats == {by_north.pk: "N", by_director.pk: ""}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_table_phone_is_handed_over_and_the_other_side_confirms(
    live_server, browser, running_session
):
    """At 390×844: a phone with the table's code enters as North, is handed to West, who is told
    which deal awaits them, picks their seat among East–West's and confirms in one tap; the
    phone is North's again (the Bridgemate round trip, with no account)."""
    rubber = running_session.rubbers.get()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/t/{rubber.table.code}")
    page.get_by_role("button", name="North, North").click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/")
    for field, value in (("level", "4"), ("strain", "S"), ("declarer", "N"), ("result", "0")):
        page.locator(f"#entry .field-{field} label[data-v='{value}']").click()
    page.locator("#record").click()
    page.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    page.locator("#deals", has_text="entered by North, table 1 (code), seat N").wait_for()
    assert page.locator("#confirm-1").count() == 0  # North does not confirm North's deal
    page.locator("a.hand-over").click()
    page.locator("#hand-over", has_text="Deal 1 (4♠ by North, made) awaits").wait_for()
    assert (
        "East (East) or West (West): pick your seat" in page.locator("#hand-over-who").inner_text()
    )
    # Seen as the pad writes the seats; heard in words (the buttons' names).
    shown = page.locator("#hand-over button [aria-hidden='true']").all_inner_texts()
    assert shown == ["E · East", "W · West"]
    assert page.locator("#cancel-hand-over").inner_text() == "Cancel: give the phone back to North"
    page.get_by_role("button", name="West, West").click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/#confirm-1")
    assert (
        page.locator("#this-phone")
        .inner_text()
        .startswith("This phone: West, W (handed over by North)")
    )
    assert page.locator("#entry").count() == 0  # West enters nothing on North's phone
    page.locator("#confirm-1 button", has_text="Confirm").click()
    page.locator("#deals", has_text="confirmed by West").wait_for()
    page.locator("#notice", has_text="This phone is North's again (seat N).").wait_for()
    assert page.locator("#this-phone").inner_text().startswith("This phone: North, N")
    page.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    deal = rubber.deals.get()
    assert deal.confirmed_by == rubber.west
    # Reloaded, the phone is still North's: the cookie came back with the answer.
    page.reload()
    assert page.locator("#this-phone").inner_text().startswith("This phone: North, N")
    context.close()


def test_the_phone_follows_its_player_when_the_rotation_moves_them(rubber, running_session):
    from tests.games.conftest import SIX_DEALS, record_deals

    bruno = rubber.east  # the phone is East's player, not the East seat
    phone = phone_at(rubber, "E")
    record_deals(rubber, SIX_DEALS, entered_by=None, seat="")
    second = running_session.rubbers.get(number=2)
    second.fetch_players()
    seat = second.seat_of(bruno.pk)
    assert seat is not None and second.seats["E"].pk != bruno.pk  # the pivot moved them
    html = phone.get(f"/rubbers/{second.pk}/").content.decode()
    assert f"This phone: {bruno.name}, {seat}" in html
    side = "ns" if seat in "NS" else "ew"
    assert f'data-left="{side}"' in html  # their side is WE
    # A deal entered by Bruno's partner is not Bruno's to confirm.
    partner_seat = {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]
    partner = phone_at(second, partner_seat, Client())
    taps = {**TAPS, "declarer": partner_seat}
    assert partner.post(f"/rubbers/{second.pk}/deals/", taps).status_code == 302
    deal = Deal.objects.get(rubber=second, number=1)
    with unchanged():
        refused = phone.post(f"/deals/{deal.pk}/confirm", {"version": 1})
    assert refused.status_code == 403
    # Told the real reason, not that the code changed (it did not).
    assert "code has changed" not in refused.content.decode()


def test_a_confirmation_is_of_the_version_the_player_saw(rubber, north):
    deal, _ = rubber.record_deal(
        number=1, contract="2C", declarer="N", tricks=8, actor=acting(rubber, north)
    )
    east = phone_at(rubber, "E")
    assert "awaiting your confirmation" in east.get(f"/rubbers/{rubber.pk}/").content.decode()
    deal.correct(version=1, tricks=5, actor=acting(deal, north))  # North corrects meanwhile: down 3
    for verb in ("confirm", "dispute"):
        with unchanged():
            answer = east.post(f"/deals/{deal.pk}/{verb}", {"version": 1}, follow=True)
        assert "Deal 1 was just corrected: it is now" in answer.content.decode()
        for bad in ("", "x", "²", "9" * 5000):
            with unchanged():
                answer = east.post(f"/deals/{deal.pk}/{verb}", {"version": bad}, follow=True)
            assert answer.status_code == 200
            assert "This page is out of date" in answer.content.decode()
    assert east.post(f"/deals/{deal.pk}/confirm", {"version": 2}).status_code == 302
    deal.refresh_from_db()
    assert (deal.version, deal.confirmed_by_id) == (2, rubber.east_id)


def test_a_stale_confirmation_is_told_in_words_even_when_the_side_changed(rubber, north):
    """Probe 2: West corrected the deal East saw, which makes it East–West's to be confirmed by
    North–South; East is told in words that it changed, not given a bare 403."""
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="N", tricks=9, actor=acting(rubber, north)
    )
    east = phone_at(rubber, "E")
    deal.correct(
        version=1, tricks=8, actor=acting(deal, rubber.west.user)
    )  # East's partner corrects
    for verb in ("confirm", "dispute"):
        with unchanged():
            answer = east.post(
                f"/deals/{deal.pk}/{verb}", {"version": 1}, headers={"HX-Request": "true"}
            )
        assert answer.status_code == 200
        assert "Deal 1 was just corrected: it is now" in answer.content.decode()


def test_a_refusal_page_says_why(rubber, north):
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="N", tricks=9, actor=acting(rubber, north)
    )
    south = phone_at(rubber, "S")
    with unchanged():
        answer = south.post(f"/deals/{deal.pk}/confirm", {"version": 1})
    assert answer.status_code == 403
    assert "A deal is confirmed by a player of the other side." in answer.content.decode()


def test_the_hand_over_opens_the_deals_own_rubber(rubber, running_session):
    """Probe 2: the hand-over names the deal's rubber, so a rubber's last deal is confirmed on
    its own rubber, not on the next one (whose players may differ)."""
    from tests.games.conftest import SIX_DEALS, record_deals

    phone = phone_at(rubber, "E")
    record_deals(rubber, SIX_DEALS, entered_by=None, seat="")
    first_east = rubber.east.name
    assert running_session.rubbers.get(number=2).east_id != rubber.east_id
    page = phone.get(f"/t/{rubber.table.code}?rubber={rubber.pk}").content.decode()
    assert f"E · {first_east}" in page
    picked = phone.post(f"/t/{rubber.table.code}?rubber={rubber.pk}", {"seat": "W"})
    assert picked["Location"] == f"/rubbers/{rubber.pk}/"
    # Another table's rubber, or garbage, falls back to the table's rubber in play.
    for odd in ("999999", "²", "abc"):
        assert phone.get(f"/t/{rubber.table.code}?rubber={odd}").status_code == 200


def test_a_phone_holding_its_code_is_not_throttled_on_its_own_code(client, rubber):
    from games.codes import tokens as codes

    held = phone_at(rubber, "N")
    for _ in range(codes.MISSES):
        client.get("/t/ZZZZZZZZ")
    assert client.get(f"/t/{rubber.table.code}").status_code == 429
    # "not you?" and the hand-over come back to the code page: still open to this phone.
    assert held.get(f"/t/{rubber.table.code}").status_code == 200
    # Not a way round the throttle for other codes.
    assert held.get("/t/ZZZZZZZY").status_code == 429


def test_the_code_cookie_is_https_only_where_the_session_is(rubber, settings):
    settings.SESSION_COOKIE_SECURE = True
    phone = Client()
    answer = phone.post(f"/t/{rubber.table.code}", {"seat": "N"}, secure=True)
    assert answer.cookies["table_code"]["secure"] is True
    assert answer.cookies["table_code"]["httponly"] is True


def test_a_phone_at_another_table_is_refused_not_told_its_code_changed(
    running_session, club, table_of_four
):
    from tests.factories import add_player, make_session

    others = [add_player(club, f"Other {i}") for i in range(4)]
    other_session = make_session(club, [others])
    other_rubber = other_session.rubbers.get()
    rubber = running_session.rubbers.get()
    phone = phone_at(rubber, "N")
    with unchanged():
        answer = phone.post(f"/rubbers/{other_rubber.pk}/deals/", TAPS)
    assert answer.status_code == 403
    assert "code has changed" not in answer.content.decode()


def test_the_next_rubbers_pad_asks_for_the_last_deal_of_the_one_before(
    client, rubber, running_session, north
):
    """Probe 2: everyone moves on to the next rubber as its predecessor's last deal is entered;
    that deal's confirmation is asked for on the new pad, with a link to it."""
    from tests.games.conftest import SIX_DEALS, record_deals

    record_deals(rubber, SIX_DEALS, entered_by=north)
    for deal in rubber.deals.exclude(number=6):
        deal.confirm(actor=acting(deal, player=rubber.east))
    last = rubber.deals.get(number=6)
    second = running_session.rubbers.get(number=2)
    asked = "Rubber 1, deal 6 is awaiting your confirmation."
    client.force_login(rubber.east.user)  # East–West confirm North's deal
    html = client.get(f"/rubbers/{second.pk}/").content.decode()
    assert asked in html and f'href="/rubbers/{rubber.pk}/#confirm-6"' in html
    assert "Rubber 1, deal 5" not in html  # confirmed already
    client.force_login(rubber.south.user)  # North's partner: not theirs to confirm
    assert asked not in client.get(f"/rubbers/{second.pk}/").content.decode()
    last.confirm(actor=acting(last, player=rubber.west))
    client.force_login(rubber.east.user)
    assert asked not in client.get(f"/rubbers/{second.pk}/").content.decode()


# The hand-over round trip (a Bridgemate's): East's phone enters, South confirms on it, and the
# phone comes back to East by itself; it enters nothing while South holds it.

BY_EAST = {**TAPS, "declarer": "E"}  # "4♠ by East, made"


def hand_over_url(rubber):
    return f"/t/{rubber.table.code}/hand-over?rubber={rubber.pk}"


def handed_to(rubber, seat="S", *, deals=1):
    """East's table-code phone, which entered `deals` deals, handed over to `seat`."""
    phone = phone_at(rubber, "E")
    for number in range(1, deals + 1):
        entered = phone.post(f"/rubbers/{rubber.pk}/deals/", {**BY_EAST, "number": number})
        assert entered.status_code == 302
    picked = phone.post(hand_over_url(rubber), {"seat": seat})
    assert picked.status_code == 302
    assert picked["Location"] == f"/rubbers/{rubber.pk}/#confirm-1"
    return phone


def this_phone(html):
    found = re.search(r'id="this-phone">(.*?)(?: ·|</p>)', html, re.S)
    assert found is not None
    return found.group(1).strip()


def test_the_hand_over_page_says_what_is_asked_and_offers_the_other_sides_seats(rubber):
    phone = phone_at(rubber, "E")
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", BY_EAST).status_code == 302
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert f'href="{hand_over_url(rubber)}" class="hand-over"' in html
    with unchanged():
        page = phone.get(hand_over_url(rubber))
    html = page.content.decode()
    assert "Deal 1 (4♠ by East, made) awaits the other side's confirmation." in html
    assert "North (North) or South (South): pick your seat, check the deal and confirm it." in html
    assert re.findall(r'name="seat" value="(\w)"', html) == ["N", "S"]
    assert (
        f'<a href="/rubbers/{rubber.pk}/" class="button" id="cancel-hand-over">'
        "Cancel: give the phone back to East</a>"
    ) in html
    assert "table_code" not in page.cookies  # looking is not handing over
    # East's own side may not take it: the page again, the phone still East's.
    for own in ("E", "W", "X", ""):
        answer = phone.post(hand_over_url(rubber), {"seat": own})
        assert answer.status_code == 200 and "table_code" not in answer.cookies
    assert this_phone(phone.get(f"/rubbers/{rubber.pk}/").content.decode()) == (
        "This phone: East, E"
    )


def test_the_handed_over_phone_only_confirms_then_comes_back_to_its_seat(rubber):
    phone = handed_to(rubber, "S")
    deal = Deal.objects.get(rubber=rubber)
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert this_phone(html) == "This phone: South, S (handed over by East)"
    assert 'id="give-back">give it back</button>' in html
    assert 'id="confirm-1"' in html and 'id="entry"' not in html
    assert 'id="correct-1"' not in html and "hand this phone" not in html
    # Nothing is written as South's seat by mistake: no entry, no correction.
    with unchanged():
        refused = phone.post(f"/rubbers/{rubber.pk}/deals/", {**TAPS, "number": 2})
        assert refused.status_code == 403
        assert "give it back to enter or correct deals" in refused.content.decode()
        correction = {"correct-version": 1, "correct-result": "-1"}
        assert phone.post(f"/deals/{deal.pk}/correct", correction).status_code == 403
        assert phone.get(f"/deals/{deal.pk}/correct").status_code == 403
    confirmed = phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}, follow=True)
    deal.refresh_from_db()
    assert deal.confirmed_by == rubber.south
    assert deal.history.order_by("-history_id").first().history_change_reason == (
        "confirmed · South, table 1 (code), seat S · on the phone that entered it"
    )
    html = confirmed.content.decode()
    assert "Deal 1 confirmed by South. This phone is East&#x27;s again (seat E)." in html
    assert this_phone(html) == "This phone: East, E"
    assert 'id="entry"' in html  # East enters the next deal on it
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", {**BY_EAST, "number": 2}).status_code == 302
    assert Deal.objects.get(rubber=rubber, number=2).written_seat == "E"


def test_a_dispute_on_the_handed_over_phone_gives_it_back_on_the_pad(rubber):
    phone = handed_to(rubber, "N")
    deal = Deal.objects.get(rubber=rubber)
    answer = phone.post(
        f"/deals/{deal.pk}/dispute",
        {"version": 1, "reason": "result"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    deal.refresh_from_db()
    assert deal.disputed and deal.confirmed_by is None
    html = answer.content.decode()
    assert "Deal 1 disputed by North. This phone is East&#x27;s again (seat E)." in html
    assert this_phone(html) == "This phone: East, E"  # the pad swapped in is East's
    assert "table_code" in answer.cookies
    assert this_phone(phone.get(f"/rubbers/{rubber.pk}/").content.decode()) == (
        "This phone: East, E"
    )


def test_with_two_deals_handed_over_the_phone_comes_back_after_both(rubber):
    phone = handed_to(rubber, "S", deals=2)
    first, second = Deal.objects.filter(rubber=rubber).order_by("number")
    page = phone.get(f"/t/{rubber.table.code}/hand-over?rubber={rubber.pk}")
    assert page.status_code == 302  # handed over already: to the pad, which gives it back
    answer = phone.post(f"/deals/{first.pk}/confirm", {"version": 1}, follow=True)
    html = answer.content.decode()
    assert this_phone(html) == "This phone: South, S (handed over by East)"
    assert "s again" not in html and 'id="confirm-2"' in html
    answer = phone.post(f"/deals/{second.pk}/confirm", {"version": 1}, follow=True)
    html = answer.content.decode()
    assert "Deal 2 confirmed by South. This phone is East&#x27;s again (seat E)." in html
    assert this_phone(html) == "This phone: East, E"


def test_the_hand_over_page_lists_every_deal_awaiting_the_other_side(rubber):
    phone = phone_at(rubber, "E")
    for number in (1, 2):
        entered = phone.post(f"/rubbers/{rubber.pk}/deals/", {**BY_EAST, "number": number})
        assert entered.status_code == 302
    html = phone.get(hand_over_url(rubber)).content.decode()
    assert "Deal 1 (4♠ by East, made) awaits" in html and "Deal 2 (4♠ by East, made)" in html
    assert (
        "North (North) or South (South): pick your seat, check the deals and confirm them." in html
    )


def test_give_it_back_returns_the_phone_without_confirming(rubber):
    phone = handed_to(rubber, "S")
    with unchanged():
        answer = phone.post(f"/t/{rubber.table.code}/back", {"rubber": rubber.pk})
    assert answer.status_code == 302 and answer["Location"] == f"/rubbers/{rubber.pk}/"
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "This phone is East&#x27;s again (seat E)." in html
    assert this_phone(html) == "This phone: East, E"
    assert Deal.objects.get(rubber=rubber).confirmed_by is None
    assert 'class="hand-over"' in html  # and may be handed over again
    # Given back already, or never handed over: nothing changes.
    again = phone.post(f"/t/{rubber.table.code}/back")
    assert again.status_code == 302 and "table_code" not in again.cookies
    assert Client().post(f"/t/{rubber.table.code}/back").status_code == 302
    assert Client().get(f"/t/{rubber.table.code}/back").status_code == 405


def test_picking_a_seat_on_the_plain_page_ends_the_hand_over(rubber):
    phone = handed_to(rubber, "S")
    phone_at(rubber, "W", phone)  # "not you?" is the phone's own choice
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert this_phone(html) == "This phone: West, W"
    assert "give it back" not in html


def forged(rubber, **data):
    """A cookie signed as the server signs it (as if its key had leaked), naming `data`."""
    value = {"t": rubber.table_id, "c": rubber.table.code, "s": "S", "p": "f0", **data}
    phone = Client()
    phone.cookies[codes.COOKIE] = signing.dumps(value, salt=codes.SALT)
    return phone


def test_a_back_player_not_at_this_table_is_ignored(rubber, club, running_session):
    elsewhere = make_session(club, [[add_player(club, f"Other {i}") for i in range(4)]])
    stranger = elsewhere.rubbers.get().north_id
    for back in (stranger, rubber.south_id, "x", True, None, [rubber.east_id]):
        phone = forged(rubber, pl=rubber.south_id, b=back)
        html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
        assert this_phone(html) == "This phone: South, S"  # no "handed over by"
        with unchanged():
            answer = phone.post(f"/t/{rubber.table.code}/back", {"rubber": rubber.pk})
        assert answer.status_code == 302 and "table_code" not in answer.cookies
    # A seated player of this table is the one it goes back to.
    phone = forged(rubber, pl=rubber.south_id, b=rubber.east_id)
    assert "(handed over by East)" in phone.get(f"/rubbers/{rubber.pk}/").content.decode()


def test_a_tampered_cookie_holds_nothing(rubber):
    phone = handed_to(rubber, "S")
    value = phone.cookies[codes.COOKIE].value
    phone.cookies[codes.COOKIE] = value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB")
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="this-phone"' not in html and 'id="confirm-1"' not in html
    with unchanged():
        answer = phone.post(f"/t/{rubber.table.code}/back")
    assert answer.status_code == 302 and "table_code" not in answer.cookies
    assert phone.get(hand_over_url(rubber))["Location"] == (
        f"/t/{rubber.table.code}?rubber={rubber.pk}"
    )


def test_a_handed_over_phone_of_a_closed_session_is_told_its_code_no_longer_works(
    rubber, running_session
):
    phone = handed_to(rubber, "S")
    deal = Deal.objects.get(rubber=rubber)
    lifecycle.session_close(session=running_session)
    with unchanged():
        answer = phone.post(f"/t/{rubber.table.code}/back", {"rubber": rubber.pk})
        assert answer.status_code == 403 and "table_code" not in answer.cookies
        # Closed: scanning the card again would not help (issue 26's probe).
        assert "This session is closed: the table's code no longer opens it." in (
            answer.content.decode()
        )
        assert phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}).status_code == 403
    assert phone.get(hand_over_url(rubber)).status_code == 404


def test_a_phone_not_holding_the_table_picks_a_seat_on_the_plain_page(rubber):
    stranger = Client()
    answer = stranger.get(hand_over_url(rubber))
    assert answer["Location"] == f"/t/{rubber.table.code}?rubber={rubber.pk}"
    with unchanged():
        assert stranger.post(hand_over_url(rubber), {"seat": "S"}).status_code == 302
    assert "table_code" not in stranger.cookies
    assert stranger.get(f"/t/ZZZZZZZZ/hand-over?rubber={rubber.pk}").status_code == 404
    assert stranger.post("/t/ZZZZZZZZ/back").status_code == 404


def test_with_nothing_awaiting_the_other_side_the_phone_is_not_handed_over(rubber):
    phone = phone_at(rubber, "E")
    html = phone.get(hand_over_url(rubber)).content.decode()
    assert "No deal of this rubber awaits the other side's confirmation." in html
    assert 'name="seat"' not in html
    answer = phone.post(hand_over_url(rubber), {"seat": "S"})
    assert answer.status_code == 200 and "table_code" not in answer.cookies


def test_a_handed_over_phone_keeps_its_queued_deals_until_given_back(rubber):
    phone = handed_to(rubber, "S")
    with unchanged():
        answer = phone.post(f"/rubbers/{rubber.pk}/deals/queued", {**BY_EAST, "number": 2})
    assert answer.status_code == 403
    assert answer.json() == {
        "status": "sign in",
        "detail": "This phone is handed over to the other side: give it back to send the "
        "deals kept on it.",
    }


def test_a_table_of_two_hands_over_to_the_other_player_by_name(club):
    ann, bea = add_player(club, "Ann"), add_player(club, "Bea")
    session = make_session(club, [[ann, bea]], kind="bridge_for_two")
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    match = session.rubbers.get()
    phone = phone_at(match, "N")
    taps = {"number": 1, "declarer": "0", "strain": "S", "tricks": "10"}
    assert phone.post(f"/rubbers/{match.pk}/deals/", taps).status_code == 302
    html = phone.get(hand_over_url(match)).content.decode()
    assert f"{match.east.name}: tap your name, check the deal and confirm it." in html
    assert re.findall(r'name="seat" value="(\w)"', html) == ["E"]
    assert phone.post(hand_over_url(match), {"seat": "E"}).status_code == 302
    deal = match.deals.get()
    answer = phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}, follow=True)
    said = f"Deal 1 confirmed by {match.east.name}. This phone is {match.north.name}&#x27;s again."
    assert said in answer.content.decode()


def test_the_hand_over_speaks_the_clubs_language(rubber):
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    phone = phone_at(rubber, "E")
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", BY_EAST).status_code == 302
    html = phone.get(hand_over_url(rubber)).content.decode()
    assert "attende la conferma degli avversari." in html
    assert (
        "Nord (North) o Sud (South): scegli il tuo posto, controlla la smazzata e confermala."
        in html
    )
    assert "Annulla: restituisci il telefono a East" in html
    assert phone.post(hand_over_url(rubber), {"seat": "S"}).status_code == 302
    html = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert this_phone(html) == "Questo telefono: South, S (passato da East)"
    assert ">restituiscilo</button>" in html
    deal = Deal.objects.get(rubber=rubber)
    html = phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}, follow=True).content.decode()
    assert "Smazzata 1 confermata da South. Questo telefono è di nuovo di East (posto E)." in html
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", {**BY_EAST, "number": 2}).status_code == 302
    assert phone.post(hand_over_url(rubber), {"seat": "S"}).status_code == 302
    # Deal 2 ends the rubber: the pad's form names it (East sits W in the next one).
    back = phone.post(f"/t/{rubber.table.code}/back", {"rubber": rubber.pk}, follow=True)
    html = back.content.decode()
    assert "Questo telefono è di nuovo di East (posto E)." in html
    assert phone.post(hand_over_url(rubber), {"seat": "S"}).status_code == 302
    second = Deal.objects.get(rubber=rubber, number=2)
    answer = phone.post(
        f"/deals/{second.pk}/dispute",
        {"version": 1, "reason": "result"},
        headers={"HX-Request": "true"},
    )
    assert "Smazzata 2 contestata da South. Questo telefono è di nuovo di East" in (
        answer.content.decode()
    )


def test_deals_that_stand_are_not_handed_over_and_the_phone_comes_back(rubber, running_session):
    """Issue 29 round 3, item 1: deals recorded before the director asked for confirmation stand
    (`ruled`): the hand-over page leaves them out, as the pad does, and the phone comes back
    once the one deal awaiting is confirmed."""
    from games.sessions.confirming import set_confirmation

    running_session.confirm_entries = False
    running_session.save(update_fields=["confirm_entries"])
    phone = phone_at(rubber, "E")
    part = {**BY_EAST, "level": "1"}  # 1♠ by East, made: the rubber goes on
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", part).status_code == 302
    running_session.club.confirm_entries = False
    running_session.club.save(update_fields=["confirm_entries"])
    assert set_confirmation(club=running_session.club, on=True, session=running_session) == 1
    second = phone.post(f"/rubbers/{rubber.pk}/deals/", {**part, "number": 2})
    assert second.status_code == 302
    html = phone.get(hand_over_url(rubber)).content.decode()
    assert "Deal 2 (1♠ by East, made) awaits the other side's confirmation." in html
    assert "Deal 1 (" not in html
    assert phone.post(hand_over_url(rubber), {"seat": "S"})["Location"] == (
        f"/rubbers/{rubber.pk}/#confirm-2"
    )
    deal = Deal.objects.get(rubber=rubber, number=2)
    html = phone.post(f"/deals/{deal.pk}/confirm", {"version": 1}, follow=True).content.decode()
    assert "Deal 2 confirmed by South. This phone is East&#x27;s again (seat E)." in html
    assert this_phone(html) == "This phone: East, E" and 'id="entry"' in html


def test_a_phone_whose_player_left_the_table_says_so_not_that_they_sit_out(rubber):
    """A walk on a real server (issue 28): the director seated a substitute for East, and East's
    phone, left on the table for the substitute, said "This phone: <East>, sitting out this
    rubber", as if they would be back. It says they are no longer at this table, in the pad and
    in the live part the other phones' changes bring, in English and in Italian."""
    from games.sessions import table_changes

    east = rubber.east
    phone = phone_at(rubber, "E")
    table_changes.table_substitute(table=rubber.table, leaver=east, new_name="Zoe Zeta")
    for path in (f"/rubbers/{rubber.pk}/", f"/rubbers/{rubber.pk}/live"):
        html = phone.get(path).content.decode()
        assert this_phone(html) == f"This phone: {east.name}, no longer at this table"
    phone.cookies["django_language"] = "it"
    html = phone.get(f"/rubbers/{rubber.pk}/live").content.decode()
    assert this_phone(html) == f"Questo telefono: {east.name}, non più a questo tavolo"
    # Whoever takes the phone picks their seat from "not you?": the substitute is there.
    picker = phone.get(f"/t/{rubber.table.code}").content.decode()
    assert "Zoe Zeta" in picker
