"""A session's deals with their figures, as one table (API `sessions/{id}/deals`, CSV export).

One row per deal of every rubber of the session, in table, rubber and deal order: what was
played and the running totals after it, each from the engine's own sheet of the deals so far
(`Rubber.running_totals`, RULES 8.2). `total_0`/`total_1` are NS/EW in the four-player games and
the first/second player in the two-player ones.
"""

from __future__ import annotations

from typing import Any

from clubs.models import Player, Session
from scoring.shared.i18n import contract_display, strain_display

from .models import Deal, Rubber
from .registry import pages, summarise


def session_deals(session: Session) -> dict[str, Any]:
    rubbers = list(
        Rubber.objects.with_deals().filter(session=session).order_by("table__number", "number")
    )
    rows = []
    names = _two_player_names(rubbers)
    for rubber in rubbers:
        deals = rubber.ordered_deals()
        for deal, (_, first, second) in zip(deals, rubber.running_totals(deals), strict=True):
            rows.append(_row(rubber, deal, first, second, names.get(rubber.pk)))
    return {"session": session.pk, "deals": rows}


def _two_player_names(rubbers: list[Rubber]) -> dict[int, list[str]]:
    """Each two-player match's players' names (player 0's, player 1's), read in one query for
    the whole session: a summary says "by Luca" as the pad does, never "by player 0"."""
    two = [r for r in rubbers if pages(r.kind).named_players]
    if not two:
        return {}
    found = Player.objects.in_bulk({pk for r in two for pk in (r.north_id, r.east_id)})
    return {r.pk: [found[r.north_id].name, found[r.east_id].name] for r in two}


def _row(
    rubber: Rubber, deal: Deal, first: int, second: int, names: list[str] | None = None
) -> dict[str, Any]:
    data = deal.data or {}
    played = deal.contract if deal.data is None else data.get("contract") or data.get("strain")
    if played is None:
        display = ""
    elif deal.data is not None and "contract" not in data:
        display = strain_display(str(played))
    else:
        display = contract_display(str(played))
    return {
        "table": rubber.table.number,
        "rubber": rubber.pk,
        "rubber_number": rubber.number,
        "kind": rubber.kind,
        "number": deal.number,
        "contract": played or "",
        "contract_display": display,
        "declarer": deal.declarer if deal.data is None else data.get("declarer"),
        "tricks": deal.tricks if deal.data is None else data.get("tricks"),
        "result": deal.result,
        "summary": summarise(rubber.kind, deal, names),
        "honours_side": deal.honours_side or None,
        "honours_points": deal.honours_points,
        "total_0": first,
        "total_1": second,
    }
