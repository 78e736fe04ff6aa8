"""Deal entry and correction forms (phone first: big radio buttons; they work without JS).

The forms turn taps into the fields of a deal and check them with the same domain rules as the
API (`DealFields.build`, i.e. the scoring engine): an impossible result is shown beside the
field it concerns, naming the rule. The model methods write.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.rules import Contract, ScoringError
from scoring.shared import inputs
from scoring.shared.error_messages import error_sentence, localize_rule
from scoring.shared.numbers import small_number

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


# --- errors in plain words ----------------------------------------------------------------------

#: What a page asks for when a field is left empty, or sent with a value the page does not
#: offer (a stale or tampered page): what to tap, named as the pad names it. The API keeps its
#: own wording (docs/api.md); only the page forms say these.
CHOOSE: dict[str, Any] = {
    "level": _("Choose the contract: a level from 1 to 7, or Pass."),
    "strain": _("Choose the strain: ♣, ♦, ♥, ♠ or NT."),
    "doubling": _("Choose whether the contract was doubled: –, X or XX."),
    "doubled": _("Choose whether the contract was doubled."),
    "declarer": _("Choose the declarer: N, E, S or W."),
    "result": _("Choose the result: made, or how many over or down."),
    "honours": _("Choose who held honours, or None."),
    "tricks": _("Choose how many tricks the declarer won, from 0 to 13."),
    "declaration": _("Choose the declaration: ordinary, eight tricks or misery."),
}
#: A hidden field only an out-of-date (or tampered) page gets wrong: the page says so at the top
#: of the form (a hidden field's own errors would show nowhere).
STALE: dict[str, Any] = {
    "number": _("This page is out of date: reload it to enter the next deal."),
    "version": _("This page is out of date: reload it to correct this deal."),
}


def _sentence(text: str) -> str:
    """A refusal as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else f"{text}."


