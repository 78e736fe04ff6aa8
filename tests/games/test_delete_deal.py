"""Deleting the last deal of a rubber in play, entered by mistake (docs/rules.md, §8 decision 7;
docs/api.md, `DELETE /api/v1/deals/{id}/`; the pad's "Delete deal N")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Conflict, Deal, Rubber
from games.sessions import lifecycle
from tests.conftest import unchanged
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.games.conftest import SIX_DEALS, record_deals
from tests.games.test_chicago_at_tables import as_engine_input
from tests.games.two_player.conftest import engine, named, play
from tests.games.two_player.test_api import BRIDGE_FOR_TWO, TURNOVER, first_match

pytestmark = pytest.mark.django_db

FALSE_DEAL = {"contract": "1NT", "declarer": "E", "tricks": 6}  # 1NT by East, down one


@pytest.fixture(autouse=True)
def _empty_caches():
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


def delete(api: Any, deal: Deal, user: Any, version: Any = 1) -> Any:
    api.force_authenticate(user)
    return api.delete(f"/api/v1/deals/{deal.pk}/?version={version}")


def four_and_a_false_fifth(rubber: Rubber, **writer: Any) -> Deal:
    """Deals 1–4 of SIX_DEALS, then deal 5 recorded by mistake: the rubber stays in play."""
    record_deals(rubber, [*SIX_DEALS[:4], FALSE_DEAL], entered_by=None, **writer)
    return rubber.deals.get(number=5)


def at_table(rubber: Rubber, seat: str) -> Client:
    phone = Client()
    assert phone.post(f"/t/{rubber.table.code}", {"seat": seat}).status_code == 302
    return phone


# --- the API --------------------------------------------------------------------------------------


def test_the_last_deal_is_deleted_and_the_next_entry_takes_its_number(api, rubber, north):
    false = four_and_a_false_fifth(rubber)
    response = delete(api, false, north)
    assert response.status_code == 204, response.content
    assert response.content == b""
    assert list(rubber.deals.values_list("number", flat=True)) == [1, 2, 3, 4]
    answer = api.get(f"/api/v1/rubbers/{rubber.pk}/").json()
    assert [d["number"] for d in answer["deals"]] == [1, 2, 3, 4]
    # The next deal takes the freed number; the number after it is a gap, as always.
    gap = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 6, **SIX_DEALS[4]}, format="json"
    )
    assert gap.status_code == 409
    assert "number 5, not 6" in gap.json()["detail"]
    again = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 5, **SIX_DEALS[4]}, format="json"
    )
    assert again.status_code == 201, again.json()


@pytest.mark.parametrize("seat", ["N", "E", "S", "W"])
def test_every_seated_player_may_delete_the_last_deal(api, rubber, seat):
    false = four_and_a_false_fifth(rubber)
    assert delete(api, false, rubber.seats[seat].user).status_code == 204
    assert not Deal.objects.filter(pk=false.pk).exists()


def test_the_clubs_director_may_delete_the_last_deal(api, rubber, director):
    false = four_and_a_false_fifth(rubber)
    assert delete(api, false, director).status_code == 204


def test_a_player_sitting_out_at_the_table_may_delete_as_they_may_correct(api, club, director):
    five = [add_player(club, name, user=UserFactory(username=name)) for name in "abcde"]
    session = make_session(club, [five])
    rubber = session.rubbers.get(number=1)
    (out,) = rubber.sitting_out
    false = four_and_a_false_fifth(rubber)
    watcher = next(p for p in five if p.pk == out)
    assert delete(api, false, watcher.user).status_code == 204


def test_a_member_not_at_the_table_an_outsider_or_another_director_may_not(
    api, rubber, club, outsider
):
    false = four_and_a_false_fifth(rubber)
    member = add_player(club, "Member", user=UserFactory(username="member")).user
    other = UserFactory(username="other-director")
    make_club(director=other, slug="elsewhere")
    for user in (member, outsider, other):
        with unchanged():
            response = delete(api, false, user)
        assert response.status_code == 403, user
        assert "deletes a deal" in response.json()["detail"]
    api.force_authenticate(None)
    with unchanged():
        assert api.delete(f"/api/v1/deals/{false.pk}/?version=1").status_code == 401


def test_a_hidden_deal_answers_exactly_like_a_missing_one(api, rubber, club, outsider):
    false = four_and_a_false_fifth(rubber)
    club.public = False
    club.save()
    with unchanged():
        hidden = delete(api, false, outsider)
        missing = delete(api, Deal(pk=999_999), outsider)
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content
    assert dict(hidden.headers) == dict(missing.headers)


def test_only_the_last_deal_is_deleted(api, rubber, north):
    four_and_a_false_fifth(rubber)
    third = rubber.deals.get(number=3)
    with unchanged():
        response = delete(api, third, north)
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "Only the last deal of a rubber can be deleted, and deal 5 comes after deal 3: "
        "correct deal 3 instead."
    )


def test_the_deal_that_finished_the_rubber_is_corrected_not_deleted(api, rubber, north):
    record_deals(rubber, SIX_DEALS, entered_by=None)
    rubber.refresh_from_db()
    assert rubber.status == Rubber.Status.COMPLETE
    last = rubber.deals.get(number=6)
    with unchanged():
        response = delete(api, last, north)
    assert response.status_code == 409
    assert response.json()["detail"] == "Deal 6 finished the rubber: correct it instead."


def test_a_stale_version_is_refused_and_changes_nothing(api, rubber, north, east):
    false = four_and_a_false_fifth(rubber)
    api.force_authenticate(east)
    patched = api.patch(f"/api/v1/deals/{false.pk}/", {"version": 1, "tricks": 7}, format="json")
    assert patched.status_code == 200
    with unchanged():
        response = delete(api, false, north, version=1)
    assert response.status_code == 409
    assert "version 2, you sent 1" in response.json()["detail"]
    assert delete(api, false, north, version=2).status_code == 204


@pytest.mark.parametrize("version", ["", "abc", "0", "-1", "1.5", "99999999999"])
def test_a_bad_version_is_a_400_naming_it(api, rubber, north, version):
    false = four_and_a_false_fifth(rubber)
    with unchanged():
        response = delete(api, false, north, version=version)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["version"]


def test_without_a_version_it_is_a_400_naming_it(api, rubber, north):
    false = four_and_a_false_fifth(rubber)
    api.force_authenticate(north)
    with unchanged():
        response = api.delete(f"/api/v1/deals/{false.pk}/")
    assert response.status_code == 400
    assert response.json()["errors"]["version"] == ["This field is required."]


def test_the_version_may_come_in_a_json_body(api, rubber, north):
    false = four_and_a_false_fifth(rubber)
    api.force_authenticate(north)
    response = api.delete(f"/api/v1/deals/{false.pk}/", {"version": 1}, format="json")
    assert response.status_code == 204


def test_a_body_with_other_fields_leaves_the_query_strings_version(api, rubber, north):
    """`?version=` counts even when the body carries something else; when both name a version
    they must agree (a 400 naming the field, nothing deleted)."""
    false = four_and_a_false_fifth(rubber)
    api.force_authenticate(north)
    url = f"/api/v1/deals/{false.pk}/?version=1"
    with unchanged():
        response = api.delete(url, {"version": 2}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["version"] == [
        "The query string and the body name different versions."
    ]
    assert api.delete(url, {"version": 1}, format="json").status_code == 204
    false = rubber.record_deal(number=5, **FALSE_DEAL, actor=acting(rubber, None))[0]
    response = api.delete(f"/api/v1/deals/{false.pk}/?version=1", {"why": "x"}, format="json")
    assert response.status_code == 204


def test_a_closed_sessions_deals_are_never_deleted(api, rubber, running_session, director):
    false = four_and_a_false_fifth(rubber)
    lifecycle.session_close(session=running_session)
    with unchanged():
        response = delete(api, false, director)
    assert response.status_code == 409
    assert response.json()["detail"] == "The session is closed: its results are final."
    lifecycle.session_reopen(session=running_session)
    with unchanged():
        response = delete(api, false, director)
    assert response.status_code == 409  # reopened for corrections only: no rubber in play
    assert "no longer in play" in response.json()["detail"]


def test_a_refusal_speaks_the_readers_language(api, rubber, north):
    record_deals(rubber, SIX_DEALS, entered_by=None)
    api.force_authenticate(north)
    last = rubber.deals.get(number=6)
    response = api.delete(f"/api/v1/deals/{last.pk}/?version=1", HTTP_ACCEPT_LANGUAGE="it")
    assert response.json()["detail"] == "La smazzata 6 ha concluso il rubber: correggila, invece."


def test_a_delete_queues_a_standings_refresh_after_commit(
    api, rubber, north, monkeypatch, django_capture_on_commit_callbacks
):
    false = four_and_a_false_fifth(rubber)
    calls: list[int] = []
    monkeypatch.setattr("scoring.standings.queueing.queue_session_refresh", calls.append)
    with django_capture_on_commit_callbacks(execute=True):
        assert delete(api, false, north).status_code == 204
    assert calls == [rubber.session_id]
    with unchanged():
        assert delete(api, rubber.deals.get(number=3), north).status_code == 409
    assert calls == [rubber.session_id]  # a refusal queues nothing


def test_the_history_keeps_a_deleted_record_with_who(api, rubber, north, east):
    false = four_and_a_false_fifth(rubber)
    assert delete(api, false, east).status_code == 204
    records = list(Deal.history.filter(id=false.pk).order_by("history_id"))
    assert [r.history_type for r in records] == ["+", "-"]
    gone = records[-1]
    assert gone.history_change_reason == "deleted"
    assert gone.history_user_id == east.pk
    assert (gone.number, gone.contract, gone.written_seat) == (5, "1NT", "E")
    # The deal is missing from then on, its history endpoint too (docs/api.md).
    assert api.get(f"/api/v1/deals/{false.pk}/").status_code == 404
    assert api.get(f"/api/v1/deals/{false.pk}/history").status_code == 404


def test_the_schema_documents_the_delete(api):
    paths = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    operation = paths["/api/v1/deals/{id}/"]["delete"]
    assert {"204", "400", "401", "403", "404", "409"} <= set(operation["responses"])
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["version"]


# --- Chicago and two-player matches ---------------------------------------------------------------


def test_rules_2_3_a_deleted_game_no_longer_makes_its_side_vulnerable(api, rubber, north):
    """A rubber's vulnerability is by games (RULES 2.3): a false deal that won East–West a game,
    deleted, leaves the next deal not vulnerable, as the deal it replaces was."""
    record_deals(rubber, [SIX_DEALS[0], SIX_DEALS[1]], entered_by=None)  # 4S by E made: a game
    api.force_authenticate(north)
    sheet = api.get(f"/api/v1/rubbers/{rubber.pk}/").json()["scoresheet"]
    assert sheet["vulnerable"] == {"NS": False, "EW": True}
    assert delete(api, rubber.deals.get(number=2), north).status_code == 204
    sheet = api.get(f"/api/v1/rubbers/{rubber.pk}/").json()["scoresheet"]
    assert sheet["vulnerable"] == {"NS": False, "EW": False}
    assert sheet["games"] == {"NS": 0, "EW": 0}


def test_rules_5_after_a_delete_the_next_chicago_deal_has_the_deleted_deals_vulnerability(
    api, club, table_of_four, director
):
    """Chicago's vulnerability follows the counted deals (RULES 5: deal 1 none, 2 and 3 the
    dealer's side, 4 both). A false counted deal 2 deleted: the next deal is deal 2 again,
    dealt by East with East–West vulnerable, not deal 3's North–South."""
    session = make_session(club, [list(table_of_four.values())], kind="chicago")
    chukker = session.rubbers.get(number=1)
    first = {"contract": "1NT", "declarer": "N", "tricks": 8}
    record_deals(
        chukker, [first, {"contract": "3NT", "declarer": "E", "tricks": 9}], entered_by=None
    )
    api.force_authenticate(director)
    sheet = api.get(f"/api/v1/rubbers/{chukker.pk}/").json()["scoresheet"]
    assert sheet["next"] == {"dealer": "NS", "vulnerable": {"NS": True, "EW": False}}
    assert delete(api, chukker.deals.get(number=2), director).status_code == 204
    sheet = api.get(f"/api/v1/rubbers/{chukker.pk}/").json()["scoresheet"]
    assert sheet["next"] == {"dealer": "EW", "vulnerable": {"NS": False, "EW": True}}
    real = {"contract": "2S", "declarer": "W", "tricks": 8}
    response = api.post(
        f"/api/v1/rubbers/{chukker.pk}/deals/", {"number": 2, **real}, format="json"
    )
    assert response.status_code == 201, response.json()
    sheet = response.json()["rubber"]["scoresheet"]
    assert sheet == engine("chicago", {"deals": as_engine_input([first, real]), "preset": "acbl"})
    assert sheet["deals"][1]["vulnerable"] == {"NS": False, "EW": True}
    # The pad says the same of the deal after it (deal 3: South deals, North–South vulnerable).
    page = Client()
    page.force_login(director)
    html = page.get(f"/rubbers/{chukker.pk}/").content.decode()
    assert 'data-dealer="S"' in html and "NS vulnerable" in html


