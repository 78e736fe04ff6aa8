"""A deal in words: the summaries and results the pads, the history and the refusals show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import ngettext, npgettext, pgettext, pgettext_lazy

from scoring.shared.i18n import contract_display, strain_display


def four_player_summary(fields: Any) -> str:
    """A four-player deal in a few words, in the active language: "4S by N, 10 tricks", "passed
    out", with the honours. `fields`: a Deal, a history record of one, or `DealFields`."""
    if fields.contract == "pass":
        return pgettext("deal summary", "passed out")
    tricks = fields.tricks or 0
    parts = [
        npgettext(
            "deal summary",
            "%(contract)s by %(declarer)s, %(count)s trick",
            "%(contract)s by %(declarer)s, %(count)s tricks",
            tricks,
        )
        % {
            "contract": contract_display(fields.contract),
            # The seat letter as the pad shows it (W is O in Italian).
            "declarer": pgettext("seat", fields.declarer) if fields.declarer else "",
            "count": fields.tricks,
        }
    ]
    if fields.honours_side:
        parts.append(
            pgettext("deal summary", "honours %(points)s to %(side)s")
            % {"points": fields.honours_points, "side": pgettext("side", fields.honours_side)}
        )
    return ", ".join(parts)


#: The declarations of Misery Bridge other than "ordinary" (RULES 7.2), as a summary names them.
DECLARATION_NAMES = {
    "eight": pgettext_lazy("deal summary", "eight"),
    "misery": pgettext_lazy("deal summary", "misery"),
}


def two_player_summary(data: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """A two-player deal in a few words, in the active language, for the history, the deal list
    and conflict messages; by the players' names when ``names`` are given."""
    if "tricks" in data and isinstance(data["tricks"], list):
        return pgettext("deal summary", "tricks %(first)s–%(second)s") % {
            "first": data["tricks"][0],
            "second": data["tricks"][1],
        }
    if "contract" in data:
        if data["contract"] == "pass":
            return pgettext("deal summary", "passed")
        played, player = contract_display(data["contract"]), data.get("declarer")
    else:
        played, player = strain_display(str(data.get("strain"))), data.get("declarer")
    tricks = data.get("tricks")
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
