"""A closed session's deals are final (RULES 8.4; docs/rules.md §8 decision 6): a dispute sent as
the session closes is refused in words, never saved. The race itself, on PostgreSQL:
tests/integration/test_close_race.py."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Session
from games import selectors
from games.deals import answers
from games.models import Conflict
from games.sessions import lifecycle, table_changes
from tests.conftest import unchanged
from tests.factories import acting

pytestmark = pytest.mark.django_db

CLOSED = "The session is closed: its results are final."


@pytest.fixture
def deal(running_session: Any) -> Any:
    """Deal 1, entered by North, in a session whose opponents confirm entries."""
    running_session.confirm_entries = True
    running_session.save(update_fields=["confirm_entries"])
    rubber = running_session.rubbers.get()
    return rubber.record_deal(
        number=1,
        contract="4S",
        declarer="N",
        tricks=10,
        actor=acting(rubber, rubber.north.user),
    )[0]


def test_a_closed_sessions_deal_takes_no_dispute(deal: Any) -> None:
    lifecycle.session_close(session=deal.rubber.session)
    with unchanged(), pytest.raises(Conflict, match=CLOSED):
        deal.dispute(actor=acting(deal))
    deal.refresh_from_db()
    assert not deal.disputed


@pytest.fixture
def closes_as_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session closes just after the dispute page has read the deal (and found it open)."""
    original = selectors.deal_for_request

    def read_then_close(request: Any, pk: int) -> Any:
        found = original(request, pk)
        # Another request closes it: the page's own copy of the session still says running.
        lifecycle.session_close(session=Session.objects.get(pk=found[0].rubber.session_id))
        return found

    monkeypatch.setattr(answers, "deal_for_request", read_then_close)


@pytest.mark.usefixtures("closes_as_read")
@pytest.mark.parametrize("htmx", [True, False])
def test_a_dispute_sent_as_the_session_closes_is_refused_in_words(
    client: Any, deal: Any, west: Any, htmx: bool
) -> None:
    client.force_login(west)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(
        f"/deals/{deal.pk}/dispute",
        {"version": deal.version, "reason": "result"},
        headers=headers,
        follow=not htmx,
    )
    assert response.status_code == 200
    assert CLOSED in response.content.decode()
    deal.refresh_from_db()
    assert not deal.disputed
    assert Session.objects.get(pk=deal.rubber.session_id).status == "closed"


def test_a_seat_change_read_before_the_close_is_refused_after_it(
    club: Any, running_session: Any
) -> None:
    """A late arrival or an early leaver whose request read the session before the director
    closed it is refused once the close has committed: the status is read again under the
    session's lock, not taken from the object read before (RULES 6.2, 8.4)."""
    from clubs.models import Table, TableSeat
    from tests.factories import add_player

    table = Table.objects.select_related("session").get(session=running_session)
    fifth = add_player(club, "Fifth")
    table_changes.table_add_player(table=table, player=fifth)  # five at the table: one may leave
    stale = Table.objects.select_related("session").get(pk=table.pk)  # read while running
    lifecycle.session_close(session=Session.objects.get(pk=running_session.pk))
    late = add_player(club, "Late")
    with unchanged(), pytest.raises(Conflict):
        table_changes.table_add_player(table=stale, player=late)
    with unchanged(), pytest.raises(Conflict):
        table_changes.table_remove_player(table=stale, player=fifth)
    assert TableSeat.objects.get(table=table, player=fifth).active
