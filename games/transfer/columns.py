"""A club file's rows: every plain column by the model's own field list, relations by natural
keys (a username, a player's name, a session's place in the file, a table's number)."""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable
from typing import Any

from django.db import models

from games.models import Deal

FORMAT = "backscore.club/1"
SEATS = ("north", "east", "south", "west")
HistoricalDeal = Deal.history.model


def plain_fields(
    model: type[models.Model], skip: tuple[str, ...] = ()
) -> list[models.Field[Any, Any]]:
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in skip
    ]


def json_value(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def dump(
    obj: models.Model, relations: dict[str, Callable[[Any], Any]], **extra: Any
) -> dict[str, Any]:
    """Plain columns as JSON values, the relations through their natural keys."""
    model = type(obj)
    known = set(relations)
    for f in model._meta.concrete_fields:
        if f.is_relation and f.name not in known:
            raise ValueError(f"{model.__name__}.{f.name}: a relation the club export does not map")
    skip = tuple(extra)
    row = {f.name: json_value(f.value_from_object(obj)) for f in plain_fields(model, skip)}
    for name, key in relations.items():
        row[name] = key(getattr(obj, f"{name}_id"))
    row.update(extra)
    return row


def load(
    model: type[models.Model], row: dict[str, Any], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Plain columns back to Python values (fields missing from an older export keep defaults)."""
    return {f.name: f.to_python(row[f.name]) for f in plain_fields(model, skip) if f.name in row}
