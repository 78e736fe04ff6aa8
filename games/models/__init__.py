"""Rubbers and deals (DESIGN.md: games/), one module per concern.

- `values`: seats, a deal's facts as entered (`DealFields`), the errors a write raises;
- `summary`: a deal's result as its pad writes it, the reopen refusal and question (each
  game's summary is its own: games/summaries.py);
- `locks`: the locks and refusals every deal write shares, the history notes;
- `state`: what a cached rubber answer is keyed on, in SQL;
- `constraints`: the rules a deal's row keeps in the database;
- `deal`: the Deal model and the writes of one deal;
- `rubber`: the Rubber model, its queries and the entry of a deal.

The writes take the `Actor` who makes them and ask the write policy (games.permissions).

Everything a caller needs is importable from `games.models`.
"""

from scoring.shared.errors import Conflict

from ..permissions import reopened_for_director
from .deal import Deal
from .locks import change_note, check_reopened_writer, closed_session, lock_session
from .rubber import Rubber, RubberQuerySet
from .summary import NextRubberToWithdraw
from .values import (
    DISPUTE_NOTE_MAX,
    MAX_ID,
    SEAT_FIELDS,
    SEAT_SIDE,
    SEATS,
    DealFields,
    DisputeReason,
    EntryCheck,
    NumberGap,
)

__all__ = [
    "DISPUTE_NOTE_MAX",
    "MAX_ID",
    "SEATS",
    "SEAT_FIELDS",
    "SEAT_SIDE",
    "Conflict",
    "Deal",
    "DealFields",
    "DisputeReason",
    "EntryCheck",
    "NextRubberToWithdraw",
    "NumberGap",
    "Rubber",
    "RubberQuerySet",
    "change_note",
    "check_reopened_writer",
    "closed_session",
    "lock_session",
    "reopened_for_director",
]
