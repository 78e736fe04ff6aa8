"""Entry at the table (issue 17): one way to give the result, a live line scored by the engine,
conflicts in plain words, the viewer's side as We, corrections by any player at the table."""

from __future__ import annotations

import re

import pytest

from games.forms import possible_results
from games.models import Deal
from tests.conftest import unchanged
from tests.games.conftest import SIX_DEALS
from tests.games.test_pages import TAP_4S_MADE, visible_text


@pytest.mark.parametrize(("level", "lowest", "highest"), [(1, -7, 6), (4, -10, 3), (7, -13, 0)])
def test_the_results_a_level_can_have(level, lowest, highest):
    """Declarer's side takes 0 to 13 tricks (RULES 1): 1♣ −7 … +6, 7NT −13 … =."""
    results = possible_results(level)
    assert (min(results), max(results)) == (lowest, highest)


def test_an_impossible_result_is_a_form_error_and_records_nothing(client, rubber, north):
    client.force_login(north)
    response = client.post(
        f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "level": "7", "result": "1"}
    )
    assert response.status_code == 200
    assert (
        "+1 is not a possible result of a 7-level contract: the declaring side takes 0 to 13 "
        "tricks (RULES 1)."
    ) in response.content.decode()
    assert not Deal.objects.exists()


def test_a_typed_trick_count_is_not_a_second_way_in(client, rubber, north):
    """The result buttons are the one way to give the tricks: a stray `tricks` is ignored."""
    client.force_login(north)
    client.post(f"/rubbers/{rubber.pk}/deals/", {**TAP_4S_MADE, "tricks": "5"})
    assert Deal.objects.get(rubber=rubber).tricks == 10
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'name="tricks"' not in html


def test_the_result_buttons_of_every_level_are_on_the_page(client, rubber, north):
    client.force_login(north)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    values = [f'data-v="{n}"' for n in range(-13, 7)]
    assert all(value in html for value in values)


def preview(client, rubber, **taps):
    return client.get(f"/rubbers/{rubber.pk}/preview", taps).content.decode().strip()


DOWN_TWO = {"level": "4", "strain": "S", "doubling": "X", "declarer": "N", "result": "-2"}


def test_the_live_line_is_the_deal_as_the_engine_scores_it(client, rubber, north, east):
    client.force_login(north)
    assert preview(client, rubber, **DOWN_TWO) == "4♠× by North, −2: They +300"
    made = {**DOWN_TWO, "doubling": "", "result": "0"}
    assert preview(client, rubber, **made) == "4♠ by North, made: We +120"
    client.force_login(east)
    assert preview(client, rubber, **DOWN_TWO) == "4♠× by North, −2: We +300"
    client.logout()
    assert preview(client, rubber, **DOWN_TWO) == "4♠× by North, −2: E–W +300"


def test_the_live_line_follows_vulnerability(client, rubber, north, enter):
    enter(SIX_DEALS[:3])  # both sides have a game: both vulnerable
    client.force_login(north)
    assert preview(client, rubber, **DOWN_TWO) == "4♠× by North, −2: They +500"


def test_the_live_line_of_the_deal_that_wins_the_rubber_counts_its_bonus(
    client, rubber, north, east, enter
):
    """RULES 2.4: the rubber's second game brings 700 (the losers have no game) or 500."""
    enter([{"contract": "4S", "declarer": "N", "tricks": 10}])  # N–S have a game
    client.force_login(north)
    made = {**DOWN_TWO, "doubling": "", "result": "0"}
    assert preview(client, rubber, **made) == (
        "4♠ by North, made: We +820, with the rubber bonus"  # 120 + 700
    )
    enter([{"contract": "4H", "declarer": "E", "tricks": 10}], start=2)  # one game each
    client.force_login(east)
    assert preview(client, rubber, **made) == (
        "4♠ by North, made: They +620, with the rubber bonus"  # 120 + 500, as East reads it
    )
    # A deal that does not win the rubber has no bonus in its line.
    partscore = {**made, "level": "2"}
    assert preview(client, rubber, **partscore) == "2♠ by North, made: They +60"


