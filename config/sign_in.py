"""Failed sign-ins per client address, whatever the usernames (docs/security.md).

django-axes locks one username at one address after `AXES_FAILURE_LIMIT` failures; an address
trying a few passwords for each of many usernames was never refused (an outside probe: 200 wrong
passwords across 50 usernames in 63 s, issue 26). The failures of each client address
(`config.throttling.client_key`: the real client behind the proxies, an IPv6 one by its /64)
are counted too, `SIGN_IN_FAILURES_PER_ADDRESS` in each window of
`SIGN_IN_FAILURE_WINDOW_MINUTES` aligned to the clock; from the failure that reaches it until
the window ends, every sign-in from that address is refused, the right password included (else
a guesser would simply go on).

The sign-in page, the admin's login and the API's token sign-in all authenticate through
django-axes' backend, so the count lives in axes' handler (`AXES_HANDLER`) and the three share
it. Refusals are not failures: a sign-in refused by either lockout is not counted for the
address, and one refused for the address is not held against the username it named, so a
player at a club whose address is paused is not locked out for their own name afterwards, and
a player locked out for their own name who keeps trying does not pause the club. A successful
sign-in does not reset the address's count (a guesser with a login of their own would wipe it
between guesses).
"""

from __future__ import annotations

import math
import time
from typing import Any

from axes.conf import settings as axes_settings  # Django's, with axes' defaults filled in
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from rest_framework.request import Request

from .throttling import client_key, count, throttle_cache, window

KEY = "sign-in-failures"


def now() -> float:
    return time.time()


def _seconds() -> int:
    return int(settings.SIGN_IN_FAILURE_WINDOW_MINUTES) * 60


def _key(request: HttpRequest | Request) -> tuple[str, float]:
    number, ends = window(_seconds(), now())
    return f"{KEY}:{client_key(request)}:{number}", ends


def seconds_locked(request: HttpRequest | Request) -> float:
    """How long sign-in stays refused at this request's address; 0 when it is not."""
    key, ends = _key(request)
    if int(throttle_cache.get(key, 0)) < settings.SIGN_IN_FAILURES_PER_ADDRESS:
        return 0.0
    return max(ends - now(), 0.0)


#: The length of axes' username column (`AccessAttempt.username`).
AXES_USERNAME_LENGTH = 255


def username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """The username axes keys and records a sign-in by: axes' own reading (the credentials, else
    the form), cut to its column's length. Django's sign-in form only tells the browser its
    `maxlength`, so a longer name reached axes' INSERT and was a 500 on PostgreSQL (an outside
    probe). No login is that long (Django's are at most 150), so a cut name locks nobody else."""
    field = axes_settings.AXES_USERNAME_FORM_FIELD
    name = (credentials or getattr(request, "data", request.POST)).get(field)
    return name[:AXES_USERNAME_LENGTH] if isinstance(name, str) else name


def count_failure(request: HttpRequest | Request) -> None:
    count(throttle_cache, _key(request)[0], _seconds())


class SignInHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes is untyped
    """axes' own handler (failures per username and address, in the database), and the count per
    address in the throttles' cache."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        return bool(seconds_locked(request)) or bool(super().is_locked(request, credentials))

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        if request is None:
            super().user_login_failed(sender, credentials, request, **kwargs)
            return
        if seconds_locked(request):
            _refuse(request, credentials)  # refused before any password was checked
            return
        # The lockout of this username at this address refuses unchecked too: axes records that
        # refusal for the pair, but it was no guess of the address's.
        pair_locked = super().is_locked(request, credentials)
        super().user_login_failed(sender, credentials, request, **kwargs)
        if pair_locked:
            return
        count_failure(request)
        if seconds_locked(request):
            _refuse(request, credentials)


def _refuse(request: Any, credentials: dict[str, Any]) -> None:
    # The flags axes' middleware (pages) and config.api.TokenView read to answer 429.
    request.axes_locked_out = True
    request.axes_credentials = credentials


def refusal(request: HttpRequest | Request) -> tuple[str, int]:
    """What a refused sign-in is told, in the request's language, and in how many seconds to try
    again. The same whether or not the username exists (axes locks made-up ones too)."""
    seconds = seconds_locked(request)
    if seconds:
        minutes = math.ceil(seconds / 60)
        message = ngettext(
            "Too many failed sign-ins from this connection: sign-in from here is paused for "
            "%(minutes)s minute. Everyone on the same network (a club's Wi-Fi) waits too; a "
            "phone's mobile data is another connection.",
            "Too many failed sign-ins from this connection: sign-in from here is paused for "
            "%(minutes)s minutes. Everyone on the same network (a club's Wi-Fi) waits too; a "
            "phone's mobile data is another connection.",
            minutes,
        ) % {"minutes": minutes}
        return message, math.ceil(seconds)
    cool_off = get_cool_off(request)
    seconds = cool_off.total_seconds() if cool_off else 0
    minutes = math.ceil(seconds / 60)
    message = ngettext(
        "Too many failed sign-ins for this username from this connection: try again in "
        "%(minutes)s minute.",
        "Too many failed sign-ins for this username from this connection: try again in "
        "%(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}
    return message, math.ceil(seconds)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The page a refused sign-in gets (`AXES_LOCKOUT_CALLABLE`): the sign-in page's and the
    admin's."""
    message, seconds = refusal(request)
    response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response
