"""The entry's rows made into instances and engine inputs (games/models/rows.py, values.py):
the same as the ORM's and the engine's own, however they are kept (issue 33)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Deal, Rubber
from games.models.rows import Columns, deals_of, lock_for_entry
from games.models.values import _deal_input, deal_input
from scoring.rules import ScoringError
from tests.games.conftest import SIX_DEALS

pytestmark = pytest.mark.django_db


def _fields(instance: Any) -> dict[str, Any]:
    return {k: v for k, v in instance.__dict__.items() if k != "_state"}


def test_the_rows_are_the_instances_the_orm_makes(rubber: Any, enter: Any) -> None:
    enter(SIX_DEALS[:3])
    made = deals_of(Deal, rubber)
    read = list(Deal.objects.filter(rubber=rubber).order_by("number"))
    assert [_fields(d) for d in made] == [_fields(d) for d in read]
    assert list(made[0].__dict__) == list(read[0].__dict__)[: len(made[0].__dict__)]
    for deal in made:
        assert (deal._state.adding, deal._state.db) == (False, "default")
        assert deal.rubber is rubber  # as the related manager caches it
        assert deal.entered_by.pk == deal.entered_by_id  # a related row still reads
    locked = lock_for_entry(Rubber, rubber.pk)
    assert _fields(locked) == _fields(Rubber.objects.get(pk=rubber.pk)) | {
        k: v for k, v in _fields(locked).items() if k.startswith("_")
    }
    assert locked.north == rubber.north and locked.session.pk == rubber.session_id


def test_a_model_with_an_init_receiver_is_made_by_its_init(rubber: Any, enter: Any) -> None:
    from django.db.models.signals import post_init

    enter(SIX_DEALS[:1])
    seen: list[Any] = []

    def receiver(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    post_init.connect(receiver, sender=Deal)
    try:
        (deal,) = deals_of(Deal, rubber)
    finally:
        post_init.disconnect(receiver, sender=Deal)
    assert seen == [deal]
    assert Columns(Deal, "d")._plain  # every field a plain column or a key's id


def test_a_deals_engine_input_is_kept_by_its_facts_and_their_types() -> None:
    facts = ("4HX", "N", 8, "EW", 100)
    assert deal_input(*facts) is deal_input(*facts)
    assert deal_input(*facts) == _deal_input(*facts)
    # `True == 1`, and the engine refuses True for a number of tricks: kept by their types,
    # the input kept for 1 never answers for True.
    assert deal_input("4H", "N", 1, "", None).tricks == 1
    with pytest.raises(ScoringError):
        deal_input("4H", "N", True, "", None)
    for _ in range(2):  # a refused one is refused each time, never kept
        with pytest.raises(ScoringError):
            deal_input("4S", "N", 14, "", None)