def test_a_two_player_matchs_last_deal_is_deleted_and_its_end_is_corrected(
    api, club, table_of_four, north, east
):
    """RULES 7: the same rule for a match, whatever the game: the last deal of a match in play,
    never the deal that finished it."""
    session = make_session(
        club, [[table_of_four["north"], table_of_four["east"]]], kind="bridge_for_two"
    )
    match = first_match(session)
    play(api, match, BRIDGE_FOR_TWO[:2], as_user=north)
    assert delete(api, match.deals.get(number=2), east).status_code == 204
    answer = api.get(f"/api/v1/rubbers/{match.pk}/").json()
    expected = engine("bridge-for-two", {"deals": BRIDGE_FOR_TWO[:1], "preset": "acbl"})
    assert answer["scoresheet"] == named(expected)
    turnover = first_match(
        make_session(club, [[table_of_four["south"], table_of_four["west"]]], kind="turnover")
    )
    play(api, turnover, TURNOVER, as_user=turnover.north.user)
    with unchanged():
        response = delete(api, turnover.deals.get(), turnover.north.user)
    assert response.status_code == 409
    assert response.json()["detail"] == "Deal 1 finished the rubber: correct it instead."


# --- the pad --------------------------------------------------------------------------------------


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_last_deals_correction_offers_delete_and_no_other_does(rubber, north):
    four_and_a_false_fifth(rubber)
    client = signed_in(north)
    for deal in rubber.deals.all():
        panel = client.get(f"/deals/{deal.pk}/correct", HTTP_HX_REQUEST="true").content.decode()
        assert (f'id="delete-{deal.number}"' in panel) == (deal.number == 5), deal.number
    assert (
        "Delete deal 5"
        in client.get(
            f"/deals/{rubber.deals.get(number=5).pk}/correct", HTTP_HX_REQUEST="true"
        ).content.decode()
    )


