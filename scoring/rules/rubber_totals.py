"""A rubber's two totals from its deals' keys, without its scoresheet (RULES 2, 4.1, 8.2).

The standings' rebuild replays every rubber of a federation and reads only each side's total
(the net, the hundreds and the points leader follow from them, ``scoring.rules.games``). This
is ``score_rubber_keys`` (``scoring.rules.rubber``) with the items left out: the same table,
the same games, vulnerability and bonuses, the same refusals; tests/scoring/rules hold the two
equal on random deals.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.rules.errors import ScoringError
from scoring.rules.options import DEFAULT, HouseRules
from scoring.rules.rubber import STANDARD_BONUS, _bridge_tables, _check_keys, unfinished_bonuses

__all__ = ["rubber_totals_keys"]


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
    _, rows, valid = _bridge_tables(options.insult_redoubled, options.old_undertricks)
    _check_keys(keys, valid)
    part_ns = part_ew = games_ns = games_ew = total_ns = total_ew = state = number = 0
    current = rows[0]
    for key in keys:
        below_side, below_points, gain_ns, gain_ew, _, _, _, _ = current[key]
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
