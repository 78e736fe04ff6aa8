"""Whole numbers read from a request's text (a query string, a form's hidden field).

``str.isdigit()`` accepts "²" and "٣" (Arabic-Indic), which ``int()`` refuses (a 500) or reads
as 3 (another object than the page named); ``int()`` refuses more than 4300 digits. Every id,
deal number or version a view reads by hand goes through ``small_number``: ASCII digits only,
at most nine of them, so the value always fits the database's integers.
"""

from __future__ import annotations

import re

__all__ = ["small_number"]

_SMALL = re.compile(r"[0-9]{1,9}")


def small_number(text: object) -> int | None:
    """The whole number ``text`` spells in one to nine ASCII digits, else None: no sign, no
    space, no other digit (``small_number("²")``, ``small_number("-1")`` and ``small_number("")``
    are None)."""
    if not isinstance(text, str) or not _SMALL.fullmatch(text):
        return None
    return int(text)
