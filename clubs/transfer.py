"""Export a club to JSON and import it back, exactly (docs/operations.md: "Moving a club").

The document names rows by natural keys, never by database ids: logins by username, players
by name (unique in a club), sessions by their place in the export, tables by number, rubbers by
(table, number), deals by (rubber, number). Every plain column of every row is copied by the
model's own field list, so a column added later travels without a change here; a relation
this module does not know stops the export with an error rather than being dropped.

Deals keep their versions, their entered_by / confirmed_by and their whole history
(django-simple-history rows). Standings are not exported: they are derived, and the import
recomputes them from the deals (`scoring.services.standings_refresh`).
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models, transaction

from games.models import Deal, Rubber

from .models import Club, Membership, Player, Session, Table, TableSeat

FORMAT = "backscore.club/1"
SEATS = ("north", "east", "south", "west")
HistoricalDeal = Deal.history.model


# --- plain columns -------------------------------------------------------------------------------


def _plain_fields(
    model: type[models.Model], skip: tuple[str, ...] = ()
) -> list[models.Field[Any, Any]]:
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in skip
    ]


def _json(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def _dump(
    obj: models.Model, relations: dict[str, Callable[[Any], Any]], **extra: Any
) -> dict[str, Any]:
    """Plain columns as JSON values, the relations through their natural keys."""
    model = type(obj)
    known = set(relations)
    for f in model._meta.concrete_fields:
        if f.is_relation and f.name not in known:
            raise ValueError(f"{model.__name__}.{f.name}: a relation the club export does not map")
    skip = tuple(extra)
    row = {f.name: _json(f.value_from_object(obj)) for f in _plain_fields(model, skip)}
    for name, key in relations.items():
        row[name] = key(getattr(obj, f"{name}_id"))
    row.update(extra)
    return row


def _load(
    model: type[models.Model], row: dict[str, Any], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Plain columns back to Python values (fields missing from an older export keep defaults)."""
    return {f.name: f.to_python(row[f.name]) for f in _plain_fields(model, skip) if f.name in row}


# --- export --------------------------------------------------------------------------------------


def club_export(*, club: Club) -> dict[str, Any]:
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
        "club": _dump(club, {}),
        "memberships": [
            _dump(m, {"club": lambda pk: None, "user": username})
            for m in Membership.objects.filter(club=club).order_by("user__username")
        ],
        "players": [_dump(p, {"club": lambda pk: None, "user": username}) for p in players],
        "sessions": [
            _dump(s, {"club": lambda pk: None, "created_by": username}, ref=refs[s.pk])
            for s in sessions
        ],
        "tables": [
            _dump(t, {"session": refs.get})
            for t in sorted(tables.values(), key=lambda t: (refs[t.session_id], t.number))
        ],
        "seats": [
            _dump(
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
            _dump(
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
            _dump(
                d,
                {"rubber": rubber_key, "entered_by": username, "confirmed_by": player},
            )
            for d in deals
        ],
        "deal_history": [
            _dump(
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


# --- import --------------------------------------------------------------------------------------


@transaction.atomic
def club_import(*, data: dict[str, Any]) -> Club:
    """Create the club described by `data` (from `club_export`); refuse if its slug is taken.

    Logins are matched by username and created (without a usable password) when missing.
    """
    if data.get("format") != FORMAT:
        raise ValidationError(f"Not a Backscore club export (format {data.get('format')!r}).")
    slug = data["club"]["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise ValidationError(f"A club with the slug {slug!r} already exists: import refused.")
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

    club = Club.objects.create(**_load(Club, data["club"]))
    for row in data["memberships"]:
        Membership.objects.create(club=club, user=user(row["user"]), **_load(Membership, row))
    players = {}
    for row in data["players"]:
        p = Player.objects.create(club=club, user=user(row["user"]), **_load(Player, row))
        players[p.name] = p

    def player(name: str | None) -> Player | None:
        return None if name is None else players[name]

    sessions = {}
    for row in data["sessions"]:
        sessions[row["ref"]] = Session.objects.create(
            club=club, created_by=user(row["created_by"]), **_load(Session, row, ("ref",))
        )
    tables = {}
    for row in data["tables"]:
        t = Table.objects.create(session=sessions[row["session"]], **_load(Table, row))
        tables[(row["session"], t.number)] = t
    for row in data["seats"]:
        TableSeat.objects.create(
            session=sessions[row["session"]],
            table=tables[(row["session"], row["table"])],
            # A seat always has a player (the export names it; the database refuses none).
            player=cast(Player, player(row["player"])),
            **_load(TableSeat, row),
        )
    rubbers = {}
    for row in data["rubbers"]:
        r = Rubber.objects.create(
            session=sessions[row["session"]],
            table=tables[(row["session"], row["table"])],
            sitting_out=[players[name].pk for name in row["sitting_out"]],
            **{seat: player(row[seat]) for seat in SEATS},
            **_load(Rubber, row, ("sitting_out",)),
        )
        rubbers[(row["session"], row["table"], r.number)] = r

    def rubber(key: list[int] | None) -> Rubber | None:
        return None if key is None else rubbers[tuple(key)]  # type: ignore[index]

    deals = {}
    for row in data["deals"]:
        fields = _load(Deal, row)
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
                **_load(HistoricalDeal, row, ("id", "history_id")),
            )
            for row in data["deal_history"]
        ]
    )
    return club


def club_restore_standings(*, club: Club) -> None:
    """Recompute the standings of every session of the club from its deals."""
    from scoring.services import standings_refresh

    for session_id in Session.objects.filter(club=club).values_list("pk", flat=True):
        standings_refresh(session_id=session_id)
