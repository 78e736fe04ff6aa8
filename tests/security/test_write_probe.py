"""Holes found by the outside probe of the one write policy (issue 27): each test names one.

The deal writes (entry, correction, deletion, confirmation, dispute, ruling) were tried by page,
API and offline queue as every persona of tests/security/conftest.py, a table-code phone and a
phone handed over, in a running, closed, reopened and disputed session, with hostile bodies.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Deal
from tests.conftest import unchanged
from tests.security.conftest import World

pytestmark = pytest.mark.django_db

BODY_NOT_AN_OBJECT = {"non_field_errors": ["The request body must be a JSON object."]}


@pytest.mark.parametrize("body", [["version"], "version", None])
def test_a_delete_whose_body_is_not_an_object_is_a_400_not_a_500(
    world: World, body: object
) -> None:
    """DELETE /api/v1/deals/{id}/?version=1 with a JSON body that is not an object (a list or a
    string holding "version", or null) answered 500 (`_delete_input` indexed it as a dict)."""
    api = APIClient()
    api.force_authenticate(world.users["director"])
    with unchanged():
        response = api.delete(
            f"/api/v1/deals/{world.deal.pk}/?version=1",
            json.dumps(body),
            content_type="application/json",
        )
    assert response.status_code == 400
    assert response.json() == {"errors": BODY_NOT_AN_OBJECT}
    assert Deal.objects.filter(pk=world.deal.pk).exists()


@pytest.mark.parametrize("back", ["13", "console", "games:rubber"])
def test_a_ruling_whose_next_is_a_bare_word_goes_back_to_the_deal(world: World, back: str) -> None:
    """POST /deals/{id}/rule with `next=13` (a relative URL the host check lets through)
    answered 500: `redirect` took the word for a view's name (NoReverseMatch). It goes back to
    the deal, as for a `next` that is not on this site, and the ruling is made."""
    Deal.objects.filter(pk=world.deal.pk).update(disputed=True)
    client = Client()
    client.force_login(world.users["director"])
    response = client.post(f"/deals/{world.deal.pk}/rule", {"version": 1, "next": back})
    assert (response.status_code, response["Location"]) == (302, world.deal.get_absolute_url())
    assert Deal.objects.get(pk=world.deal.pk).ruled


def test_a_session_page_whose_next_is_a_bare_word_goes_back_to_the_session(world: World) -> None:
    """The same hole in the session pages' `next` (games.sessions.pages.next_or): POST
    .../sessions/{id}/start/ with `next=13` answered 500."""
    client = Client()
    client.force_login(world.users["director"])
    planned = world.planned
    response = client.post(f"/clubs/{world.club.slug}/sessions/{planned.pk}/start/", {"next": "13"})
    assert (response.status_code, response["Location"]) == (302, planned.get_absolute_url())
