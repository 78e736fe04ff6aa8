"""A director links a login only with its holder's consent (issue 14 item 10; docs/api.md,
"Invitations"; docs/security.md).

Naming a username without a password adds the player with a pending invitation and answers the
same whether or not that login exists; the holder lists, accepts or declines it; only an
accepted invitation links the player. A new username with a password is created at once.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Invitation, Membership, Player
from tests.conftest import unchanged
from tests.factories import PASSWORD, Night, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _invite(night: Night, name: str, username: str, **extra: Any) -> Any:
    return _api(night.users["director"]).post(
        f"/api/v1/clubs/{night.club.slug}/players/",
        {"name": name, "username": username, **extra},
        format="json",
    )


def _state() -> tuple[Any, ...]:
    return (
        sorted(Player.objects.values_list("pk", "name", "user_id")),
        sorted(Membership.objects.values_list("club_id", "user_id", "role")),
        sorted(Invitation.objects.values_list("pk", "player_id", "username", "director")),
    )


# --- the director's side -------------------------------------------------------------------------


def test_naming_an_existing_login_invites_it_and_links_nothing(night: Night) -> None:
    """Before: the login was linked and made a member at once, without its holder's consent."""
    outsider = night.users["outsider"]
    response = _invite(night, "Otto", "outsider")
    assert response.status_code == 201
    assert response.json() == {
        "id": response.json()["id"],
        "name": "Otto",
        "username": None,
        "invitation": "pending",
        "email": "",
        "results_mail": None,
    }
    assert Player.objects.get(name="Otto").user is None
    assert not night.club.memberships.filter(user=outsider).exists()


def test_the_answer_is_the_same_whether_or_not_the_login_exists(night: Night) -> None:
    """Before: an existing login came back linked, a missing one was created: a director could
    probe which logins exist."""
    existing = _invite(night, "Otto", "outsider")
    missing = _invite(night, "Nemo", "nobody-here")
    assert existing.status_code == missing.status_code == 201

    def anonymised(response: Any) -> tuple[Any, ...]:
        body = re.sub(rb'"id":\d+', b'"id":0', response.content).replace(b"Otto", b"Nemo")
        headers = {k: v for k, v in response.headers.items() if k.lower() not in {"date"}}
        return body, headers

    assert anonymised(existing) == anonymised(missing)
    assert not get_user_model().objects.filter(username="nobody-here").exists()


def test_a_new_username_with_a_password_is_created_and_linked_at_once(night: Night) -> None:
    response = _invite(night, "Hal", "hal", password="a-long-secret-phrase", director=True)
    assert response.status_code == 201
    assert response.json()["username"] == "hal" and response.json()["invitation"] is None
    hal = get_user_model().objects.get(username="hal")
    assert hal.check_password("a-long-secret-phrase")
    assert night.club.is_director(hal)


def test_an_existing_username_with_a_password_is_refused_and_changes_nothing(night: Night) -> None:
    """The password of someone else's login is neither set nor used to link it."""
    before = _state()
    response = _invite(night, "Otto", "outsider", password="a-long-secret-phrase")
    assert response.status_code == 400
    assert "username" in response.json()["errors"]
    assert _state() == before
    outsider = get_user_model().objects.get(username="outsider")
    assert outsider.check_password(PASSWORD)


def test_a_login_already_linked_or_invited_in_the_club_is_refused(night: Night) -> None:
    assert _invite(night, "Again", "north").status_code == 400
    assert _invite(night, "Otto", "outsider").status_code == 201
    before = _state()
    response = _invite(night, "Otto Two", "outsider")
    assert response.status_code == 400 and "username" in response.json()["errors"]
    assert _state() == before


