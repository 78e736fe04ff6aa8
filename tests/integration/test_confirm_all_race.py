""" "Confirm all" racing a correction of one of its deals, on PostgreSQL (issue 29).

East confirms deals 1 and 2 at once (`Rubber.confirm_deals`: the session's row,
then the deals) as North corrects deal 2 (the session, the rubber, then the deal). Either the
confirmations land first and the correction clears deal 2's (the opponents confirm the new
content), or the correction lands first and the whole "Confirm all" is refused as of a version
corrected since, deal 1 included: never a confirmation of content East did not see, never half
of the list confirmed."""

from __future__ import annotations

import datetime
import os
import random
from typing import Any

import pytest

from clubs.models import Session
from games.models import Conflict, Deal, Rubber
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.integration.test_close_race import later
from tests.integration.test_table_change_race import run_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = int(os.environ.get("CONFIRM_ALL_RACE_ROUNDS", "20"))


def test_confirm_all_and_a_correction_at_once_never_confirm_unseen_content() -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="confirm-all-race")
    rng = random.Random(29)
    outcomes = set()
    for r in range(ROUNDS):
        players = [add_player(club, f"R{r} {seat}") for seat in "NESW"]
        session = make_session(
            club,
            [players],
            movement="fixed",
            date=datetime.date(2026, 12, 1) + datetime.timedelta(r),
        )
        Session.objects.filter(pk=session.pk).update(confirm_entries=True)
        rubber = Rubber.objects.get(session=session)
        north = acting(rubber, rubber.north.user)
        first = rubber.record_deal(number=1, contract="2S", declarer="N", tricks=8, actor=north)[0]
        second = rubber.record_deal(number=2, contract="1NT", declarer="N", tricks=7, actor=north)[
            0
        ]
        east = acting(rubber, rubber.east.user)
        seen = {first.pk: 1, second.pk: 1}

        def confirm(rubber: Any = rubber, east: Any = east, seen: Any = seen) -> Any:
            return rubber.confirm_deals(actor=east, seen=seen)

        def correct(second: Any = second, north: Any = north) -> Any:
            return second.correct(version=1, actor=north, tricks=9)

        results = run_together(("confirm", later(confirm, rng)), ("correct", later(correct, rng)))
        assert isinstance(results["correct"], Deal), results
        one, two = (Deal.objects.get(pk=pk) for pk in (first.pk, second.pk))
        assert two.version == 2 and two.confirmed_by_id is None
        if isinstance(results["confirm"], Conflict):
            assert one.confirmed_by_id is None  # nothing half-confirmed
            outcomes.add("refused")
        else:
            assert results["confirm"] == 2, results
            assert one.confirmed_by_id == rubber.east_id
            outcomes.add("confirmed first")
    assert outcomes, outcomes