def test_a_complete_rubber_offers_no_delete(rubber, north):
    record_deals(rubber, SIX_DEALS, entered_by=None)
    last = rubber.deals.get(number=6)
    panel = signed_in(north).get(f"/deals/{last.pk}/correct", HTTP_HX_REQUEST="true")
    assert 'id="delete-6"' not in panel.content.decode()


def test_the_pad_asks_once_naming_the_deal_then_deletes_it(rubber, north):
    false = four_and_a_false_fifth(rubber)
    client = signed_in(north)
    question = client.get(f"/deals/{false.pk}/delete", HTTP_HX_REQUEST="true").content.decode()
    assert "Delete deal 5 (1NT by East, −1)?" in question
    assert f'name="version" value="{false.version}"' in question
    assert ">Delete</button>" in question and ">Keep it</a>" in question
    assert Deal.objects.filter(pk=false.pk).exists()  # asking deletes nothing
    live = client.post(f"/deals/{false.pk}/delete", {"version": 1}, HTTP_HX_REQUEST="true")
    html = live.content.decode()
    assert '<div id="live"' in html and "<html" not in html  # the live part, for #live
    assert "Deal 5 deleted." in html
    assert 'id="deal-5"' not in html
    assert '<h2 id="entry-title">Deal 5</h2>' in html  # the entry form is on deal 5 again
    assert 'name="number" value="5"' in html
    assert not Deal.objects.filter(pk=false.pk).exists()


