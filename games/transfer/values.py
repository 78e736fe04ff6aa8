"""Checks of single values in a club file: no NUL, dates PostgreSQL can read back, whole numbers
and digits as an export writes them; and a refusal's messages by field."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from scoring.shared.inputs import refuse_other_digits

from .columns import plain_fields


def no_nul(value: Any) -> None:
    """PostgreSQL text cannot hold a NUL character: refuse it in any string of the row."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValidationError(["a text contains a NUL character"])
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


#: The years a stored date may have once converted to UTC: PostgreSQL cannot read back a
#: timestamp before year 1 or after 9999, and nothing in a club is older or further away.
SANE_YEARS = (1900, 9998)


def sane_date(field: str, value: datetime.date) -> None:
    year = value.year
    try:
        if isinstance(value, datetime.datetime) and value.tzinfo is not None:
            year = value.astimezone(datetime.UTC).year
    except OverflowError:
        year = 0  # before year 1 or after 9999 in UTC
    if not SANE_YEARS[0] <= year <= SANE_YEARS[1]:
        raise ValidationError(
            {field: [f"{value.isoformat()} is outside the years {SANE_YEARS[0]}–{SANE_YEARS[1]}"]}
        )


#: Columns whose text an export writes in the digits 0-9 (decimals and times are strings in JSON).
WRITTEN_IN_DIGITS = (models.DateField, models.DateTimeField, models.DecimalField)


def typed_as_written(model: type[models.Model], row: dict[str, Any], skip: tuple[str, ...]) -> None:
    """The row's plain columns as an export writes them: a whole number as a JSON number (the
    model's field would read "10" as 10), a date, time or decimal in the digits 0-9 (it would
    read "١٠" as 10); every wrong column is named."""
    problems: dict[str, list[str]] = {}
    for field in plain_fields(model, skip):
        value = row.get(field.name)
        if value is None:
            continue
        if isinstance(field, models.IntegerField):
            if not isinstance(value, int) or isinstance(value, bool):
                problems[field.name] = [f"{value!r} is not a whole number"]
        elif isinstance(field, WRITTEN_IN_DIGITS):
            try:
                refuse_other_digits(value)
            except ValidationError as err:
                problems[field.name] = err.messages
    if problems:
        raise ValidationError(problems)


def whole_numbers(row: dict[Any, Any], *fields: Any) -> None:
    """Natural keys are whole numbers in an export (not "1", not 1.0, not true)."""
    for field in fields:
        value = row[field]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValidationError({str(field): [f"{value!r} is not a whole number"]})


def error_items(err: ValidationError) -> list[tuple[str, list[str]]]:
    if hasattr(err, "error_dict"):
        return [
            (field, ValidationError(errors).messages) for field, errors in err.error_dict.items()
        ]
    return [("", err.messages)]
