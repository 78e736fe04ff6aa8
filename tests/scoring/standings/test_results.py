"""Results per rubber and player, session standings, settlement (RULES 4, 6.3, 8.4).

Every figure comes from the engine (rubber.scoresheet()); these tests check the aggregation.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.sessions.lifecycle import session_close
from scoring.standings import services
from scoring.standings.models import RubberResult, SessionPayment, SessionStanding
from tests.factories import acting
from tests.scoring.standings.conftest import down_one, win_rubber

pytestmark = pytest.mark.django_db


def refresh(session) -> None:
    services.standings_refresh(session_id=session.pk)


def side_players(rubber) -> dict[str, set[int]]:
    seats = rubber.seat_ids
    return {"NS": {seats["N"], seats["S"]}, "EW": {seats["E"], seats["W"]}}


def standings(session) -> dict[int, SessionStanding]:
    return {s.player_id: s for s in SessionStanding.objects.filter(session=session)}


def test_a_rubber_result_per_player_with_points_hundreds_and_money(room, director):
    rubber = room.rubbers.get(table__number=1)
    win_rubber(rubber, "NS", by=director)
    refresh(room)
    sheet = rubber.scoresheet()
    results = {r.player_id: r for r in RubberResult.objects.filter(rubber=rubber)}
    sides = side_players(rubber)
    assert len(results) == 4
    for pid in sides["NS"]:
        assert results[pid].points == sheet.totals[sheet.winner] == 940
        assert results[pid].hundreds == 9 and results[pid].won
        assert results[pid].money == Decimal("4.50")  # 9 × 0.50
    for pid in sides["EW"]:
        assert (results[pid].points, results[pid].net, results[pid].hundreds) == (0, -940, -9)
        assert results[pid].money == Decimal("-4.50") and not results[pid].won


def test_session_standings_sum_the_ended_rubbers(room, director):
    first = room.rubbers.get(table__number=1)
    second = win_rubber(first, "NS", by=director)
    win_rubber(second, "EW", by=director)
    refresh(room)
    rows = standings(room)
    for pid in side_players(first)["NS"] & side_players(second)["EW"]:
        assert (rows[pid].rubbers, rows[pid].won, rows[pid].hundreds) == (2, 2, 18)
        assert rows[pid].money == Decimal("9.00")
    assert sum(r.hundreds for r in rows.values()) == 0
    assert sum(r.money for r in rows.values()) == 0


def test_a_rubber_in_play_is_provisional_and_counts_in_no_total(room, director):
    rubber = room.rubbers.get(table__number=2)
    down_one(rubber, 1, "N", by=director)  # EW +50 so far
    refresh(room)
    result = RubberResult.objects.filter(rubber=rubber).first()
    assert result.provisional and result.status == "in_play"
    rows = standings(room)
    for pid in side_players(rubber)["EW"]:
        assert rows[pid].hundreds == 0 and rows[pid].rubbers == 0
        assert rows[pid].running_points == 50 and rows[pid].running_hundreds == 1
    assert not SessionPayment.objects.filter(session=room).exists()


def test_closing_the_session_counts_the_unfinished_rubber_rules_8_4(room, director):
    rubber = room.rubbers.get(table__number=2)
    rubber.record_deal(
        number=1, contract="4S", declarer="N", tricks=10, actor=acting(rubber, director)
    )
    session_close(session=room)
    refresh(room)
    rubber.refresh_from_db()
    sheet = rubber.scoresheet()
    assert sheet.unfinished_bonus[sheet.points_leader] == 300  # engine: RULES 2.6
    rows = standings(room)
    for pid in side_players(rubber)["NS"]:
        assert rows[pid].rubbers == 1 and rows[pid].running_hundreds is None
        assert rows[pid].hundreds == sheet.back_score_hundreds[sheet.points_leader] == 4


def test_every_player_seated_is_listed_even_before_a_rubber_ends(room):
    refresh(room)
    rows = standings(room)
    assert len(rows) == 8
    assert {r.table_number for r in rows.values()} == {1, 2}
    # RULES 6.3: nobody has played a deal yet: all listed, none ranked.
    assert all(r.rank is None and r.prize_choice is None for r in rows.values())


def test_ranks_table_ranks_and_prizes_in_room_order_rules_6_3(room, director):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)  # 9 hundreds each
    second = win_rubber(room.rubbers.get(table__number=2), "EW", by=director)
    win_rubber(second, "EW", by=director)  # table 2: 18 for one player
    refresh(room)
    rows = standings(room)
    best = max(rows.values(), key=lambda r: r.hundreds)
    assert best.rank == 1 and best.table_number == 2 and best.prize_choice == 1
    # Table 1's winning partners are equal: they share its prize, the second choice, until a
    # cut decides (RULES 6.3).
    table1 = [r for r in rows.values() if r.table_number == 1 and r.prize_choice]
    assert len(table1) == 2 and all(r.prize_choice == 2 and r.hundreds == 9 for r in table1)
    assert sorted(r.prize_choice for r in rows.values() if r.prize_choice) == [1, 2, 2]
    for table in (1, 2):
        at = sorted(
            (r for r in rows.values() if r.table_number == table), key=lambda r: r.table_rank
        )
        assert at[0].table_rank == 1
        assert [r.hundreds for r in at] == sorted((r.hundreds for r in at), reverse=True)


def test_gross_ranking_follows_the_sessions_pivot_ranking_option_rules_4_3(room, director):
    room.rules = {**room.rules, "pivot_ranking": "gross"}
    room.save(update_fields=["rules"])
    first = room.rubbers.get(table__number=1)
    # NS win a close rubber; EW collect penalties first, so gross points and hundreds disagree.
    for number in range(1, 5):
        down_one(first, number, "N", by=director)  # EW +200 in all
    win_rubber(first, "NS", by=director)  # NS 940 - 200 = 740 net: 7 hundreds
    refresh(room)
    rows = standings(room)
    ns, ew = side_players(first)["NS"], side_players(first)["EW"]
    assert all(rows[p].points == 940 and rows[p].hundreds == 7 for p in ns)
    assert all(rows[p].points == 200 and rows[p].hundreds == -7 for p in ew)
    # Gross: table 1's EW players (200 points) place third; table 2's played no deal (RULES
    # 6.3: unranked).
    table2 = [r for r in rows.values() if r.table_number == 2]
    assert all(rows[p].rank == 3 for p in ew) and all(r.rank is None for r in table2)


def test_settlement_sums_to_zero_with_the_fewest_payments_rules_4_2(room, director):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    second = win_rubber(room.rubbers.get(table__number=2), "EW", by=director)
    win_rubber(second, "NS", by=director)
    refresh(room)
    payments = list(SessionPayment.objects.filter(session=room))
    balance: dict[int, Decimal] = {}
    for p in payments:
        assert p.amount > 0
        balance[p.payer_id] = balance.get(p.payer_id, Decimal(0)) - p.amount
        balance[p.payee_id] = balance.get(p.payee_id, Decimal(0)) + p.amount
    money = {s.player_id: s.money for s in SessionStanding.objects.filter(session=room)}
    assert sum(money.values()) == 0
    assert all(balance.get(pid, 0) == m for pid, m in money.items())
    nonzero = sum(1 for m in money.values() if m)
    assert len(payments) <= nonzero - 1