def test_without_javascript_the_question_is_a_page_and_delete_a_plain_form(rubber, north):
    false = four_and_a_false_fifth(rubber)
    client = signed_in(north)
    page = client.get(f"/deals/{false.pk}/delete").content.decode()
    assert "<html" in page and "Delete deal 5 (1NT by East, −1)?" in page
    assert f'action="/deals/{false.pk}/delete"' in page
    assert f'href="/deals/{false.pk}/correct#correct-5"' in page  # Keep it
    response = client.post(f"/deals/{false.pk}/delete", {"version": 1})
    assert response.status_code == 302
    assert response["Location"] == f"/rubbers/{rubber.pk}/"
    pad = client.get(response["Location"]).content.decode()
    assert "Deal 5 deleted." in pad and 'id="deal-5"' not in pad


def test_the_pad_refuses_in_words(rubber, north):
    four_and_a_false_fifth(rubber)
    third = rubber.deals.get(number=3)
    client = signed_in(north)
    with unchanged():
        asked = client.get(f"/deals/{third.pk}/delete", HTTP_HX_REQUEST="true")
        posted = client.post(f"/deals/{third.pk}/delete", {"version": 1}, HTTP_HX_REQUEST="true")
        stale = client.post(
            f"/deals/{rubber.deals.get(number=5).pk}/delete", {"version": 7}, HTTP_HX_REQUEST="true"
        )
        unversioned = client.post(f"/deals/{third.pk}/delete", HTTP_HX_REQUEST="true")
    assert asked["HX-Retarget"] == "#live"
    refusal = "Only the last deal of a rubber can be deleted, and deal 5 comes after deal 3"
    assert refusal in asked.content.decode()
    assert refusal in posted.content.decode()
    assert "version 1, you sent 7" in stale.content.decode()
    assert "This page is out of date" in unversioned.content.decode()


