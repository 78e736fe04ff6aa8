"""One control for arrivals and one for leavers (issue 31): the table cards carry no inline
select; the leaver page offers leaving after the rubber in play (a table of five or six), and
the arrivals page opened from a table offers its cut-in first."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import add_player, make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_of_five(club: Any) -> Any:
    five = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev", "Edith")]
    return make_session(club, [five], date=timezone.localdate())


def test_the_cards_have_one_link_per_change_and_no_inline_select(
    client: Any, director: Any, club: Any, table_of_five: Any
) -> None:
    add_player(club, "Late")
    client.force_login(director)
    html = client.get(f"/clubs/{club.slug}/console/").content.decode()
    assert "/tables/1/add/" not in html and "/tables/1/remove/" not in html
    assert html.count('data-action="leaver"') == 1
    assert html.count('data-action="arrivals"') == 1


def test_a_leaver_at_a_table_of_five_may_leave_after_the_rubber(
    client: Any, director: Any, club: Any, table_of_five: Any
) -> None:
    client.force_login(director)
    url = f"/clubs/{club.slug}/sessions/{table_of_five.pk}/tables/1/leaver/"
    page = html.unescape(client.get(url).content.decode())
    # Issue 31 probe 6: the consequences name the players concerned (the first by default).
    assert "What happens if Ada leaves</h2>" in page
    assert "The table keeps playing with Ben, Cleo, Dev, Edith: Ada finishes the rubber" in page
    assert "The substitute takes Ada's place in the order of precedence" in page
    assert "Ada leaves; table 1 starts its next rubber at once." in page
    edith = club.players.get(name="Edith")
    assert f'href="?leaver={edith.pk}"' in page
    page = html.unescape(client.get(url, {"leaver": str(edith.pk)}).content.decode())
    assert "The table keeps playing with Ada, Ben, Cleo, Dev: Edith finishes the rubber" in page
    assert f'<option value="{edith.pk}" selected>' in page
    response = client.post(url, {"leaver": edith.pk, "after_rubber": ""})
    assert response.status_code == 302
    seat = table_of_five.table_seats.get(player=edith)
    assert not seat.active


def test_a_table_of_four_has_no_leave_after_the_rubber(
    client: Any, director: Any, club: Any
) -> None:
    four = [add_player(club, n) for n in ("Ada", "Ben", "Cleo", "Dev")]
    session = make_session(club, [four], date=timezone.localdate())
    client.force_login(director)
    url = f"/clubs/{club.slug}/sessions/{session.pk}/tables/1/leaver/"
    assert 'id="after-rubber"' not in client.get(url).content.decode()
    response = client.post(url, {"leaver": four[0].pk, "after_rubber": ""})
    assert response.status_code == 400
    assert "at least four players" in response.content.decode()
    assert session.table_seats.get(player=four[0]).active


def test_arrivals_opened_from_a_table_offer_its_cut_in(
    client: Any, director: Any, club: Any, table_of_five: Any
) -> None:
    client.force_login(director)
    url = f"/clubs/{club.slug}/sessions/{table_of_five.pk}/arrivals/"
    html = client.get(url, {"table": "1"}).content.decode()
    assert '<option value="cut_in" selected>' in html
    assert '<option value="1" selected>' in html
    for junk in ("9", "x", "-1"):
        assert (
            '<option value="cut_in" selected>'
            not in client.get(url, {"table": junk}).content.decode()
        )


def test_a_table_that_breaks_up_names_who_goes_where(client: Any, director: Any, club: Any) -> None:
    """Three tables of four and a leaver: eleven cannot keep three tables, so the leaver's table
    breaks up and the page says who joins which table."""
    names = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Fay", "Gus", "Hal", "Ivo", "Jo", "Kit", "Lou")
    room = [add_player(club, n) for n in names]
    session = make_session(club, [room[:4], room[4:8], room[8:]], date=timezone.localdate())
    client.force_login(director)
    url = f"/clubs/{club.slug}/sessions/{session.pk}/tables/2/leaver/"
    page = html.unescape(client.get(url, {"leaver": str(room[4].pk)}).content.decode())
    assert "Eve leaves and table 2 breaks up" in page
    assert "Fay to table 1" in page and "Gus to table 3" in page and "Hal to table 1" in page


def test_the_leaver_page_explains_the_player_chosen(
    client: Any, director: Any, club: Any, table_of_five: Any
) -> None:
    """Issue 31: the explanations follow the select. Changed, the select fetches the page for
    `?leaver=` and swaps in its explanations (htmx attributes, no inline script); without
    JavaScript, "Show" posts the choice and comes back to `?leaver=`. The heading names one
    player; the others are a separate "See instead" line."""
    client.force_login(director)
    url = f"/clubs/{club.slug}/sessions/{table_of_five.pk}/tables/1/leaver/"
    edith = club.players.get(name="Edith")
    response = client.post(url, {"leaver": edith.pk, "show": ""})
    assert response.status_code == 302
    assert response["Location"] == f"{url}?leaver={edith.pk}"
    assert table_of_five.table_seats.filter(active=True).count() == 5  # nothing changed
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "<h2>What happens if Edith leaves</h2>" in page
    assert "See instead:" in page and " · " in page
    assert "The substitute takes Edith's place" in page
    assert f'hx-get="{url}"' in page and 'hx-select="#leaver-shown"' in page
    for part in ("consequence-after-rubber", "consequence-substitute", "replan-plan"):
        assert f'id="{part}"' in page and part in page.split('hx-select-oob="')[1].split('"')[0]
    assert 'name="show"' in page and "<noscript>" in page
