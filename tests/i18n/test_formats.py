"""Money and dates in the reader's language."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from scoring.templatetags.scoring_i18n import money


@pytest.mark.parametrize(
    ("language", "amount", "currency", "expected"),
    [
        ("en", Decimal("1234.5"), "EUR", "€1,234.50"),
        ("it", Decimal("1234.5"), "EUR", "1.234,50 €"),
        ("en", Decimal("-4.5"), "GBP", "-£4.50"),
        ("it", Decimal("-4.5"), "GBP", "-4,50 £"),
        ("en", Decimal("12"), "CHF", "CHF 12.00"),
        ("it", Decimal("12"), "CHF", "12,00 CHF"),
        ("it", None, "EUR", ""),
    ],
)
def test_money_in_the_locales_format(
    language: str, amount: Decimal | None, currency: str, expected: str
) -> None:
    with translation.override(language):
        assert money(amount, currency) == expected


def test_dates_in_the_locales_format() -> None:
    template = Template("{{ day }} · {{ day|date:'SHORT_DATE_FORMAT' }}")
    context = Context({"day": datetime.date(2025, 3, 7)})
    with translation.override("it"):
        assert template.render(context) == "07 Marzo 2025 · 07/03/2025"
    with translation.override("en"):
        assert template.render(context) == "March 7, 2025 · 03/07/2025"
