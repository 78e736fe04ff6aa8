"""Sessions (issue 18): closing asks first and says what will happen (RULES 2.6, with the
figures each rubber will keep); a planned session can be deleted; a closed session's page lists
every rubber of every table with a link to its pad, and the players who actually played."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from clubs.models import Session
from games.models import Rubber
from games.sessions import lifecycle, table_changes
from tests.factories import acting, add_player, make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def test_close_asks_first_and_shows_the_figures_it_will_keep(
    director_client: Client, director: Any, running_session: Session
) -> None:
    rubber = running_session.rubbers.get()
    # NS win a game (4S made, 120), then EW a part score (2H made, 60): unfinished, NS get 300
    # for the only completed game and EW 100 for the part score (RULES 2.6).
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    rubber.record_deal(
        number=2, contract="2H", declarer="E", tricks=8, actor=acting(rubber, director)
    )
    url = f"/clubs/riverside/sessions/{running_session.pk}/close/"
    page = director_client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "RULES 2.6" in html
    row = re.search(rf'<tr data-rubber="{rubber.pk}">(.*?)</tr>', html, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    assert cells[2] == "2"
    assert cells[3] == "120 – 60"
    assert cells[4] == "420 – 160"
    running_session.refresh_from_db()
    assert running_session.status == Session.Status.RUNNING  # a GET changes nothing
    director_client.post(url)
    running_session.refresh_from_db()
    rubber.refresh_from_db()
    assert running_session.status == Session.Status.CLOSED
    assert rubber.status == Rubber.Status.UNFINISHED
    assert rubber.scoresheet().result.totals == (420, 160)


def test_the_session_block_links_to_the_confirmation_not_a_one_click_close(
    director_client: Client, running_session: Session
) -> None:
    html = director_client.get(f"/clubs/riverside/sessions/{running_session.pk}/").content.decode()
    close = f"/clubs/riverside/sessions/{running_session.pk}/close/"
    assert f'href="{close}"' in html
    assert f'action="{close}"' not in html


def test_a_planned_session_can_be_deleted(
    director_client: Client, club: Any, table_of_four: dict[str, Any]
) -> None:
    planned = make_session(club, [list(table_of_four.values())], start=False)
    response = director_client.post(f"/clubs/riverside/sessions/{planned.pk}/delete/")
    assert response.status_code == 302
    assert not Session.objects.filter(pk=planned.pk).exists()


def test_deleting_a_planned_session_asks_first(
    director_client: Client, club: Any, table_of_four: dict[str, Any]
) -> None:
    """Issue 31: the session's page offered a button that deleted at once; like close and
    reopen, it now links to a page that says what goes, and only its button deletes."""
    planned = make_session(club, [list(table_of_four.values())], start=False)
    delete = f"/clubs/riverside/sessions/{planned.pk}/delete/"
    html = director_client.get(f"/clubs/riverside/sessions/{planned.pk}/").content.decode()
    assert f'href="{delete}"' in html
    assert f'action="{delete}"' not in html
    page = director_client.get(delete)
    assert page.status_code == 200
    assert f'action="{delete}"' in page.content.decode()
    assert "North" in page.content.decode()  # who was seated: the page says what goes
    assert Session.objects.filter(pk=planned.pk).exists()
    club.language = "it"
    club.save(update_fields=["language"])
    assert "Eliminare la serata in programma del" in director_client.get(delete).content.decode()


def test_a_started_session_cannot_be_deleted(
    director_client: Client, running_session: Session
) -> None:
    director_client.post(f"/clubs/riverside/sessions/{running_session.pk}/delete/")
    assert Session.objects.filter(pk=running_session.pk, status="running").exists()
    assert running_session.rubbers.exists()


def test_a_closed_session_lists_every_rubber_and_who_played(
    director_client: Client, director: Any, club: Any, table_of_four: dict[str, Any]
) -> None:
    """A table of five: the fifth player sits out the first rubber and plays the second; a
    sixth joins after the second starts and plays nothing: he is not listed."""
    fifth = add_player(club, "Fifth")
    session = make_session(club, [[*table_of_four.values(), fifth]])
    first = session.rubbers.get(number=1)
    assert fifth.pk in first.sitting_out
    for number in (1, 2):
        first.record_deal(
            number=number,
            contract="4S",
            declarer="N",
            tricks=10,
            actor=acting(first, director),
        )
    second = first.next_rubber()
    assert second is not None
    second.record_deal(
        number=1, contract="2H", declarer="E", tricks=8, actor=acting(second, director)
    )
    late = add_player(club, "Latecomer")
    table_changes.table_add_player(table=session.tables.get(), player=late)
    lifecycle.session_close(session=session)
    html = director_client.get(f"/clubs/riverside/sessions/{session.pk}/").content.decode()
    for rubber in session.rubbers.all():
        assert f'href="/rubbers/{rubber.pk}/"' in html
    assert "Fifth" in html
    assert "Latecomer" not in html
