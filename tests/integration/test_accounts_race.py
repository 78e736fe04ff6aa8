"""Season accounts under concurrency, on PostgreSQL (RULES 4.4).

A close posts the night's money under the session's row lock (``session_close`` sends
``hooks.session_closed`` in its transaction; ``accounts_post_session`` reads what the session has
posted and writes what is missing under that lock). Each round, threads released together close
the same session and post its accounts again: one close wins (the others 409), and the accounts
hold one posting per player, summing to zero. Then the night is reopened, corrected and closed
by several threads again: exactly one reversal and one new posting. Without the lock two posts
both read "nothing posted yet" and both write (the unique constraint on (session, close, player,
kind) would then refuse one, a 500, not a second posting).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest

from games.sessions import lifecycle
from scoring.shared.errors import Conflict
from scoring.standings import accounts
from scoring.standings.ledger import AccountEntry
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.integration.test_table_change_race import run_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS, CLOSERS, POSTERS = 4, 3, 2


def _win(rubber: Any) -> None:
    for number in (1, 2):
        rubber.record_deal(
            number=number, contract="4S", declarer="N", tricks=10, actor=acting(rubber)
        )


def _race(session: Any) -> dict[str, Any]:
    jobs = [(f"close{i}", lambda: lifecycle.session_close(session=session)) for i in range(CLOSERS)]
    jobs += [
        (f"post{i}", lambda: accounts.accounts_post_session(session_id=session.pk))
        for i in range(POSTERS)
    ]
    return run_together(*jobs)


def _closes_won(results: dict[str, Any]) -> int:
    closes = [v for k, v in results.items() if k.startswith("close")]
    assert all(not isinstance(v, Exception) or isinstance(v, Conflict) for v in closes), closes
    assert all(not isinstance(v, Exception) for k, v in results.items() if k.startswith("post"))
    return sum(not isinstance(v, Exception) for v in closes)


def test_closes_and_reposts_at_once_post_each_night_once() -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="race")
    for r in range(ROUNDS):
        players = [add_player(club, f"P{r} {seat}") for seat in "NESW"]
        session = make_session(
            club, [players], stake=Decimal("0.50"), date=datetime.date(2026, 12, 1 + r)
        )
        rubber = session.rubbers.get()
        _win(rubber)
        assert _closes_won(_race(session)) == 1
        first = AccountEntry.objects.filter(session=session)
        assert first.count() == 4 and set(first.values_list("close", flat=True)) == {1}
        assert first.total() == 0

        lifecycle.session_reopen(session=session)
        deal = rubber.deals.get(number=2)
        deal.correct(version=deal.version, actor=acting(deal, director), tricks=11)
        assert _closes_won(_race(session)) == 1
        second = AccountEntry.objects.filter(session=session, close=2)
        assert second.filter(kind="reversal").count() == 4
        assert second.filter(kind="posting").count() == 4
        assert second.total() == 0
        assert not AccountEntry.objects.filter(session=session, close__gt=2).exists()
        assert accounts.posted_money(session.pk)[players[0].pk] == Decimal("5.00")
