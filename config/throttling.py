"""API throttles (docs/security.md): sign-in per client address, writes per user.

Rates come from settings (`THROTTLE_SIGN_IN`, `THROTTLE_WRITES` in the environment) and are
generous for people at a table: they stop scripts, not players. `THROTTLE_WRITES=off` lifts the
write throttle (the HTTP benchmark posts every deal with one token).
"""

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class SignInRateThrottle(AnonRateThrottle):
    """Token sign-in attempts per client address, signed in or not."""

    scope = "sign-in"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteRateThrottle(UserRateThrottle):
    """Writes (POST, PATCH, PUT, DELETE) per user, or per address when anonymous."""

    scope = "writes"

    def get_rate(self) -> str | None:
        # "off" lifts it (the HTTP benchmark): a very high rate would still keep every write of
        # the last period in the cache, read and rewritten on each write.
        rate: str | None = super().get_rate()
        return None if rate == "off" else rate

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
