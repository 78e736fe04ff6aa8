"""What a request may send: its numbers and dates in the digits 0-9, and no field it does not take.

Python's ``int()``, ``Decimal()`` and ``date.fromisoformat()``, and Django's and DRF's number and
date fields built on them, read any Unicode digit: ``"١"`` (Arabic-Indic) and ``"１"`` (full
width) are read as 1, a date in Devanagari digits as that date. A number or a date the user did
not write in 0-9 is refused instead, with a message saying so, by the field classes here: the
API's serializers (``IntegerField``, ``DecimalField``, ``FloatField``, ``DateField``,
``DateTimeField``), the pages' forms (``IntegerFormField``, ``DecimalFormField``,
``DateFormField``, ``ModelChoiceFormField``: a primary key is a number too), and through the
entry form the offline queue's endpoint. ruff's banned-api list (pyproject.toml) keeps DRF's and
Django's own classes out of the apps.

``RefusesUnknownFields`` makes a serializer answer 400 naming each field it does not take, so a
typo (``"declrer"``) is an error instead of a field silently left out; ``unknown_fields`` is the
same check for a body read by hand (the offline queue's).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

__all__ = [
    "OTHER_DIGITS",
    "UNKNOWN_FIELD",
    "DateField",
    "DateFormField",
    "DateTimeField",
    "DecimalField",
    "DecimalFormField",
    "FloatField",
    "IntegerField",
    "IntegerFormField",
    "ModelChoiceFormField",
    "NoBodyIn",
    "RefusesUnknownFields",
    "refuse_other_digits",
    "unknown_fields",
]

OTHER_DIGITS = _("Write numbers and dates with the digits 0-9.")
UNKNOWN_FIELD = _("Unknown field: this request does not take it.")

#: Sent with a form by a signed-in browser for CSRF, never read as input.
CSRF_FIELD = "csrfmiddlewaretoken"


def _plain(text: str) -> bool:
    """Written in ASCII, without the underscores Python's ``int()`` skips (``"1_0"`` is 10)."""
    return text.isascii() and "_" not in text


def refuse_other_digits(value: object) -> None:
    """A number or date given as text must be ASCII: anything else would be read only because
    Python reads every script's digits. Values of other types are left to the field. No error
    code: the sentence is already the page's own (games.forms.PlainErrors keeps it)."""
    if isinstance(value, str) and not _plain(value):
        raise ValidationError(OTHER_DIGITS)


# --- the API's serializer fields ------------------------------------------------------------------


class _AsciiInput:
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and not _plain(data):
            raise serializers.ValidationError(str(OTHER_DIGITS), code="invalid")
        return super().to_internal_value(data)  # type: ignore[misc]


class IntegerField(_AsciiInput, serializers.IntegerField):
    pass


class DecimalField(_AsciiInput, serializers.DecimalField):
    pass


class FloatField(_AsciiInput, serializers.FloatField):
    pass


class DateField(_AsciiInput, serializers.DateField):
    pass


class DateTimeField(_AsciiInput, serializers.DateTimeField):
    pass


# --- the pages' form fields -----------------------------------------------------------------------


class IntegerFormField(forms.IntegerField):
    def to_python(self, value: Any) -> int | None:
        refuse_other_digits(value)
        return super().to_python(value)


class DecimalFormField(forms.DecimalField):
    def to_python(self, value: Any) -> Any:
        refuse_other_digits(value)
        return super().to_python(value)


class DateFormField(forms.DateField):
    def to_python(self, value: Any) -> Any:
        refuse_other_digits(value)
        return super().to_python(value)


class ModelChoiceFormField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A row chosen by its primary key: "١" would otherwise choose row 1."""

    def to_python(self, value: Any) -> Any:
        refuse_other_digits(value)
        return super().to_python(value)


# --- fields a request does not take ---------------------------------------------------------------


def unknown_fields(data: Any, known: Iterable[str]) -> list[str]:
    """The keys of a request's body that are none of ``known`` (nor the CSRF token), sorted."""
    if not isinstance(data, Mapping):
        return []
    taken = {*known, CSRF_FIELD}
    return sorted(str(name) for name in data if name not in taken)


class RefusesUnknownFields:
    """A request serializer that answers 400 naming every field it does not take, instead of
    ignoring it (`{"version": 1, "trick": 9}` would otherwise change nothing and answer 200)."""

    fields: Any

    def to_internal_value(self, data: Any) -> Any:
        unknown = unknown_fields(data, self.fields)
        if unknown:
            raise serializers.ValidationError({name: [str(UNKNOWN_FIELD)] for name in unknown})
        return super().to_internal_value(data)  # type: ignore[misc]


class NoBodyIn(RefusesUnknownFields, serializers.Serializer[Any]):
    """The body of a POST that takes nothing (start a session, accept an invitation): empty, or
    a 400 naming what it holds."""

    @classmethod
    def check(cls, data: Any) -> None:
        cls(data=data).is_valid(raise_exception=True)
