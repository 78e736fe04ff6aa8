"""API throttles (docs/security.md): sign-in per client address, writes per user; and the client
address itself, which django-axes reads too (`AXES_CLIENT_IP_CALLABLE`).

Rates come from settings (`THROTTLE_SIGN_IN`, `THROTTLE_WRITES` in the environment) and are
generous for people at a table: they stop scripts, not players. `THROTTLE_WRITES=off` lifts the
write throttle (the HTTP benchmark posts every deal with one token).

A throttle counts in windows of its period aligned to the clock (a minute's from :00 to :59), one
atomic increment per request (`count`). DRF's own throttles read the list of the period's
requests, decide and write it back: requests at once in two workers read the same list and one
write was lost, so a client got ~9% past the limit (issue 26). The price of a fixed window: a
client that spends its allowance at the end of one window and again at the start of the next
gets up to twice the rate within one period, never more in any window.
"""

import ipaddress
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest
from django.utils.connection import ConnectionProxy
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def client_address(request: HttpRequest | Request) -> str:
    """The address of the client, as far as this deployment can know it (docs/deploy.md).

    With no proxy in front (`NUM_PROXIES=0`, the default) it is the socket's: an
    `X-Forwarded-For` header is the client's own word, and a new value each time would make a new
    client for every throttle and lockout. Behind N proxies it is the entry the outermost proxy
    appended, N from the end; whatever a client wrote in front of that is ignored. An entry there
    that is no IP address (a proxy passing the client's header on unchanged, or more proxies
    counted than there are) is not taken: the socket's address is, as with no proxy (axes stores
    the address in an address column: "not-an-ip" was a 500, an outside probe).
    """
    meta = request.META
    proxies: int = settings.NUM_PROXIES
    header = str(meta.get("HTTP_X_FORWARDED_FOR", ""))
    forwarded = [a.strip() for a in header.split(",") if a.strip()]
    if proxies and forwarded:
        candidate = forwarded[-min(proxies, len(forwarded))]
        try:
            ip = ipaddress.ip_address(candidate)
        except ValueError:
            ip = None
        # A scoped IPv6 address ("fe80::1%eth0") is no address to store or count.
        if ip is not None and getattr(ip, "scope_id", None) is None:
            return str(ip)
    return str(meta.get("REMOTE_ADDR", ""))


def client_key(request: HttpRequest | Request) -> str:
    """The client as the throttles and limits count it: its address (`client_address`), or for
    an IPv6 address its /64. A home or mobile IPv6 connection is handed a whole /64 and picks any
    address in it, so a count per address would give one client unlimited tries (outside probe:
    114 wrong passwords from six addresses of one /64, none refused)."""
    address = client_address(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address


#: Counts live in the "throttle" cache, which keeps counting without Redis (config/cache.py).
throttle_cache: BaseCache = ConnectionProxy(caches, "throttle")  # type: ignore[assignment]


def count(cache: BaseCache, key: str, seconds: int) -> int:
    """Adds one to the count under `key` and returns it, in one atomic step on Redis (SET NX, then
    INCRBY in a script) as in local memory (under the cache's lock). The key expires `seconds`
    after it was created; an increment leaves the expiry alone."""
    while True:
        if cache.add(key, 1, seconds):
            return 1
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between the two: it starts again
            continue


def window(seconds: int, now: float) -> tuple[int, float]:
    """The window of `seconds` aligned to the clock that holds `now`: its number and its end."""
    number = int(now // seconds)
    return number, float((number + 1) * seconds)


class CountingThrottle(SimpleRateThrottle):
    """A DRF throttle that counts per window (`count`) instead of keeping a history; answers as
    DRF's do (429, `Retry-After`: the seconds until the window ends)."""

    cache = throttle_cache
    num_requests: int | None  # set by DRF from the rate
    duration: int | None
    now = 0.0
    ends = 0.0

    def get_ident(self, request: Request) -> str:
        return client_key(request)

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        assert self.duration is not None and self.num_requests is not None
        self.now = self.timer()
        number, self.ends = window(self.duration, self.now)
        # Kept a whole period, not just until the window ends: the key names its window, so it
        # is never read after it, and the web processes' clocks need not agree with Redis'.
        return count(self.cache, f"{key}:{number}", self.duration) <= self.num_requests

    def wait(self) -> float:
        return max(self.ends - self.now, 0.0)


class SignInRateThrottle(CountingThrottle, AnonRateThrottle):
    """Token sign-in attempts per client address, signed in or not."""

    scope = "sign-in"

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteRateThrottle(CountingThrottle, UserRateThrottle):
    """Writes (POST, PATCH, PUT, DELETE) per user, or per address when anonymous."""

    scope = "writes"

    def get_rate(self) -> str | None:
        # "off" lifts it (the HTTP benchmark): no count at all, not even a call to the cache.
        rate: str | None = super().get_rate()
        return None if rate == "off" else rate

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
