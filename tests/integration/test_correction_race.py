"""A correction that reopens a rubber races an entry into the next one (issue 14, item 1).

Against gunicorn (2 workers) on PostgreSQL, ROUNDS times: finish a rubber with deal k (the next
rubber is seated), then at the same moment PATCH deal k so that the rubber is no longer complete
and POST deal 1 to the next rubber. Whichever lands first, every 201 must still be readable
afterwards and nothing may answer 500 (docs/rules.md: "Corrections that reopen a rubber").
Before the fix, the correction deleted the next rubber without locking it: the entry's 201 was
lost with it, or the PATCH answered 500 (IntegrityError).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from typing import Any

import pytest
from django.conf import global_settings

from clubs.models import Session
from games.models import Deal
from tests.factories import PASSWORD, UserFactory, add_player, make_club, make_session
from tests.integration.test_concurrency import (
    call,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = int(os.environ.get("CORRECTION_RACE_ROUNDS", "50"))
GAME = {"contract": "4S", "declarer": "N", "tricks": 10}


def sign_in(base: str, username: str) -> str:
    """An API token, as a client gets one (API.md: POST /api/v1/auth/token/)."""
    status, body = call(
        "POST", f"{base}/api/v1/auth/token/", body={"username": username, "password": PASSWORD}
    )
    assert status == 200, body
    return str(body["token"])


@pytest.fixture
def director_signs_in(settings: Any) -> None:
    """The director "td" hashed as gunicorn checks it (the tests' quick hasher is not there)."""
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    UserFactory(username="td")


@pytest.fixture
def table(director_signs_in: None) -> Session:
    """One running table of four, directed by "td"."""
    club = make_club(director=UserFactory(username="td"), slug="race")
    players = [add_player(club, f"P{seat}") for seat in "NESW"]
    return make_session(club, [players], movement="fixed")


def finish_rubber(base: str, token: str, rubber_id: int, number: int) -> tuple[dict[str, Any], int]:
    """Enter games from deal `number` on until one ends the rubber: (that deal, next rubber)."""
    while True:
        status, deal = call(
            "POST", f"{base}/api/v1/rubbers/{rubber_id}/deals/", token, {"number": number, **GAME}
        )
        assert status == 201, deal
        if deal["next_rubber"] is not None:
            return deal, deal["next_rubber"]
        number += 1


def test_a_correction_never_loses_an_entry_into_the_next_rubber(table: Session, web: str) -> None:
    session, token = table, sign_in(web, "td")
    statuses: Counter[tuple[str, int]] = Counter()
    acknowledged: list[tuple[int, int]] = []  # (rubber id, deal id) of every 201
    errors: list[tuple[str, int, Any]] = []
    rng = random.Random(14)
    status, state = call("GET", f"{web}/api/v1/sessions/{session.pk}/", token)
    assert status == 200, state
    playing, number = state["tables"][0]["current_rubber"]["id"], 1  # the rubber in play
    for _ in range(ROUNDS):
        last, next_id = finish_rubber(web, token, playing, number)
        answers: dict[str, tuple[int, Any]] = {}
        start = threading.Barrier(2)

        def correct(
            deal: dict[str, Any] = last, start: threading.Barrier = start, answers: Any = answers
        ) -> None:
            start.wait()
            answers["patch"] = call(
                "PATCH",
                f"{web}/api/v1/deals/{deal['id']}/",
                token,
                {"version": deal["version"], "tricks": 9},  # down one: the rubber reopens
            )

        def enter(
            rubber_id: int = next_id,
            delay: float = rng.uniform(0, 0.03),
            start: threading.Barrier = start,
            answers: Any = answers,
        ) -> None:
            start.wait()
            # The entry is the quicker request: started up to 30 ms later, it lands before,
            # during and after the correction's check of the next rubber.
            time.sleep(delay)
            answers["post"] = call(
                "POST",
                f"{web}/api/v1/rubbers/{rubber_id}/deals/",
                token,
                {"number": 1, "contract": "1C", "declarer": "E", "tricks": 7},
            )

        threads = [threading.Thread(target=correct), threading.Thread(target=enter)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        for kind, (status, body) in answers.items():
            statuses[(kind, status)] += 1
            if status >= 500:
                errors.append((kind, status, body))
        post_status, post_body = answers["post"]
        if post_status == 201:
            acknowledged.append((next_id, post_body["id"]))
        # Play on at the rubber now in play: the reopened one, or the next (with its deal 1).
        if answers["patch"][0] == 200:
            playing, number = last["rubber_id"], last["number"] + 1
        else:
            playing, number = next_id, 2 if post_status in (200, 201) else 1

    # Every acknowledged deal is still there, readable through the API.
    lost = []
    for rubber_id, deal_id in acknowledged:
        status, rubber = call("GET", f"{web}/api/v1/rubbers/{rubber_id}/", token)
        found = status == 200 and deal_id in [d["id"] for d in rubber["deals"]]
        if not found or call("GET", f"{web}/api/v1/deals/{deal_id}/", token)[0] != 200:
            lost.append((rubber_id, deal_id))
    assert not lost, (f"{len(lost)} of {len(acknowledged)} acknowledged deals lost", statuses)
    assert Deal.objects.filter(pk__in=[d for _, d in acknowledged]).count() == len(acknowledged)
    assert not errors, (f"{len(errors)} answers 5xx", statuses, errors[:1])
    # Only clean answers: 200/201, or a refusal (409) or a vanished rubber (404).
    assert {status for (_, status) in statuses} <= {200, 201, 404, 409}, statuses
