"""A session page under /clubs/<slug>/sessions/<id>/… looks the session up within the URL's
club: another club's session is missing there, byte for byte like one never created, even to a
director of <slug> (who used to get 403 "Only a director of this club may do this.", or the
other club's page itself when it was public). The 403 traceback in the log is Django's own
(`django.request`'s `log_response`), left as it is."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from tests.security.conftest import World, build_world
from tests.security.test_hidden_equals_missing import NEVER, _everything
from tests.security.test_permission_matrix import MATRIX, _call

pytestmark = pytest.mark.django_db

#: Every page of a session under its club's URL, by its name in the permission matrix.
SESSION_PAGES = [
    "clubs:arrivals_suggest",
    "clubs:session",
    "clubs:session_arrivals",
    "clubs:session_cards",
    "clubs:session_close",
    "clubs:session_codes",
    "clubs:session_delete",
    "clubs:session_reopen",
    "clubs:session_reseat",
    "clubs:session_start",
    "clubs:table_add_player",
    "clubs:table_leaver",
    "clubs:table_remove_player",
]


@pytest.fixture
def public_world(director: Any) -> World:
    """A public club: its sessions' pages are readable, so a wrong club in the URL is the only
    thing that may hide them from the other club's director."""
    return build_world(director, public=True)


def test_every_session_page_under_a_club_is_checked(db: Any) -> None:
    """A session page added under a club's URL joins the list above."""
    paths = {name: _path(case) for name, case in MATRIX.items()}
    under_club = {name for name, path in paths.items() if path.startswith("/clubs/c/sessions/")}
    assert under_club == set(SESSION_PAGES)


def _path(case: Any) -> str:
    try:
        return str(case.path(_paths_only()))
    except (TypeError, ValueError, AttributeError, KeyError):  # a path built from rows
        return ""


def _paths_only() -> Any:
    ghost = SimpleNamespace
    return ghost(
        club=ghost(slug="c"),
        planned=ghost(pk=1),
        running=ghost(pk=2),
        rubber=ghost(pk=3, table_id=4),
        deal=ghost(pk=5),
        players={},
        other_club=ghost(slug="o"),
    )


@pytest.mark.parametrize("name", SESSION_PAGES)
def test_another_clubs_session_is_missing_under_this_clubs_url(
    public_world: World, name: str
) -> None:
    world = public_world
    case = MATRIX[name]
    lakeside = SimpleNamespace(slug=world.other_club.slug, pk=world.other_club.pk)
    theirs = SimpleNamespace(**{**vars(world), "club": lakeside})
    ghost = SimpleNamespace(
        **{
            **vars(theirs),
            "planned": SimpleNamespace(pk=NEVER + 100),
            "running": SimpleNamespace(pk=NEVER + 101),
        }
    )
    for method in case.expect:
        body = case.body[method](world) if method in case.body else None
        answers = []
        for w in (theirs, ghost):
            client = APIClient()
            client.force_login(world.users["other_director"])
            with transaction.atomic():
                answers.append(_everything(_call(client, method, case.path(w), body)))
                transaction.set_rollback(True)
        assert answers[0][0] == 404, f"{method} {case.path(theirs)}"
        assert answers[0] == answers[1], f"{method} {case.path(theirs)}"
