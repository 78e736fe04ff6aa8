"""A two-player night at the director's console and on the table cards (issue 18): two seats
named by the players, the match in play and each player's next opponent in the round robin
(RULES 7), and no compass seats, no sitting out, no partners."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.sessions import lifecycle
from tests.factories import UserFactory, add_player, make_session
from tests.games.two_player.conftest import play

pytestmark = pytest.mark.django_db

FOUR_PLAYER_WORDS = ("North", "South", "East", "West", "partners", "Sitting out", ">Out<")


@pytest.fixture
def night(club: Any) -> Any:
    """Bridge for Two at two tables: Ann v Bea at table 1, Carl v Dora at table 2."""
    players = {
        name: add_player(club, name, user=UserFactory(username=name.lower()))
        for name in ("Ann", "Bea", "Carl", "Dora")
    }
    session = make_session(
        club,
        [[players["Ann"], players["Bea"]], [players["Carl"], players["Dora"]]],
        kind="bridge_for_two",
    )
    session.players = players
    return session


def table_card(html: str, number: int) -> str:
    """The markup of one table's card (console or printable cards)."""
    start = html.index(f'data-table="{number}"')
    end = html.find("data-table=", start + 1)
    return html[start : end if end > 0 else len(html)]


def texts(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))


def rows(fragment: str) -> list[list[str]]:
    """The rotation table's rows: match number then the two players' names."""
    body = fragment[fragment.index("two-seats") :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    return [
        [texts(cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_the_console_shows_two_seats_the_match_and_the_next_opponents(client, director, night):
    client.force_login(director)
    html = client.get("/clubs/riverside/console/").content.decode()
    card = table_card(html, 1)
    for word in FOUR_PLAYER_WORDS:
        assert word not in card, word
    assert "Match 1 in play" in texts(card)
    # The match in play, then the round robin at this table (the circle method, RULES 7:
    # table 1's first player stays, everyone else turns: round 2 is Ann v Dora, round 3 Ann v
    # Carl), two names a line, in the players' stable order.
    # With four players the round robin repeats after three rounds (round 4 is round 1).
    assert rows(card) == [
        ["1 now", "Ann", "Bea"],
        ["2", "Ann", "Dora"],
        ["3", "Ann", "Carl"],
        ["4", "Ann", "Bea"],
    ]
    # After this match Ann meets Dora here, Bea meets Carl at table 2.
    assert "Next: Ann plays Dora at table 1." in texts(card)
    assert "Next: Bea plays Carl at table 2." in texts(card)
    assert "Next: Carl plays Bea at table 2." in texts(table_card(html, 2))


def test_the_table_cards_of_a_two_player_night(client, night):
    html = client.get(f"/clubs/riverside/sessions/{night.pk}/cards/").content.decode()
    card = table_card(html, 2)
    for word in FOUR_PLAYER_WORDS:
        assert word not in card, word
    assert "Bridge for Two: a game for two." in texts(card)
    assert "Match 1 in play." in texts(card)
    assert rows(card)[0] == ["1 now", "Carl", "Dora"]
    assert "Next: Dora plays Ann at table 1." in texts(card)


def test_the_order_of_the_two_players_is_the_same_in_every_match(api, client, director, club):
    """One table: the two players take turns to deal first (player 0, RULES 7), so the engine's
    order swaps every match; the console and cards keep one order."""
    ann, bea = (add_player(club, name) for name in ("Ann", "Bea"))
    session = make_session(club, [[ann, bea]], kind="turnover")
    play(api, session.rubbers.get(number=1), [{"tricks": [14, 3]}], as_user=director)
    second = session.rubbers.get(number=2)
    assert (second.north_id, second.east_id) == (bea.pk, ann.pk)  # Bea deals first now
    client.force_login(director)
    card = table_card(client.get("/clubs/riverside/console/").content.decode(), 1)
    assert rows(card) == [["2 now", "Ann", "Bea"]] + [[str(n), "Ann", "Bea"] for n in (3, 4, 5)]
    cards = client.get(f"/clubs/riverside/sessions/{session.pk}/cards/").content.decode()
    assert rows(table_card(cards, 1))[:2] == [["1", "Ann", "Bea"], ["2 now", "Ann", "Bea"]]


def test_a_four_player_night_keeps_its_seats_and_partners(client, director, running_session):
    client.force_login(director)
    html = client.get("/clubs/riverside/console/").content.decode()
    assert "two-seats" not in html and ">Out<" in html
    cards = client.get(f"/clubs/riverside/sessions/{running_session.pk}/cards/")
    assert "North and South are partners" in cards.content.decode()


def test_a_planned_two_player_night_shows_its_first_matches(client, director, club):
    ann, bea, carl, dora = (add_player(club, n) for n in ("Ann", "Bea", "Carl", "Dora"))
    make_session(club, [[ann, bea], [carl, dora]], kind="misery", start=False)
    client.force_login(director)
    card = table_card(client.get("/clubs/riverside/console/").content.decode(), 2)
    assert rows(card)[0] == ["1", "Carl", "Dora"]
    assert "Next:" not in card  # nothing in play yet


def test_the_console_and_cards_read_in_a_fixed_number_of_queries(
    client, director, club, django_assert_max_num_queries
):
    """Two tables or six: the same queries (no query per table or per match; the cards made
    four a table before)."""

    def measure(tables: int) -> tuple[int, int]:
        players = [add_player(club, f"P{tables}-{n}") for n in range(2 * tables)]
        session = make_session(
            club, [players[i : i + 2] for i in range(0, 2 * tables, 2)], kind="bridge_for_two"
        )
        client.force_login(director)
        with django_assert_max_num_queries(100) as console:
            assert client.get("/clubs/riverside/console/").status_code == 200
        with django_assert_max_num_queries(100) as cards:
            url = f"/clubs/riverside/sessions/{session.pk}/cards/"
            assert client.get(url).status_code == 200
        lifecycle.session_close(session=session)
        return len(console.captured_queries), len(cards.captured_queries)

    assert measure(2) == measure(6)


def test_a_table_code_at_a_table_of_two_offers_the_players_by_name(client, api, director, club):
    """/t/<code> (issue 17): the two players' names in the stable order, no compass letter."""
    from django.core.cache import cache

    cache.clear()  # the wrong-code throttle
    ann, bea = (add_player(club, name) for name in ("Ann", "Bea"))
    session = make_session(club, [[ann, bea]], kind="turnover")
    play(api, session.rubbers.get(number=1), [{"tricks": [14, 3]}], as_user=director)
    second = session.rubbers.get(number=2)  # Bea is player 0, at N
    code = second.table.code
    html = client.get(f"/t/{code}").content.decode()
    buttons = re.findall(r'name="seat" value="(\w)"[^>]*>([^<]+)<', html)
    assert buttons == [("E", "Ann"), ("N", "Bea")]
    assert "Which player is this phone?" in html
    response = client.post(f"/t/{code}", {"seat": "E"})
    assert response.status_code == 302 and response["Location"] == f"/rubbers/{second.pk}/"


def test_a_table_of_two_says_its_next_match_once_and_names_no_movement(client, director, club):
    """Issue 29 round 3, item 5: two players who meet again next showed two lines ("Bruno plays
    Dev", "Dev plays Bruno"), and the session's heading named a movement ("· Pivot") that a
    game of two has not."""
    bruno, dev = (add_player(club, name) for name in ("Bruno", "Dev"))
    session = make_session(club, [[bruno, dev]], kind="misery")
    client.force_login(director)
    console = client.get("/clubs/riverside/console/").content.decode()
    said = texts(table_card(console, 1))
    assert said.count("Next: ") == 1 and "Next: Bruno plays Dev at table 1." in said
    page = client.get(session.get_absolute_url()).content.decode()
    for html in (console, page):
        heading = texts(html[html.index('class="session-block"') :][:600])
        assert "Misery" in heading and session.get_movement_display() not in heading
