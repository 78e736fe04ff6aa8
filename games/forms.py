"""Deal entry and correction forms (phone first: big radio buttons; they work without JS).

The forms turn taps into the fields of a deal and check them with the same domain rules as the
API (`DealFields.build`, i.e. the scoring engine): an impossible result is shown beside the
field it concerns, naming the rule. The model methods write.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.rules import Contract, ScoringError
from scoring.shared.error_messages import error_sentence

from .models import SEATS, DealFields

LEVELS = [(str(n), str(n)) for n in range(1, 8)] + [("pass", _("Pass"))]
STRAINS = [("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"), ("NT", pgettext_lazy("strain", "NT"))]
DOUBLINGS = [("", "–"), ("X", "X"), ("XX", "XX")]
SEAT_LABELS = {
    "N": pgettext_lazy("seat", "N"),
    "E": pgettext_lazy("seat", "E"),
    "S": pgettext_lazy("seat", "S"),
    "W": pgettext_lazy("seat", "W"),
}
SEAT_CHOICES = [(seat, SEAT_LABELS[seat]) for seat in SEATS]
#: Every result a contract can have, from 7NT's −13 to 1♣'s +6 (RULES 1: tricks 0–13); the
#: page shows only those possible for the level chosen (`possible_results`).
RESULTS = [(str(n), f"−{-n}") for n in range(-13, 0)] + [("0", "=")]
RESULTS += [(str(n), f"+{n}") for n in range(1, 7)]


def possible_results(level: int) -> range:
    """The results a contract of `level` can have, from down 6 + level to up 7 − level: the
    declaring side takes between 0 and 13 tricks (1♣: −7 … +6; 7NT: −13 … =)."""
    return range(-(level + 6), 7 - level + 1)


def honours_choices(we_side: str | None) -> list[tuple[str, Any]]:
    """Honours by side, named as the viewer's pad names the sides (We/They, or N–S/E–W)."""
    names = side_names(we_side)
    return [("", _("None"))] + [
        (f"{side}{points}", f"{names[side]} {points}")
        for side in ("NS", "EW")
        for points in (100, 150)
    ]


def side_names(we_side: str | None) -> dict[str, Any]:
    """How a pad names the two sides: We and They for a player at the table (their own side is
    We), N–S and E–W for anyone else."""
    if we_side is None:
        return {"NS": pgettext_lazy("side", "N–S"), "EW": pgettext_lazy("side", "E–W")}
    they = "EW" if we_side == "NS" else "NS"
    return {we_side: _("We"), they: _("They")}


class ChoiceButtons(forms.RadioSelect):
    """Radio inputs, drawn as big buttons by the `.choices` CSS (templates/games/_choices.html)."""


def _honours(code: str) -> tuple[str | None, int | None]:
    if not code:
        return None, None
    return code[:2], int(code[2:])


def _apply_scoring_error(form: forms.Form, err: ScoringError, fields: dict[str, str]) -> None:
    """Show an engine refusal beside the form field it concerns (or at the top)."""
    root = err.field.split(".", 1)[0] if err.field else ""
    form.add_error(fields.get(root), error_sentence(err))


