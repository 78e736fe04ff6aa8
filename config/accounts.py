"""Password pages: change (signed in) and reset by e-mail, Django's views (docs/security.md).

The reset page answers the same for every address, one that no login has included: it counts
the request, queues the mail task (`clubs.tasks.send_password_reset`, which looks the address
up in a worker) and shows the same page, so neither the answer nor its time says whether the
address exists. It is throttled per client (`client_key`, as the other throttles)
and per address asked, in the throttles' cache; a throttled request answers 429 alike for
every address. Wrong current passwords on the change page are throttled per login. A password
changed here or by a reset link revokes the login's API tokens
(`config.auth.RevokeApiTokensOnPasswordChange`) and signs its other browser sessions out.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation
from kombu.exceptions import OperationalError as BrokerUnavailable

from clubs.tasks import send_password_reset
from scoring.shared.i18n import visitor_chose_language

from .throttling import client_key, count, throttle_cache

logger = logging.getLogger(__name__)

#: Reset requests a client address may make in CLIENT_WINDOW seconds: a club's room behind one
#: address has room for a few forgetful members; a script stops early.
CLIENT_LIMIT = 10
CLIENT_WINDOW = 15 * 60
#: Reset requests for one e-mail address in ADDRESS_WINDOW seconds, whoever asks: a mailbox
#: gets at most this many reset mails an hour from us.
ADDRESS_LIMIT = 3
ADDRESS_WINDOW = 60 * 60


#: Wrong current passwords a signed-in user may give on the change page in CHANGE_WINDOW
#: seconds: a borrowed or stolen session must not become a way to guess the password, which
#: the sign-in page's lockout guards (Django's form checks it without `authenticate`).
CHANGE_LIMIT = 5
CHANGE_WINDOW = 15 * 60


def _uncount(key: str) -> None:
    # incr by -1: the throttles' cache falls back to memory for incr, not for decr. A counter
    # that expired meanwhile has nothing to give back.
    with contextlib.suppress(ValueError):
        caches["throttle"].incr(key, -1)


def _address_key(email: str) -> str:
    # Hashed: the throttle cache need not hold the addresses people typed.
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    return f"password-reset-address:{digest}"


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change_form.html"

    def _misses_key(self) -> str:
        return f"password-change-miss:{self.request.user.pk}"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Counted before the check, atomically, so parallel guesses cannot all slip under the
        # limit; an attempt whose current password was right gives its count back.
        if count(throttle_cache, self._misses_key(), CHANGE_WINDOW) > CHANGE_LIMIT:
            return render(request, "registration/password_change_throttled.html", status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        caches["throttle"].delete(self._misses_key())
        return super().form_valid(form)

    def form_invalid(self, form: Any) -> HttpResponse:
        if "old_password" not in form.errors:
            _uncount(self._misses_key())
        return super().form_invalid(form)


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "registration/password_reset_form.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if (
            count(throttle_cache, f"password-reset-client:{client_key(request)}", CLIENT_WINDOW)
            > CLIENT_LIMIT
        ):
            return _throttled(request)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        request = self.request
        email = form.cleaned_data["email"]
        if count(throttle_cache, _address_key(email), ADDRESS_WINDOW) > ADDRESS_LIMIT:
            return _throttled(request)
        page = translation.get_language() or "en"
        try:
            send_password_reset.apply_async(
                kwargs={
                    "email": email,
                    "domain": request.get_host(),
                    "use_https": request.is_secure(),
                    "chosen": page if visitor_chose_language(request) else None,
                    "page": page,
                }
            )
        except (BrokerUnavailable, OSError):
            # The same answer for every address, and the visitor knows to try again rather
            # than wait for a mail that was never queued.
            logger.exception("Could not queue a password reset mail")
            response = render(request, "registration/password_reset_unavailable.html", status=503)
            response["Retry-After"] = "60"
            return response
        return HttpResponseRedirect(self.get_success_url())


def _throttled(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/password_reset_throttled.html", status=429)


password_change = PasswordChangeView.as_view()
password_change_done = auth_views.PasswordChangeDoneView.as_view()
password_reset = PasswordResetView.as_view()
password_reset_done = auth_views.PasswordResetDoneView.as_view()
password_reset_confirm = auth_views.PasswordResetConfirmView.as_view()
password_reset_complete = auth_views.PasswordResetCompleteView.as_view()