def test_on_the_pad_the_same_people_delete_as_correct(rubber, club, running_session):
    false = four_and_a_false_fifth(rubber)
    member = signed_in(add_player(club, "Member", user=UserFactory(username="member")).user)
    with unchanged():
        assert member.post(f"/deals/{false.pk}/delete", {"version": 1}).status_code == 403
        anonymous = Client().post(f"/deals/{false.pk}/delete", {"version": 1})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    club.public = False
    club.save()
    outsider = signed_in(UserFactory(username="nobody"))
    with unchanged():
        hidden = outsider.post(f"/deals/{false.pk}/delete", {"version": 1})
        missing = outsider.post("/deals/999999/delete", {"version": 1})
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content


def test_a_table_code_phone_deletes_and_the_history_names_it(rubber):
    false = four_and_a_false_fifth(rubber)
    phone = at_table(rubber, "W")
    assert phone.post(f"/deals/{false.pk}/delete", {"version": 1}).status_code == 302
    gone = Deal.history.filter(id=false.pk).order_by("-history_id").first()
    assert gone.history_type == "-"
    assert gone.history_change_reason == "deleted · West, table 1 (code), seat W"
    assert gone.history_user_id is None
    assert gone.written_seat == "W" and gone.written_phone != ""
    pad = phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="deleted-deals"' in pad
    assert "Deal 5 deleted (1NT by E, 6 tricks)" in pad
    assert "West, table 1 (code), seat W" in pad


def test_the_pad_lists_a_deleted_deal_with_who_in_the_clubs_language(api, rubber, east):
    false = four_and_a_false_fifth(rubber)
    assert delete(api, false, east).status_code == 204
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    pad = Client().get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "Smazzata 5 eliminata (" in pad and "· East</li>" in pad


