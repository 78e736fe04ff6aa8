"""A rubber's two totals from its deals' keys, without its scoresheet (RULES 2, 4.1, 8.2).

The standings' rebuild replays every rubber of a federation and reads only each side's total
(the net, the hundreds and the points leader follow from them, ``scoring.rules.games``). This
is ``score_rubber_keys`` (``scoring.rules.rubber``) with the items left out: the same deal
scores (``deal_table``), games, vulnerability and bonuses, the same refusals;
tests/scoring/rules hold the two equal on random deals. Its table holds four numbers a deal
and vulnerability, not the items, so it is built in a fraction of the rubber table's time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from scoring.rules.contract import Side
from scoring.rules.deal import PASS_KEY, deal_table
from scoring.rules.errors import ScoringError
from scoring.rules.options import DEFAULT, HouseRules
from scoring.rules.rubber import STANDARD_BONUS, _check_keys, unfinished_bonuses

__all__ = ["rubber_totals_keys", "totals_table"]

#: A deal's outcome as the totals need it: the side scoring below the line (0 NS, 1 EW), how
#: much, and the points each side gains in all (``scoring.rules.rubber.RubberEntry`` without
#: its items).
_Row = tuple[int, int, int, int]


@cache
def totals_table(
    insult_redoubled: int, old_undertricks: bool
) -> tuple[tuple[tuple[_Row, ...], ...], frozenset[int]]:
    """The rows of each vulnerability state 0-3 (none, EW, NS, both; RULES 2.3) indexed by a
    deal's input key, as ``scoring.rules.rubber._bridge_tables`` lays them out; and the valid
    keys. A deal is scored with the declarer's vulnerability."""
    options = HouseRules(insult_redoubled=insult_redoubled, old_undertricks=old_undertricks)  # type: ignore[arg-type]
    scores, valid_deal_keys = deal_table(options)
    empty: _Row = (0, 0, 0, 0)
    made: dict[_Row, _Row] = {empty: empty}
    by_deal_key: list[_Row] = []
    for score in scores:
        if score is None or score.declarer is None:
            by_deal_key.append(empty)
            continue
        total_ns = total_ew = 0
        for item in score.items:
            if item.side is Side.NS:
                total_ns += item.points
            else:
                total_ew += item.points
        row = (score.declarer.ordinal, score.declarer_below, total_ns, total_ew)
        by_deal_key.append(made.setdefault(row, row))
    states: tuple[list[_Row], ...] = ([], [], [], [])
    for key in range(PASS_KEY + 1):
        plain, vulnerable = by_deal_key[2 * key], by_deal_key[2 * key + 1]
        # The declarer's vulnerability in states 0-3: an EW declarer's in 1 and 3 (keys whose
        # fives are odd), an NS declarer's in 2 and 3.
        ew = (key // 5) % 2
        states[0].append(plain)
        states[1].append(vulnerable if ew else plain)
        states[2].append(plain if ew else vulnerable)
        states[3].append(vulnerable)
    valid = frozenset(k for k in range(PASS_KEY + 1) if k * 2 in valid_deal_keys)
    return tuple(tuple(rows) for rows in states), valid


def rubber_totals_keys(
    keys: Sequence[int], *, closed: bool = False, options: HouseRules = DEFAULT
) -> tuple[int, int]:
    """``score_rubber_keys(keys, closed=closed, options=options)``'s ``(total_ns, total_ew)``.

    RULES 2.1: only below-the-line points count toward game; RULES 2.2: a game at 100, both
    part scores then start again; RULES 2.3: the vulnerability is the state before the deal;
    RULES 2.4: the rubber bonus, 700 or 500; RULES 8.1: a deal after the rubber ended is
    refused; RULES 2.6 / 8.4: a rubber ``closed`` unfinished gets 300 for the only game and
    ``options.unfinished_partscore`` for a lone part score.
    """
    rows, valid = totals_table(options.insult_redoubled, options.old_undertricks)
    _check_keys(keys, valid)
    part_ns = part_ew = games_ns = games_ew = total_ns = total_ew = state = number = 0
    current = rows[0]
    for key in keys:
        below_side, below_points, gain_ns, gain_ew = current[key]
        number += 1
        total_ns += gain_ns
        total_ew += gain_ew
        if not below_points:
            continue
        if below_side:
            part_ew += below_points
            if part_ew < 100:
                continue
            games_ew += 1
            state |= 1
        else:
            part_ns += below_points
            if part_ns < 100:
                continue
            games_ns += 1
            state |= 2
        part_ns = part_ew = 0
        current = rows[state]
        if games_ns == 2 or games_ew == 2:
            if number < len(keys):
                raise ScoringError(
                    f"deals[{number}]",
                    "the rubber ended at deal {number}; this deal belongs to the next rubber",
                    "RULES 8.1",
                    number=number,
                )
            if games_ns == 2:
                return total_ns + STANDARD_BONUS[games_ew], total_ew
            return total_ns, total_ew + STANDARD_BONUS[games_ns]
    if closed:
        game_bonus, partscore_bonus = unfinished_bonuses(options)
        if game_bonus:
            if games_ns == 1 and games_ew == 0:
                total_ns += game_bonus
            elif games_ew == 1 and games_ns == 0:
                total_ew += game_bonus
        if partscore_bonus:
            if part_ns and not part_ew:
                total_ns += partscore_bonus
            elif part_ew and not part_ns:
                total_ew += partscore_bonus
    return total_ns, total_ew
