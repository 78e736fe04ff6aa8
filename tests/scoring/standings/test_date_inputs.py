"""A type=date input takes only YYYY-MM-DD: in Italian a localized value (03/12/2026) shows as
blank in the browser (issue 32)."""

import datetime

import pytest
from django import forms
from django.utils import translation

from clubs.forms import SessionForm
from scoring.standings.views import PeriodForm
from scoring.standings.views_accounts import PaymentForm

DAY = datetime.date(2026, 12, 3)


@pytest.mark.parametrize(
    ("form", "field"),
    [(PaymentForm, "date"), (PeriodForm, "start"), (PeriodForm, "end"), (SessionForm, "date")],
)
@pytest.mark.parametrize("language", ["en", "it"])
def test_date_inputs_render_iso_in_every_language(
    form: type[forms.Form], field: str, language: str
) -> None:
    widget = form.base_fields[field].widget
    with translation.override(language):
        html = widget.render(field, DAY)
    assert 'type="date"' in html and 'value="2026-12-03"' in html
