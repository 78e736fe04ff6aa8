"""Season accounts (RULES 4.4): a closed night posts every player's money, the postings of a
night sum to zero, payments move the balances, the balances sum to the club's cash in hand, and a
reopened, corrected night posts a reversal and the new posting, never an edit."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games.permissions import Actor, NotAllowed
from games.sessions import lifecycle
from scoring.standings import accounts
from scoring.standings.ledger import AccountEntry
from tests.factories import acting

from .conftest import win_rubber

pytestmark = pytest.mark.django_db

IN, OUT = AccountEntry.Kind.PAID_IN, AccountEntry.Kind.PAID_OUT


def director_of(club: Any) -> Actor:
    return Actor(role="director")


def close(session: Any) -> None:
    lifecycle.session_close(session=session)


def entries(session: Any, **kw: Any) -> list[tuple[int, str, Decimal, int]]:
    return list(
        AccountEntry.objects.filter(session=session, **kw)
        .order_by("pk")
        .values_list("player_id", "kind", "amount", "close")
    )


def test_a_closed_night_posts_every_players_money_summing_to_zero(
    room: Any, table_of_four: dict[str, Any]
) -> None:
    """RULES 4.2, 4.4: NS won a rubber by 940 (9 hundreds) at 0.50: +4.50 each, −4.50 each."""
    win_rubber(room.rubbers.get(table__number=1))
    close(room)
    posted = {pid: amount for pid, kind, amount, _ in entries(room)}
    north, east = table_of_four["north"], table_of_four["east"]
    assert posted[north.pk] == Decimal("4.50")
    assert posted[east.pk] == Decimal("-4.50")
    assert sum(posted.values()) == 0
    assert {kind for _, kind, _, _ in entries(room)} == {"posting"}


def test_posting_a_close_twice_posts_it_once(room: Any) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    close(room)
    before = entries(room)
    assert accounts.accounts_post_session(session_id=room.pk) == 0
    assert entries(room) == before


def test_a_night_with_no_money_posts_nothing(room: Any) -> None:
    close(room)
    assert entries(room) == []


def test_a_corrected_night_posts_the_reversal_and_the_new_posting(
    room: Any, director: Any, table_of_four: dict[str, Any]
) -> None:
    """RULES 4.4: nothing is edited; the first posting stays, reversed, and the new one follows."""
    rubber = room.rubbers.get(table__number=1)
    win_rubber(rubber)
    close(room)
    first = entries(room)
    lifecycle.session_reopen(session=room)
    deal = rubber.deals.get(number=2)
    deal.correct(version=deal.version, actor=acting(deal, director), tricks=11)
    close(room)
    assert entries(room, close=1) == first
    reversal = entries(room, close=2, kind="reversal")
    assert sorted((p, -a) for p, _, a, _ in reversal) == sorted((p, a) for p, _, a, _ in first)
    new = {p: a for p, _, a, _ in entries(room, close=2, kind="posting")}
    # 4S made with an overtrick: 120 + 150 + 700 = 970, 10 hundreds at 0.50 (RULES 4.1).
    assert new[table_of_four["north"].pk] == Decimal("5.00")
    assert sum(a for _, _, a, _ in entries(room, close=2)) == 0
    net = accounts.posted_money(room.pk)
    assert net == {p: a for p, a in new.items() if a}


def test_a_reopened_night_closed_unchanged_posts_nothing_more(room: Any) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    close(room)
    before = entries(room)
    lifecycle.session_reopen(session=room)
    close(room)
    assert entries(room) == before


def test_payments_move_balances_which_sum_to_the_cash_in_hand(
    room: Any, table_of_four: dict[str, Any]
) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    close(room)
    north, east = table_of_four["north"], table_of_four["east"]
    accounts.payment_record(actor=director_of(room.club), player=east, kind=IN, amount=Decimal("5"))
    accounts.payment_record(
        actor=director_of(room.club), player=north, kind=OUT, amount=Decimal("4.50")
    )
    sheet = accounts.club_balances(room.club)
    by_player = {b.player_id: b for b in sheet["balances"]}
    assert by_player[east.pk].balance == Decimal("0.50")  # −4.50 + 5 paid in
    assert by_player[north.pk].balance == Decimal("0.00")  # +4.50 − 4.50 paid out
    assert sheet["cash_in_hand"] == Decimal("0.50")
    assert sheet["total"] == sheet["cash_in_hand"]
    assert AccountEntry.objects.for_club(room.club_id).cash_in_hand() == Decimal("0.50")


def test_a_statement_runs_its_balance_night_by_night(
    room: Any, table_of_four: dict[str, Any]
) -> None:
    win_rubber(room.rubbers.get(table__number=1))
    close(room)
    east = table_of_four["east"]
    accounts.payment_record(actor=director_of(room.club), player=east, kind=IN, amount=Decimal("3"))
    statement = accounts.player_statement(east)
    assert [(line.kind, line.amount, line.balance) for line in statement["lines"]] == [
        ("posting", Decimal("-4.50"), Decimal("-4.50")),
        ("paid_in", Decimal("3.00"), Decimal("-1.50")),
    ]
    assert statement["balance"] == Decimal("-1.50")


def test_only_a_director_records_a_payment(room: Any, table_of_four: dict[str, Any]) -> None:
    player = table_of_four["north"]
    with pytest.raises(NotAllowed):
        accounts.payment_record(
            actor=Actor(role="player"), player=player, kind=IN, amount=Decimal("1")
        )
    assert not AccountEntry.objects.exists()


@pytest.mark.parametrize(("kind", "amount"), [("posting", "1"), (IN, "0"), (OUT, "-2")])
def test_a_payment_that_is_not_one_is_refused(
    room: Any, table_of_four: dict[str, Any], kind: str, amount: str
) -> None:
    with pytest.raises(ValueError):
        accounts.payment_record(
            actor=Actor(role="director"),
            player=table_of_four["north"],
            kind=kind,
            amount=Decimal(amount),
        )
    assert not AccountEntry.objects.exists()
