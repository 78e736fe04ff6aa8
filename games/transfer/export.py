"""A club as one JSON document (`club_export`), its rows named by natural keys."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player, Session, Table, TableSeat
from games.models import Deal, Rubber

from .columns import FORMAT, SEATS, HistoricalDeal, dump


def club_export(*, club: Club) -> dict[str, Any]:
    """The club as one JSON document (`FORMAT`), every row named by its natural keys.

    Long because it is the document itself: one section a row type, each beside the keys it
    names its relations by, so a reader sees the whole file's shape in one place.
    """
    users = dict(get_user_model().objects.values_list("pk", "username"))

    def username(pk: int | None) -> str | None:
        return None if pk is None else users[pk]

    players = list(Player.objects.filter(club=club).order_by("name"))
    names = {p.pk: p.name for p in players}

    def player(pk: int | None) -> str | None:
        return None if pk is None else names[pk]

    sessions = list(Session.objects.filter(club=club).order_by("pk"))
    refs = {s.pk: i for i, s in enumerate(sessions, start=1)}
    tables = {t.pk: t for t in Table.objects.filter(session__club=club)}
    rubbers = {r.pk: r for r in Rubber.objects.filter(session__club=club).select_related("table")}

    def rubber_key(pk: int | None) -> list[int] | None:
        if pk is None or pk not in rubbers:
            return None
        r = rubbers[pk]
        return [refs[r.session_id], r.table.number, r.number]

    deals = Deal.objects.filter(rubber__session__club=club).order_by("pk")
    deal_keys = {d.pk: [*rubber_key(d.rubber_id), d.number] for d in deals}  # type: ignore[misc]
    history = HistoricalDeal.objects.filter(id__in=deal_keys).order_by("history_date", "pk")

    return {
        "format": FORMAT,
        "club": dump(club, {}),
        "memberships": [
            dump(m, {"club": lambda pk: None, "user": username})
            for m in Membership.objects.filter(club=club).order_by("user__username")
        ],
        "players": [dump(p, {"club": lambda pk: None, "user": username}) for p in players],
        "sessions": [
            dump(s, {"club": lambda pk: None, "created_by": username}, ref=refs[s.pk])
            for s in sessions
        ],
        "tables": [
            # Not its code: a table code opens the table to whoever holds it (an import
            # gives each table a new one).
            {k: v for k, v in dump(t, {"session": refs.get}).items() if k != "code"}
            for t in sorted(tables.values(), key=lambda t: (refs[t.session_id], t.number))
        ],
        "seats": [
            dump(
                seat,
                {
                    "session": refs.get,
                    "table": lambda pk: tables[pk].number,
                    "player": player,
                },
            )
            for seat in TableSeat.objects.filter(session__club=club).order_by(
                "session_id", "table__number", "position"
            )
        ],
        "rubbers": [
            dump(
                r,
                {
                    "session": refs.get,
                    "table": lambda pk: tables[pk].number,
                    **dict.fromkeys(SEATS, player),
                },
                sitting_out=[names[pk] for pk in r.sitting_out],
            )
            for r in sorted(
                rubbers.values(), key=lambda r: (refs[r.session_id], r.table.number, r.number)
            )
        ],
        "deals": [
            dump(
                d,
                {"rubber": rubber_key, "entered_by": username, "confirmed_by": player},
            )
            for d in deals
        ],
        "deal_history": [
            dump(
                h,
                {
                    "rubber": rubber_key,
                    "entered_by": username,
                    "confirmed_by": player,
                    "history_user": username,
                },
                id=deal_keys[h.id],
                history_id=None,
            )
            for h in history
        ],
    }
