"""Many requests creating the same club slug, player name or login at the same moment, against
gunicorn (2 workers) on PostgreSQL (issue 14, item 11; docs/api.md: integrity answers): one is
created, every other answers 400 naming the field, never 500 (IntegrityError)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, Player
from tests.factories import UserFactory, make_club
from tests.integration.test_concurrency import (
    call,
)
from tests.integration.test_correction_race import director_signs_in, sign_in

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS, AT_ONCE = 6, 4

__all__ = ["director_signs_in"]  # a fixture, used by name


def at_once(send: Callable[[int, int], tuple[int, Any]], r: int) -> list[tuple[int, Any]]:
    """`send(i, r)` from AT_ONCE threads (i) released together; their answers."""
    start = threading.Barrier(AT_ONCE)
    answers: list[tuple[int, Any]] = []

    def run(i: int) -> None:
        start.wait()
        answers.append(send(i, r))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def one_created_the_rest_refused(answers: list[tuple[int, Any]], field: str) -> Counter[int]:
    statuses = Counter(status for status, _ in answers)
    assert statuses[201] == 1 and statuses[400] == AT_ONCE - 1, answers
    for status, body in answers:
        if status == 400:
            assert list(body["errors"]) == [field], body
    return statuses


def test_same_slug_name_or_login_at_once_is_one_201_and_400s(
    director_signs_in: None, web: str
) -> None:
    club = make_club(director=UserFactory(username="td"), slug="home")
    token = sign_in(web, "td")
    api = f"{web}/api/v1"

    def new_club(i: int, r: int) -> tuple[int, Any]:
        return call("POST", f"{api}/clubs/", token, {"slug": f"twin-{r}", "name": f"Club {i}"})

    def same_name(i: int, r: int) -> tuple[int, Any]:
        return call("POST", f"{api}/clubs/home/players/", token, {"name": f"Ann {r}"})

    def same_login(i: int, r: int) -> tuple[int, Any]:
        body = {"name": f"Bea {r} {i}", "username": f"bea-{r}", "password": "a-long-password-7"}
        return call("POST", f"{api}/clubs/home/players/", token, body)

    for r in range(ROUNDS):
        one_created_the_rest_refused(at_once(new_club, r), "slug")
        one_created_the_rest_refused(at_once(same_name, r), "name")
        one_created_the_rest_refused(at_once(same_login, r), "username")
    assert Club.objects.filter(slug__startswith="twin-").count() == ROUNDS
    assert Player.objects.filter(club=club, name__startswith="Ann ").count() == ROUNDS
    assert Player.objects.filter(club=club, user__username__startswith="bea-").count() == ROUNDS
    assert get_user_model().objects.filter(username__startswith="bea-").count() == ROUNDS


def test_names_logins_and_invitations_differing_only_by_case_at_once(
    director_signs_in: None, web: str
) -> None:
    """Issue 14 probe item 1: the same player name, login or invitation in different cases at
    once ("Ann", "ANN", "ann", ...). One is created, the rest answer 400 naming the field; never
    two pending invitations of one username in a club, never two logins differing by case."""
    from clubs.models import Invitation

    club = make_club(director=UserFactory(username="td"), slug="home")
    token = sign_in(web, "td")
    api = f"{web}/api/v1"
    cases = (str.lower, str.upper, str.title, str.swapcase)

    def same_name(i: int, r: int) -> tuple[int, Any]:
        return call("POST", f"{api}/clubs/home/players/", token, {"name": cases[i](f"cy {r}")})

    def same_login(i: int, r: int) -> tuple[int, Any]:
        body = {
            "name": f"Dee {r} {i}",
            "username": cases[i](f"dee-{r}"),
            "password": "a-long-password-7",
        }
        return call("POST", f"{api}/clubs/home/players/", token, body)

    def same_invitation(i: int, r: int) -> tuple[int, Any]:
        body = {"name": f"Eve {r} {i}", "username": cases[i](f"eve-{r}")}
        return call("POST", f"{api}/clubs/home/players/", token, body)

    for r in range(ROUNDS):
        one_created_the_rest_refused(at_once(same_name, r), "name")
        one_created_the_rest_refused(at_once(same_login, r), "username")
        one_created_the_rest_refused(at_once(same_invitation, r), "username")
    assert Player.objects.filter(club=club, name__istartswith="cy ").count() == ROUNDS
    assert get_user_model().objects.filter(username__istartswith="dee-").count() == ROUNDS
    assert Invitation.objects.filter(username__istartswith="eve-").count() == ROUNDS
