"""API throttles (docs/security.md): sign-in per client address, writes per user; and the client
address itself, which django-axes reads too (`AXES_CLIENT_IP_CALLABLE`).

Rates come from settings (`THROTTLE_SIGN_IN`, `THROTTLE_WRITES` in the environment) and are
generous for people at a table: they stop scripts, not players. `THROTTLE_WRITES=off` lifts the
write throttle (the HTTP benchmark posts every deal with one token).
"""

from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest
from django.utils.connection import ConnectionProxy
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def client_address(request: HttpRequest | Request) -> str:
    """The address of the client, as far as this deployment can know it (docs/deploy.md).

    With no proxy in front (`NUM_PROXIES=0`, the default) it is the socket's: an
    `X-Forwarded-For` header is the client's own word, and a new value each time would make a new
    client for every throttle and lockout. Behind N proxies it is the entry the outermost proxy
    appended, N from the end; whatever a client wrote in front of that is ignored.
    """
    meta = request.META
    proxies: int = settings.NUM_PROXIES
    header = str(meta.get("HTTP_X_FORWARDED_FOR", ""))
    forwarded = [a.strip() for a in header.split(",") if a.strip()]
    if proxies and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return str(meta.get("REMOTE_ADDR", ""))


class ClientAddressMixin:
    #: Counts live in the "throttle" cache, which keeps counting without Redis (config/cache.py).
    cache: BaseCache = ConnectionProxy(caches, "throttle")  # type: ignore[assignment]

    def get_ident(self, request: Request) -> str:
        return client_address(request)


class SignInRateThrottle(ClientAddressMixin, AnonRateThrottle):
    """Token sign-in attempts per client address, signed in or not."""

    scope = "sign-in"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteRateThrottle(ClientAddressMixin, UserRateThrottle):
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
