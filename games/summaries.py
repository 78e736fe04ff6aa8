"""Each game's deal in a few words, in the active language: one function per kind of deal.

A game's entry in games/registry.py names its function (`GamePages.summary`);
`games.registry.register_pages` files it in `SUMMARIES` here, and `summarise(kind, deal, names)`
is the one lookup (`Deal.summary`, the history and the pages ask it), so a new game says how its
own deals read instead of being guessed from its JSON. The table lives here, not in the
registry, so the models ask it without importing the registry (which imports them).

The functions take the deal's stored fields (a `Deal`, or a row of its history) and, for a
two-player game, the players' names (player 0's and player 1's); without names they count the
players from 1 ("by player 1"). The sentences are the ones the pages showed before the
registry, word for word (tests/games/test_registry.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from django.utils.translation import npgettext, pgettext, pgettext_lazy

from scoring.shared.i18n import contract_display, strain_display

__all__ = [
    "DECLARATION_NAMES",
    "SUMMARIES",
    "Summarised",
    "Summary",
    "contract_deal",
    "four_player_deal",
    "strain_deal",
    "summarise",
    "tricks_deal",
]


class Summarised(Protocol):
    """What a summary reads: a four-player deal's fields, or a two-player deal's JSON."""

    @property
    def contract(self) -> str: ...
    @property
    def declarer(self) -> str: ...
    @property
    def tricks(self) -> int | None: ...
    @property
    def honours_side(self) -> str: ...
    @property
    def honours_points(self) -> int | None: ...
    @property
    def data(self) -> Any: ...


#: A game's summary: (the deal, the players' names or None) → its few words.
Summary = Callable[[Summarised, Sequence[str] | None], str]

#: Game code → its summary, filed by `games.registry.register_pages` (every registered game).
SUMMARIES: dict[str, Summary] = {}


def summarise(kind: str, deal: Summarised, names: Sequence[str] | None = None) -> str:
    """A deal of the game `kind` in a few words, in the active language, as the game says it."""
    return SUMMARIES[kind](deal, names)


#: The declarations of Misery Bridge other than "ordinary" (RULES 7.2), as a summary names them.
DECLARATION_NAMES = {
    "eight": pgettext_lazy("deal summary", "eight"),
    "misery": pgettext_lazy("deal summary", "misery"),
}


def four_player_deal(deal: Summarised, names: Sequence[str] | None = None) -> str:
    """A rubber's or a Chicago's deal: "4♠ by N, 10 tricks, honours 100 to NS"."""
    if deal.contract == "pass":
        return pgettext("deal summary", "passed out")
    tricks = deal.tricks or 0
    parts = [
        npgettext(
            "deal summary",
            "%(contract)s by %(declarer)s, %(count)s trick",
            "%(contract)s by %(declarer)s, %(count)s tricks",
            tricks,
        )
        % {
            "contract": contract_display(deal.contract),
            # The seat letter as the pad shows it (W is O in Italian).
            "declarer": pgettext("seat", deal.declarer) if deal.declarer else "",
            "count": deal.tricks,
        }
    ]
    if deal.honours_side:
        parts.append(
            pgettext("deal summary", "honours %(points)s to %(side)s")
            % {"points": deal.honours_points, "side": pgettext("side", deal.honours_side)}
        )
    return ", ".join(parts)


def tricks_deal(deal: Summarised, names: Sequence[str] | None = None) -> str:
    """A Turnover game's one result (RULES 7.3): "Grace 14 tricks, Iris 12", each figure by its
    player's name (so a pad that puts the viewer first reads it right); "tricks 14–12" unnamed."""
    first, second = _data(deal)["tricks"]
    if names:
        return pgettext(
            "deal summary", "%(first_name)s %(first)s tricks, %(second_name)s %(second)s"
        ) % {"first_name": names[0], "first": first, "second_name": names[1], "second": second}
    return pgettext("deal summary", "tricks %(first)s–%(second)s") % {
        "first": first,
        "second": second,
    }


def contract_deal(deal: Summarised, names: Sequence[str] | None = None) -> str:
    """A deal bid to a contract by one of two players (Draw and Discard, RULES 7.4)."""
    data = _data(deal)
    if data.get("contract") == "pass":
        return pgettext("deal summary", "passed")
    return _declared(data, contract_display(str(data.get("contract"))), names)


def strain_deal(deal: Summarised, names: Sequence[str] | None = None) -> str:
    """A deal declared in a strain by one of two players (Bridge for Two, Misery Bridge)."""
    data = _data(deal)
    return _declared(data, strain_display(str(data.get("strain"))), names)


def _data(deal: Summarised) -> Mapping[str, Any]:
    data: Mapping[str, Any] = deal.data or {}
    return data


def _declared(data: Mapping[str, Any], played: str, names: Sequence[str] | None) -> str:
    player, tricks = data.get("declarer"), data.get("tricks")
    count = tricks if isinstance(tricks, int) else 0
    if names and player in (0, 1):
        # The four-player sentence, with the declarer's name for the seat.
        text = npgettext(
            "deal summary",
            "%(contract)s by %(declarer)s, %(count)s trick",
            "%(contract)s by %(declarer)s, %(count)s tricks",
            count,
        ) % {"contract": played, "declarer": names[player], "count": tricks}
    else:
        text = npgettext(
            "deal summary",
            "%(played)s by player %(player)s, %(count)s trick",
            "%(played)s by player %(player)s, %(count)s tricks",
            count,
        ) % {"played": played, "player": _counted(player), "count": tricks}
    declaration = data.get("declaration", "ordinary")
    if declaration in DECLARATION_NAMES:
        # Translators: a two-player declaration ("misery"), then the deal it was made on.
        text = pgettext("deal summary", "%(declaration)s %(deal)s") % {
            "declaration": DECLARATION_NAMES[declaration],
            "deal": text,
        }
    parts = [text]
    if data.get("doubled"):
        parts.append(pgettext("deal summary", "doubled"))
    if data.get("honours"):
        holder = data["honours"]["player"]
        if names and holder in (0, 1):
            parts.append(
                pgettext("deal summary", "honours %(points)s to %(side)s")
                % {"points": data["honours"]["points"], "side": names[holder]}
            )
        else:
            parts.append(
                pgettext("deal summary", "honours %(points)s to player %(player)s")
                % {"points": data["honours"]["points"], "player": _counted(holder)}
            )
    return ", ".join(parts)


def _counted(player: Any) -> Any:
    """A player with no name known, as people count: the engine's player 0 is "player 1"."""
    return player + 1 if player in (0, 1) else player
