"""API tokens read in one query (django-rest-knox's, docs/security.md; issue 33).

knox reads, on every request that presents a token, the token with its user and then every other
token of that user, to delete the expired ones: two queries where the request needs one. Here the
presented token is read with its user (knox's own query, its hash compared as knox compares it,
an expired one refused and deleted as knox does), and the user's other expired tokens are deleted
when the user signs in again (`forget_expired_tokens`, config.api.TokenView), which is when a
user's tokens are added. An expired token is refused either way: its expiry is checked when it is
presented.

The token and its user are read in SQL built once per process from the models' fields
(games/models/rows.py), not by a query the ORM compiles anew on every request: on a deal's POST
that compiling cost as much as the rest of the token's check (docs/benchmarks.md, issue 33).
"""

from __future__ import annotations

from functools import cache
from hmac import compare_digest
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired

from games.models.rows import Columns


class TokenAuthentication(KnoxTokenAuthentication):  # type: ignore[misc]  # untyped
    """knox's, without reading the user's other tokens on each request (see the module)."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        """As knox's: the tokens of the presented key, each expired one deleted, the one whose
        digest matches answering with its user. Read in SQL built once (`_presented`); anything
        else than a match (no token, a bad one, an expired one) is knox's own path, which
        refuses it in its words."""
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            return super().authenticate_credentials(token)  # type: ignore[no-any-return]
        digest = hash_token(text)
        for auth_token in _presented(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)  # type: ignore[no-any-return]
        return super().authenticate_credentials(token)  # type: ignore[no-any-return]

    def _cleanup_token(self, auth_token: Any) -> bool:
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


@cache
def _token_sql() -> tuple[Columns, Columns, str]:
    """The tokens of a key with their users, as knox's `select_related("user")` reads them."""
    tokens, users = Columns(AuthToken, "a"), Columns(get_user_model(), "u")
    # The models' own names, no input: the key is a parameter.
    select = f'SELECT {tokens.sql}, {users.sql} FROM "{AuthToken._meta.db_table}" a'  # noqa: S608  # nosec B608
    join = f' JOIN "{users.model._meta.db_table}" u ON u."id" = a."user_id"'
    sql = select + join + ' WHERE a."token_key" = %s'  # nosec B608
    return tokens, users, sql


def _presented(key: str) -> list[Any]:
    """The tokens whose key is `key`, each with its user cached on it."""
    tokens, users, sql = _token_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        rows = cursor.fetchall()
    found = []
    for row in rows:
        auth_token = tokens.build(row)
        auth_token._state.fields_cache["user"] = users.build(row, tokens.width)
        found.append(auth_token)
    return found


def forget_expired_tokens(user: Any) -> None:
    """Delete the user's expired tokens (knox did so on every request a token made)."""
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()


class TokenScheme(KnoxTokenScheme):  # type: ignore[no-untyped-call]  # untyped
    """The schema names this class's tokens as it names knox's (``knoxApiToken``)."""

    target_class = "config.tokens.TokenAuthentication"
