"""The API's one exception handler: domain errors become HTTP answers (CONVENTIONS.md).

- `ValidationError` → 400 `{"errors": {field: [messages]}}`
- `Conflict` → 409 `{"detail": ...}`; the write policy's refusal (`games.permissions.NotAllowed`)
  → 403 `{"detail": ...}` with its reason
- `ScoringError` (an impossible bridge result) → 400 naming the field and the rule, the message
  in the request's language (`scoring.shared.error_messages`).
- A body that cannot be read (`ParseError`, Django's size and count limits) → 400
  `{"errors": {"non_field_errors": [message]}}`, an unsupported media type → 415 `{"detail": ...}`:
  plain sentences in the request's language, never the parser's (Python's) own text.
Nothing escapes as a 500 for any input.
"""

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import (
    NON_FIELD_ERRORS,
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.utils.translation import gettext_lazy as _
from django.views.defaults import page_not_found
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from clubs.logins import normalize_login
from config.parsers import JSONParser
from config.sign_in import refusal
from config.throttling import SignInRateThrottle
from config.tokens import TokenAuthentication, forget_expired_tokens
from games.permissions import NotAllowed
from scoring.rules.errors import ScoringError
from scoring.shared.error_messages import localize_error, localize_rule
from scoring.shared.errors import Conflict as DomainConflict
from scoring.shared.inputs import UNKNOWN_FIELD, unknown_fields


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("This conflicts with the current state.")
    default_code = "conflict"


#: What Django refuses while reading a body (its limits: DATA_UPLOAD_MAX_MEMORY_SIZE and the
#: field and file counts), otherwise its HTML 400 page.
UNREADABLE_BODY = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)

#: The media types DRF's form parsers read; any other body reaching a parser is JSON.
FORM_MEDIA_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def bad_body_response(exc: Exception) -> Response:
    """A plain sentence in the request's language, never Django's own text (which names its
    settings, e.g. "exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE")."""
    if isinstance(exc, RequestDataTooBig):
        message = _("The request body is too large.")
    else:
        message = _("The request body has too many fields or files.")
    return _body_error(message)


def unparseable_body_response(request: Any) -> Response:
    """A body its parser refused (ParseError), answered by what it was meant to be. The parser's
    own text is Python's or Django's ("JSON parse error - Exceeds the limit (4300 digits) ...
    use sys.set_int_max_str_digits()", "Invalid boundary in multipart: None"): internals a
    client cannot act on, and untranslated (docs/security.md)."""
    media_type = str(getattr(request, "content_type", "") or "").split(";")[0].strip().lower()
    if media_type in FORM_MEDIA_TYPES:
        return _body_error(_("The request body could not be read as a form."))
    return _body_error(_("The request body could not be read as JSON."))


def _body_error(message: Any) -> Response:
    return Response({"errors": {"non_field_errors": [str(message)]}}, status=400)


def scoring_error_response(err: ScoringError) -> Response:
    field = err.field or "non_field_errors"
    text = localize_error(err)
    message = f"{text} ({localize_rule(err.rule)})" if err.rule else text
    return Response({"errors": {field: [message]}}, status=400)