def test_the_live_pad_of_every_phone_changes_after_a_delete(api, rubber, east, north):
    """The ETag other phones poll with (games.pad.live.rubber_live) changes, and so does the API's
    cached answer: their pads go back within one poll."""
    false = four_and_a_false_fifth(rubber)
    phone = signed_in(east)
    held = phone.get(f"/rubbers/{rubber.pk}/live")
    assert 'id="deal-5"' in held.content.decode()
    assert (
        phone.get(f"/rubbers/{rubber.pk}/live", HTTP_IF_NONE_MATCH=held["ETag"]).status_code == 304
    )
    assert delete(api, false, north).status_code == 204
    after = phone.get(f"/rubbers/{rubber.pk}/live", HTTP_IF_NONE_MATCH=held["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != held["ETag"]
    assert 'id="deal-5"' not in after.content.decode()
    assert 'id="deleted-deals"' in after.content.decode()


def test_the_cached_api_answer_changes_after_a_delete(api, rubber, north, settings):
    settings.RUBBER_CACHE_SECONDS = 60
    false = four_and_a_false_fifth(rubber)
    api.force_authenticate(None)
    before = api.get(f"/api/v1/rubbers/{rubber.pk}/").json()
    assert len(before["deals"]) == 5
    assert delete(api, false, north).status_code == 204
    api.force_authenticate(None)
    after = api.get(f"/api/v1/rubbers/{rubber.pk}/").json()
    assert [d["number"] for d in after["deals"]] == [1, 2, 3, 4]


def test_taps_made_for_the_deleted_deals_successor_become_the_next_deal(api, rubber, north, east):
    """A phone tapped deal 6 while another deleted deal 5: the poll says so and moves the taps
    to deal 5, and Record of number 6 moves them too, with the same words, recording nothing
    unasked (never a gap)."""
    false = four_and_a_false_fifth(rubber)
    assert delete(api, false, north).status_code == 204
    phone = signed_in(east)
    polled = phone.get(f"/rubbers/{rubber.pk}/live?number=6").content.decode()
    words = "A deal was deleted meanwhile: what you tapped is now deal 5, not yet recorded."
    assert words in polled and 'data-move-to="5"' in polled
    taps = {"number": "6", "level": "2", "strain": "S", "declarer": "W", "result": "0"}
    with unchanged(Deal):
        answer = phone.post(f"/rubbers/{rubber.pk}/deals/", taps, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert words in html
    assert 'name="number" value="5"' in html
    taps["number"] = "5"
    assert phone.post(f"/rubbers/{rubber.pk}/deals/", taps).status_code == 302
    assert rubber.deals.get(number=5).contract == "2S"


# --- writes that waited behind the delete ---------------------------------------------------------


def test_a_write_that_waited_behind_the_delete_is_told_the_deal_was_deleted(api, rubber, north):
    """A correction, confirmation, dispute or second delete that read the deal before it was
    deleted and took its locks after: a 409 in words, never a 500 (DoesNotExist)."""
    false = four_and_a_false_fifth(rubber)
    read_before = Deal.objects.get(pk=false.pk)
    assert delete(api, false, north).status_code == 204
    gone = "Deal 5 was deleted."
    east = rubber.seats["E"]
    attempts = [
        lambda: read_before.correct(version=1, tricks=7, actor=acting(read_before, north)),
        lambda: read_before.confirm(version=1, actor=acting(read_before, player=east)),
        lambda: read_before.dispute(version=1, actor=acting(read_before)),
        lambda: read_before.delete_last(version=1, actor=acting(read_before, north)),
        # A director's ruling too (a 500 in an outside probe, 9 rounds in 10).
        lambda: read_before.rule(version=1, actor=acting(read_before, None)),
    ]
    for attempt in attempts:
        with unchanged(), pytest.raises(Conflict, match=gone):
            attempt()


@pytest.mark.parametrize("settled_by", ["confirmed", "disputed", "ruled"])
def test_a_deal_the_other_side_confirmed_or_disputed_is_the_directors_to_delete(
    api, rubber, running_session, north, director, settled_by
):
    """Confirmations, disputes and rulings leave the version as it was: the side that entered
    the deal could delete it with the version it read before, making an agreed or a disputed
    deal vanish (an outside probe). A player is refused in words; the director deletes it."""
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    false = four_and_a_false_fifth(rubber)  # entered from no seat: any seated player confirms
    east = rubber.seats["E"]
    if settled_by == "confirmed":
        false.confirm(version=1, actor=acting(false, player=east))
    else:
        false.dispute(version=1, actor=acting(false))
        if settled_by == "ruled":
            false.rule(version=1, actor=acting(false, director))
    with unchanged():
        refused = delete(api, false, north)
        assert refused.status_code == 409
        assert "only a director deletes it" in refused.json()["detail"] or (
            "the director corrects it, rules on it or deletes it" in refused.json()["detail"]
        )
    panel = signed_in(north).get(f"/deals/{false.pk}/correct", headers={"HX-Request": "true"})
    assert f"/deals/{false.pk}/delete" not in panel.content.decode()
    panel = signed_in(director).get(f"/deals/{false.pk}/correct", headers={"HX-Request": "true"})
    assert f"/deals/{false.pk}/delete" in panel.content.decode()
    assert delete(api, false, director).status_code == 204


def test_the_delete_question_and_the_correction_line_speak_the_clubs_language(rubber, north):
    """An Italian club's pad asks in Italian whatever the browser says, as its other parts do
    (config.middleware.CLUB_LANGUAGE_LOOKUPS)."""
    false = four_and_a_false_fifth(rubber)
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    phone = signed_in(north)
    english = {"HX-Request": "true", "Accept-Language": "en"}
    question = phone.get(f"/deals/{false.pk}/delete", headers=english).content.decode()
    assert "Tienila" in question and "Keep it" not in question
    p = f"deal{false.pk}-"
    taps = {f"{p}level": "1", f"{p}strain": "NT", f"{p}declarer": "E", f"{p}result": "-1"}
    line = phone.get(f"/deals/{false.pk}/preview", taps, headers=english).content.decode()
    assert "SA" in line and "NT" not in line, line


# --- a delete that lands while another request reads the deal ---------------------------------

PAGES = [
    ("get", "correct"),
    ("post", "correct"),
    ("get", "preview"),
    ("get", "delete"),
    ("post", "delete"),
    ("post", "confirm"),
    ("post", "dispute"),
    ("post", "rule"),
]


@pytest.mark.parametrize(("method", "verb"), PAGES)
def test_a_deal_deleted_between_the_pages_two_reads_answers_as_a_missing_one(
    rubber, north, monkeypatch, method, verb
):
    """deal_for_request reads the deal, then its rubber with the rubber's deals: a delete that
    commits in between (seen live: 4 of 720 reads of /deals/<pk>/correct answered 500 while the
    director deleted the deal) must answer what the same URL answers once the deal is gone."""
    from games import selectors

    false = four_and_a_false_fifth(rubber)
    phone = Client(raise_request_exception=False)
    phone.force_login(north)
    url, data = f"/deals/{false.pk}/{verb}", {"version": "1"}
    read_rubber = selectors.rubber_for_request

    def deleted_meanwhile(request: Any, pk: int) -> Any:
        Deal.objects.filter(pk=false.pk).delete()
        return read_rubber(request, pk)

    monkeypatch.setattr(selectors, "rubber_for_request", deleted_meanwhile)
    raced = getattr(phone, method)(url, data)
    monkeypatch.undo()
    missing = getattr(phone, method)(url, data)
    assert missing.status_code == 404
    assert (raced.status_code, raced.content) == (missing.status_code, missing.content)


def test_a_deal_deleted_right_after_its_correction_answers_as_a_missing_one(
    api, rubber, north, monkeypatch
):
    """The API answers a correction with the rubber read again; a delete that lands before that
    read leaves no deal to answer with."""
    false = four_and_a_false_fifth(rubber)
    correct = Deal.correct

    def deleted_after(deal: Deal, **changes: Any) -> Deal:
        corrected = correct(deal, **changes)
        Deal.objects.filter(pk=deal.pk).delete()
        return corrected

    monkeypatch.setattr(Deal, "correct", deleted_after)
    api.force_authenticate(north)
    url, body = f"/api/v1/deals/{false.pk}/", {"version": 1, "tricks": 7}
    raced = api.patch(url, body, format="json")
    missing = api.patch(url, body, format="json")
    assert missing.status_code == 404
    assert (raced.status_code, raced.content) == (missing.status_code, missing.content)
