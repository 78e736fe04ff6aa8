"""One planning function for the console's live hint and its submit (issue 18): the hint said
"5 players: one table of 5" while the submit said "Fixed partnerships need exactly four
players", and seven players "cannot be seated" with no suggestion. RULES 6.2 (four to six at a
table), RULES 7 (tables of two)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import TWO_PLAYER_KINDS, Session
from scoring.rules import seating
from scoring.rules.seating import plan_tables
from tests.conftest import unchanged
from tests.factories import add_players

pytestmark = pytest.mark.django_db


def test_the_pure_planning_knows_the_kinds_and_movements_of_a_session() -> None:
    """scoring.rules.seating cannot import the models (pure engine): its copies of the two-player
    kinds (RULES 7) and of the fixed movement must stay the models' values."""
    assert set(seating.TWO_PLAYER_KINDS) == {str(kind) for kind in TWO_PLAYER_KINDS}
    assert seating.FIXED == Session.Movement.FIXED


@pytest.mark.parametrize(
    ("count", "kind", "movement", "sizes", "reason", "alternative"),
    [
        (0, "rubber", "pivot", [], "empty", None),
        (2, "rubber", "pivot", [], "four_to_six", ([], [2])),
        (3, "rubber", "pivot", [], "four_to_six", None),
        (4, "rubber", "pivot", [4], "", None),
        (5, "rubber", "pivot", [5], "", None),
        (7, "rubber", "pivot", [], "four_to_six", ([5], [2])),
        (7, "chicago", "cut-in", [], "four_to_six", ([5], [2])),
        (9, "rubber", "pivot", [5, 4], "", None),
        (13, "rubber", "pivot", [5, 4, 4], "", None),
        (4, "rubber", "fixed", [4], "", None),
        (5, "rubber", "fixed", [], "fixed", ([5], [])),
        (7, "rubber", "fixed", [], "fixed", None),
        (8, "rubber", "fixed", [4, 4], "", None),
        (6, "bridge_for_two", "pivot", [2, 2, 2], "", None),
        (5, "misery", "pivot", [], "even", None),
    ],
)
def test_the_plan_for_each_count(
    count: int,
    kind: str,
    movement: str,
    sizes: list[int],
    reason: str,
    alternative: Any,
) -> None:
    plan = plan_tables(count=count, kind=kind, movement=movement)
    assert (plan.sizes, plan.reason, plan.alternative) == (sizes, reason, alternative)
    assert sum(plan.sizes) in (0, count)
    if plan.alternative:
        tables, pairs = plan.alternative
        assert all(4 <= size <= 6 for size in tables)
        assert sum(tables) + sum(pairs) == count


def _text(html: str) -> str:
    (text,) = re.findall(r'<p id="suggestion"[^>]*>([^<]*)</p>', html)
    return text


def _errors(html: str) -> str:
    return " ".join(re.findall(r'<ul class="errorlist"[^>]*><li>([^<]*)</li>', html))


@pytest.mark.parametrize(
    ("count", "movement", "says"),
    [
        (5, "fixed", "every table needs exactly four. With the pivot movement: tables of 5."),
        (7, "pivot", "Suggestion: tables of 5 here, and the other two at a two-player table"),
    ],
)
def test_the_hint_and_the_submit_say_the_same(
    client: Client, director: Any, club: Any, count: int, movement: str, says: str
) -> None:
    client.force_login(director)
    players = add_players(club, "P", count)
    ids = [p.pk for p in players]
    hint = _text(
        client.get(
            reverse("clubs:suggest", args=[club.slug]),
            {"players": ids, "kind": "rubber", "movement": movement},
        ).content.decode()
    )
    with unchanged():
        response = client.post(
            reverse("clubs:console", args=[club.slug]),
            {
                "date": "2026-12-01",
                "kind": "rubber",
                "movement": movement,
                "stake_per_hundred": "0",
                "players": ids,
            },
        )
    assert response.status_code == 200
    html = response.content.decode()
    assert says in hint
    assert hint in _errors(html).replace("&#x27;", "'")
    assert _text(html) == hint


def test_an_unknown_kind_for_the_hint_is_refused_without_echoing_it(
    client: Client, director: Any, club: Any
) -> None:
    """Issue 31: `?kind=` on the console's hint is a query string anyone can craft; an unknown
    one is a 400 that lists the kinds, never a hint planned for it nor the value sent back."""
    client.force_login(director)
    ids = [p.pk for p in add_players(club, "P", 4)]
    sent = "zz<b>bogus</b>zz"
    for query in ({"kind": sent}, {"kind": "rubber", "movement": sent}):
        response = client.get(reverse("clubs:suggest", args=[club.slug]), {"players": ids, **query})
        assert response.status_code == 400
        body = response.content.decode()
        assert "bogus" not in body
        assert "Choose one of:" in body
    listed = client.get(reverse("clubs:suggest", args=[club.slug]), {"players": ids, "kind": sent})
    assert all(kind in listed.content.decode() for kind in Session.Kind.values)
