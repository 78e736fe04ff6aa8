"""A deal's history (django-simple-history), indexed for the question the pads ask of it."""

from __future__ import annotations

from typing import Any

from django.db import models
from simple_history.models import HistoricalRecords


class RubberHistory(HistoricalRecords):  # type: ignore[misc]  # simple-history is untyped
    """A deal's history, indexed by rubber and history id together: a pad's version is the
    latest history id of its rubber (`MAX(history_id) WHERE rubber_id = ...`, games/models/state.py,
    games/push/versions.py, games/club/cards.py). With an index on the rubber alone, PostgreSQL
    answered that by walking the whole history backwards from the newest row until one of the
    rubber's: an old rubber's scoresheet cost 29 ms of a 78,900-row history, more with every
    deal entered anywhere (bench/bench_http.py's scoresheet fell from 693 to 123 requests a
    second over 5 rounds). With the pair, it is one index probe."""

    def get_meta_options(self, model: Any) -> dict[str, Any]:
        options: dict[str, Any] = super().get_meta_options(model)
        options["indexes"] = (
            *options.get("indexes", ()),
            models.Index(fields=("rubber", "history_id"), name="history_of_a_rubber"),
        )
        return options
