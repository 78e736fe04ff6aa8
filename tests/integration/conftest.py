"""Fixtures of the integration tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.test_concurrency import free_port, gunicorn, stop, wait_healthy


@pytest.fixture
def web(worker_env: dict[str, str]) -> Iterator[str]:
    """gunicorn serving the app on a free port, on the worker's services; its base URL."""
    port = free_port()
    proc = gunicorn(worker_env, port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base)
        yield base
    finally:
        stop(proc)
