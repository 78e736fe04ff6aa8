"""Deleting the last deal races another phone recording a deal (docs/rules.md, §8 decision 7).

Against gunicorn (2 workers) on PostgreSQL, ROUNDS times: a false deal k is entered, then at the
same moment one phone deletes it (`DELETE /api/v1/deals/{id}/?version=1`) and another records a
deal. Half the rounds the other phone records deal k + 1 (it saw deal k): the delete and the
entry lock the same rubber row, so either the entry lands first and the delete is refused (409,
no longer the last deal), or the delete lands first and the entry is refused as any gap is
(409, "the next deal … is number k") — never both, which would leave deal k + 1 after a hole.
The other rounds it records deal k with other content (it had not seen deal k): either it lands
after the delete and takes the freed number (201), or before and is refused (409, "already
recorded"), and the delete goes through either way.

Afterwards the rubber's deals are numbered 1, 2, … with no gap, every acknowledged entry that
was not deleted is still readable, every deleted deal is gone with a "deleted" history record,
and nothing answered 5xx.
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
from tests.factories import UserFactory, add_player, make_club, make_session
from tests.integration.test_concurrency import (
    call,
)
from tests.integration.test_correction_race import sign_in

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = int(os.environ.get("DELETE_RACE_ROUNDS", "40"))
# Neither ends a rubber, so every round plays in the same one: a failed contract (the deal
# entered by mistake) and a pass.
FALSE = {"contract": "1C", "declarer": "N", "tricks": 6}
PASS = {"contract": "pass"}


@pytest.fixture
def table(settings: Any) -> Session:
    """One running table of four, directed by "td" (hashed as gunicorn checks it)."""
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    club = make_club(director=UserFactory(username="td"), slug="race")
    players = [add_player(club, f"P{seat}") for seat in "NESW"]
    return make_session(club, [players], movement="fixed")


def race(
    web: str, token: str, rubber_id: int, false: dict[str, Any], entry: dict[str, Any], delay: float
) -> dict[str, tuple[int, Any]]:
    """DELETE `false` and POST `entry` at once; the later of the two started `delay` after."""
    answers: dict[str, tuple[int, Any]] = {}
    start = threading.Barrier(2)
    first = random.Random(delay).random() < 0.5

    def delete() -> None:
        start.wait()
        time.sleep(0 if first else delay)
        answers["delete"] = call(
            "DELETE", f"{web}/api/v1/deals/{false['id']}/?version={false['version']}", token
        )

    def enter() -> None:
        start.wait()
        time.sleep(delay if first else 0)
        answers["post"] = call("POST", f"{web}/api/v1/rubbers/{rubber_id}/deals/", token, entry)

    threads = [threading.Thread(target=delete), threading.Thread(target=enter)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_a_delete_and_an_entry_at_once_never_leave_a_gap_or_lose_an_entry(
    table: Session, web: str
) -> None:
    token = sign_in(web, "td")
    status, state = call("GET", f"{web}/api/v1/sessions/{table.pk}/", token)
    assert status == 200, state
    rubber_id = state["tables"][0]["current_rubber"]["id"]
    rng = random.Random(7)
    statuses: Counter[tuple[str, str, int]] = Counter()
    kept: set[int] = set()  # every acknowledged deal not deleted since
    deleted: set[int] = set()
    errors: list[Any] = []
    number = 1
    for round_ in range(ROUNDS):
        status, false = call(
            "POST", f"{web}/api/v1/rubbers/{rubber_id}/deals/", token, {"number": number, **FALSE}
        )
        assert status == 201, false
        kept.add(false["id"])
        # Odd rounds: the next deal (a phone that saw the false one); even: the freed number.
        next_one = round_ % 2 == 1
        entry = {"number": number + 1 if next_one else number, **PASS}
        answers = race(web, token, rubber_id, false, entry, rng.uniform(0, 0.03))
        (d_status, d_body), (p_status, p_body) = answers["delete"], answers["post"]
        kind = "next" if next_one else "freed"
        statuses[(kind, "delete", d_status)] += 1
        statuses[(kind, "post", p_status)] += 1
        if d_status >= 500 or p_status >= 500:
            errors.append((kind, answers))
        if d_status == 204:
            kept.discard(false["id"])
            deleted.add(false["id"])
        if p_status == 201:
            kept.add(p_body["id"])
        if next_one:
            # Exactly one of the two: never the entry after a hole, never a refusal of both.
            assert (d_status, p_status) in {(204, 409), (409, 201)}, answers
            if d_status == 409:
                assert "Only the last deal" in d_body["detail"], d_body
            else:
                assert f"is number {number}, not {number + 1}" in p_body["detail"], p_body
        else:
            assert d_status == 204, answers
            assert p_status in (201, 409), answers
            if p_status == 409:
                assert "already recorded" in p_body["detail"], p_body
        status, rubber = call("GET", f"{web}/api/v1/rubbers/{rubber_id}/", token)
        assert status == 200, rubber
        number = len(rubber["deals"]) + 1

    status, rubber = call("GET", f"{web}/api/v1/rubbers/{rubber_id}/", token)
    assert status == 200
    numbers = [d["number"] for d in rubber["deals"]]
    assert numbers == list(range(1, len(numbers) + 1)), numbers  # no gap
    assert {d["id"] for d in rubber["deals"]} == kept  # nothing acknowledged was lost
    assert set(Deal.objects.filter(rubber_id=rubber_id).values_list("pk", flat=True)) == kept
    assert not Deal.objects.filter(pk__in=deleted).exists()
    records = Deal.history.filter(id__in=deleted, history_type="-")
    assert sorted(records.values_list("id", flat=True)) == sorted(deleted)
    assert set(records.values_list("history_change_reason", flat=True)) <= {"deleted"}
    assert not errors, (f"{len(errors)} answers 5xx", statuses, errors[:1])
    # The race was run both ways round: each kind of round saw each order at least once
    # (the one started first usually lands first, and which starts first is drawn each round).
    assert statuses[("next", "delete", 204)] and statuses[("next", "delete", 409)], statuses
    assert statuses[("freed", "post", 201)] and statuses[("freed", "post", 409)], statuses
