"""The two-player deal forms: a deal of the game's own fields (`TwoPlayerFields`), and its
correction."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules import ScoringError
from scoring.shared import inputs
from scoring.shared.error_messages import localize_rule
from scoring.shared.numbers import small_number

from ..models import DealFields
from .common import MAX_NUMBER, MAX_VERSION, PlainErrors, apply_scoring_error
from .two_player_fields import TwoPlayerFields


class TwoPlayerDealForm(PlainErrors):
    """A deal of a two-player game, its fields chosen by the game (RULES 7.1–7.4): `entry`, the
    game's `TwoPlayerFields` (games/registry.py names it).

    The form gathers the taps into the game's JSON (`data`, as the API takes it) and checks it
    with the scoring engine (`DealFields.build`); a refusal shows beside its field with the rule.
    """

    number = inputs.IntegerFormField(min_value=1, max_value=MAX_NUMBER, widget=forms.HiddenInput)

    ERROR_FIELDS = {
        "declarer": "declarer",
        "strain": "strain",
        "doubled": "doubled",
        "declaration": "declaration",
        "tricks": "tricks",
        "honours": "honours",
        "contract": "level",
    }

    def __init__(
        self,
        *args: Any,
        kind: str,
        entry: TwoPlayerFields,
        players: list[str],
        order: tuple[int, int] = (0, 1),
        **kwargs: Any,
    ) -> None:
        """``players``: player 0's and player 1's names; ``order``: the places in the order the
        page shows the players (the pad's stable order, games.display.two_player_order)."""
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.entry = entry
        self.players = players
        self.order = order
        self.fields.update(entry.fields(players, order))
        self.keep_controls()

    def choose(self, name: str) -> str:
        """As `PlainErrors.choose`, naming the players as the pad does."""
        first, second = (self.players[place] for place in self.order)
        if name == "declarer":
            return str(
                _("Choose the declarer: %(first)s or %(second)s.")
                % {"first": first, "second": second}
            )
        place = small_number(name.removeprefix("tricks_")) if name.startswith("tricks_") else None
        if place is not None and place < len(self.players):
            return str(
                _("Enter how many tricks %(name)s won, from 0 to 26.")
                % {"name": self.players[place]}
            )
        return super().choose(name)

    def refusal(self, err: ScoringError, name: str | None) -> str:
        player = err.params.get("player")
        if err.template.startswith("player {player} took") and player in (0, 1):
            # RULES 3.7, the player named as the pad names them.
            assert isinstance(player, int)
            return str(
                _(
                    "%(name)s took only %(tricks)s tricks: the player holding these honours "
                    "takes at least %(minimum)s (%(rule)s)."
                )
                % {
                    "name": self.players[player],
                    "tricks": err.params["tricks"],
                    "minimum": err.params["minimum"],
                    "rule": localize_rule(err.rule) if err.rule else "",
                }
            )
        return super().refusal(err, name)

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """The deal as the engine's JSON (the API's fields)."""
        return self.entry.game_data(data)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        if self.taps_refused():
            return data
        missing = self.entry.missing(data)
        if missing is not None:
            self.add_error(*missing)
            return data
        try:
            data["fields"] = DealFields.build(kind=self.kind, data=self.game_data(data))
        except ScoringError as err:
            known = {name: f for name, f in self.ERROR_FIELDS.items() if f in self.fields}
            apply_scoring_error(self, err, known)
        return data

    def record_kwargs(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return {"number": self.cleaned_data["number"], "data": fields.data}


class TwoPlayerCorrectionForm(TwoPlayerDealForm):
    """A recorded two-player deal to correct: the entry form's fields, filled from the deal,
    with the deal's `version` (a stale one is refused by `Deal.correct`) instead of a number."""

    number = None  # type: ignore[assignment]
    version = inputs.IntegerFormField(min_value=1, max_value=MAX_VERSION, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, kind: str, entry: TwoPlayerFields, players: list[str], **kwargs: Any
    ) -> None:
        super().__init__(*args, kind=kind, entry=entry, players=players, **kwargs)
        for name in entry.optional_on_correction:
            if name in self.fields:
                self.fields[name].required = False

    @classmethod
    def for_deal(
        cls, deal: Any, *, kind: str, entry: TwoPlayerFields, players: list[str], **kwargs: Any
    ) -> TwoPlayerCorrectionForm:
        initial = {"version": deal.version, **entry.initial(deal.data)}
        return cls(
            kind=kind,
            entry=entry,
            players=players,
            initial=initial,
            prefix=f"deal{deal.pk}",
            **kwargs,
        )

    def changes(self) -> dict[str, Any]:
        """The whole deal as `Deal.correct` takes it. `Deal.correct` merges what it is sent into
        the stored deal (the API's PATCH), so honours no longer held are sent as null."""
        fields: DealFields = self.cleaned_data["fields"]
        data = dict(fields.data or {})
        for name in self.entry.cleared_on_correction:
            data.setdefault(name, None)
        return {"data": data}
