"""Reopen and close at the same moment, against gunicorn (2 workers) on PostgreSQL (issue 18;
docs/api.md, "Reopening").

`session_reopen` reads the status and writes it under the session's row lock, as `session_close`
does. Four reopens of a closed session at once: one 200, three 409, one "reopened" record in
the history; then four closes at once: one 200, three 409, one more "closed" record. Without
the lock, two requests both read "closed" and both reopen (two records).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from clubs import services
from clubs.models import Session
from tests.integration.test_concurrency import call
from tests.integration.test_correction_race import director_signs_in, sign_in, table
from tests.integration.test_integrity_race import AT_ONCE, at_once, web

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

__all__ = ["director_signs_in", "table", "web"]  # fixtures, used by name

ROUNDS = 4


def reasons(session: Session) -> Counter[str]:
    return Counter(session.history.values_list("history_change_reason", flat=True))


def test_reopens_and_closes_at_once_are_one_each(table: Session, web: str) -> None:
    token = sign_in(web, "td")
    url = f"{web}/api/v1/sessions/{table.pk}"
    services.session_close(session=table)

    def reopen(i: int, r: int) -> tuple[int, Any]:
        return call("POST", f"{url}/reopen", token)

    def close(i: int, r: int) -> tuple[int, Any]:
        return call("POST", f"{url}/close", token)

    for r in range(ROUNDS):
        for send, status in ((reopen, "running"), (close, "closed")):
            answers = at_once(send, r)
            statuses = Counter(code for code, _ in answers)
            assert statuses == {200: 1, 409: AT_ONCE - 1}, answers
            table.refresh_from_db()
            assert table.status == status
    counted = reasons(table)
    assert counted["reopened"] == ROUNDS
    assert counted["closed"] == ROUNDS + 1
