"""API tokens (docs/security.md, docs/api.md; API.md: Auth; issue 14, item 4).

django-rest-knox: the database keeps only a hash of each token; a token expires after
API_TOKEN_TTL_HOURS; `DELETE /api/v1/auth/token/` revokes the token presented; a password change
revokes every token of the user. Plain-text tokens of the old DRF authtoken table are dropped by a
migration (clubs 0004).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework.test import APIClient

from tests.factories import PASSWORD
from tests.security.conftest import World

TOKEN_URL = "/api/v1/auth/token/"
KEY = CONSTANTS.TOKEN_KEY_LENGTH  # a token's first characters, stored to find it by


def _token(username: str = "north") -> str:
    response = APIClient().post(
        TOKEN_URL, {"username": username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert list(response.json()) == ["token"]
    token: str = response.json()["token"]
    return token


def _with(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _reads(client: APIClient, world: World) -> int:
    return int(client.get(f"/api/v1/rubbers/{world.rubber.pk}/").status_code)


def test_only_a_hash_of_the_token_is_stored(world: World) -> None:
    token = _token()
    stored = AuthToken.objects.get(user=world.users["seated"])
    assert token not in {stored.digest, stored.token_key}
    assert len(stored.digest) == 128  # SHA-512, hex
    with connection.cursor() as cursor:
        cursor.execute("SELECT digest, token_key FROM knox_authtoken")
        assert all(token not in row for row in cursor.fetchall())


def test_delete_revokes_the_token_presented_and_no_other(world: World) -> None:
    first, second = _token(), _token()
    client = _with(first)
    assert _reads(client, world) == 200
    assert client.delete(TOKEN_URL).status_code == 204
    assert _reads(_with(first), world) == 401
    assert _with(first).delete(TOKEN_URL).status_code == 401
    assert _reads(_with(second), world) == 200


def test_delete_without_a_token_is_401_and_revokes_nothing(world: World) -> None:
    _token()
    signed_in = APIClient()
    signed_in.force_login(world.users["seated"])
    assert signed_in.delete(TOKEN_URL).status_code == 401
    assert APIClient().delete(TOKEN_URL).status_code == 401
    assert AuthToken.objects.filter(user=world.users["seated"]).count() == 1


def test_a_token_expires_after_the_configured_time(world: World, settings: Any) -> None:
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=3)}
    before = timezone.now()
    token = _token()
    expiry = AuthToken.objects.get(user=world.users["seated"]).expiry
    assert before + timedelta(hours=3) <= expiry <= timezone.now() + timedelta(hours=3)
    assert _reads(_with(token), world) == 200
    AuthToken.objects.filter(user=world.users["seated"]).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )
    assert _reads(_with(token), world) == 401


def test_a_token_is_read_in_one_query_and_expired_ones_go_at_sign_in(
    world: World,
) -> None:
    """config/tokens.py: a request reads the token with its user and nothing else; the user's
    other expired tokens, which knox deleted on every request, are deleted at the next sign-in,
    and an expired token presented is refused and deleted as knox does."""
    user = world.users["seated"]
    old, live = _token(), _token()
    AuthToken.objects.filter(user=user, token_key=old[:KEY]).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )
    with CaptureQueriesContext(connection) as read:
        assert _reads(_with(live), world) == 200
    tokens = [q["sql"] for q in read.captured_queries if "knox_authtoken" in q["sql"]]
    assert len(tokens) == 1 and "auth_user" in tokens[0]  # the token with its user
    assert AuthToken.objects.filter(user=user).count() == 2  # the expired one stays...
    _token()
    assert AuthToken.objects.filter(user=user).count() == 2  # ...until a sign-in: live, new
    stale = _token()
    AuthToken.objects.filter(user=user, token_key=stale[:KEY]).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )
    assert _reads(_with(stale), world) == 401
    assert not AuthToken.objects.filter(user=user, token_key=stale[:KEY]).exists()


def test_a_token_refused_as_knox_refuses_it(world: World) -> None:
    """The token's read in once-built SQL (config/tokens.py) refuses what knox refuses: a known
    key with another secret, an unknown key, a user made inactive; the live token still reads."""
    live = _token()
    forged = live[:KEY] + ("0" if live[KEY] != "0" else "1") + live[KEY + 1 :]
    for token in (forged, "f" * len(live), live[:KEY]):
        response = _with(token).post(f"/api/v1/rubbers/{world.rubber.pk}/deals/", {}, "json")
        assert response.status_code == 401, token
        assert response.json() == {"detail": "Invalid token."}
    assert _reads(_with(live), world) == 200
    user = world.users["seated"]
    user.is_active = False
    user.save(update_fields=["is_active"])
    response = _with(live).post(f"/api/v1/rubbers/{world.rubber.pk}/deals/", {}, "json")
    assert (response.status_code, response.json()) == (401, {"detail": "User inactive or deleted."})


def test_the_default_lifetime_is_two_weeks(settings: Any) -> None:
    assert settings.REST_KNOX["TOKEN_TTL"] == timedelta(hours=336)


def test_a_password_change_revokes_every_token_of_that_user(world: World) -> None:
    mine, also_mine, east = _token(), _token(), _token("east")
    user = world.users["seated"]
    user.set_password("a-new-long-password-42")
    user.save()
    assert _reads(_with(mine), world) == 401
    assert _reads(_with(also_mine), world) == 401
    assert _reads(_with(east), world) == 200


def test_signing_out_of_the_pages_leaves_api_tokens_alone(world: World) -> None:
    """A page sign-out ends that browser's session; an API client signs out with DELETE."""
    token = _token()
    browser = Client()
    assert (
        browser.post("/accounts/login/", {"username": "north", "password": PASSWORD}).status_code
        == 302
    )
    assert browser.post("/accounts/logout/").status_code == 302
    assert _reads(_with(token), world) == 200


@pytest.mark.django_db(transaction=True)
def test_the_migration_drops_the_old_plain_text_tokens() -> None:
    call_command("migrate", "clubs", "0003", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id int)")
        cursor.execute("INSERT INTO authtoken_token VALUES ('plain-text-key', 1)")
        cursor.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('authtoken', '0001_initial', CURRENT_TIMESTAMP)"
        )
    # Every app forward again, not only clubs: going back to clubs.0003 also unapplied the
    # migrations of other apps that depend on later clubs migrations (games.0005), and the
    # tests after this one share the database.
    call_command("migrate", verbosity=0)
    assert "authtoken_token" not in connection.introspection.table_names()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM django_migrations WHERE app = 'authtoken'")
        assert cursor.fetchone()[0] == 0


@pytest.mark.parametrize("username", ["n" * 151, "n" * 300, "\ufdfa" * 10])
def test_a_username_longer_than_any_login_is_a_field_error_and_no_attempt(
    world: World, username: str
) -> None:
    """An outside probe: a username over 255 characters was a 500 on PostgreSQL (axes records a
    failed sign-in's username in 255). No login is longer than Django's 150, counted after NFKC
    as the sign-in page counts it ("\ufdfa" is 18 characters then); the same run on PostgreSQL:
    tests/integration/test_hostile_input.py."""
    from axes.models import AccessAttempt

    response = APIClient().post(
        TOKEN_URL, {"username": username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "errors": {"username": ["Ensure this field has no more than 150 characters."]}
    }
    assert not AccessAttempt.objects.exists()
    wrong = APIClient().post(TOKEN_URL, {"username": "n" * 150, "password": "x"}, format="json")
    assert wrong.status_code == 400
    assert list(wrong.json()["errors"]) == ["non_field_errors"]
    assert AccessAttempt.objects.get().username == "n" * 150
