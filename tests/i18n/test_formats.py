"""Money and dates in the reader's language."""

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from scoring.standings.templatetags.scoring_i18n import money


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
        assert template.render(context) == "7 marzo 2025 · 07/03/2025"
    with translation.override("en"):
        assert template.render(context) == "March 7, 2025 · 03/07/2025"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", "1 dicembre 2026 · martedì 1 dicembre 2026, 19:02 · 01/12/2026 19:02 · 19:02"),
        ("en", "Dec. 1, 2026 · Tuesday Dec. 1, 2026, 7:02 PM · 12/01/2026 7:02 PM · 7:02 PM"),
    ],
)
def test_dates_and_times_in_each_languages_own_style(language: str, expected: str) -> None:
    """Issue 18: Italian writes "1 dicembre 2026" (Django's catalogue says "01 Dicembre 2026");
    English times carry no full stop for a sentence to double ("7:02 a.m..")."""
    moment = datetime.datetime(2026, 12, 1, 19, 2, tzinfo=datetime.UTC)
    template = Template(
        "{{ day }} · {{ moment|date:'l' }} {{ moment }} · "
        "{{ moment|date:'SHORT_DATETIME_FORMAT' }} · {{ moment|time }}"
    )
    context = Context({"day": moment.date(), "moment": moment})
    with translation.override(language), timezone.override(datetime.UTC):
        assert template.render(context) == expected


def test_no_page_writes_a_date_in_the_short_form() -> None:
    """Outside probe: pages wrote "Dec. 1, 2026" and "12/01/2026" (which half the club reads as
    12 January). A page writes a date as `{{ day }}` (DATE_FORMAT) and a moment as
    DATETIME_FORMAT; the short forms stay in config/formats for Django's own use."""
    root = Path(__file__).resolve().parents[2]
    sources = [*root.glob("templates/**/*.html")]
    for app in ("clubs", "games", "scoring", "config"):
        sources += [p for p in (root / app).glob("**/*.py") if "formats" not in p.parts]
    short = [str(p.relative_to(root)) for p in sources if "SHORT_DATE" in p.read_text()]
    assert len(sources) > 100
    assert short == []


@pytest.mark.parametrize(
    ("status", "sentence"),
    [
        ("unfinished", "Rubber unfinished."),
        ("in_play", "Rubber %(number)s in play"),
    ],
)
def test_a_status_has_one_word_in_the_badge_and_the_text(status: str, sentence: str) -> None:
    """The badge ("Incompiuto") is the word its sentence uses ("Rubber incompiuto.")."""
    from django.utils.translation import gettext

    from games.models import Rubber

    with translation.override("it"):
        badge = str(Rubber.Status(status).label).lower()
        assert badge in gettext(sentence).lower(), (badge, gettext(sentence))
