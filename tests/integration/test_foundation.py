"""The real stack: PostgreSQL, Redis and a real Celery worker process (issue: Foundation)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from django.db import transaction

from scoring.standings.models import WorkerHeartbeat
from scoring.standings.tasks import record_heartbeat
from tests.conftest import ROOT, Worker, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_task_queued_after_commit_runs_in_a_real_worker(celery_worker_process, settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    with transaction.atomic():
        record_heartbeat.delay_on_commit("integration")
        # Not yet: the task is only sent once the transaction commits.
        assert not WorkerHeartbeat.objects.filter(name="integration").exists()
    beat = wait_for(lambda: WorkerHeartbeat.objects.filter(name="integration").first())
    assert beat.count == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_production_like_gunicorn_and_worker_are_healthy_then_stop_cleanly(worker_env):
    port = _free_port()
    env = {
        **worker_env,
        "DEBUG": "False",
        "SECRET_KEY": "integration-smoke-test-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "False",
    }
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.py",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = Worker(env)
    try:
        worker.start()
        status, body = wait_for(lambda: _try(f"http://127.0.0.1:{port}/healthz"), timeout=30)
        assert status == 200
        assert body["status"] == "ok", body
        assert body["database"]["vendor"] == "postgresql"
        assert body["cache"]["backend"] == "RedisCache"
        assert body["broker"] == {"ok": True, "mode": "broker"}
    finally:
        worker.stop()
        web.terminate()
        web.wait(timeout=30)
    assert web.returncode == 0
    assert worker.proc is not None and worker.proc.returncode == 0


def _try(url: str) -> tuple[int, dict] | None:
    try:
        return _get_json(url)
    except (OSError, ValueError):
        time.sleep(0.2)
        return None
