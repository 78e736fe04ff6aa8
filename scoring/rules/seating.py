"""How many tables, of what sizes, for a number of players (RULES 6.2, 7): pure, no Django.

The console's live hint and its submit both ask `plan_tables` (issue 18).
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_AT_TABLE, MAX_AT_TABLE = 4, 6

#: Session kinds (the values of `clubs.models.Session.Kind`) played at tables of two (RULES 7).
TWO_PLAYER_KINDS = ("bridge_for_two", "misery", "turnover", "draw_discard")
#: The value of `clubs.models.Session.Movement.FIXED`: fixed partnerships.
FIXED = "fixed"


def suggest_tables(count: int, *, kind: str = "rubber") -> list[int]:
    """Table sizes for `count` players (RULES 6.2: four to six at a table).

    As many tables of four as the count allows, the extra players spread one per table
    (9 → [5, 4], 11 → [6, 5]). Seven cannot be seated (one table of six leaves one out):
    the answer is then [] and the page says why. Two-player games (RULES 7) seat tables of
    two, so they need an even count.
    """
    if kind in TWO_PLAYER_KINDS:
        return [2] * (count // 2) if count >= 2 and count % 2 == 0 else []
    tables = count // MIN_AT_TABLE
    extra = count - tables * MIN_AT_TABLE
    if tables == 0 or extra > tables * (MAX_AT_TABLE - MIN_AT_TABLE):
        return []
    sizes = [MIN_AT_TABLE] * tables
    for i in range(extra):
        sizes[i % tables] += 1
    return sizes


@dataclass(frozen=True)
class TablePlan:
    """How `count` players can be seated for a kind of game and movement: the table sizes, or
    why not (`reason`, a code) and, where one exists, a seating that works (`alternative`:
    tables of four to six here and the others at tables of two, in a two-player session)."""

    count: int
    sizes: list[int]
    reason: str = ""
    alternative: tuple[list[int], list[int]] | None = None


def plan_tables(*, count: int, kind: str, movement: str) -> TablePlan:
    """The one planning answer the console's live hint and its submit both give (issue 18).

    Rubber bridge and Chicago: tables of four to six (RULES 6.2); fixed partnerships, exactly
    four at every table. Two-player games (RULES 7): tables of two. When the count cannot be
    seated, `reason` says why ("empty", "even", "fixed", "four_to_six") and `alternative`
    suggests the nearest seating: the four-player tables for all but two, and those two at a
    two-player table in a session of their own (7 = a table of five and a Bridge for Two
    table), or the pivot's tables when fixed partnerships do not fit.
    """
    if count == 0:
        return TablePlan(count, [], "empty")
    if kind in TWO_PLAYER_KINDS:
        sizes = suggest_tables(count, kind=kind)
        return TablePlan(count, sizes, "" if sizes else "even")
    if movement == FIXED:
        if count % MIN_AT_TABLE == 0:
            return TablePlan(count, [MIN_AT_TABLE] * (count // MIN_AT_TABLE))
        pivot = suggest_tables(count, kind=kind)
        return TablePlan(count, [], "fixed", (pivot, []) if pivot else None)
    sizes = suggest_tables(count, kind=kind)
    if sizes:
        return TablePlan(count, sizes)
    rest = suggest_tables(count - 2, kind=kind) if count > 2 else []
    alternative = (rest, [2]) if rest or count == 2 else None
    return TablePlan(count, [], "four_to_six", alternative)
