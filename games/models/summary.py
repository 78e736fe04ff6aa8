"""A deal in words: the results the pads show and the refusals' sentences (each game's summary
is its own, games/summaries.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import ngettext, pgettext

from scoring.shared.errors import Conflict


def two_player_result(data: dict[str, Any]) -> str:
    if isinstance(data.get("tricks"), list):
        return f"{data['tricks'][0]}–{data['tricks'][1]}"
    if data.get("tricks") is None:
        return ""
    return str(data["tricks"])


def reopen_refusal(number: int, next_number: int, held: Sequence[tuple[int, str]]) -> str:
    """Why a correction that would reopen rubber `number` is refused: the next rubber at its
    table, `next_number`, holds the deals `held` (each its number and summary)."""
    listed = "; ".join(
        pgettext("a deal in a list", "deal %(number)s (%(summary)s)")
        % {"number": held_number, "summary": summary}
        for held_number, summary in held
    )
    return ngettext(
        "This correction would reopen rubber %(number)s, but rubber %(next)s at this table "
        "already holds %(deals)s, which stays saved. Correct that deal first, or a director may "
        "move it into rubber %(number)s (move_next_deals).",
        "This correction would reopen rubber %(number)s, but rubber %(next)s at this table "
        "already holds %(deals)s, which stay saved. Correct those deals first, or a director "
        "may move them into rubber %(number)s (move_next_deals).",
        len(held),
    ) % {"number": number, "next": next_number, "deals": listed}


class NextRubberToWithdraw(Conflict):
    """A page's correction that would reopen match `number` and withdraw the empty match
    `next_number` after it, not agreed yet (`Deal.correct`'s `withdraw_next`): nothing is saved;
    the page asks first, in its game's words (`GameWords.withdraw_next`)."""

    def __init__(self, number: int, next_number: int) -> None:
        self.number, self.next_number = number, next_number
        super().__init__(f"correction reopens {number}: {next_number} would be withdrawn")