def django_validation_error_response(err: DjangoValidationError) -> Response:
    if hasattr(err, "error_dict"):
        errors = {
            field if field != NON_FIELD_ERRORS else "non_field_errors": messages
            for field, messages in err.message_dict.items()
        }
    else:
        errors = {"non_field_errors": err.messages}
    return Response({"errors": errors}, status=400)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ScoringError):
        return scoring_error_response(exc)
    if isinstance(exc, DjangoValidationError):
        return django_validation_error_response(exc)
    if isinstance(exc, UNREADABLE_BODY):
        return bad_body_response(exc)
    if isinstance(exc, DomainConflict):
        return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotAllowed):  # the write policy's refusal, with its reason
        return Response({"detail": str(exc)}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, exceptions.ParseError):
        return unparseable_body_response(context.get("request"))
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # DRF's text echoes the client's Content-Type back; say what is read instead.
        return Response(
            {"detail": str(_("The request body must be JSON (application/json) or a form."))},
            status=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        data = exc.detail
        if isinstance(data, list):
            data = {"non_field_errors": data}
        body = getattr(context.get("request"), "data", {})
        if "non_field_errors" in data and not isinstance(body, Mapping):
            # A body that is not an object (a list, a string, null): DRF's words name Python's
            # types ("got list") and "No data provided" is not translated; say it plainly.
            plain = str(_("The request body must be a JSON object."))
            data = {"non_field_errors": [exceptions.ErrorDetail(plain)]}
        response.data = {"errors": flatten_errors(data)}
    return response


def flatten_errors(errors: dict[str, Any]) -> dict[str, list[str]]:
    """`{field: [messages]}` always (API.md): errors nested under a field (a dict field's keys, a
    list's items) become messages of that field that name their place, e.g.
    `{"tables": ["0.players.0: A valid integer is required."]}`."""
    return {str(field): _messages(value) for field, value in errors.items()}


def _messages(errors: Any, place: str = "") -> list[str]:
    if isinstance(errors, dict):
        return [
            message
            for key, value in errors.items()
            for message in _messages(value, f"{place}.{key}" if place else str(key))
        ]
    if isinstance(errors, list) and any(isinstance(e, dict | list) for e in errors):
        return [
            message
            for i, value in enumerate(errors)
            if value
            for message in _messages(value, f"{place}.{i}" if place else str(i))
        ]
    items = errors if isinstance(errors, list) else [errors]
    return [f"{place}: {e}" if place else str(e) for e in items]


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 404 handler: JSON under /api/ (the API's error shape), the page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception or Http404())


# Django's own bound on a login's name (`AbstractUser.username`): a longer one is refused as a
# field error before the sign-in is tried or recorded (axes keeps at most 255 characters).
USERNAME_MAX_LENGTH = 150


class TokenIn(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=USERNAME_MAX_LENGTH)
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(AuthTokenSerializer):
    """DRF's exchange of a username and password, with the username's length bounded."""

    username = serializers.CharField(write_only=True, max_length=USERNAME_MAX_LENGTH)


class TokenOut(serializers.Serializer[Any]):
    token = serializers.CharField()


class TokenView(APIView):
    """`POST /api/v1/auth/token/` `{username, password}` → `{token}`; `DELETE` revokes the token
    presented (API.md: Auth; docs/security.md).

    Tokens are django-rest-knox's: only a SHA-512 hash is stored, each expires after
    `API_TOKEN_TTL_HOURS`, and a password change revokes all of a user's tokens
    (`config.auth.RevokeApiTokensOnPasswordChange`). Sign-in is throttled per client address
    (`THROTTLE_SIGN_IN`) and guarded by django-axes: repeated failures for one username from one
    address lock that pair out (429), and so do too many failures from one address whatever the
    usernames, here, on the sign-in page and the admin's alike (config.sign_in).
    """

    # Only DELETE reads the token; a client signing in again with a stale one still in its
    # header is not refused for it (authentication runs when `request.auth` is first read).
    authentication_classes = [TokenAuthentication]
    permission_classes: list[type[BasePermission]] = []
    parser_classes = [JSONParser, FormParser, MultiPartParser]
    renderer_classes = [JSONRenderer]

    def perform_authentication(self, request: Request) -> None:
        pass

    def get_throttles(self) -> list[BaseThrottle]:
        if self.request.method == "POST":
            return [SignInRateThrottle()]
        return super().get_throttles()

    @extend_schema(
        tags=["auth"],
        summary="Exchange a username and password for an API token",
        request=TokenIn,
        responses={
            200: TokenOut,
            400: OpenApiResponse(description="Wrong credentials or missing fields."),
            429: OpenApiResponse(description="Too many attempts: throttled or locked out."),
        },
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = request.data
        unknown = unknown_fields(data, TokenIn().fields)
        if unknown:
            raise exceptions.ValidationError({name: [str(UNKNOWN_FIELD)] for name in unknown})
        username = data.get("username") if isinstance(data, Mapping) else None
        if isinstance(username, str):
            # Read the username as the sign-in page does (NFKC, clubs.logins): "ＡＢＣ" is "ABC".
            data = data.dict() if isinstance(data, QueryDict) else dict(data)
            data["username"] = normalize_login(username)
        serializer = TokenSerializer(data=data, context={"request": request})
        if not serializer.is_valid():
            # axes flags the DRF request it was given; its middleware only sees Django's.
            if getattr(request, "axes_locked_out", False):
                message, seconds = refusal(request)
                return Response(
                    {"detail": message},
                    status=status.HTTP_429_TOO_MANY_REQUESTS,
                    headers={"Retry-After": str(seconds)},
                )
            raise exceptions.ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        forget_expired_tokens(user)
        _, token = AuthToken.objects.create(user=user)
        return Response({"token": token})

    @extend_schema(
        tags=["auth"],
        summary="Revoke the API token this request presents",
        request=None,
        responses={
            204: OpenApiResponse(description="Revoked: the token now answers 401."),
            401: OpenApiResponse(description="No token, or not a valid one."),
        },
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        token = request.auth
        if not isinstance(token, AuthToken):
            raise exceptions.NotAuthenticated()
        token.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
