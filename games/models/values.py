"""The values the models are made of: seats, a deal's facts as entered, and the errors a write
raises besides `Conflict` (scoring.shared.errors)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.rules import Contract, DealInput, Honours, ScoringError, Side
from scoring.shared.errors import Conflict

from .. import sheets

SEATS = ("N", "E", "S", "W")
SEAT_FIELDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
#: The largest id a row can have (a 64-bit key).
MAX_ID = 2**63 - 1
SEAT_SIDE = {"N": Side.NS, "S": Side.NS, "E": Side.EW, "W": Side.EW}
#: The longest note a dispute keeps (`Deal.dispute_note`).
DISPUTE_NOTE_MAX = 200


class DisputeReason(models.TextChoices):
    """What an opponent disputes in a deal (`Deal.dispute`), shown to the director with it."""

    CONTRACT = "contract", _("the contract")
    DECLARER = "declarer", _("the declarer")
    RESULT = "result", _("the result")
    HONOURS = "honours", _("the honours")
    OTHER = "other", _("something else")


class NumberGap(Conflict):
    """A deal whose number is not the rubber's next one (RULES 8.1), `expected` (a deal before it
    was deleted meanwhile, say): the offline queue offers to record it as that one."""

    def __init__(self, message: str, *, expected: int) -> None:
        super().__init__(message)
        self.expected = expected


class EntryCheck(TypedDict):
    """What `RubberQuerySet.for_entry` reads with the rubber, as attributes of it: the type
    checker sees them on `WithAnnotations[Rubber, EntryCheck]` (django-stubs-ext)."""

    club_public: bool
    viewer_role: str | None
    viewer_player_id: int | None
    #: The session was reopened for corrections (`Session.is_reopened`; 0 or 1 in SQLite).
    session_reopened: bool


@dataclass(frozen=True)
class DealFields:
    """The facts of one deal as entered, normalised (validated by the scoring engine).

    A four-player deal (rubber, Chicago) has a contract, a declaring seat, tricks and honours;
    a two-player deal (RULES 7) has only `data`, the game's own JSON as the engine reads it.
    """

    contract: str
    declarer: str
    tricks: int | None
    honours_side: str
    honours_points: int | None
    data: dict[str, Any] | None = None

    @classmethod
    def build(
        cls,
        *,
        kind: str = sheets.RUBBER,
        contract: str | None = None,
        declarer: str | None = None,
        tricks: int | None = None,
        honours_side: str | None = None,
        honours_points: int | None = None,
        data: dict[str, Any] | None = None,
    ) -> DealFields:
        if sheets.is_two_player(kind):
            return cls("", "", None, "", None, sheets.normalise(kind, data))
        if data is not None:
            raise ScoringError("data", "only a two-player deal has game data", None)
        parsed = Contract.parse(contract or "")
        declarer = (declarer or "").upper()
        if declarer and declarer not in SEATS:
            raise ScoringError(
                "declarer", "{value!r} is not a seat (N, E, S or W)", None, value=declarer
            )
        fields = cls(
            contract=str(parsed),
            declarer=declarer,
            tricks=tricks,
            honours_side=(honours_side or "").upper(),
            honours_points=honours_points,
        )
        fields.as_input()  # validates the combination (RULES 1, 3.6)
        return fields

    def as_input(self) -> DealInput:
        return deal_input(
            self.contract, self.declarer, self.tricks, self.honours_side, self.honours_points
        )

    def corrected(self, kind: str, changes: dict[str, Any]) -> DealFields:
        """These facts with a correction's `changes` (`Deal.correct`), built and checked again.

        A two-player correction sends the game's fields to change (RULES 7.x): each replaces the
        stored one, null removes it; a pass drops the stored declarer and tricks (not those sent:
        the engine judges them). A four-player deal corrected to a pass loses its declarer,
        tricks and honours unless given; the fields sent replace the stored ones."""
        if sheets.is_two_player(kind):
            sent = changes.get("data") or {}
            data = dict(self.data or {})
            if sent.get("contract") == "pass":
                data.pop("declarer", None)
                data.pop("tricks", None)
            data.update(sent)
            return DealFields.build(
                kind=kind, data={name: value for name, value in data.items() if value is not None}
            )
        current = self.as_kwargs()
        if str(changes.get("contract", "")).strip().lower() == "pass":
            current.update(declarer="", tricks=None, honours_side="", honours_points=None)
        current.update(changes)
        return DealFields.build(kind=kind, **current)

    def as_kwargs(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "declarer": self.declarer,
            "tricks": self.tricks,
            "honours_side": self.honours_side,
            "honours_points": self.honours_points,
            "data": self.data,
        }


#: The engine's input for a four-player deal's facts, kept per process (`deal_input`): a rubber
#: is scored again from all its deals at every entry (RULES 8.2), and its earlier deals' facts
#: do not change. Keyed with each fact's type, as `True == 1` and both hash alike.
_INPUTS: dict[tuple[Any, ...], DealInput] = {}
#: At most this many inputs kept; then the table is emptied and refilled.
KEPT_INPUTS = 8192


def deal_input(
    contract: str, declarer: str, tricks: int | None, honours_side: str, honours_points: int | None
) -> DealInput:
    """The engine's input for a four-player deal's facts (checked by it: RULES 1, 3.6), kept
    for facts of the same values and types; facts it refuses raise each time."""
    facts = (contract, declarer, tricks, honours_side, honours_points)
    key = (*facts, *map(type, facts))
    try:
        found = _INPUTS.get(key)
    except TypeError:  # a fact that cannot be a key
        return _deal_input(*facts)
    if found is None:
        found = _deal_input(*facts)
        if len(_INPUTS) >= KEPT_INPUTS:
            _INPUTS.clear()
        _INPUTS[key] = found
    return found


def _deal_input(
    contract: str, declarer: str, tricks: int | None, honours_side: str, honours_points: int | None
) -> DealInput:
    honours = None
    if honours_side or honours_points is not None:
        if not honours_side:
            raise ScoringError("honours.side", "is required with the points", "RULES 3.6")
        # Unchecked here: Honours refuses missing points itself (RULES 3.6).
        points: Any = honours_points
        honours = Honours(Side.parse(honours_side, "honours.side"), points)
    return DealInput.create(contract, SEAT_SIDE[declarer] if declarer else None, tricks, honours)


class RubberStatus(models.TextChoices):
    """Where a match stands (`Rubber.Status`); the deals' writes read it too."""

    IN_PLAY = "in_play", _("In play")
    COMPLETE = "complete", _("Complete")
    UNFINISHED = "unfinished", _("Unfinished")
