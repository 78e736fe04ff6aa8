"""Writing a checked club file: its rows, then its standings recomputed from the deals."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player, Session, Table, TableSeat
from games.models import Deal, Rubber
from scoring.shared.hooks import results_restored

from .columns import SEATS, HistoricalDeal, load


def write_club(data: dict[str, Any]) -> Club:
    """Write the rows of a checked file (`club_import_problems` found nothing).

    Long because the rows are written in the order their relations need (club, logins, players,
    sessions, tables, seats, rubbers, deals, history), each keyed as the next ones name it.
    """
    User = get_user_model()
    user_cache: dict[str, Any] = {}

    def user(name: str | None) -> Any:
        if name is None:
            return None
        if name not in user_cache:
            found = User.objects.filter(username=name).first()
            if found is None:
                found = User(username=name)
                found.set_unusable_password()
                found.save()
            user_cache[name] = found
        return user_cache[name]

    club = Club.objects.create(**load(Club, data["club"]))
    for row in data["memberships"]:
        Membership.objects.create(club=club, user=user(row["user"]), **load(Membership, row))
    players = {}
    for row in data["players"]:
        p = Player.objects.create(club=club, user=user(row["user"]), **load(Player, row))
        players[p.name] = p

    def player(name: str | None) -> Player | None:
        return None if name is None else players[name]

    sessions = {}
    for row in data["sessions"]:
        sessions[row["ref"]] = Session.objects.create(
            club=club, created_by=user(row["created_by"]), **load(Session, row, ("ref",))
        )
    tables = {}
    for row in data["tables"]:
        t = Table.objects.create(
            session=sessions[row["session"]], **load(Table, row, skip=("code",))
        )
        tables[(row["session"], t.number)] = t
    for row in data["seats"]:
        TableSeat.objects.create(
            session=sessions[row["session"]],
            table=tables[(row["session"], row["table"])],
            # A seat always has a player (the export names it; the database refuses none).
            player=cast(Player, player(row["player"])),
            **load(TableSeat, row),
        )
    rubbers = {}
    for row in data["rubbers"]:
        r = Rubber.objects.create(
            session=sessions[row["session"]],
            table=tables[(row["session"], row["table"])],
            sitting_out=[players[name].pk for name in row["sitting_out"]],
            **{seat: player(row[seat]) for seat in SEATS},
            **load(Rubber, row, ("sitting_out",)),
        )
        rubbers[(row["session"], row["table"], r.number)] = r

    def rubber(key: list[int] | None) -> Rubber | None:
        return None if key is None else rubbers[tuple(key)]  # type: ignore[index]

    deals = {}
    for row in data["deals"]:
        fields = load(Deal, row)
        d = Deal(
            rubber=rubber(row["rubber"]),
            entered_by=user(row["entered_by"]),
            confirmed_by=player(row["confirmed_by"]),
            **fields,
        )
        d.skip_history_when_saving = True  # type: ignore[attr-defined]
        d.save()
        # auto_now stamped the import time: put back the stored one.
        Deal.objects.filter(pk=d.pk).update(updated_at=fields["updated_at"])
        deals[(*row["rubber"], d.number)] = d
    HistoricalDeal.objects.bulk_create(
        [
            HistoricalDeal(
                id=deals[tuple(row["id"])].pk,
                rubber_id=rubber(row["rubber"]).pk,  # type: ignore[union-attr]
                entered_by=user(row["entered_by"]),
                confirmed_by_id=getattr(player(row["confirmed_by"]), "pk", None),
                history_user=user(row["history_user"]),
                **load(HistoricalDeal, row, ("id", "history_id")),
            )
            for row in data["deal_history"]
        ]
    )
    return club


def club_restore_standings(*, club: Club) -> None:
    """Recompute the standings of every session of the club from its deals."""
    for session_id in Session.objects.filter(club=club).values_list("pk", flat=True):
        results_restored.send(sender=Club, session_id=session_id)
