"""The cut for a shared prize choice under concurrency, on PostgreSQL (RULES 6.3).

Recording a cut reads the stored tie (who still shares the choice), then writes the cut, under
the lock of the session's standings state (``scoring.standings.cuts.prize_cut_record``). Each
round, threads released together record different winners of the same tie: one is recorded,
the others are refused as had they come second (a form error, never a 500). Without the lock
several read "not cut yet" and insert; the unique constraint on (session, choice, players)
would then refuse them with an IntegrityError, a 500.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import PrizeCut
from games.permissions import Actor
from scoring.standings import cuts, services
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.integration.test_table_change_race import run_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = 4


def test_directors_recording_the_same_cut_at_once_record_one() -> None:
    director = UserFactory(username="td")
    club = make_club(director=director, slug="cuts")
    for r in range(ROUNDS):
        players = [add_player(club, f"P{r} {seat}") for seat in "NESW"]
        session = make_session(club, [players])
        rubber = session.rubbers.get()
        for number in (1, 2):
            rubber.record_deal(
                number=number, contract="4S", declarer="N", tricks=10, actor=acting(rubber)
            )
        services.standings_refresh(session_id=session.pk)
        tied = [rubber.seats["N"], rubber.seats["S"]]
        results = run_together(
            *(
                (
                    f"cut{i}",
                    lambda winner=winner, session=session: cuts.prize_cut_record(
                        actor=Actor.system(), session=session, winner=winner, by=director
                    ),
                )
                for i, winner in enumerate(tied * 2)
            )
        )
        refused = [v for v in results.values() if isinstance(v, Exception)]
        assert all(isinstance(v, ValidationError) for v in refused), refused
        assert len(refused) == 3
        assert PrizeCut.objects.filter(session=session).count() == 1
