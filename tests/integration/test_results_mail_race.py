"""The results mail under concurrency, on PostgreSQL (issue 32): runs of the send task at once
(a redelivery beside the first delivery, the sweep beside both) send each player's mail of a
close once. Each row is claimed (waiting → sending, one UPDATE only a waiting row matches) before
its mail goes; without the claim every run would read the same waiting rows and send them all.
"""

from __future__ import annotations

import datetime
from collections import Counter
from decimal import Decimal
from functools import partial
from unittest import mock

import pytest
from django.core import mail

from games.sessions import lifecycle
from scoring.standings import results_mail
from scoring.standings.outbox import ResultsMail
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.integration.test_table_change_race import run_together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS, RUNS = 2, 3


def test_runs_of_the_send_task_at_once_send_each_mail_once() -> None:
    club = make_club(director=UserFactory(username="td"), slug="race")
    for r in range(ROUNDS):
        players = [add_player(club, f"P{r} {seat}") for seat in "NESW"]
        for player in players:
            player.email = f"p{r}{player.name[-1].lower()}@club.example"
            player.save(update_fields=["email"])
        session = make_session(
            club, [players], stake=Decimal("1"), date=datetime.date(2026, 12, 1 + r)
        )
        rubber = session.rubbers.get()
        for number in (1, 2):
            rubber.record_deal(
                number=number, contract="4S", declarer="N", tricks=10, actor=acting(rubber)
            )
        with mock.patch.object(results_mail, "_publish"):  # the runs below are the task
            lifecycle.session_close(session=session)
        mail.outbox.clear()
        send = partial(results_mail.results_mail_send, session_id=session.pk, close=1)
        results = run_together(*[(f"run{i}", send) for i in range(RUNS)])
        assert not [v for v in results.values() if isinstance(v, Exception)], results
        assert sum(sum(counts.values()) for counts in results.values()) == 4
        assert Counter(m.to[0] for m in mail.outbox) == Counter(p.email for p in players)
        assert set(
            ResultsMail.objects.filter(session=session).values_list("status", flat=True)
        ) == {ResultsMail.Status.SENT}
