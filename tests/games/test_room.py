"""The room at a glance (issue 31): a tile per table of the running sessions with the rubber and
its deal count, the running score, the last deal and how long ago, the deals awaiting or
disputed with the director's actions, who sits out; a finished rubber's result until the next
rubber's first deal; live by an ETag'd part, directors only."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.utils import timezone

from games.club.room import room_sessions
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db


def _tile(html: str, number: int) -> str:
    found = re.search(
        rf'<article class="card tile[^"]*"[^>]*data-table="{number}">(.*?)</article>', html, re.S
    )
    assert found, html
    return found.group(1)


@pytest.fixture
def tonight(club: Any) -> Any:
    """Tonight's session: a table of four and a table of five (one sits out)."""
    four = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev")]
    five = [add_player(club, n) for n in ("Edith", "Farid", "Gwen", "Hugo", "Ivo")]
    return make_session(club, [four, five], date=timezone.localdate())


def _room(client: Any, director: Any, club: Any) -> str:
    client.force_login(director)
    response = client.get(f"/clubs/{club.slug}/room/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_tile_per_table_with_its_rubber_score_last_deal_and_who_sits_out(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    first = tonight.rubbers.get(table__number=1)
    first.record_deal(number=1, contract="2S", declarer="N", tricks=9, actor=acting(first))
    html = _room(client, director, club)
    one, two = _tile(html, 1), _tile(html, 2)
    assert "Rubber 1 · 1 deal" in one
    assert re.search(r"N–S <strong>90</strong> – <strong>0</strong> E–W", one), one
    assert "Deal 1: 2♠ by North, +1" in one and "just now" in one
    assert "No deal yet." in two
    sitting_out = tonight.rubbers.get(table__number=2).sitting_out
    name = tonight.club.players.get(pk=sitting_out[0]).name
    assert f"Sitting out: {name}" in two
    assert f'href="/rubbers/{first.pk}/"' in one


def test_how_long_ago_the_last_deal_was(club: Any, tonight: Any) -> None:
    rubber = tonight.rubbers.get(table__number=1)
    deal, _ = rubber.record_deal(
        number=1, contract="3NT", declarer="E", tricks=9, actor=acting(rubber)
    )
    later = deal.entered_at + datetime.timedelta(minutes=7, seconds=20)
    (item,) = room_sessions(club, now=later)
    assert item.tiles[0].ago == "7\xa0minutes ago"


def test_a_finished_rubber_stays_on_its_tile_until_the_next_deal(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    rubber = tonight.rubbers.get(table__number=1)
    for number in (1, 2):
        rubber.record_deal(
            number=number, contract="4S", declarer="N", tricks=10, actor=acting(rubber)
        )
    tile = _tile(_room(client, director, club), 1)
    assert 'data-finished="1"' in tile and "Rubber 1: Complete" in tile
    assert "won by N–S" in tile
    assert "Rubber 2 · 0 deals" in tile
    second = tonight.rubbers.get(table__number=1, number=2)
    second.record_deal(number=1, contract="1NT", declarer="E", tricks=7, actor=acting(second))
    tile = _tile(_room(client, director, club), 1)
    assert "data-finished" not in tile
    assert "Rubber 2 · 1 deal" in tile


def test_awaiting_and_disputed_deals_with_the_directors_actions(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    tonight.confirm_entries = True
    tonight.save(update_fields=["confirm_entries"])
    rubber = tonight.rubbers.get(table__number=1)
    first, _ = rubber.record_deal(
        number=1, contract="2H", declarer="S", tricks=8, actor=acting(rubber)
    )
    rubber.record_deal(number=2, contract="3C", declarer="W", tricks=9, actor=acting(rubber))
    first.dispute(actor=acting(first, player=rubber.east))
    tile = _tile(_room(client, director, club), 1)
    assert 'data-awaiting="1"' in tile and "1 deal awaits the opponents' confirmation" in tile
    assert 'data-disputed="1"' in tile
    assert f'href="/deals/{first.pk}/correct#correct-1"' in tile
    assert f'action="/deals/{first.pk}/rule"' in tile
    assert 'name="next" value="/clubs/riverside/room/"' in tile


def test_a_disputed_or_awaiting_deal_shows_the_deal_and_why_it_is_disputed(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    tonight.confirm_entries = True
    tonight.save(update_fields=["confirm_entries"])
    rubber = tonight.rubbers.get(table__number=1)
    first, _ = rubber.record_deal(
        number=1, contract="2H", declarer="S", tricks=8, actor=acting(rubber)
    )
    rubber.record_deal(number=2, contract="3C", declarer="W", tricks=9, actor=acting(rubber))
    first.dispute(
        actor=acting(first, player=rubber.east), reason="result", note="We took six tricks"
    )
    tile = _tile(_room(client, director, club), 1)
    disputed = tile.split('data-disputed="1"')[1].split("</ul>")[0]
    assert "2♥ by South, made" in disputed
    assert "about the result" in disputed and "We took six tricks" in disputed
    awaiting = tile.split('data-awaiting="1"')[1].split("</p>")[0]
    assert "3♣ by West, made" in awaiting


def test_the_live_part_answers_304_until_a_deal_changes(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    client.force_login(director)
    url = f"/clubs/{club.slug}/room/live/"
    first = client.get(url)
    assert first.status_code == 200 and 'id="room"' in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    rubber = tonight.rubbers.get(table__number=2)
    rubber.record_deal(number=1, contract="1S", declarer="N", tricks=7, actor=acting(rubber))
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert "Deal 1: 1♠ by North, made" in _tile(changed.content.decode(), 2)


def test_only_the_clubs_directors_see_the_room(
    client: Any, club: Any, tonight: Any, outsider: Any
) -> None:
    player = add_player(club, "Jill", user=outsider)
    assert player.user == outsider
    client.force_login(outsider)
    for path in ("room/", "room/live/"):
        assert client.get(f"/clubs/{club.slug}/{path}").status_code == 403


def test_a_room_with_nothing_running_says_where_to_start(
    client: Any, director: Any, club: Any
) -> None:
    make_session(club, [[add_player(club, f"P{i}") for i in range(4)]], start=False)
    html = _room(client, director, club)
    assert "No session is running." in html
    assert "1 planned session waits to be started on the console." in html


def test_a_two_player_match_names_its_players_on_the_tile(
    client: Any, director: Any, club: Any
) -> None:
    pair = [add_player(club, "Ada"), add_player(club, "Ben")]
    make_session(club, [pair], kind="misery", date=timezone.localdate())
    tile = _tile(_room(client, director, club), 1)
    assert "Match 1 · 0 deals" in tile
    assert "Early leaver" not in tile


def test_a_two_player_sessions_heading_names_no_movement(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    pair = [add_player(club, "Nell"), add_player(club, "Otto")]
    two = make_session(club, [pair], kind="bridge_for_two", date=timezone.localdate())
    html = _room(client, director, club)
    heading = html.split(f'id="room-session-{two.pk}"')[1].split("</h2>")[0]
    assert "Bridge for Two" in heading and "Pivot" not in heading
    heading = html.split(f'id="room-session-{tonight.pk}"')[1].split("</h2>")[0]
    assert "Pivot" in heading


def test_the_times_age_each_minute(client: Any, director: Any, club: Any, tonight: Any) -> None:
    """The live part's ETag holds the minute, and the part asks again each minute even while
    its push stream is up (static/js/backscore.js, data-refresh-ms)."""
    from games.club.room import _room_etag

    at = timezone.now().replace(second=5)
    assert _room_etag(club, at) == _room_etag(club, at + datetime.timedelta(seconds=50))
    assert _room_etag(club, at) != _room_etag(club, at + datetime.timedelta(seconds=60))
    html = _room(client, director, club)
    assert (
        'data-refresh-ms="60000"' in html
        and 'data-push-url="/clubs/riverside/console/events/"' in html
    )


def test_tonights_sessions_come_before_one_left_running_from_an_earlier_day(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    players = [add_player(club, n) for n in ("Jo", "Kim", "Lou", "Max")]
    stale = make_session(club, [players], date=timezone.localdate() - datetime.timedelta(days=2))
    html = _room(client, director, club)
    assert html.index(f'id="room-session-{tonight.pk}"') < html.index(
        f'id="room-session-{stale.pk}"'
    )
    assert [item.stale for item in room_sessions(club)] == [False, True]


def test_the_rooms_header_links_as_the_consoles_does(client: Any, director: Any, club: Any) -> None:
    def nav(path: str) -> list[str]:
        html = client.get(path).content.decode()
        header = html.split('<nav class="nav">')[1].split('<span class="spacer">')[0]
        return re.findall(r'<a href="([^"]+)"', header)

    room = _room(client, director, club) and nav(f"/clubs/{club.slug}/room/")
    assert room == nav(f"/clubs/{club.slug}/console/")
    assert f"/clubs/{club.slug}/players/" in room and f"/clubs/{club.slug}/room/" in room


def test_a_player_leaving_after_the_rubber_stays_on_the_tile_until_it_ends(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    """Issue 31: "Leave after this rubber" gives up the seat at once, but the leaver still sits
    in the rubber in play: the tile lists them, marked as leaving after it."""
    rubber = tonight.rubbers.get(table__number=2)
    south = rubber.south
    client.force_login(director)
    url = f"/clubs/{club.slug}/sessions/{tonight.pk}/tables/2/leaver/"
    assert client.post(url, {"leaver": south.pk, "after_rubber": ""}).status_code == 302
    tile = _tile(_room(client, director, club), 2)
    players = re.search(r'<p class="tile-players muted">(.*?)</p>', tile, re.S)
    assert players and f"{south.name} (leaves after this rubber)" in players.group(1), tile


def test_the_console_the_room_and_the_club_page_list_tonights_running_session_first(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    """Issue 31: a planned session dated 1900 and one left running since an earlier day no
    longer sit above tonight's: running first (tonight's, then the stale one), then planned."""
    old = [add_player(club, n) for n in ("Jo", "Kim", "Lou", "Max")]
    stale = make_session(club, [old], date=timezone.localdate() - datetime.timedelta(days=3))
    later = [add_player(club, n) for n in ("Ned", "Olga", "Pat", "Quin")]
    planned = make_session(club, [later], date=datetime.date(1900, 1, 1), start=False)
    client.force_login(director)
    console = client.get(f"/clubs/{club.slug}/console/").content.decode()
    where = [console.index(f'id="session-{s.pk}"') for s in (tonight, stale, planned)]
    assert where == sorted(where), where
    room = _room(client, director, club)
    assert room.index(f'id="room-session-{tonight.pk}"') < room.index(
        f'id="room-session-{stale.pk}"'
    )
    home = client.get(f"/clubs/{club.slug}/").content.decode()
    where = [home.index(f"/sessions/{s.pk}/") for s in (tonight, stale, planned)]
    assert where == sorted(where), where


def test_the_tiles_actions_come_back_to_the_room(
    client: Any, director: Any, club: Any, tonight: Any
) -> None:
    """Issue 31: "Early leaver…" and "Late arrivals…" opened from a tile go back to the room
    (a `next` path on this site, carried by the page's form), as "It stands" does; a `next`
    off the site is ignored for the console."""
    tile = _tile(_room(client, director, club), 2)
    room_url = f"/clubs/{club.slug}/room/"
    leaver_url = f"/clubs/{club.slug}/sessions/{tonight.pk}/tables/2/leaver/"
    assert f'href="{leaver_url}?next=/clubs/{club.slug}/room/"' in tile
    assert "?table=2&amp;next=/clubs/" in tile
    page = client.get(leaver_url, {"next": room_url}).content.decode()
    assert f'<input type="hidden" name="next" value="{room_url}">' in page
    assert f'class="button" href="{room_url}"' in page
    south = tonight.rubbers.get(table__number=2).south
    answer = client.post(leaver_url, {"leaver": south.pk, "after_rubber": "", "next": room_url})
    assert answer.status_code == 302 and answer["Location"] == room_url
    arrivals_url = f"/clubs/{club.slug}/sessions/{tonight.pk}/arrivals/?table=2"
    page = client.get(arrivals_url + f"&next={room_url}").content.decode()
    assert f'<input type="hidden" name="next" value="{room_url}">' in page
    answer = client.post(arrivals_url, {"names": "Zed", "mode": "cut_in", "next": room_url})
    assert answer.status_code == 302 and answer["Location"] == room_url
    answer = client.post(
        arrivals_url, {"names": "Yan", "mode": "cut_in", "next": "https://evil.example/"}
    )
    assert answer.status_code == 302
    assert answer["Location"] == f"/clubs/{club.slug}/console/#session-{tonight.pk}"