def test_the_live_line_names_what_is_missing_or_impossible(client, rubber, north):
    client.force_login(north)
    missing = preview(client, rubber, level="4", strain="S", result="0")
    assert "Choose the declarer: N, E, S or W." in missing
    impossible = preview(client, rubber, level="7", strain="NT", declarer="N", result="2")
    assert "+2 is not a possible result of a 7-level contract" in impossible
    assert impossible.endswith("(RULES 1).")


def test_a_deal_entered_meanwhile_is_told_in_words_and_the_form_moves_on(
    client, rubber, east, enter
):
    enter(SIX_DEALS[:1])  # North enters deal 1: 2♥ by North, +1
    client.force_login(east)
    taps = {**TAP_4S_MADE, "declarer": "E"}
    response = client.post(f"/rubbers/{rubber.pk}/deals/", taps)
    assert response.status_code == 200
    html = response.content.decode()
    text = visible_text(html)
    assert "Deal 1 was already entered by North: 2♥ by North, +1. Correct it?" in text
    assert "PATCH" not in text and "version" not in text.lower()
    # The form now offers deal 2 with East's taps, not yet recorded, and says so: Record names
    # the deal it would record them as, and the live line shows them (not "Tap the contract").
    assert 'name="number" value="2"' in html
    assert re.search('id="id_declarer_1"[^>]*checked', html)
    assert list(rubber.deals.values_list("number", "contract")) == [(1, "2H")]
    assert (
        "Your taps are now on deal 2. Record them only if they are deal 2; if they were deal 1, "
        "correct deal 1 instead." in text
    )
    assert re.search(r'<a href="/rubbers/\d+/">Clear the taps</a>', html)
    assert "Record as deal 2" in text and "Record deal" not in text
    assert "4♠ by East, made: We +120" in text
    # Once recorded (or on a fresh pad) Record is plain again.
    assert client.post(f"/rubbers/{rubber.pk}/deals/", {**taps, "number": 2}).status_code == 302
    again = visible_text(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    assert "Record deal" in again and "Your taps are now" not in again


def test_an_east_west_player_sees_east_west_as_we(client, rubber, east, north, enter):
    enter(SIX_DEALS[:2])  # EW made 4♠ with 100 honours: 220 below, 100 above
    client.force_login(east)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'data-left="ew"' in html
    assert '<div class="pad-col we" id="total-ew">220</div>' in html  # left, in We's colour
    head = html.split('class="pad-head"')[1]
    assert head.index("We") < head.index("They")
    assert head.index("East &amp; West") < head.index("North &amp; South")
    client.force_login(north)
    assert 'data-left="ns"' in client.get(f"/rubbers/{rubber.pk}/").content.decode()


def test_someone_not_at_the_table_sees_north_south_and_east_west(client, rubber, enter):
    enter(SIX_DEALS)
    html = visible_text(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    assert "N–S" in html and "E–W" in html
    assert "We" not in html.split()
    assert "N–S won the rubber" in html


def test_any_player_at_the_table_corrects_with_the_entry_buttons(client, rubber, south, enter):
    enter(SIX_DEALS[:1])  # entered by North
    deal = rubber.deals.get(number=1)
    client.force_login(south)
    pad = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    # The pad fetches the form when "Correct" is opened; without JavaScript, a link.
    assert f'hx-get="/deals/{deal.pk}/correct"' in pad
    assert f'href="/deals/{deal.pk}/correct#correct-1"' in pad
    prefix = f"deal{deal.pk}"
    fragment = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
    page = client.get(f"/deals/{deal.pk}/correct")
    assert "<html" not in fragment.content.decode() and "<html" in page.content.decode()
    for html in (fragment.content.decode(), page.content.decode()):
        # Pre-filled with the deal's taps: 2♥ by North, +1 (results run −13 … +6).
        for tap in (f"id_{prefix}-level_1", f"id_{prefix}-strain_2", f"id_{prefix}-result_14"):
            assert re.search(f'id="{tap}"[^>]*checked', html), tap
    response = client.post(
        f"/deals/{deal.pk}/correct",
        {
            f"{prefix}-version": "1",
            f"{prefix}-level": "2",
            f"{prefix}-strain": "H",
            f"{prefix}-declarer": "N",
            f"{prefix}-result": "0",
        },
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert (deal.tricks, deal.version) == (8, 2)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "· South · corrected" in html  # the history keeps who, by name


def test_a_member_not_at_the_table_does_not_correct(client, rubber, club, enter, make_user):
    from tests.factories import add_player

    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    other = add_player(club, "Other", user=make_user("other")).user
    client.force_login(other)
    prefix = f"deal{deal.pk}"
    body = {f"{prefix}-version": "1", f"{prefix}-level": "pass"}
    with unchanged():
        assert client.post(f"/deals/{deal.pk}/correct", body).status_code == 403
        # Nor is given the form, with or without htmx.
        assert client.get(f"/deals/{deal.pk}/correct").status_code == 403
        hx = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
        assert hx.status_code == 403 and prefix not in hx.content.decode()


def test_the_correction_form_is_given_only_where_a_correction_may_be_saved(
    client, rubber, running_session, south, outsider, enter
):
    """GET /deals/<id>/correct: a hidden deal answers as a missing one, a visitor is sent to
    sign in, and a closed session's deals have no form (its results are final)."""
    from games.sessions import lifecycle

    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    url = f"/deals/{deal.pk}/correct"
    assert client.get(url)["Location"].startswith("/accounts/login/")
    running_session.club.public = False
    running_session.club.save(update_fields=["public"])
    client.force_login(outsider)
    hidden, missing = client.get(url), client.get("/deals/999999/correct")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.content == missing.content
    client.force_login(south)
    assert client.get(url).status_code == 200
    lifecycle.session_close(session=running_session)
    closed = client.get(url)
    assert closed.status_code == 403
    assert "The session is closed" in closed.content.decode()
    assert 'id="correct-1"' not in client.get(f"/rubbers/{rubber.pk}/").content.decode()


def test_a_table_link_opens_its_rubber_in_play(client, rubber, enter):
    response = client.get(f"/tables/{rubber.table_id}/")
    assert response.status_code == 302
    assert response["Location"] == f"/rubbers/{rubber.pk}/"
    enter(SIX_DEALS)
    nxt = rubber.next_rubber()
    assert client.get(f"/tables/{rubber.table_id}/")["Location"] == f"/rubbers/{nxt.pk}/"
    assert client.get("/tables/999999/").status_code == 404


def test_home_shows_a_seated_player_their_table_first(client, running_session, north, outsider):
    from games.sessions import lifecycle

    rubber = running_session.rubbers.get(number=1)
    client.force_login(north)
    html = client.get("/").content.decode()
    assert f'id="your-table" href="/rubbers/{rubber.pk}/"' in html
    assert html.index('id="your-table"') < html.index("<h1>")
    client.force_login(outsider)
    assert 'id="your-table"' not in client.get("/").content.decode()
    lifecycle.session_close(session=running_session)
    client.force_login(north)
    assert 'id="your-table"' not in client.get("/").content.decode()


def test_the_live_pad_answers_304_until_the_rubber_changes(
    client, rubber, north, enter, django_assert_max_num_queries
):
    url = f"/rubbers/{rubber.pk}/live"
    client.force_login(north)
    first = client.get(url)
    assert first.status_code == 200
    assert first.content.decode().lstrip().startswith('<div id="live"')
    etag = first["ETag"]
    # In a public club, one query: the rubber's state, with its club's language (the pad is
    # swapped into a club page in its language); who looks is told by their cookies.
    with django_assert_max_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content) == (304, b"")
    enter(SIX_DEALS[:1])
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert 'id="deal-1"' in changed.content.decode()


def test_the_live_pad_speaks_the_clubs_language_unless_the_visitor_chose(
    client, rubber, club, north, enter
):
    enter(SIX_DEALS[:1])
    url = f"/rubbers/{rubber.pk}/live"
    client.force_login(north)
    english = client.get(url)
    assert "entered by" in english.content.decode()
    club.language = "it"
    club.save(update_fields=["language"])
    # The club's language is part of the pad's state: a phone holding the English pad gets
    # the Italian one, not a 304.
    italian = client.get(url, HTTP_IF_NONE_MATCH=english["ETag"])
    assert italian.status_code == 200 and "inserita da" in italian.content.decode()
    client.cookies["django_language"] = "en"  # the header's switcher
    chosen = client.get(url, HTTP_IF_NONE_MATCH=italian["ETag"])
    assert chosen.status_code == 200 and "entered by" in chosen.content.decode()


def test_the_live_pad_changes_with_who_looks(client, rubber, north, director):
    url = f"/rubbers/{rubber.pk}/live"
    client.force_login(north)
    as_north = client.get(url)
    client.logout()
    anonymous = client.get(url, HTTP_IF_NONE_MATCH=as_north["ETag"])
    assert anonymous.status_code == 200 and anonymous["ETag"] != as_north["ETag"]
    assert 'id="entry"' not in anonymous.content.decode()
    client.force_login(director)
    as_director = client.get(url, HTTP_IF_NONE_MATCH=anonymous["ETag"])
    assert as_director.status_code == 200 and 'id="entry"' in as_director.content.decode()


def test_the_live_pad_of_a_hidden_club_is_missing(client, rubber, club, outsider):
    club.public = False
    club.save()
    client.force_login(outsider)
    assert client.get(f"/rubbers/{rubber.pk}/live").status_code == 404


def test_the_deal_list_says_its_figures_are_running_totals(client, rubber, north, enter):
    """The We/They figures of each row are the totals after that deal, not the deal's score
    (a player read 120 beside a 3NT as that deal's score): the headers say "total"."""
    enter(SIX_DEALS[:2])
    client.force_login(north)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    head = re.search(r'<table class="data" id="deals">\s*<thead>(.*?)</thead>', html, re.S)
    assert head is not None
    cells = re.findall(r'<th class="num">(.*?)</th>', head.group(1))
    assert [re.sub(r"<[^>]+>", " ", c).split() for c in cells] == [
        ["We", "total"],
        ["They", "total"],
    ]


def test_both_sides_read_the_points_margin_of_a_finished_rubber(
    client, rubber, north, east, outsider, enter
):
    """RULES 2.5: the side ahead on points is named with the margin, whichever side reads it
    (the losing side read "They lead on points." with no figure)."""
    enter(SIX_DEALS)
    texts = {}
    for user in (north, east):
        client.force_login(user)
        texts[user.username] = visible_text(client.get(f"/rubbers/{rubber.pk}/").content.decode())
    we = re.search(r"We lead on points by (\d+)\.", texts["north"] + texts["east"])
    they = re.search(r"They lead on points by (\d+)\.", texts["north"] + texts["east"])
    assert we and they and we.group(1) == they.group(1) and int(we.group(1)) > 0


def test_a_correction_form_has_the_live_line_of_the_deal_in_its_place(client, rubber, north, enter):
    """The correction's live line scores the deal where it stands: deal 3 was played with only
    East–West vulnerable (RULES 2.3), so 3NT× down 2 costs 300 there, not the 500 it would cost
    as the next deal (both vulnerable by then)."""
    enter(SIX_DEALS[:3])
    deal = rubber.deals.get(number=3)
    client.force_login(north)
    form = client.get(f"/deals/{deal.pk}/correct", headers={"HX-Request": "true"})
    assert "3NT by South, made: We +100" in form.content.decode()  # as recorded: a game
    p = f"deal{deal.pk}-"
    taps = {f"{p}level": "3", f"{p}strain": "NT", f"{p}doubling": "X", f"{p}declarer": "S"}
    line = client.get(f"/deals/{deal.pk}/preview", {**taps, f"{p}result": "-2"})
    assert line.content.decode().strip() == "3NT× by South, −2: They +300"
    assert preview(client, rubber, **DOWN_TWO) == "4♠× by North, −2: They +500"
    missing = client.get(f"/deals/{deal.pk}/preview", taps).content.decode()
    assert missing.strip() == "Choose the result: made, or how many over or down."
    # A deal nobody may read answers as one that does not exist.
    assert client.get("/deals/999999/preview").status_code == 404
