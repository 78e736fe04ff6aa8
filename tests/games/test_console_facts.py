"""Each fact the director's console shows moves its version (games.push.versions.CONSOLE_FACTS):
changed in turn, the console's poll answers the new content (never a 304), and its stream (which
sends the same version) a new event. The poll checks its reader from the same query, as the
console page does (its 304's one query: tests/scale/test_query_counts.py)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils.formats import date_format

from clubs.models import Club, Membership, Player, Session, Table, TableChange, TableSeat
from games.models import Rubber
from games.push.versions import console_state
from tests.factories import UserFactory, acting, add_player, make_session

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


@pytest.fixture
def room(club: Club) -> dict[str, Any]:
    """A running session at one table of five (Eve sits out of the first rubber)."""
    players = {name: add_player(club, name) for name in NAMES}
    session = make_session(club, [list(players.values())])
    return {"session": session, "club": club, "players": players}


@dataclass(frozen=True)
class Change:
    """A change of one fact: `make` makes it (and returns the club's new slug if it changed it);
    `shows`,
    what the console then shows that it did not (None: a fact the fragment does not print)."""

    make: Callable[[dict[str, Any]], Any]
    shows: str | None
    gone: str | None = None


def _session(room: dict[str, Any]) -> Any:
    return Session.objects.filter(pk=room["session"].pk)


def _seat(room: dict[str, Any], name: str) -> Any:
    return TableSeat.objects.filter(player=room["players"][name])


def _rubber(room: dict[str, Any]) -> Any:
    return Rubber.objects.filter(session=room["session"])


def _rename_club(room: dict[str, Any]) -> str:
    Club.objects.filter(pk=room["club"].pk).update(slug="lakeside")
    return "lakeside"


def _substitute(room: dict[str, Any]) -> None:
    _seat(room, "Eve").update(player=add_player(room["club"], "Zed"))


def _swap_places(room: dict[str, Any]) -> None:
    ann, bob = _seat(room, "Ann"), _seat(room, "Bob")
    first, second = ann.get().position, bob.get().position
    ann.update(position=99)
    bob.update(position=first)
    _seat(room, "Ann").update(position=second)


def _swap_rubber_seats(room: dict[str, Any]) -> None:
    rubber = _rubber(room).get()
    _rubber(room).update(north_id=rubber.east_id, east_id=rubber.north_id)


def _sit_out(room: dict[str, Any]) -> None:
    players = room["players"]
    _rubber(room).update(south_id=players["Eve"].pk, sitting_out=[players["Cat"].pk])


def _deal(room: dict[str, Any]) -> None:
    rubber = _rubber(room).get()
    rubber.record_deal(number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber))


def _correct(room: dict[str, Any]) -> None:
    _deal(room)
    _rubber(room).get().deals.get().correct(version=1, tricks=9, actor=acting(_rubber(room).get()))


def _change_at_table(room: dict[str, Any]) -> None:
    session = room["session"]
    TableChange.objects.create(
        session=session,
        table=session.tables.get(),
        kind=TableChange.Kind.ARRIVE,
        player=add_player(room["club"], "Late Lou"),
        from_rubber=2,
    )


def _user_of(room: dict[str, Any]) -> None:
    Player.objects.filter(pk=room["players"]["Ann"].pk).update(user=UserFactory())


def _role(room: dict[str, Any]) -> None:
    Membership.objects.create(club=room["club"], user=UserFactory(), role="player")


CHANGES: dict[str, Change] = {
    "the session's date": Change(
        lambda r: _session(r).update(date=datetime.date(2026, 12, 24)),
        date_format(datetime.date(2026, 12, 24)),
    ),
    "the session's game": Change(lambda r: _session(r).update(kind="chicago"), "Chicago"),
    "the session's movement": Change(lambda r: _session(r).update(movement="cut-in"), "Cut-in"),
    "the session's stake": Change(lambda r: _session(r).update(stake_per_hundred=3), None),
    "the session asks for confirmations": Change(
        lambda r: _session(r).update(confirm_entries=True), 'data-session-confirms="session"'
    ),
    "the session's table codes": Change(lambda r: _session(r).update(table_codes=False), None),
    "the session's rules": Change(lambda r: _session(r).update(rules={"honours": False}), None),
    "the session planned again": Change(
        lambda r: _session(r).update(status="planned"), "Start the session"
    ),
    "the session reopened": Change(
        lambda r: _session(r).update(closed_at=datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)),
        "data-reopened",
    ),
    "the club asks for confirmations": Change(
        lambda r: Club.objects.filter(pk=r["club"].pk).update(confirm_entries=True),
        'data-session-confirms="club"',
    ),
    "the club's address": Change(_rename_club, "/clubs/lakeside/sessions/"),
    "the table's number": Change(
        lambda r: Table.objects.filter(session=r["session"]).update(number=7), 'data-table="7"'
    ),
    "the table's code": Change(
        lambda r: Table.objects.filter(session=r["session"]).update(code="ZZZZ2222"), None
    ),
    "a player renamed": Change(
        lambda r: Player.objects.filter(pk=r["players"]["Cat"].pk).update(name="Kit"),
        '<p class="muted">Ann, Bob, Kit, Dan, Eve</p>',
    ),
    "a substitute in a seat": Change(_substitute, '<p class="muted">Ann, Bob, Cat, Dan, Zed</p>'),
    "a player left the table": Change(
        lambda r: _seat(r, "Eve").update(active=False), '<p class="muted">Ann, Bob, Cat, Dan</p>'
    ),
    "two players' places": Change(_swap_places, '<p class="muted">Bob, Ann, Cat, Dan, Eve</p>'),
    "the rubber's seats": Change(_swap_rubber_seats, '<td data-seat="N" data-label="N">Bob</td>'),
    "who sits out": Change(
        _sit_out, '<td data-seat="S" data-label="S">Eve</td><td data-seat="W" data-label="W">Dan'
    ),
    "the rubber ended": Change(
        lambda r: _rubber(r).update(status="unfinished"), None, gone="Rubber 1 in play"
    ),
    "a deal recorded": Change(_deal, "Deal 1: 4♠ by North, made"),
    "a deal corrected": Change(_correct, "Deal 1: 4♠ by North, −1"),
    "a change at the table": Change(_change_at_table, "Late Lou joins table 1"),
    "a player's login": Change(_user_of, None),
    "a member's role": Change(_role, None),
}


@pytest.mark.parametrize("name", CHANGES)
def test_each_fact_the_console_shows_moves_its_version_and_shows(client, room, director, name):
    change = CHANGES[name]
    client.force_login(director)
    url = f"/clubs/{room['club'].slug}/console/live/"
    first = client.get(url)
    assert first.status_code == 200
    etag, before = first["ETag"], first.content.decode()
    streamed = console_state(room["club"].slug, director.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    if change.shows is not None:
        assert change.shows not in before
    if change.gone is not None:
        assert change.gone in before

    made = change.make(room)
    slug = made if isinstance(made, str) else room["club"].slug
    after = client.get(f"/clubs/{slug}/console/live/", HTTP_IF_NONE_MATCH=etag)

    assert after.status_code == 200, "a 304: the console's version missed the change"
    assert after["ETag"] != etag
    # What the console's stream checks and sends (games.push.views): a new event.
    assert console_state(slug, director.pk).version != streamed.version
    html = after.content.decode()
    if change.shows is not None:
        assert change.shows in html
    if change.gone is not None:
        assert change.gone not in html


def _live(client: Any, slug: str, etag: str = "") -> Any:
    return client.get(f"/clubs/{slug}/console/live/", HTTP_IF_NONE_MATCH=etag)


@pytest.mark.parametrize("public", [True, False])
def test_the_console_poll_refuses_as_the_console_page_does(client, director, outsider, public):
    from tests.factories import make_club

    club = make_club(director=UserFactory(), slug="hidden", public=public)
    add_player(club, "Member", user=outsider)
    for user, page_status in ((director, 404 if not public else 403), (outsider, 403)):
        client.force_login(user)
        page = client.get(f"/clubs/{club.slug}/console/")
        live = _live(client, club.slug)
        assert page.status_code == live.status_code == page_status
    client.force_login(director)
    missing = _live(client, "no-such-club")
    hidden = _live(client, "hidden") if not public else None
    if hidden is not None:
        assert (hidden.status_code, hidden.content, sorted(hidden.headers.items())) == (
            missing.status_code,
            missing.content,
            sorted(missing.headers.items()),
        )
