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
from typing import Any, TypeVar

from django.db import connection, models

from clubs.models import Player, Session, Table

from .values import SEAT_FIELDS

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """A model's concrete columns under a table alias: the select list, and a row's slice made
    into an instance as the ORM makes it (its converters, `from_db`)."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f'{alias}."{f.column}"' for f in self.fields)
        self.width = len(self.fields)
        self._converters: list[tuple[int, list[Converter], Any]] | None = None

    def converters(self) -> list[tuple[int, list[Converter], Any]]:
        """As `SQLCompiler.get_converters`: the backend's, then the field's, by position."""
        if self._converters is None:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.model._meta.db_table)
                convert = connection.ops.get_db_converters(col) + field.get_db_converters(
                    connection
                )
                if convert:
                    found.append((i, convert, col))
            self._converters = found
        return self._converters

    def build(self, row: Sequence[Any], start: int = 0) -> Any:
        values = list(row[start : start + self.width])
        for i, convert, col in self.converters():
            value = values[i]
            for converter in convert:
                value = converter(value, col, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.names, values)


@cache
def _lock_columns(locks: bool) -> tuple[Columns, Columns, Columns, Columns, str]:
    from .rubber import Rubber

    rubber, session = Columns(Rubber, "r"), Columns(Session, "s")
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


def lock_for_entry(pk: int) -> Any:
    """The rubber `pk` locked without its key (as `select_for_update(of=("self",),
    no_key=True)`), with its session, table and seated players cached on it as `select_related`
    caches them; None if it is gone. One statement, one row per seated player."""
    rubber_cols, session_cols, table_cols, player_cols, sql = _lock_columns(
        connection.features.has_select_for_no_key_update
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
def _deal_columns() -> tuple[Columns, str]:
    from .deal import Deal

    deal = Columns(Deal, "d")
    sql = f'SELECT {deal.sql} FROM "games_deal" d WHERE d."rubber_id" = %s'  # noqa: S608  # nosec B608
    sql += ' ORDER BY d."number"'
    return deal, sql


def deals_of(rubber: Any) -> list[Any]:
    """The rubber's deals by number, each holding the rubber as its related manager's would."""
    columns, sql = _deal_columns()
    with connection.cursor() as cursor:
        cursor.execute(sql, [rubber.pk])
        rows = cursor.fetchall()
    deals = [columns.build(row) for row in rows]
    for deal in deals:
        deal._state.fields_cache["rubber"] = rubber
    return deals
