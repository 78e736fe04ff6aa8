"""The entry's reads under its lock, in SQL written once per process (issue 33).

A deal's POST reads its rubber locked, with the session, the table and the seated players, then
the rubber's deals. Through the ORM these cost more in Python than in the database: the query
compiled anew on each request (the lock's join and ordering, every deal's columns), and for the
lock PostgreSQL planned an eight-table join (the players joined four times, the model's ordering
joining the session again) in ~5 ms, ten times the floor's whole transaction
(docs/benchmarks.md, "Issue 33"). Here each statement's text is built once from the models'
fields; a row becomes its instances as the ORM makes them (`Model.from_db`, the backend's and
the fields' converters applied), the related ones cached on them as `select_related` and a
related manager cache them. The players are joined once (one row per seated player).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar, cast

from django.db import connection, models
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, post_save, pre_init, pre_save
from django.utils import timezone
from simple_history.models import HistoricalRecords
from simple_history.utils import get_change_reason_from_object

from clubs.models import Player, Session, Table

from .values import SEAT_FIELDS

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """A model's concrete columns under a table alias: the select list, and a row's slice made
    into an instance as the ORM makes it (its converters, `from_db`).

    `from_db` calls the model's `__init__`, which sets each field through its descriptor and
    sends `pre_init` and `post_init`. Where no receiver listens and every field's descriptor
    only reads (a plain column or a foreign key's id, as here), the instance is made as that
    would leave it, its attributes set at once: a rubber's answer makes every deal of it, at
    every entry (docs/benchmarks.md, issue 33)."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f'{alias}."{f.column}"' for f in self.fields)
        self.width = len(self.fields)
        self._converters: list[tuple[int, list[Converter], Any]] | None = None
        self._plain = all(
            type(model.__dict__.get(name)) in (DeferredAttribute, ForeignKeyDeferredAttribute)
            for name in self.names
        )

    def converters(self) -> list[tuple[int, list[Converter], Any]]:
        """As `SQLCompiler.get_converters`: the backend's, then the field's, by position."""
        if self._converters is None:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.model._meta.db_table)
                convert = connection.ops.get_db_converters(col)
                convert += field.get_db_converters(connection)  # type: ignore[attr-defined]
                if convert:
                    found.append((i, convert, col))
            self._converters = found
        return self._converters

    def build(self, row: Sequence[Any], start: int = 0) -> Any:
        return self.build_all([row], start)[0]

    def build_all(self, rows: Sequence[Sequence[Any]], start: int = 0) -> list[Any]:
        """Each row's slice from `start`, made an instance."""
        model, names, alias = self.model, self.names, connection.alias
        converters = self.converters()
        plain = self._plain and not (
            pre_init.has_listeners(model) or post_init.has_listeners(model)
        )
        made = []
        for row in rows:
            values = list(row[start : start + self.width])
            for i, convert, col in converters:
                value = values[i]
                for converter in convert:
                    value = converter(value, col, connection)
                values[i] = value
            if not plain:
                made.append(model.from_db(alias, names, values))
                continue
            instance = model.__new__(model)
            state = instance._state = ModelState()
            state.adding, state.db = False, alias
            instance.__dict__.update(zip(names, values, strict=True))
            made.append(instance)
        return made


@cache
def _lock_columns(
    model: type[models.Model], locks: bool
) -> tuple[Columns, Columns, Columns, Columns, str]:
    rubber, session = Columns(model, "r"), Columns(Session, "s")
    table, player = Columns(Table, "t"), Columns(Player, "p")
    seats = ", ".join(f'r."{SEAT_FIELDS[seat]}_id"' for seat in SEAT_FIELDS)
    # The models' own column names, no input: the rubber's id is a parameter.
    select = f"SELECT {rubber.sql}, {session.sql}, {table.sql}, {player.sql}"
    joins = (
        ' FROM "games_rubber" r JOIN "clubs_session" s ON s."id" = r."session_id"'
        ' JOIN "clubs_table" t ON t."id" = r."table_id"'
        f' LEFT JOIN "clubs_player" p ON p."id" IN ({seats})'
    )
    sql = select + joins + ' WHERE r."id" = %s'  # nosec B608
    if locks:  # PostgreSQL (SQLite, the unit tests' database, locks the whole file instead)
        sql += " FOR NO KEY UPDATE OF r"

    return rubber, session, table, player, sql