def test_the_directors_player_list_shows_the_pending_invitation(
    night: Night, django_assert_max_num_queries: Any
) -> None:
    _invite(night, "Otto", "outsider")
    client = _api(night.users["director"])
    with django_assert_max_num_queries(8):
        players = {
            p["name"]: p for p in client.get(f"/api/v1/clubs/{night.club.slug}/players/").json()
        }
    assert players["Otto"]["invitation"] == "pending" and players["Otto"]["username"] is None
    assert players["North"]["invitation"] is None and players["North"]["username"] == "north"


# --- the holder's side ---------------------------------------------------------------------------


def test_the_holder_lists_accepts_and_is_linked(night: Night) -> None:
    _invite(night, "Otto", "outsider", director=True)
    outsider = night.users["outsider"]
    client = _api(outsider)
    listed = client.get("/api/v1/invitations/").json()
    player = Player.objects.get(name="Otto")
    assert listed == [
        {
            "id": player.invitation.pk,
            "club": {"slug": "riverside", "name": night.club.name},
            "player": {"id": player.pk, "name": "Otto"},
        }
    ]
    response = client.post(f"/api/v1/invitations/{listed[0]['id']}/accept")
    assert response.status_code == 200
    assert response.json() == {"id": player.pk, "name": "Otto"}
    player.refresh_from_db()
    assert player.user == outsider
    assert night.club.is_director(outsider)
    assert client.get("/api/v1/invitations/").json() == []


def test_the_holder_declines_and_nothing_is_linked(night: Night) -> None:
    _invite(night, "Otto", "outsider")
    client = _api(night.users["outsider"])
    pk = client.get("/api/v1/invitations/").json()[0]["id"]
    assert client.post(f"/api/v1/invitations/{pk}/decline").status_code == 204
    assert not Invitation.objects.exists()
    assert Player.objects.get(name="Otto").user is None
    assert not night.club.memberships.filter(user=night.users["outsider"]).exists()
    with unchanged():
        assert client.post(f"/api/v1/invitations/{pk}/accept").status_code == 404


@pytest.mark.parametrize("persona", ["player", "other_director", "director"])
@pytest.mark.parametrize("action", ["accept", "decline"])
def test_another_users_invitation_answers_like_a_missing_one(
    night: Night, persona: str, action: str
) -> None:
    _invite(night, "Otto", "outsider")
    pk = Invitation.objects.get().pk
    client = _api(night.users[persona])
    before = _state()
    theirs = client.post(f"/api/v1/invitations/{pk}/{action}")
    missing = client.post(f"/api/v1/invitations/{pk + 1000}/{action}")
    assert theirs.status_code == missing.status_code == 404
    assert theirs.content == missing.content
    assert _state() == before
    assert client.get("/api/v1/invitations/").json() == []


def test_anonymous_visitors_have_no_invitations(night: Night) -> None:
    _invite(night, "Otto", "outsider")
    pk = Invitation.objects.get().pk
    assert _api().get("/api/v1/invitations/").status_code == 401
    assert _api().post(f"/api/v1/invitations/{pk}/accept").status_code == 401
    assert Invitation.objects.exists()


def test_an_invitation_for_a_login_created_later_reaches_nobody(night: Night) -> None:
    """Issue 14 probe (invitation squatting): a director invited `carol.smith` as a director
    before that login existed; an outsider created the login and accepted, becoming a director of
    the members-only club. Now an invitation is bound to the login it named when it was made; one
    naming no login is inert: nobody sees or accepts it, and the director still sees it pending."""
    night.club.public = False
    night.club.save()
    assert _invite(night, "Carol", "carol.smith", director=True).status_code == 201
    squatter = UserFactory(username="carol.smith")
    pk = Invitation.objects.get().pk
    assert _api(squatter).get("/api/v1/invitations/").json() == []
    before = _state()
    assert _api(squatter).post(f"/api/v1/invitations/{pk}/accept").status_code == 404
    assert _api(squatter).post(f"/api/v1/invitations/{pk}/decline").status_code == 404
    assert _state() == before
    assert not night.club.memberships.filter(user=squatter).exists()
    players = _api(night.users["director"]).get(f"/api/v1/clubs/{night.club.slug}/players/")
    assert {p["name"]: p["invitation"] for p in players.json()}["Carol"] == "pending"


