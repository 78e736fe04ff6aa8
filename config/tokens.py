"""API tokens read in one query (django-rest-knox's, docs/security.md; issue 33).

knox reads, on every request that presents a token, the token with its user and then every other
token of that user, to delete the expired ones: two queries where the request needs one. Here the
presented token is read with its user (knox's own query, its hash compared as knox compares it,
an expired one refused and deleted as knox does), and the user's other expired tokens are deleted
when the user signs in again (`forget_expired_tokens`, config.api.TokenView), which is when a
user's tokens are added. An expired token is refused either way: its expiry is checked when it is
presented.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.models import AuthToken
from knox.signals import token_expired


class TokenAuthentication(KnoxTokenAuthentication):  # type: ignore[misc]  # untyped
    """knox's, without reading the user's other tokens on each request (see the module)."""

    def _cleanup_token(self, auth_token: Any) -> bool:
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


def forget_expired_tokens(user: Any) -> None:
    """Delete the user's expired tokens (knox did so on every request a token made)."""
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()


class TokenScheme(KnoxTokenScheme):  # type: ignore[no-untyped-call]  # untyped
    """The schema names this class's tokens as it names knox's (``knoxApiToken``)."""

    target_class = "config.tokens.TokenAuthentication"
