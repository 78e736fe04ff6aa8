"""The web processes serve config/asgi.py (docs/deploy.md): the health check, the middleware's
headers and whitenoise's static files work the same through Django's ASGI handler.

Django's AsyncClient runs a request through ASGIHandler, as uvicorn does; the sync views and
middleware then run back in this test's thread (asgiref), so they see the test's database."""

from __future__ import annotations

import importlib
import os
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient


def get(path: str) -> Any:
    return async_to_sync(AsyncClient().get)(path)


def test_the_asgi_entry_point_turns_the_connection_pool_on() -> None:
    # The environment as it was comes back afterwards: other tests start servers from it.
    with mock.patch.dict(os.environ):
        os.environ.pop("DATABASE_POOL_MAX_SIZE", None)
        import config.asgi

        importlib.reload(config.asgi)
        assert os.environ["DATABASE_POOL_MAX_SIZE"] == "4"


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/v1/clubs/"])
def test_pages_health_and_api_carry_the_policy_over_asgi(db: Any, path: str) -> None:
    response = get(path)
    assert response.status_code == 200
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_health_check_reports_the_database_over_asgi(db: Any) -> None:
    assert get("/healthz").json()["database"]["ok"] is True


def test_whitenoise_serves_static_files_over_asgi(db: Any, settings: Any) -> None:
    # From static/ itself: a fresh clone has no collectstatic output, and pytest-django turns
    # DEBUG (whitenoise's default for reading the finders) off.
    settings.WHITENOISE_USE_FINDERS = True
    response = get("/static/css/backscore.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert b"".join(response.streaming_content)


def test_a_worker_freezes_what_it_loaded_before_its_first_request() -> None:
    """config/gunicorn.py's `post_worker_init`: the scoring tables built, then everything loaded
    moved out of the cycle collector's reach (docs/deploy.md), so a full collection no longer
    walks Django and the apps while the worker's requests wait. In a process of its own: a
    frozen test process would keep every test's garbage."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    script = (
        "import gc, django; django.setup(); import config.urls; "
        "before = gc.get_freeze_count(); "
        "from config.gunicorn import post_worker_init; post_worker_init(None); "
        "from scoring.rules.rubber import _bridge_tables; "
        "print(before, gc.get_freeze_count(), _bridge_tables.cache_info().currsize)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.setdefault("SECRET_KEY", "test-only-key")
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    before, frozen, tables = map(int, done.stdout.split())
    assert before == 0 and frozen > 50_000 and tables == 1
