"""The API's one exception handler: domain errors become HTTP answers (CONVENTIONS.md).

- `ValidationError` → 400 `{"errors": {field: [messages]}}`
- `Conflict` → 409 `{"detail": ...}`
- `ScoringError` (an impossible bridge result) → 400 naming the field and the rule.
Nothing escapes as a 500 for any input.
"""

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.rules.errors import ScoringError


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "This conflicts with the current state."
    default_code = "conflict"


def scoring_error_response(err: ScoringError) -> Response:
    field = err.field or "non_field_errors"
    message = f"{err.message} ({err.rule})" if err.rule else err.message
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
    from games.models import Conflict as DomainConflict

    if isinstance(exc, ScoringError):
        return scoring_error_response(exc)
    if isinstance(exc, DjangoValidationError):
        return django_validation_error_response(exc)
    if isinstance(exc, DomainConflict):
        return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
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
        response.data = {"errors": data}
    return response
