"""Fixtures of the standings tests: sessions with rubbers played by the engine's rules."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from scoring.standings import queueing
from tests.factories import acting, add_player, make_session


@pytest.fixture(autouse=True)
def _broker_backoff_reset() -> Iterator[None]:
    """Each test starts with the publish back-off closed (it is per process)."""
    queueing._broker_down_until = 0.0
    yield
    queueing._broker_down_until = 0.0


def win_rubber(rubber: Any, side: str = "NS", by: Any = None) -> Any:
    """Two vulnerable-free games for `side` (4S made twice: 120 + 120 + 700 = 940, 9 hundreds);
    return the next rubber at the table."""
    declarer = "N" if side == "NS" else "E"
    start = rubber.deals.count() + 1
    for number in (start, start + 1):
        rubber.record_deal(
            number=number,
            contract="4S",
            declarer=declarer,
            tricks=10,
            actor=acting(rubber, by),
        )
    return rubber.next_rubber()


def down_one(rubber: Any, number: int, declarer: str = "N", by: Any = None) -> None:
    """4S one down, not vulnerable: 50 above the line to the defenders; no game."""
    rubber.record_deal(
        number=number, contract="4S", declarer=declarer, tricks=9, actor=acting(rubber, by)
    )


@pytest.fixture
def room(club: Any, table_of_four: dict[str, Any]) -> Any:
    """A running pivot session at 0.50 a hundred: table 1 north..west, table 2 four more."""
    more = [add_player(club, name) for name in ("Alice", "Bob", "Carol", "Dan")]
    # The day after `running_session`'s (which seats the same four): one player sits in one
    # running session of a day (issue 18).
    return make_session(
        club,
        [list(table_of_four.values()), more],
        stake=Decimal("0.50"),
        date=datetime.date(2026, 12, 1),
    )
