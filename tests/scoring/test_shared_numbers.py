"""scoring.shared.numbers.small_number: the one way a view reads a whole number from text."""

from __future__ import annotations

import pytest

from scoring.shared.numbers import small_number


@pytest.mark.parametrize(("text", "number"), [("0", 0), ("7", 7), ("007", 7), ("9" * 9, 999999999)])
def test_ascii_digits_are_a_number(text, number):
    assert small_number(text) == number


@pytest.mark.parametrize(
    "text",
    ["", "²", "٣", "1²", "١٢", "9" * 10, "9" * 5000, "-1", "+1", " 1", "1 ", "1\n", "1.0", None, 3],
)
def test_anything_else_is_none(text):
    """str.isdigit() takes "²" (int() refuses it) and "٣" (int() reads 3); int() refuses more
    than 4300 digits: none of them gets through."""
    assert small_number(text) is None
