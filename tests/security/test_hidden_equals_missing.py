"""A hidden object answers byte for byte like one that never existed (docs/security.md, issue 14).

Every URL of the permission matrix that a persona may not read is called twice: with the ids and
slug of a members-only club whose language is Italian, and with ids and a slug never created.
Status, body, every header (Content-Language, Vary, ...) and every cookie must be equal, as the
anonymous visitor and as a signed-in outsider. The club's language used to leak through
`Content-Language` (`config.middleware.ClubLanguageMiddleware`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
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


# --- the accepted limit: a club's address is unique -----------------------------------------------


def test_creating_a_club_reveals_only_that_its_address_is_taken(db: Any) -> None:
    """A club's slug is unique, so creating a club at a taken address must be refused, and the
    refusal tells a signed-in stranger that the address is taken (docs/security.md: accepted
    limit). It tells nothing else: the 400 names the slug field only, says nothing of the club
    (name, members, sessions, visibility), and is the same byte for byte for a public and a
    members-only club's slug, so it does not even say which of the two it is."""
    from clubs.models import Club
    from tests.factories import UserFactory, make_club

    owner = UserFactory(username="owner")
    make_club(director=owner, slug="open-door", public=True, language="it")
    make_club(director=owner, slug="hush", public=False, language="it")
    Club.objects.filter(slug="open-door").update(name="Open Door Secret Name")
    Club.objects.filter(slug="hush").update(name="Hush Secret Name")
    stranger = APIClient()
    stranger.force_authenticate(UserFactory(username="stranger"))
    clubs = Club.objects.count()

    def create(slug: str) -> Any:
        return stranger.post("/api/v1/clubs/", {"slug": slug, "name": "Mine"}, format="json")

    public, hidden = create("open-door"), create("hush")
    assert hidden.status_code == public.status_code == 400
    assert hidden.json() == {"errors": {"slug": ["A club with this slug already exists."]}}
    assert hidden.content == public.content
    assert sorted(hidden.headers.items()) == sorted(public.headers.items())
    for word in ("Hush", "Secret", "owner", "Open", "public", "members"):
        assert word not in hidden.content.decode()
    assert create("HUSH").content == hidden.content  # slugs are lower-cased: the same address
    assert Club.objects.count() == clubs

    page = Client()
    page.force_login(UserFactory(username="page-stranger"))
    form = {"name": "Mine", "rules_preset": "acbl", "default_stake": "0", "currency": "EUR"}

    def create_on_the_page(slug: str) -> str:
        response = page.post("/clubs/new/", {**form, "slug": slug})
        assert response.status_code == 200  # the form again, with its error
        html = response.content.decode().replace(slug, "SLUG")
        return re.sub(r"[A-Za-z0-9]{64}", "CSRF-TOKEN", html)  # masked anew on each answer

    on_the_page = create_on_the_page("hush")
    assert "A club with this address already exists." in on_the_page
    assert on_the_page == create_on_the_page("open-door")
    assert "Secret" not in on_the_page
    assert Club.objects.count() == clubs