def test_a_login_created_by_another_clubs_director_cannot_take_the_invitation(
    night: Night,
) -> None:
    """The probe's route: the outsider directs a club of their own and creates the invited
    username there with a password, then accepts."""
    from clubs.services import club_create, player_create

    night.club.public = False
    night.club.save()
    _invite(night, "Carol", "carol.smith", director=True)
    own = club_create(director=night.users["outsider"], slug="own", name="Own")
    player_create(club=own, name="C", username="carol.smith", password="a-long-secret-phrase")
    squatter = get_user_model().objects.get(username="carol.smith")
    pk = Invitation.objects.get().pk
    with unchanged():
        assert _api(squatter).post(f"/api/v1/invitations/{pk}/accept").status_code == 404


def test_an_invitation_with_another_case_reaches_the_one_login_matching_it(night: Night) -> None:
    """`Outsider` typed for the existing `outsider` reaches that login (exactly one matches)."""
    _invite(night, "Otto", "Outsider")
    outsider = night.users["outsider"]
    assert Invitation.objects.get().user == outsider
    assert [i["player"]["name"] for i in _api(outsider).get("/api/v1/invitations/").json()] == [
        "Otto"
    ]


def test_a_case_variant_login_created_later_cannot_take_the_invitation(night: Night) -> None:
    """The probe's case typo: `Alice` invited when only `alice` exists reaches `alice`; a login
    `Alice` cannot be created next to it, so nobody else can take it."""
    _invite(night, "Ali", "Outsider", director=True)
    response = _invite(night, "Ali Two", "OUTSIDER", password="a-long-secret-phrase")
    assert response.status_code == 400 and "username" in response.json()["errors"]
    assert not get_user_model().objects.filter(username="OUTSIDER").exists()
    assert Invitation.objects.get().user == night.users["outsider"]


def test_a_login_differing_only_by_case_is_refused(night: Night) -> None:
    before = _state()
    logins = get_user_model().objects.count()
    response = _invite(night, "Otto", "OutSider", password="a-long-secret-phrase")
    assert response.status_code == 400
    assert response.json()["errors"]["username"] == [
        "This login already exists. Leave the password empty to invite its holder instead."
    ]
    assert _state() == before and get_user_model().objects.count() == logins


def test_a_player_name_differing_only_by_case_is_refused(night: Night) -> None:
    before = _state()
    response = _invite(night, "NORTH", "someone-new")
    assert response.status_code == 400 and "name" in response.json()["errors"]
    assert _state() == before


def test_the_database_refuses_a_player_name_differing_only_by_case(night: Night) -> None:
    """Unique on Lower("name") per club (unique_player_name_in_club_ci): holds under
    concurrency, where the check before the insert cannot."""
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(club=night.club, name="nOrTh")


def test_a_username_is_invited_once_per_club_ignoring_case(
    night: Night,
) -> None:
    """One pending invitation per username (ignoring case) in a club."""
    assert _invite(night, "Carol", "carol.smith").status_code == 201
    before = _state()
    response = _invite(night, "Carol Two", "Carol.Smith")
    assert response.status_code == 400 and "username" in response.json()["errors"]
    assert _state() == before


def test_the_existence_of_a_login_needs_a_valid_password_to_learn(night: Night) -> None:
    """Issue 14 probe (item 5): `{"username": "outsider", "password": "x"}` answered "This login
    already exists" while a missing login got the password rules: a director could probe logins
    without creating anything. The password is checked first, so both answer the same."""
    before = _state()
    existing = _invite(night, "Otto", "outsider", password="x")
    missing = _invite(night, "Nemo", "nobody-here", password="x")
    assert existing.status_code == missing.status_code == 400
    assert existing.json() == missing.json()
    assert set(existing.json()["errors"]) == {"password"}
    assert _state() == before


