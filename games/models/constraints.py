"""The rules a deal's row keeps in the database (`Deal.Meta.constraints`)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from .values import SEATS


def deal_constraints() -> list[models.BaseConstraint]:
    """A deal's number is its rubber's own and counts from 1; its tricks are 0 to 13; it is a
    four-player deal (a pass, or a contract with its declarer and tricks) or a two-player one
    (`data`); honours name a side and their points together; a ruled deal is not disputed."""
    return [
        models.UniqueConstraint(fields=["rubber", "number"], name="unique_deal_number"),
        models.CheckConstraint(
            condition=Q(tricks__isnull=True) | Q(tricks__range=(0, 13)),
            name="tricks_0_to_13",
        ),
        models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_from_1"),
        models.CheckConstraint(
            condition=(
                Q(
                    data__isnull=True,
                    contract="pass",
                    declarer="",
                    tricks__isnull=True,
                    honours_side="",
                )
                | (
                    Q(data__isnull=True)
                    & ~Q(contract__in=["pass", ""])
                    & Q(declarer__in=SEATS)
                    & Q(tricks__isnull=False)
                )
                | Q(
                    data__isnull=False,
                    contract="",
                    declarer="",
                    tricks__isnull=True,
                    honours_side="",
                )
            ),
            name="deal_is_four_player_or_two_player",
        ),
        models.CheckConstraint(
            condition=Q(honours_side="", honours_points__isnull=True)
            | (Q(honours_side__in=["NS", "EW"]) & Q(honours_points__in=[100, 150])),
            name="honours_side_and_points_together",
        ),
        # A ruling settles a dispute: a deal is never both (Deal.rule, Deal.dispute).
        models.CheckConstraint(
            condition=~Q(ruled=True, disputed=True), name="deal_ruled_is_not_disputed"
        ),
    ]
