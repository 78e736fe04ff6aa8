"""The API's reads without the work of the pages: session and messages only when a session signs
the request in, and the security policy built once (docs/benchmarks.md, issue 33).

A request to the API (``/api/v1/``, its sign-in excepted) that sends no session cookie is
answered as a token's or a stranger's: no session can sign it in, so Django's session and
messages middleware have nothing to do for it. These subclasses of Django's own skip their work
then, and answer exactly as before: the stranger's user is the anonymous user, and reading it
says ``Vary: Cookie`` as reading an empty session did. A request with the session cookie goes
through Django's middleware unchanged (DRF's session authentication stays). Django's CSRF
middleware stays as it is (little work on such a request; ``check --deploy`` asks for it by
name). The same answers, headers and permissions are checked against Django's own middleware in
tests/security/test_lean_api.py.

``SecurityPolicyMiddleware`` is django-csp's, with the header built once: a response that asks for
no nonce and sets no policy of its own gets the policy built from the settings, kept until they
change (django-csp builds it, and the empty report-only one, on every response).
"""

from __future__ import annotations

from dataclasses import asdict
from functools import partial
from typing import Any

from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject

#: Where a request with no session cookie (and no wish for DRF's browsable pages) skips the
#: session's work: the API, but not its sign-in (rare, and kept as it was).
LEAN_PREFIX = "/api/v1/"
NOT_LEAN = "/api/v1/auth/"


def is_lean(request: HttpRequest) -> bool:
    """An API request that no session signs in (asked once per request)."""
    lean: bool | None = getattr(request, "_lean", None)
    if lean is None:
        path = request.path_info
        lean = (
            path.startswith(LEAN_PREFIX)
            and not path.startswith(NOT_LEAN)
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
            and not _browsable(request)
        )
        request._lean = lean  # type: ignore[attr-defined]
    return lean


def _browsable(request: HttpRequest) -> bool:
    """DRF's browsable API may answer (a browser's ``Accept``, ``?format=api``): a page with a
    CSRF token in its forms, so the CSRF middleware's cookie; left to Django's middleware."""
    return "html" in request.META.get("HTTP_ACCEPT", "") or "format=" in request.META.get(
        "QUERY_STRING", ""
    )


def _stranger(request: HttpRequest) -> AnonymousUser:
    """The user an empty session gives, noting that it was read (``Vary: Cookie``)."""
    request._lean_user_read = True  # type: ignore[attr-defined]
    return AnonymousUser()


async def _astranger(request: HttpRequest) -> AnonymousUser:
    return _stranger(request)


class LeanSessionMiddleware(SessionMiddleware):
    """Django's, with no session for a lean request (see the module)."""

    def process_request(self, request: HttpRequest) -> None:
        if not is_lean(request):
            super().process_request(request)

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        if hasattr(request, "session"):
            return super().process_response(request, response)
        # An empty session that was read answers "Vary: Cookie", and nothing else.
        if getattr(request, "_lean_user_read", False):
            patch_vary_headers(response, ("Cookie",))
        return response


class LeanAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's; a lean request's user is the anonymous one (no session can sign it in)."""

    def process_request(self, request: HttpRequest) -> None:
        if hasattr(request, "session"):
            super().process_request(request)
            return
        request.user = SimpleLazyObject(partial(_stranger, request))  # type: ignore[assignment]
        request.auser = partial(_astranger, request)


class LeanMessageMiddleware(MessageMiddleware):
    """Django's, skipped for a lean request: the API says nothing through messages."""

    def process_request(self, request: HttpRequest) -> None:
        if not is_lean(request):
            super().process_request(request)


class SecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's, with the settings' policy built once (see the module)."""

    _built: tuple[str, str] | None = None

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        if not _settings_policy_only(request, response):
            return super().process_response(request, response)
        if settings.DEBUG and response.status_code in (404, 500):
            return response  # django-csp leaves Django's debug pages alone
        csp, csp_ro = self._policies()
        for header, value, exempt, setting in (
            ("Content-Security-Policy", csp, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (
                "Content-Security-Policy-Report-Only",
                csp_ro,
                "_csp_exempt_ro",
                "CONTENT_SECURITY_POLICY_REPORT_ONLY",
            ),
        ):
            if not value or header in response or getattr(response, exempt, False):
                continue
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = value
        if getattr(request, "_csp_nonce", None) is None:
            request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response

    def _policies(self) -> tuple[str, str]:
        built = SecurityPolicyMiddleware._built
        if built is None:
            parts = asdict(
                self.get_policy_parts(request=HttpRequest(), response=HttpResponseBase())
            )
            built = (build_policy(**parts), build_policy(**parts, report_only=True))
            SecurityPolicyMiddleware._built = built
        return built


_OWN = ("_csp_config", "_csp_update", "_csp_replace")


def _settings_policy_only(request: HttpRequest, response: HttpResponseBase) -> bool:
    """True when the answer is the settings' policy alone: no nonce asked, no decorator's own."""
    if getattr(request, "_csp_nonce", None) is not None:
        return False
    return not any(
        getattr(response, name, None) is not None
        or getattr(response, f"{name}_ro", None) is not None
        for name in _OWN
    )


def _forget_policy(*, setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        SecurityPolicyMiddleware._built = None


setting_changed.connect(_forget_policy)
