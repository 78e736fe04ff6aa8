"""A hidden object answers byte for byte like one that never existed (docs/security.md, issue 14).

Every URL of the permission matrix that a persona may not read is called twice: with the ids and
slug of a members-only club whose language is Italian, and with ids and a slug never created.
Status, body, every header (Content-Language, Vary, ...) and every cookie must be equal, as the
anonymous visitor and as a signed-in outsider. The club's language used to leak through
`Content-Language` (`config.middleware.ClubLanguageMiddleware`).
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from tests.security.conftest import PERSONAS, World
from tests.security.test_permission_matrix import MATRIX, _call

NEVER = 10**7


def _ghost(world: World) -> World:
    """The world with every id and slug replaced by one that was never created."""
    ghost = SimpleNamespace
    return replace(
        world,
        club=ghost(slug="no-such-club", pk=NEVER),  # type: ignore[arg-type]
        players={n: ghost(pk=NEVER + i) for i, n in enumerate(world.players)},  # type: ignore[misc]
        planned=ghost(pk=NEVER + 100),  # type: ignore[arg-type]
        running=ghost(pk=NEVER + 101),  # type: ignore[arg-type]
        rubber=ghost(pk=NEVER + 102, table_id=NEVER + 104),  # type: ignore[arg-type]
        deal=ghost(pk=NEVER + 103),  # type: ignore[arg-type]
    )


def _everything(response: Any) -> tuple[Any, ...]:
    return (
        response.status_code,
        response.content,
        sorted(response.headers.items()),
        sorted((name, morsel.OutputString()) for name, morsel in response.cookies.items()),
    )


def _hidden_cases(persona: str) -> list[tuple[str, str]]:
    index = PERSONAS.index(persona)
    return [
        (name, method)
        for name, case in sorted(MATRIX.items())
        for method, statuses in case.expect.items()
        if statuses[index] == 404
    ]


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_a_hidden_object_answers_exactly_like_a_missing_one(world: World, persona: str) -> None:
    world.club.language = "it"
    world.club.save(update_fields=["language"])
    ghost = _ghost(world)
    cases = _hidden_cases(persona)
    assert {"clubs:home", "games:rubber", "scoring:player-history", "api-rubber"} <= {
        name for name, _ in cases
    }
    different = []
    for name, method in cases:
        case = MATRIX[name]
        body = case.body[method](world) if method in case.body else None
        answers = []
        for w in (world, ghost):
            client = APIClient()
            if world.users[persona] is not None:
                client.force_login(world.users[persona])
            with transaction.atomic():
                response = _call(client, method, case.path(w), body)
                transaction.set_rollback(True)
            answers.append(_everything(response))
        if answers[0] != answers[1]:
            different.append(f"{method} {case.path(world)}:\n  {answers[0]}\n  {answers[1]}")
    assert not different, "\n".join(different)


def test_the_clubs_language_still_speaks_to_its_members(world: World) -> None:
    world.club.language = "it"
    world.club.save(update_fields=["language"])
    client = APIClient()
    client.force_login(world.users["member"])
    response = client.get(f"/rubbers/{world.rubber.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Language"] == "it"
