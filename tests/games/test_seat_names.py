"""Names wherever a seat is shown (issue 29, item 1): the pad's header says who sits where this
rubber and who sits out, the seat picker who sits out too; seat and declarer buttons are spoken
in words with the player's name ("North, Clara Cole", "declarer North, Clara Cole")."""

from __future__ import annotations

import re

from django.utils import translation

from games.models import Rubber
from tests.factories import add_player, make_session


def seating(html: str) -> str:
    found = re.search(r'id="seating">(.*?)</p>', html, re.S)
    assert found is not None
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def table_of_five(club, table_of_four):
    fay = add_player(club, "Fay Fifth")
    session = make_session(club, [[*table_of_four.values(), fay]])
    return session.rubbers.get(number=1), fay


def test_the_pad_says_who_sits_where_and_who_sits_out(client, club, table_of_four):
    rubber, fay = table_of_five(club, table_of_four)
    client.force_login(rubber.north.user)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    out = [p for p in [*table_of_four.values(), fay] if p.pk in rubber.sitting_out]
    assert len(out) == 1
    seats = " · ".join(
        f"{letter} {word}: {rubber.seats[letter].name}"
        for letter, word in zip("NESW", ("North", "East", "South", "West"), strict=True)
    )
    # Each seat's letter as the pad writes it, its word for a screen reader, and the player.
    assert seating(html) == f"At the table: {seats} · sitting out: {out[0].name}"


def test_the_seat_picker_names_who_sits_out(client, club, table_of_four):
    rubber, _fay = table_of_five(club, table_of_four)
    out = rubber.out_players[0].name
    page = client.get(f"/t/{rubber.table.code}").content.decode()
    assert f"Sitting out this rubber: {out}." in page
    assert f'<span class="sr-only">North, {rubber.north.name}</span>' in page
    club.language = "it"
    club.save(update_fields=["language"])
    page = client.get(f"/t/{rubber.table.code}").content.decode()
    assert f"Fuori in questo rubber: {out}." in page
    assert f'<span class="sr-only">Ovest, {rubber.west.name}</span>' in page


def test_the_declarer_buttons_speak_the_players_names(client, rubber):
    client.force_login(rubber.north.user)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert f'<span class="sr-only">declarer East, {rubber.east.name}</span>' in html
    with translation.override("it"):
        client.cookies["django_language"] = "it"
        html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert f'<span class="sr-only">dichiarante Est, {rubber.east.name}</span>' in html


def test_a_table_of_two_names_its_two_players(client, club, table_of_four):
    players = list(table_of_four.values())
    session = make_session(club, [players[:2], players[2:]], kind="misery")
    match = Rubber.objects.get(session=session, table__number=1)
    client.force_login(match.north.user)
    html = client.get(f"/rubbers/{match.pk}/").content.decode()
    first, second = sorted([match.north, match.east], key=lambda p: p.pk)
    assert seating(html) == f"At the table: {first.name} and {second.name}"
    # The game's own words, the tab's title included.
    assert "<title>Misery Bridge, match 1, table 1 · Backscore</title>" in html
