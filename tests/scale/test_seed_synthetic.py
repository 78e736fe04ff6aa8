"""The synthetic federation generator, at a small size (issue: Prove it at scale)."""

from io import StringIO

import pytest
from django.core.management import call_command

from clubs.models import Club
from games.models import Deal, Rubber
from scoring.rules import score_rubber

pytestmark = pytest.mark.django_db


def _seed(prefix: str, seed: int = 7) -> str:
    out = StringIO()
    call_command(
        "seed_synthetic",
        clubs=2,
        players=12,
        sessions=3,
        tables=2,
        seed=seed,
        prefix=prefix,
        no_progress=True,
        stdout=out,
    )
    return out.getvalue().strip()


def _deals(prefix: str) -> list[tuple]:
    return list(
        Deal.objects.filter(rubber__session__club__slug__startswith=prefix)
        .order_by(
            "rubber__session__club__slug",
            "rubber__session__date",
            "rubber__table__number",
            "rubber__number",
            "number",
        )
        .values_list("contract", "declarer", "tricks")
    )


def test_the_same_seed_gives_the_same_federation():
    first, second = _seed("a"), _seed("b")
    assert first == second
    assert first.startswith("clubs=2 players=24 sessions=6 tables=12 rubbers=36 deals=")
    assert _deals("a") == _deals("b")
    assert _deals("a") != [] and Club.objects.count() == 4


def test_another_seed_gives_other_deals():
    _seed("a", seed=1)
    _seed("b", seed=2)
    assert _deals("a") != _deals("b")


def test_every_synthetic_rubber_ends_where_the_laws_end_it():
    _seed("a")
    for rubber in Rubber.objects.prefetch_related("deals"):
        sheet = score_rubber([d.as_input() for d in rubber.ordered_deals()])
        assert sheet.rubber_complete == (rubber.status == Rubber.Status.COMPLETE)