def lock_for_entry(model: type[models.Model], pk: int) -> Any:
    """The rubber `pk` (`model`: games.models.Rubber) locked without its key (as
    `select_for_update(of=("self",), no_key=True)`), with its session, table and seated players
    cached on it as `select_related` caches them; None if it is gone. One statement, one row per
    seated player."""
    rubber_cols, session_cols, table_cols, player_cols, sql = _lock_columns(
        model, connection.features.has_select_for_no_key_update
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    rubber = rubber_cols.build(first)
    at = rubber_cols.width
    session = session_cols.build(first, at)
    at += session_cols.width
    table = table_cols.build(first, at)
    at += table_cols.width
    players = {
        player.pk: player
        for player in (player_cols.build(row, at) for row in rows if row[at] is not None)
    }
    cache_of = rubber._state.fields_cache
    cache_of["session"], cache_of["table"] = session, table
    for name in SEAT_FIELDS.values():
        seated = getattr(rubber, f"{name}_id")
        cache_of[name] = None if seated is None else players[seated]
    return rubber


@cache
def _deal_columns(model: type[models.Model]) -> tuple[Columns, str]:
    deal = Columns(model, "d")
    sql = f'SELECT {deal.sql} FROM "games_deal" d WHERE d."rubber_id" = %s'  # noqa: S608  # nosec B608
    sql += ' ORDER BY d."number"'
    return deal, sql


def deals_of(model: type[models.Model], rubber: Any) -> list[Any]:
    """The rubber's deals (`model`: games.models.Deal) by number, each holding the rubber as
    its related manager's would."""
    columns, sql = _deal_columns(model)
    with connection.cursor() as cursor:
        cursor.execute(sql, [rubber.pk])
        rows = cursor.fetchall()
    deals = columns.build_all(rows)
    for deal in deals:
        deal._state.fields_cache["rubber"] = rubber
    return deals


#: The history record's own columns, after the deal's mirrored ones (django-simple-history).
_HISTORY_OWN = ("history_date", "history_change_reason", "history_type", "history_user_id")


@cache
def _insert_sql(Deal: type[models.Model]) -> tuple[list[Any], str]:  # the model
    fields = [f for f in Deal._meta.concrete_fields if not f.primary_key]
    column = {f.attname: f.column for f in Deal._meta.concrete_fields}
    history = Deal.history.model._meta  # type: ignore[attr-defined]  # simple-history's
    mirrored = [
        f.attname for f in history.concrete_fields if f.attname in column and not f.primary_key
    ]
    targets = ", ".join(f'"{history.get_field(n).column}"' for n in (*mirrored, *_HISTORY_OWN))
    sources = ", ".join(f'd."{column[n]}"' for n in mirrored)
    own = ", ".join(f'"{f.column}"' for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    table = Deal._meta.db_table
    insert = f'INSERT INTO "{table}" ({own}) VALUES ({marks}) RETURNING *'  # noqa: S608  # nosec
    into = f'"{history.db_table}" ({targets})'
    sql = f"WITH d AS ({insert}) INSERT INTO {into} SELECT {sources}, "  # nosec
    sql += "%s, %s, %s, %s FROM d"
    sql += f' RETURNING "{column["id"]}"'
    return fields, sql


def _history_user_id(deal: Any) -> int | None:
    """Who the history record names, as django-simple-history picks them (its
    `get_history_user`): the user the write noted, else the request's signed-in user."""
    try:
        user = deal._history_user
    except AttributeError:
        request = getattr(HistoricalRecords.context, "request", None)
        user = getattr(request, "user", None)
        if user is not None and not user.is_authenticated:
            user = None
    return None if user is None else user.pk


def insert_with_history(deal: Any) -> None:
    """Save a new deal and its history record ("+") in one statement on PostgreSQL (elsewhere
    `save()`, two). As `save()` does: `pre_save` and `post_save` sent (the push's hook runs),
    the instance then stored; django-simple-history's own receiver skips it (this statement
    wrote its record, with the date, user and reason that receiver would write; the
    historical record's signals have no receiver here)."""
    Deal = type(deal)  # the model
    if connection.vendor != "postgresql":
        deal.save()
        return
    using = connection.alias
    fields, sql = _insert_sql(cast("type[models.Model]", Deal))
    pre_save.send(sender=Deal, instance=deal, raw=False, using=using, update_fields=None)
    values = [f.get_db_prep_save(f.pre_save(deal, True), connection) for f in fields]
    history_date = getattr(deal, "_history_date", None) or timezone.now()
    reason = get_change_reason_from_object(deal)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, history_date, reason, "+", _history_user_id(deal)])
        (deal.pk,) = cursor.fetchone()
    deal._state.adding, deal._state.db = False, using
    deal.skip_history_when_saving = True
    try:
        post_save.send(
            sender=Deal, instance=deal, created=True, update_fields=None, raw=False, using=using
        )
    finally:
        del deal.skip_history_when_saving


#: What the entry check reads after the rubber's columns (`RubberQuerySet.for_entry`): its
#: club's `club_public`, the user's `viewer_role` and `viewer_player_id` there, whether the
#: session is `session_reopened`.
ENTRY_CHECK = ("club_public", "viewer_role", "viewer_player_id", "session_reopened")


@cache
def _entry_check_sql(model: type[models.Model]) -> tuple[Columns, str]:
    rubber = Columns(model, "r")
    # Subqueries rather than joins: PostgreSQL planned the five-table join in ~0.5 ms on the
    # benchmark's machine, this in ~0.2. Parameters: the user's id twice, the running status,
    # the rubber's id.
    sql = (
        f"SELECT {rubber.sql},"  # noqa: S608  # nosec B608: the model's own column names
        " (SELECT c.public FROM clubs_club c WHERE c.id = s.club_id) AS club_public,"
        " (SELECT m.role FROM clubs_membership m"
        "  WHERE m.club_id = s.club_id AND m.user_id = %s) AS viewer_role,"
        " (SELECT p.id FROM clubs_player p"
        "  WHERE p.club_id = s.club_id AND p.user_id = %s) AS viewer_player_id,"
        " (s.status = %s AND s.closed_at IS NOT NULL) AS session_reopened"
        " FROM games_rubber r JOIN clubs_session s ON s.id = r.session_id WHERE r.id = %s"
    )
    return rubber, sql


def entry_check(model: type[models.Model], pk: int, user_id: int, running: str) -> Any:
    """The rubber `pk` (`model`: games.models.Rubber) with the `ENTRY_CHECK` facts as its
    attributes, for the user `user_id` (`running`: the running session's status); None if it is
    gone. One statement, its text built once (a raw queryset worked out its columns anew on
    every request)."""
    columns, sql = _entry_check_sql(model)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, user_id, running, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    rubber = columns.build(row)
    for name, value in zip(ENTRY_CHECK, row[columns.width :], strict=True):
        setattr(rubber, name, value)
    return rubber
