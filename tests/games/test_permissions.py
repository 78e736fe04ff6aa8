"""Who may read, enter and correct (games/permissions.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import unchanged
from tests.factories import UserFactory, make_club
from tests.games.conftest import SIX_DEALS

DEAL = {"number": 1, **SIX_DEALS[0]}


def post_deal(api: Any, rubber: Any, user: Any) -> Any:
    api.force_authenticate(user)
    return api.post(f"/api/v1/rubbers/{rubber.pk}/deals/", DEAL, format="json")


@pytest.mark.parametrize("seat", ["N", "E", "S", "W"])
def test_each_seated_player_may_enter(api, rubber, seat):
    assert post_deal(api, rubber, rubber.seats[seat].user).status_code == 201


def test_the_director_may_enter_anywhere_in_the_club(api, rubber, director):
    assert post_deal(api, rubber, director).status_code == 201


def test_an_outsider_cannot_enter_a_deal(api, rubber, outsider):
    assert post_deal(api, rubber, outsider).status_code == 403


def test_the_director_of_another_club_cannot_enter_a_deal(api, rubber):
    other = UserFactory(username="other-director")
    make_club(director=other, slug="elsewhere")
    assert post_deal(api, rubber, other).status_code == 403


def test_a_club_member_not_at_the_table_cannot_enter(api, rubber, club):
    from tests.factories import add_player

    member = UserFactory(username="member")
    add_player(club, "Member", user=member)
    assert post_deal(api, rubber, member).status_code == 403


def test_an_anonymous_visitor_cannot_enter(api, rubber):
    response = api.post(f"/api/v1/rubbers/{rubber.pk}/deals/", DEAL, format="json")
    assert response.status_code == 401


def test_anyone_may_read_a_public_clubs_rubber(api, rubber, enter):
    enter(SIX_DEALS[:1])
    api.force_authenticate(None)
    assert api.get(f"/api/v1/rubbers/{rubber.pk}/").status_code == 200
    deal = rubber.deals.get()
    assert api.get(f"/api/v1/deals/{deal.pk}/").status_code == 200
    assert api.get(f"/api/v1/deals/{deal.pk}/history").status_code == 200


def test_a_members_only_clubs_rubber_is_hidden_from_others(
    api, rubber, club, enter, outsider, east
):
    enter(SIX_DEALS[:1])
    club.public = False
    club.save()
    deal = rubber.deals.get()
    for user in (None, outsider):
        api.force_authenticate(user)
        assert api.get(f"/api/v1/rubbers/{rubber.pk}/").status_code == 404
        assert api.get(f"/api/v1/deals/{deal.pk}/history").status_code == 404
    api.force_authenticate(east)
    assert api.get(f"/api/v1/rubbers/{rubber.pk}/").status_code == 200


def test_any_player_at_the_table_or_a_director_corrects(
    api, rubber, enter, east, director, north, club, make_user
):
    """API.md: PATCH by the director, or a player at the table while the session runs."""
    from tests.factories import add_player

    enter(SIX_DEALS[:1])  # North enters
    deal = rubber.deals.get()
    url = f"/api/v1/deals/{deal.pk}/"
    api.force_authenticate(add_player(club, "Member", user=make_user("member")).user)
    with unchanged():
        assert api.patch(url, {"version": 1, "tricks": 8}, format="json").status_code == 403
    api.force_authenticate(east)  # an opponent of the player who entered it
    assert api.patch(url, {"version": 1, "tricks": 8}, format="json").status_code == 200
    api.force_authenticate(director)
    assert api.patch(url, {"version": 2, "tricks": 9}, format="json").status_code == 200
    api.force_authenticate(north)
    assert api.patch(url, {"version": 3, "tricks": 8}, format="json").status_code == 200
    api.force_authenticate(None)
    with unchanged():
        assert api.patch(url, {"version": 4, "tricks": 9}, format="json").status_code == 401
