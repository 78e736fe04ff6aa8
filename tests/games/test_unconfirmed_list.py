"""The deals awaiting confirmation (issue 17), on the director's console and before a close:
each names its table, its rubber (a match at a table of two) and its deal, and links to that
deal on its rubber's pad; two tables' or two rubbers' deal 1 are told apart."""

from __future__ import annotations

import re

import pytest

from games.models import Rubber
from tests.factories import acting, add_player, make_session
from tests.games.conftest import SIX_DEALS

pytestmark = pytest.mark.django_db


def listed(html: str, after: str = 'id="unconfirmed-') -> list[tuple[str, str]]:
    """The (link, words) of each deal listed as awaiting confirmation: the list after `after`
    (the console's card; the close page's warning)."""
    block = html.split(after, 1)[1].split("</ul>", 1)[0]
    return re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', block)


def test_two_rubbers_deal_1_are_named_apart_and_link_to_their_deals(
    client, running_session, director, enter
):
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    first = running_session.rubbers.get(number=1)
    second = Rubber.objects.get(pk=enter(SIX_DEALS, target=first).json()["next_rubber"])
    enter(SIX_DEALS[:1], target=second)
    first.deals.exclude(number=1).update(confirmed_by=first.east)  # only deal 1 waits
    expected = [
        (f"/rubbers/{first.pk}/#deal-1", "Table 1, rubber 1, deal 1"),
        (f"/rubbers/{second.pk}/#deal-1", "Table 1, rubber 2, deal 1"),
    ]
    client.force_login(director)
    console = client.get(f"/clubs/{running_session.club.slug}/console/").content.decode()
    assert listed(console) == expected
    close = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/close/"
    warning = 'id="close-warning"'
    assert listed(client.get(close).content.decode(), warning) == expected
    assert listed(client.post(close).content.decode(), warning) == expected  # before a close


def test_a_table_of_two_names_its_match(client, club, director):
    anna, bruno = add_player(club, "Anna"), add_player(club, "Bruno")
    session = make_session(club, [[anna, bruno]], kind="misery")
    session.confirm_entries = True
    session.save(update_fields=["confirm_entries"])
    match = session.rubbers.get()
    data = {"declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 8}
    match.record_deal(number=1, data=data, actor=acting(match, director))
    client.force_login(director)
    console = client.get(f"/clubs/{club.slug}/console/").content.decode()
    assert listed(console) == [(f"/rubbers/{match.pk}/#deal-1", "Table 1, match 1, deal 1")]