class DealEntryForm(forms.Form):
    """A deal in taps: level, strain, doubling, declarer, the result against the contract and
    honours. The result is the one way to give the tricks (no typed count that could disagree);
    a result the level cannot have is a form error, never adjusted."""

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    level = forms.ChoiceField(label=_("Contract"), choices=LEVELS, widget=ChoiceButtons)
    strain = forms.ChoiceField(
        label=_("Strain"), choices=STRAINS, required=False, widget=ChoiceButtons
    )
    doubling = forms.ChoiceField(
        label=_("Doubled"), choices=DOUBLINGS, required=False, widget=ChoiceButtons
    )
    declarer = forms.ChoiceField(
        label=_("Declarer"), choices=SEAT_CHOICES, required=False, widget=ChoiceButtons
    )
    result = forms.ChoiceField(
        label=_("Result"), choices=RESULTS, required=False, widget=ChoiceButtons
    )
    honours = forms.ChoiceField(
        label=_("Honours"), choices=honours_choices(None), required=False, widget=ChoiceButtons
    )

    ERROR_FIELDS = {
        "contract": "level",
        "declarer": "declarer",
        "tricks": "result",
        "honours": "honours",
    }

    def __init__(self, *args: Any, we_side: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        honours = self.fields["honours"]
        assert isinstance(honours, forms.ChoiceField)
        honours.choices = honours_choices(we_side)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        level = data.get("level")
        if not level:
            return data
        if level == "pass":
            # The page hides and unticks the other choices once Pass is tapped; any still sent
            # disagree with the pass, and which one was meant is not guessed.
            if any(data.get(name) for name in ("strain", "doubling", "declarer", "result")):
                self.add_error(
                    None,
                    _("A passed-out deal has no strain, declarer or result: tap them again."),
                )
                return data
            return _with_fields(self, data, contract="pass", tricks=None)
        if not data.get("strain"):
            self.add_error("strain", _("Choose a strain."))
            return data
        contract = f"{level}{data['strain']}{data.get('doubling') or ''}"
        if data.get("result") in (None, ""):
            # The engine names what is missing (RULES 1), as the API does.
            return _with_fields(self, data, contract=contract, tricks=None)
        result = int(data["result"])
        if result not in possible_results(int(level)):
            self.add_error(
                "result",
                _("%(result)s is not a possible result of a %(level)s-level contract.")
                % {"result": dict(RESULTS)[data["result"]], "level": level},
            )
            return data
        tricks = int(level) + 6 + result
        return _with_fields(self, data, contract=contract, tricks=tricks)

    def record_kwargs(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return {"number": self.cleaned_data["number"], **fields.as_kwargs()}


def entry_initial(deal: Any) -> dict[str, str]:
    """A recorded four-player deal as `DealEntryForm`'s taps (a correction starts from it)."""
    honours = f"{deal.honours_side}{deal.honours_points}" if deal.honours_side else ""
    contract = Contract.parse(deal.contract)
    if contract.is_pass or contract.strain is None:
        return {"level": "pass", "honours": ""}
    return {
        "level": str(contract.level),
        "strain": contract.strain.value,
        "doubling": contract.doubling.suffix,
        "declarer": deal.declarer,
        "result": str((deal.tricks or 0) - (contract.level + 6)),
        "honours": honours,
    }


class DealCorrectionForm(DealEntryForm):
    """A recorded deal to correct with the entry's own buttons, filled from the deal, with the
    deal's `version` (a stale one is refused by `Deal.correct`) instead of a number."""

    number = None  # type: ignore[assignment]
    version = forms.IntegerField(widget=forms.HiddenInput)

    @classmethod
    def for_deal(cls, deal: Any, **kwargs: Any) -> DealCorrectionForm:
        initial = {"version": deal.version, **entry_initial(deal)}
        return cls(initial=initial, prefix=f"deal{deal.pk}", **kwargs)

    def changes(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return fields.as_kwargs()


# --- two-player games (RULES 7) -----------------------------------------------------------------

DECLARATIONS = [
    ("ordinary", _("Ordinary")),
    ("eight", _("Eight tricks")),
    ("misery", _("Misery")),
]
TRICKS = [(str(n), str(n)) for n in range(14)]


class TwoPlayerDealForm(forms.Form):
    """A deal of a two-player game, its fields chosen by the game (RULES 7.1–7.4).

    The form gathers the taps into the game's JSON (`data`, as the API takes it) and checks it
    with the scoring engine (`DealFields.build`); a refusal shows beside its field with the rule.
    """

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    ERROR_FIELDS = {
        "declarer": "declarer",
        "strain": "strain",
        "doubled": "doubled",
        "declaration": "declaration",
        "tricks": "tricks",
        "honours": "honours",
        "contract": "level",
    }

    def __init__(self, *args: Any, kind: str, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        you = [("0", players[0]), ("1", players[1])]
        if kind == "turnover":
            for index, name in enumerate(players):
                self.fields[f"tricks_{index}"] = forms.IntegerField(
                    label=_("Tricks won by %(name)s") % {"name": name},
                    min_value=0,
                    max_value=26,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 14}),
                )
            return
        self.fields["declarer"] = forms.ChoiceField(
            label=_("Declarer"), choices=you, widget=ChoiceButtons
        )
        if kind == "draw_discard":
            self.fields["level"] = forms.ChoiceField(
                label=_("Contract"), choices=LEVELS, widget=ChoiceButtons
            )
        if kind == "misery":
            self.fields["declaration"] = forms.ChoiceField(
                label=_("Declaration"), choices=DECLARATIONS, widget=ChoiceButtons
            )
        self.fields["strain"] = forms.ChoiceField(
            label=_("Strain"), choices=STRAINS, required=False, widget=ChoiceButtons
        )
        if kind == "bridge_for_two":
            self.fields["doubled"] = forms.ChoiceField(
                label=_("Doubled"), choices=DOUBLINGS[:2], required=False, widget=ChoiceButtons
            )
        if kind == "draw_discard":
            self.fields["doubled"] = forms.ChoiceField(
                label=_("Doubled"), choices=DOUBLINGS, required=False, widget=ChoiceButtons
            )
        self.fields["tricks"] = forms.ChoiceField(
            label=_("Tricks won by the declarer"),
            choices=TRICKS,
            required=False,
            widget=ChoiceButtons,
        )
        if kind in ("bridge_for_two", "misery"):
            self.fields["honours"] = forms.ChoiceField(
                label=_("Honours"),
                choices=[
                    ("", _("None")),
                    ("0:100", f"{players[0]} 100"),
                    ("0:150", f"{players[0]} 150"),
                    ("1:100", f"{players[1]} 100"),
                    ("1:150", f"{players[1]} 150"),
                ],
                required=False,
                widget=ChoiceButtons,
            )

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """The deal as the engine's JSON (the API's fields)."""
        if self.kind == "turnover":
            return {"tricks": [data.get("tricks_0"), data.get("tricks_1")]}
        if self.kind == "draw_discard" and data.get("level") == "pass":
            return {"contract": "pass"}
        result: dict[str, Any] = {}
        if data.get("declarer") not in (None, ""):
            result["declarer"] = int(data["declarer"])
        tricks = data.get("tricks")
        if tricks is not None and tricks != "":
            result["tricks"] = int(tricks)
        if self.kind == "draw_discard":
            strain = data.get("strain") or ""
            result["contract"] = f"{data.get('level')}{strain}{data.get('doubled') or ''}"
            return result
        if data.get("strain"):
            result["strain"] = data["strain"]
        if self.kind == "misery":
            result["declaration"] = data.get("declaration")
        elif data.get("doubled"):
            result["doubled"] = 1
        if data.get("honours"):
            player, points = data["honours"].split(":")
            result["honours"] = {"player": int(player), "points": int(points)}
        return result

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        if self.errors:
            return data
        if self.kind == "draw_discard" and data.get("level") != "pass" and not data.get("strain"):
            self.add_error("strain", _("Choose a strain."))
            return data
        try:
            data["fields"] = DealFields.build(kind=self.kind, data=self.game_data(data))
        except ScoringError as err:
            known = {name: f for name, f in self.ERROR_FIELDS.items() if f in self.fields}
            _apply_scoring_error(self, err, known)
        return data

    def record_kwargs(self) -> dict[str, Any]:
        fields: DealFields = self.cleaned_data["fields"]
        return {"number": self.cleaned_data["number"], "data": fields.data}


def two_player_initial(kind: str, data: dict[str, Any]) -> dict[str, str]:
    """A stored two-player deal (its engine JSON) as `TwoPlayerDealForm`'s fields: the inverse
    of `game_data`, so that a correction form starts from the deal as recorded."""
    if kind == "turnover":
        first, second = data["tricks"]
        return {"tricks_0": str(first), "tricks_1": str(second)}
    initial = {name: str(data[name]) for name in ("declarer", "tricks") if name in data}
    if kind == "draw_discard":
        contract = Contract.parse(data["contract"])
        if contract.is_pass or contract.strain is None:
            return {"level": "pass"}
        return {
            **initial,
            "level": str(contract.level),
            "strain": contract.strain.value,
            "doubled": contract.doubling.suffix,
        }
    initial["strain"] = data.get("strain", "NT")
    if kind == "misery":
        initial["declaration"] = data.get("declaration", "ordinary")
    elif data.get("doubled"):
        initial["doubled"] = "X"
    honours = data.get("honours")
    if honours:
        initial["honours"] = f"{honours['player']}:{honours['points']}"
    return initial


class TwoPlayerCorrectionForm(TwoPlayerDealForm):
    """A recorded two-player deal to correct: the entry form's fields, filled from the deal,
    with the deal's `version` (a stale one is refused by `Deal.correct`) instead of a number."""

    number = None  # type: ignore[assignment]
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, kind: str, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, kind=kind, players=players, **kwargs)
        if kind == "draw_discard":
            # A passed deal has no declarer (RULES 3.8); for a contract the engine asks for one.
            self.fields["declarer"].required = False

    @classmethod
    def for_deal(
        cls, deal: Any, *, kind: str, players: list[str], **kwargs: Any
    ) -> TwoPlayerCorrectionForm:
        initial = {"version": deal.version, **two_player_initial(kind, deal.data)}
        return cls(kind=kind, players=players, initial=initial, prefix=f"deal{deal.pk}", **kwargs)

    def changes(self) -> dict[str, Any]:
        """The whole deal as `Deal.correct` takes it. `Deal.correct` merges what it is sent into
        the stored deal (the API's PATCH), so honours no longer held are sent as null."""
        fields: DealFields = self.cleaned_data["fields"]
        data = dict(fields.data or {})
        if self.kind in ("bridge_for_two", "misery"):
            data.setdefault("honours", None)
        return {"data": data}


def _with_fields(
    form: forms.Form, data: dict[str, Any], *, contract: str, tricks: int | None
) -> dict[str, Any]:
    """Validate the deal through the engine (DealFields) and keep it in `data["fields"]`;
    an impossible result becomes a form error on the field it names (RULES section cited)."""
    honours_side, honours_points = _honours(data.get("honours") or "")
    try:
        data["fields"] = DealFields.build(
            contract=contract,
            declarer=data.get("declarer") or None,
            tricks=tricks,
            honours_side=honours_side,
            honours_points=honours_points,
        )
    except ScoringError as err:
        _apply_scoring_error(form, err, form.ERROR_FIELDS)  # type: ignore[attr-defined]
    return data