class PlainErrors(forms.Form):
    """A page form whose errors are plain sentences (issue 17: no API words on a page).

    Django's own field errors ("This field is required.", "Select a valid choice. 7 is not one
    of the available choices.") become what to tap (`choose`); an engine refusal for a field left
    empty ("tricks is required") too; an engine refusal of a bridge rule keeps its rule
    ("… (RULES 3.6)."). A bad hidden `number` or `version` says the page is out of date, at the
    top of the form. The engine and the API are untouched: this is the page's translation.

    `controls` (the game's and the house rules', `GamePages.entry_controls`) keeps only those of
    the tapped fields: the page shows no other. A value a stale or tampered page still sends for
    another is read as before and reaches the engine, which refuses it with its rule.
    """

    def __init__(self, *args: Any, controls: Collection[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.off_fields: dict[str, forms.Field] = {}
        self.controls = controls

    def keep_controls(self) -> None:
        """Take the tapped fields not in `controls` out of the form (called once its fields are
        all there)."""
        if self.controls is None:
            return
        for name in [n for n, f in self.fields.items() if not f.widget.is_hidden]:
            if name not in self.controls:
                self.off_fields[name] = self.fields.pop(name)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        for name, field in self.off_fields.items():
            raw = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            if raw in field.empty_values:
                continue
            try:
                data[name] = field.clean(raw)
            except ValidationError:
                self.add_error(None, self.choose(name))
        return data

    def choose(self, name: str) -> str:
        """What to tap for the field `name`, in words."""
        text = CHOOSE.get(name)
        if text is None:
            label = self.fields[name].label if name in self.fields else name
            return str(_("Check “%(field)s”.") % {"field": label})
        return str(text)

    def taps_refused(self) -> bool:
        """Whether a field the player taps (not a hidden one) has an error already."""
        return any(n in self.fields and not self.fields[n].widget.is_hidden for n in self.errors)

    def refusal(self, err: ScoringError, name: str | None) -> str:
        """An engine refusal as the page says it beside field `name` (or at the top)."""
        if err.template.startswith("is required") and name in self.fields:
            return self.choose(name)
        return _sentence(error_sentence(err))

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound:
            return
        errors = self.errors  # as full_clean left them
        stale = False
        for name in [n for n in errors if n != NON_FIELD_ERRORS]:
            if name in STALE and self.fields[name].widget.is_hidden:
                del errors[name]
                if not stale:
                    self.add_error(None, str(STALE[name]))
                stale = True
            elif any(error.code for error in errors[name].as_data()):
                # Django's own words (codes "required", "invalid_choice", "min_value" …).
                errors[name] = self.error_class(
                    [ValidationError(self.choose(name))], renderer=self.renderer
                )


def _apply_scoring_error(form: PlainErrors, err: ScoringError, fields: dict[str, str]) -> None:
    """Show an engine refusal beside the form field it concerns (or at the top), in the page's
    words (`PlainErrors.refusal`)."""
    root = err.field.split(".", 1)[0] if err.field else ""
    name = fields.get(root)
    form.add_error(name, form.refusal(err, name))


#: The largest deal number a page may send (the model's small integer): beyond it, as below 1,
#: the page is out of date (`STALE`), never a database error.
MAX_NUMBER = 32767
#: The largest deal version (the model's integer).
MAX_VERSION = 2**31 - 1


class DealEntryForm(PlainErrors):
    """A deal in taps: level, strain, doubling, declarer, the result against the contract and
    honours. The result is the one way to give the tricks (no typed count that could disagree);
    a result the level cannot have is a form error, never adjusted. Errors are plain sentences
    (`PlainErrors`)."""

    number = inputs.IntegerFormField(min_value=1, max_value=MAX_NUMBER, widget=forms.HiddenInput)
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
        self.we_side = we_side
        honours = self.fields["honours"]
        assert isinstance(honours, forms.ChoiceField)
        honours.choices = honours_choices(we_side)
        self.keep_controls()

    def refusal(self, err: ScoringError, name: str | None) -> str:
        if err.template.startswith("{side} took {tricks} tricks"):
            # RULES 3.7, the side named as the pad names it (We/They, or N–S/E–W).
            side = str(err.params["side"])
            return str(
                _(
                    "%(side)s took only %(tricks)s tricks: the side holding these honours takes "
                    "at least %(minimum)s (%(rule)s)."
                )
                % {
                    "side": side_names(self.we_side).get(side, side),
                    "tricks": err.params["tricks"],
                    "minimum": err.params["minimum"],
                    "rule": localize_rule(err.rule) if err.rule else "",
                }
            )
        return super().refusal(err, name)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # forms.Form.clean returns cleaned_data
        level = data.get("level")
        if not level or self.taps_refused():
            # A field left empty or sent with a value the page does not offer: said beside it
            # (`PlainErrors`), the deal not checked further.
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
            self.add_error("strain", self.choose("strain"))
            return data
        contract = f"{level}{data['strain']}{data.get('doubling') or ''}"
        if data.get("result") in (None, ""):
            # The engine names what is missing (RULES 1), as the API does.
            return _with_fields(self, data, contract=contract, tricks=None)
        result = int(data["result"])
        if result not in possible_results(int(level)):
            # The declaring side takes 0 to 13 tricks (RULES 1).
            self.add_error(
                "result",
                _(
                    "%(result)s is not a possible result of a %(level)s-level contract: "
                    "the declaring side takes 0 to 13 tricks (RULES 1)."
                )
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
    version = inputs.IntegerFormField(min_value=1, max_value=MAX_VERSION, widget=forms.HiddenInput)

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


def _declarer(players: list[str], order: tuple[int, int]) -> forms.Field:
    you = [(str(place), players[place]) for place in order]
    return forms.ChoiceField(label=_("Declarer"), choices=you, widget=ChoiceButtons)


def _strain() -> forms.Field:
    return forms.ChoiceField(
        label=_("Strain"), choices=STRAINS, required=False, widget=ChoiceButtons
    )


def _tricks() -> forms.Field:
    return forms.ChoiceField(
        label=_("Tricks won by the declarer"),
        choices=TRICKS,
        required=False,
        widget=ChoiceButtons,
    )


def _player_honours(players: list[str], order: tuple[int, int]) -> forms.Field:
    return forms.ChoiceField(
        label=_("Honours"),
        choices=[
            ("", _("None")),
            *(
                (f"{place}:{points}", f"{players[place]} {points}")
                for place in order
                for points in (100, 150)
            ),
        ],
        required=False,
        widget=ChoiceButtons,
    )


def _declarer_and_tricks(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    if data.get("declarer") not in (None, ""):
        result["declarer"] = int(data["declarer"])
    tricks = data.get("tricks")
    if tricks is not None and tricks != "":
        result["tricks"] = int(tricks)
    return result


def _with_honours(result: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    if data.get("honours"):
        player, points = data["honours"].split(":")
        result["honours"] = {"player": int(player), "points": int(points)}
    return result


def _initial_with_honours(initial: dict[str, str], data: dict[str, Any]) -> dict[str, str]:
    honours = data.get("honours")
    if honours:
        initial["honours"] = f"{honours['player']}:{honours['points']}"
    return initial


class TwoPlayerFields:
    """How a two-player game's deal is entered (RULES 7): its form fields, the engine JSON they
    make (`game_data`) and back (`initial`). One subclass per game; the game registry
    (games/registry.py) names each game's, so the forms never switch on the kind."""

    #: Fields a correction may leave empty (the engine asks for them when it needs them).
    optional_on_correction: tuple[str, ...] = ()
    #: Fields a correction sends as null when left empty, so `Deal.correct` drops them.
    cleared_on_correction: tuple[str, ...] = ()
    #: The match is one result, not deals (the entry says "Result", not "Deal n").
    one_result = False
    #: The names of `fields` (the registry's `GamePages.controls`).
    controls: tuple[str, ...] = ()

    def fields(self, players: list[str], order: tuple[int, int] = (0, 1)) -> dict[str, forms.Field]:
        raise NotImplementedError

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """The deal as the engine's JSON (the API's fields)."""
        raise NotImplementedError

    def initial(self, data: dict[str, Any]) -> dict[str, str]:
        """A stored deal (its engine JSON) as the fields: the inverse of `game_data`, so that a
        correction form starts from the deal as recorded."""
        raise NotImplementedError

    def missing(self, data: dict[str, Any]) -> tuple[str, Any] | None:
        """A field to ask for before the engine is asked, and what to say: (field, message)."""
        return None


class BridgeForTwoFields(TwoPlayerFields):
    """RULES 7.1: the declarer, the strain, a double, the declarer's tricks and honours."""

    cleared_on_correction = ("honours",)
    controls = ("declarer", "strain", "doubled", "tricks", "honours")

    def fields(self, players: list[str], order: tuple[int, int] = (0, 1)) -> dict[str, forms.Field]:
        return {
            "declarer": _declarer(players, order),
            "strain": _strain(),
            "doubled": forms.ChoiceField(
                label=_("Doubled"), choices=DOUBLINGS[:2], required=False, widget=ChoiceButtons
            ),
            "tricks": _tricks(),
            "honours": _player_honours(players, order),
        }

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        result = _declarer_and_tricks(data)
        if data.get("strain"):
            result["strain"] = data["strain"]
        if data.get("doubled"):
            result["doubled"] = 1
        return _with_honours(result, data)

    def initial(self, data: dict[str, Any]) -> dict[str, str]:
        initial = {name: str(data[name]) for name in ("declarer", "tricks") if name in data}
        initial["strain"] = data.get("strain", "NT")
        if data.get("doubled"):
            initial["doubled"] = "X"
        return _initial_with_honours(initial, data)


class MiseryFields(TwoPlayerFields):
    """RULES 7.2: Bridge for Two's fields with a declaration instead of a double."""

    cleared_on_correction = ("honours",)
    controls = ("declarer", "declaration", "strain", "tricks", "honours")

    def fields(self, players: list[str], order: tuple[int, int] = (0, 1)) -> dict[str, forms.Field]:
        return {
            "declarer": _declarer(players, order),
            "declaration": forms.ChoiceField(
                label=_("Declaration"), choices=DECLARATIONS, widget=ChoiceButtons
            ),
            "strain": _strain(),
            "tricks": _tricks(),
            "honours": _player_honours(players, order),
        }

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        result = _declarer_and_tricks(data)
        if data.get("strain"):
            result["strain"] = data["strain"]
        result["declaration"] = data.get("declaration")
        return _with_honours(result, data)

    def initial(self, data: dict[str, Any]) -> dict[str, str]:
        initial = {name: str(data[name]) for name in ("declarer", "tricks") if name in data}
        initial["strain"] = data.get("strain", "NT")
        initial["declaration"] = data.get("declaration", "ordinary")
        return _initial_with_honours(initial, data)


class TurnoverFields(TwoPlayerFields):
    """RULES 7.3: one result, the tricks each player won."""

    one_result = True
    controls = ("tricks_0", "tricks_1")

    def fields(self, players: list[str], order: tuple[int, int] = (0, 1)) -> dict[str, forms.Field]:
        return {
            f"tricks_{index}": inputs.IntegerFormField(
                label=_("Tricks won by %(name)s") % {"name": name},
                min_value=0,
                max_value=26,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 14}),
            )
            for index, name in ((place, players[place]) for place in order)
        }

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"tricks": [data.get("tricks_0"), data.get("tricks_1")]}

    def initial(self, data: dict[str, Any]) -> dict[str, str]:
        first, second = data["tricks"]
        return {"tricks_0": str(first), "tricks_1": str(second)}


class DrawDiscardFields(TwoPlayerFields):
    """RULES 7.4: a contract (or a pass), its declarer and the declarer's tricks."""

    #: A passed deal has no declarer (RULES 3.8); for a contract the engine asks for one.
    optional_on_correction = ("declarer",)
    controls = ("declarer", "level", "strain", "doubled", "tricks")

    def fields(self, players: list[str], order: tuple[int, int] = (0, 1)) -> dict[str, forms.Field]:
        return {
            "declarer": _declarer(players, order),
            "level": forms.ChoiceField(label=_("Contract"), choices=LEVELS, widget=ChoiceButtons),
            "strain": _strain(),
            "doubled": forms.ChoiceField(
                label=_("Doubled"), choices=DOUBLINGS, required=False, widget=ChoiceButtons
            ),
            "tricks": _tricks(),
        }

    def game_data(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("level") == "pass":
            return {"contract": "pass"}
        result = _declarer_and_tricks(data)
        strain = data.get("strain") or ""
        result["contract"] = f"{data.get('level')}{strain}{data.get('doubled') or ''}"
        return result

    def initial(self, data: dict[str, Any]) -> dict[str, str]:
        initial = {name: str(data[name]) for name in ("declarer", "tricks") if name in data}
        contract = Contract.parse(data["contract"])
        if contract.is_pass or contract.strain is None:
            return {"level": "pass"}
        return {
            **initial,
            "level": str(contract.level),
            "strain": contract.strain.value,
            "doubled": contract.doubling.suffix,
        }

    def missing(self, data: dict[str, Any]) -> tuple[str, Any] | None:
        if data.get("level") != "pass" and not data.get("strain"):
            return ("strain", CHOOSE["strain"])
        return None


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
            _apply_scoring_error(self, err, known)
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


def _with_fields(
    form: DealEntryForm, data: dict[str, Any], *, contract: str, tricks: int | None
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
        _apply_scoring_error(form, err, form.ERROR_FIELDS)
    return data
