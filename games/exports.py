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

from . import history
from .models import Deal, Rubber
from .registry import pages, summarise


def session_deals(session: Session) -> dict[str, Any]:
    rubbers = list(
        Rubber.objects.with_deals().filter(session=session).order_by("table__number", "number")
    )
    rows = []
    players = Player.objects.in_bulk({pk for r in rubbers for pk in r.seat_ids.values()})
    entered = _entrants(session)
    for rubber in rubbers:
        seats = {seat: players[pk].name for seat, pk in rubber.seat_ids.items()}
        names = [seats["N"], seats["E"]] if pages(rubber.kind).named_players else None
        sides = names or [f"{seats['N']} & {seats['S']}", f"{seats['E']} & {seats['W']}"]
        deals = rubber.ordered_deals()
        for deal, (_, first, second) in zip(deals, rubber.running_totals(deals), strict=True):
            row = _row(rubber, deal, first, second, names)
            row.update(
                side_0=sides[0],
                side_1=sides[1],
                entered_by=entered.get(deal.pk, ""),
                confirmed_by=deal.confirmed_by.name if deal.confirmed_by else "",
            )
            rows.append(row)
    return {"session": session.pk, "deals": rows}


def _entrants(session: Session) -> dict[int, str]:
    """Who entered each deal of the session, from its first history record, as the deal list
    names them: the player (or "Director"), or the phone holding the table's code ("table 1
    (code), seat S", the record's change note). Two queries."""
    firsts = list(
        Deal.history.filter(rubber__session=session, history_type="+")
        .order_by("history_date", "history_id")
        .values_list("id", "history_user_id", "history_change_reason")
    )
    names = history.entrants(session.club_id, (user for _, user, _ in firsts))
    found: dict[int, str] = {}
    for deal_id, user_id, reason in firsts:
        _said, _dot, phone = (reason or "").partition(" · ")
        found.setdefault(deal_id, phone or history.who(names, user_id).name or "")
    return found


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