def test_accepting_twice_in_one_club_is_a_conflict(night: Night) -> None:
    """A login is one player of a club (one_player_per_login_in_club): the second answers 409."""
    _invite(night, "Otto", "outsider")
    outsider = night.users["outsider"]
    first = Invitation.objects.get().pk
    assert _api(outsider).post(f"/api/v1/invitations/{first}/accept").status_code == 200
    otto_two = PlayerFactory(club=night.club, name="Otto Two")
    second = Invitation.objects.create(player=otto_two, username="outsider", user=outsider).pk
    before = _state()
    assert _api(outsider).post(f"/api/v1/invitations/{second}/accept").status_code == 409
    assert _state() == before


# --- the pages -----------------------------------------------------------------------------------


def test_the_players_page_invites_without_linking(night: Night) -> None:
    client = Client()
    client.force_login(night.users["director"])
    url = f"/clubs/{night.club.slug}/players/"
    response = client.post(url, {"name": "Otto", "username": "outsider"}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "is invited" in page and "outsider (invited, not yet accepted)" in page
    assert Player.objects.get(name="Otto").user is None
    missing = client.post(url, {"name": "Nemo", "username": "nobody-here"}, follow=True)
    assert "is invited" in missing.content.decode()
    refused = client.post(
        url, {"name": "Ola", "username": "outsider", "password": "a-long-secret-phrase"}
    )
    assert refused.status_code == 200 and "already exists" in refused.content.decode()


def test_the_home_page_shows_the_holders_invitations_with_buttons(night: Night) -> None:
    _invite(night, "Otto", "outsider")
    pk = Invitation.objects.get().pk
    holder = Client(enforce_csrf_checks=True)
    holder.force_login(night.users["outsider"])
    page = holder.get("/").content.decode()
    assert f'action="/clubs/invitations/{pk}/accept/"' in page
    assert f'action="/clubs/invitations/{pk}/decline/"' in page
    assert "csrfmiddlewaretoken" in page
    with unchanged():
        assert holder.post(f"/clubs/invitations/{pk}/accept/").status_code == 403  # no token

    other = Client()
    other.force_login(night.users["player"])
    assert f"/clubs/invitations/{pk}/" not in other.get("/").content.decode()
    with unchanged():
        assert other.post(f"/clubs/invitations/{pk}/accept/").status_code == 404

    plain = Client()
    plain.force_login(night.users["outsider"])
    response = plain.post(f"/clubs/invitations/{pk}/accept/", follow=True)
    assert "You are now Otto" in response.content.decode()
    assert Player.objects.get(name="Otto").user == night.users["outsider"]


def test_the_home_page_decline_button_declines(night: Night) -> None:
    _invite(night, "Otto", "outsider")
    pk = Invitation.objects.get().pk
    client = Client()
    client.force_login(night.users["outsider"])
    assert client.post(f"/clubs/invitations/{pk}/decline/").status_code == 302
    assert not Invitation.objects.exists()
    assert Player.objects.get(name="Otto").user is None


def test_the_schema_documents_the_invitation_endpoints() -> None:
    paths = _api().get("/api/schema/", {"format": "json"}).json()["paths"]
    assert set(paths["/api/v1/invitations/"]["get"]["responses"]) == {"200", "401"}
    accept = paths["/api/v1/invitations/{id}/accept"]["post"]["responses"]
    assert set(accept) == {"200", "400", "401", "404", "409"}  # 400: a body (it takes none)
    decline = paths["/api/v1/invitations/{id}/decline"]["post"]["responses"]
    assert set(decline) == {"204", "400", "401", "404"}
    player = paths["/api/v1/clubs/{slug}/players/"]["post"]["responses"]["201"]
    ref = player["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    schema = _api().get("/api/schema/", {"format": "json"}).json()["components"]["schemas"][ref]
    assert "invitation" in schema["properties"]
