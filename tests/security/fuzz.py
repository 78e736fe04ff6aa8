"""Fuzzing every API operation from its OpenAPI schema (schemathesis), as a director, as an
outsider and anonymously: never a 5xx, and every response (status, content type, body) matches
the schema.

The schema is read from `/api/schema/` through the WSGI app, on the SQLite test database, with a
club night in it (tests/security/conftest.py) so that some generated ids and slugs hit real rows.
Examples per operation are bounded (MAX_EXAMPLES) to keep the run short.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from knox.models import AuthToken
from schemathesis import checks

MAX_EXAMPLES = 20
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


def fuzz_settings(max_examples: int = MAX_EXAMPLES) -> Any:
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )


# Generating the schema touches no database, so it is loaded at collection time.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


def token_header(user: Any) -> dict[str, str]:
    _, token = AuthToken.objects.create(user=user)
    return {"Authorization": f"Token {token}"}
