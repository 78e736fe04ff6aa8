"""How each two-player game's deal is entered (RULES 7): its fields, the engine JSON they make
and back. One `TwoPlayerFields` subclass per game; the game registry (games/registry.py) names
each game's, so the forms never switch on the kind."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules import Contract
from scoring.shared import inputs

from .common import CHOOSE, DOUBLINGS, LEVELS, STRAINS, ChoiceButtons

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
        declarer = _declarer(players, order)
        # Pass hides the declarer (it has none): the engine asks for one for a contract.
        declarer.required = False
        return {
            "declarer": declarer,
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
