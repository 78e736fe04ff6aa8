"""Holes found by the outside probe of the one write policy (issue 27): each test names one.

The deal writes (entry, correction, deletion, confirmation, dispute, ruling) were tried by page,
API and offline queue as every persona of tests/security/conftest.py, a table-code phone and a
phone handed over, in a running, closed, reopened and disputed session, with hostile bodies.
"""

from __future__ import annotations

import json

import pytest
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
