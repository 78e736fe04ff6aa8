"""Every page that names a table links to it (issue 17, "Your table now"): while the session
runs the link opens the table's rubber in play; once it has closed, the table's card on the
session page, which lists its rubbers. The link is only on pages its reader may read, and a
table of a members-only club answers exactly like one that never existed."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client

from games.sessions import lifecycle
from scoring.standings import services as scoring_services
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db


def _play(session: Any, by: Any) -> None:
    """Table 1 wins a rubber for North–South (4♠ made twice, RULES 2.1) and starts a second;
    table 2 enters one deal; the standings are refreshed."""
    first = session.rubbers.get(table__number=1)
    for number in (1, 2):
        first.record_deal(
            number=number, contract="4S", declarer="N", tricks=10, actor=acting(first, by)
        )
    session.rubbers.get(table__number=2).record_deal(
        number=1,
        contract="2H",
        declarer="E",
        tricks=8,
        actor=acting(session.rubbers.get(table__number=2), by),
    )
    scoring_services.standings_refresh(session_id=session.pk)


@pytest.fixture
def night(club: Any, table_of_four: dict[str, Any], director: Any) -> Any:
    """A running session of two tables: north..west at table 1, four more at table 2."""
    more = [add_player(club, name) for name in ("Alice", "Bob", "Carol", "Dan")]
    session = make_session(club, [list(table_of_four.values()), more])
    _play(session, director)
    return session


def _link(table: Any) -> str:
    return f'href="/tables/{table.pk}/"'


def test_a_running_table_opens_its_rubber_in_play(client: Client, night: Any) -> None:
    table = night.tables.get(number=1)
    in_play = table.rubbers.get(status="in_play")
    assert in_play.number == 2  # the first rubber ended: the link follows the table
    response = client.get(f"/tables/{table.pk}/")
    assert (response.status_code, response["Location"]) == (302, f"/rubbers/{in_play.pk}/")


def test_a_closed_table_opens_its_card_with_its_rubbers(
    client: Client, night: Any, director: Any
) -> None:
    table = night.tables.get(number=1)
    second = table.rubbers.get(status="in_play")
    second.record_deal(
        number=1, contract="1NT", declarer="S", tricks=7, actor=acting(second, director)
    )
    lifecycle.session_close(session=night)  # the second closes unfinished (RULES 2.6)
    response = client.get(f"/tables/{table.pk}/")
    page = f"/clubs/{night.club.slug}/sessions/{night.pk}/"
    assert (response.status_code, response["Location"]) == (302, f"{page}#table-{table.pk}")
    html = client.get(page).content.decode()
    card = html[html.index(f'id="table-{table.pk}"') :]
    card = card[: card.index("</article>")]
    for rubber in table.rubbers.all():
        assert f'href="/rubbers/{rubber.pk}/"' in card
    assert table.rubbers.count() == 2


PAGES = {
    "session standings": lambda s: f"/sessions/{s.pk}/standings/",
    "session page": lambda s: f"/clubs/{s.club.slug}/sessions/{s.pk}/",
    "table cards": lambda s: f"/clubs/{s.club.slug}/sessions/{s.pk}/cards/",
    "console": lambda s: f"/clubs/{s.club.slug}/console/",
    "club page": lambda s: f"/clubs/{s.club.slug}/",
    "home": lambda s: "/",
    "close preview": lambda s: f"/clubs/{s.club.slug}/sessions/{s.pk}/close/",
    "player history": lambda s: (
        f"/players/{s.rubbers.get(number=1, table__number=1).north_id}/history/"
    ),
    "player page": lambda s: f"/players/{s.rubbers.get(number=1, table__number=1).north_id}/",
    "rubber page": lambda s: f"/rubbers/{s.rubbers.get(number=1, table__number=1).pk}/",
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_naming_a_table_links_to_it(
    client: Client, night: Any, director: Any, name: str
) -> None:
    client.force_login(director)
    response = client.get(PAGES[name](night))
    assert response.status_code == 200
    assert _link(night.tables.get(number=1)) in response.content.decode()


def test_the_standings_link_each_table_where_they_name_it(client: Client, night: Any) -> None:
    """The room's column (one per player), the tables' cards and the prizes (RULES 6.3)."""
    html = client.get(f"/sessions/{night.pk}/standings/").content.decode()
    one, two = night.tables.order_by("number")
    room = html[html.index('class="data standings-room"') : html.index("</table>")]
    assert room.count(_link(one)) == 4 and room.count(_link(two)) == 4
    cards = html[html.index('<div class="grid">') : html.index('class="prizes"')]
    assert cards.count(_link(one)) == 1 and cards.count(_link(two)) == 1
    prizes = html[html.index('class="prizes"') :]
    prizes = prizes[: prizes.index("</ol>")]
    assert _link(one) in prizes  # table 1's winner chooses (the rubber at table 2 is in play)


def test_the_club_page_links_a_running_table_but_not_a_planned_one(
    client: Client, night: Any, club: Any
) -> None:
    planned = make_session(
        club,
        [[add_player(club, name) for name in ("Eve", "Fay", "Gus", "Hal")]],
        start=False,
        date=datetime.date(2026, 12, 2),
    )
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    running = html[html.index(f'data-session="{night.pk}"') :]
    assert _link(night.tables.get(number=2)) in running
    later = html[html.index(f'data-session="{planned.pk}"') :]
    later = later[: later.index("</ul>")]
    assert "/tables/" not in later  # no rubber yet: the table is named, not linked
    assert client.get(f"/tables/{planned.tables.get().pk}/")["Location"].endswith(
        f"/sessions/{planned.pk}/#table-{planned.tables.get().pk}"
    )


def _everything(response: Any) -> tuple[Any, ...]:
    return (
        response.status_code,
        response.content,
        sorted(response.headers.items()),
        sorted((name, morsel.OutputString()) for name, morsel in response.cookies.items()),
    )


@pytest.mark.parametrize("closed", [False, True], ids=["running", "closed"])
def test_a_hidden_table_answers_exactly_like_a_missing_one(
    client: Client, night: Any, club: Any, outsider: Any, closed: bool
) -> None:
    club.public = False
    club.save(update_fields=["public"])
    if closed:
        lifecycle.session_close(session=night)
    table = night.tables.get(number=1)
    for user in (None, outsider):
        if user is not None:
            client.force_login(user)
        hidden = client.get(f"/tables/{table.pk}/")
        missing = client.get(f"/tables/{10**7}/")
        assert hidden.status_code == 404
        assert _everything(hidden) == _everything(missing)


def test_pages_of_a_members_only_club_link_no_table_for_an_outsider(
    client: Client, night: Any, club: Any, outsider: Any
) -> None:
    """The home page lists only readable clubs: an outsider sees neither the club nor a link
    to its tables."""
    club.public = False
    club.save(update_fields=["public"])
    client.force_login(outsider)
    html = client.get("/").content.decode()
    assert not re.search(r'href="/tables/\d+/"', html)
    assert client.get(f"/sessions/{night.pk}/standings/").status_code == 404
