"""The console renders only the cards whose facts changed (games.club.cards): what it answers is
byte for byte the console rendered afresh, after each kind of change, and a deal at one table
reads and renders that table alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache

from clubs.models import Player, Session
from games.club import console as console_module
from games.club import tables as tables_module
from games.pad import rendered
from games.sessions import lifecycle, table_changes
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db

FIRST = {"contract": "4S", "declarer": "N", "tricks": 10}


@pytest.fixture
def room(club: Any) -> dict[str, Any]:
    """Three tables running (five players at the first, four at the others), a planned table
    and a running two-player night."""
    four = [[add_player(club, f"R{t} P{i}") for i in range(5 if t == 0 else 4)] for t in range(3)]
    running = make_session(club, four)
    planned = make_session(club, [[add_player(club, f"Q P{i}") for i in range(4)]], start=False)
    pairs = [[add_player(club, f"M{t} P{i}") for i in range(2)] for t in range(2)]
    two = make_session(club, pairs, kind="misery")
    return {"club": club, "running": running, "planned": planned, "two": two}


def _in_play(session: Session, number: int = 1) -> Any:
    return session.rubbers.in_play().get(table__number=number)


def _deal(room: dict[str, Any]) -> None:
    rubber = _in_play(room["running"], 2)
    rubber.record_deal(number=1, **FIRST, actor=acting(rubber))


def _correct(room: dict[str, Any]) -> None:
    _deal(room)
    deal = _in_play(room["running"], 2).deals.get()
    deal.correct(version=1, tricks=9, actor=acting(deal))


def _confirm(room: dict[str, Any]) -> None:
    Session.objects.filter(pk=room["running"].pk).update(confirm_entries=True)
    _deal(room)
    rubber = _in_play(room["running"], 2)
    deal = rubber.deals.get()
    deal.confirm(actor=acting(rubber, player=rubber.east), version=deal.version)


def _substitute(room: dict[str, Any]) -> None:
    table = room["running"].tables.get(number=3)
    leaver = _in_play(room["running"], 3).east
    table_changes.table_substitute(table=table, leaver=leaver, new_name="Zoe")


def _arrival(room: dict[str, Any]) -> None:
    table = room["running"].tables.get(number=1)
    table_changes.table_add_player(table=table, player=add_player(room["club"], "Late Lou"))


def _leaver(room: dict[str, Any]) -> None:
    table = room["running"].tables.get(number=1)
    table_changes.table_remove_player(table=table, player=_in_play(room["running"], 1).west)


def _rename(room: dict[str, Any]) -> None:
    player = _in_play(room["running"], 1).north
    player.name = "Renamed"
    player.save(update_fields=["name"])


def _start(room: dict[str, Any]) -> None:
    lifecycle.session_start(session=room["planned"], anyway=True)


def _two_player_deal(room: dict[str, Any]) -> None:
    rubber = _in_play(room["two"], 1)
    # RULES 7.2: eight tricks in NT, made with nine.
    deal = {"declarer": 0, "declaration": "eight", "strain": "NT", "tricks": 9}
    rubber.record_deal(number=1, data=deal, actor=acting(rubber))


def _rename_two_player(room: dict[str, Any]) -> None:
    Player.objects.filter(pk=_in_play(room["two"], 2).north_id).update(name="Moved On")


SCENARIOS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a new deal": _deal,
    "a correction": _correct,
    "a confirmation": _confirm,
    "a substitute": _substitute,
    "a late arrival": _arrival,
    "an early leaver": _leaver,
    "a rename": _rename,
    "a session started": _start,
    "a deal at a table of two": _two_player_deal,
    "a rename at a table of two": _rename_two_player,
}


def _forget() -> None:
    cache.clear()
    rendered._BY_FACTS.renders.clear()
    rendered._CARDS.renders.clear()


def _console(client: Any, slug: str) -> str:
    response = client.get(f"/clubs/{slug}/console/live/")
    assert response.status_code == 200
    # The request's own CSRF token, masked afresh for each answer.
    return re.sub(r'value="[A-Za-z0-9]{64}"', 'value="token"', response.content.decode())


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_console_with_kept_cards_is_the_console_rendered_afresh(client, room, director, name):
    client.force_login(director)
    slug = room["club"].slug
    _forget()
    before = _console(client, slug)
    SCENARIOS[name](room)
    kept = _console(client, slug)
    _forget()
    afresh = _console(client, slug)
    assert kept != before
    assert kept == afresh


def test_a_deal_at_one_table_reads_and_renders_that_table_alone(
    client, room, director, monkeypatch
):
    client.force_login(director)
    slug = room["club"].slug
    _forget()
    _console(client, slug)
    read: list[int] = []
    views = tables_module.table_views

    def counted(session: Any, **kwargs: Any) -> Any:
        found = views(session, **kwargs)
        read.extend(view.table.pk for view in found)
        return found

    monkeypatch.setattr("games.club.context.table_views", counted)
    _deal(room)
    html = _console(client, slug)
    assert "Deal 1: 4♠ by North, made" in html
    # The table of the deal, and the tables of two (their cards name the next opponents).
    expected = [
        room["running"].tables.get(number=2).pk,
        *room["two"].tables.values_list("pk", flat=True),
    ]
    assert sorted(read) == sorted(expected)


def test_a_card_is_kept_by_the_code_that_made_it(settings, tmp_path):
    from games.club import cards

    card = tmp_path / "templates" / "clubs" / "_table_card.html"
    card.parent.mkdir(parents=True)
    settings.BASE_DIR = tmp_path
    settings.LOCALE_PATHS = []
    versions = []
    for markup in ("<article>", "<article class='new'>"):
        card.write_text(markup)
        cards.code_version.cache_clear()
        versions.append(cards.code_version())
    cards.code_version.cache_clear()
    assert versions[0] != versions[1]
    assert cards.card_key((1,), ()).startswith(f"card:{cards.code_version()}:")
    cards.code_version.cache_clear()  # made again from the real files by the next test


def test_a_card_made_while_a_deal_lands_is_not_kept_for_the_facts_before_it(
    client, room, director, monkeypatch
):
    """The facts are read before the tables are: a deal landing between the two makes a card
    newer than its facts. Deleting that deal (the last one, recorded by mistake) brings the
    facts back to what they were; the console must not then show the deleted deal."""
    client.force_login(director)
    slug = room["club"].slug
    rubber = _in_play(room["running"], 2)
    rubber.record_deal(number=1, **FIRST, actor=acting(rubber))
    _forget()
    read = console_module.console_sessions

    def a_deal_lands_meanwhile(club: Any, tables: Any) -> Any:
        monkeypatch.setattr(console_module, "console_sessions", read)
        rubber.record_deal(number=2, contract="pass", actor=acting(rubber))
        return read(club, tables)

    monkeypatch.setattr(console_module, "console_sessions", a_deal_lands_meanwhile)
    assert "Deal 2: " in _console(client, slug)
    rubber.deals.get(number=2).delete_last(version=1, actor=acting(rubber))
    kept = _console(client, slug)
    _forget()
    afresh = _console(client, slug)
    assert "Deal 2: " not in afresh
    assert kept == afresh
