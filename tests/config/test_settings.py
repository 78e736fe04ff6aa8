"""Settings come from the environment; production passes `check --deploy` (issue: Foundation)."""

import os
import subprocess
import sys

from tests.conftest import ROOT


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy_without_warnings():
    result = _run(
        {
            "DEBUG": "False",
            "SECRET_KEY": "x" * 64 + "-a-long-random-production-key",
            "ALLOWED_HOSTS": "example.org",
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNINGS" not in result.stdout + result.stderr


def test_settings_switch_to_postgres_and_redis_from_the_environment():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['CONN_MAX_AGE'],"
        " s.CACHES['default']['BACKEND'], s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL)"
    )
    result = _run(
        {"DATABASE_URL": "postgres://u@db:5432/x", "REDIS_URL": "redis://cache:6379/1"},
        "shell",
        "--no-imports",
        "-c",
        code,
    )
    assert result.returncode == 0, result.stderr
    engine, max_age, cache, eager, broker = result.stdout.split()
    assert engine == "django.db.backends.postgresql"
    assert int(max_age) >= 60
    assert cache == "django_redis.cache.RedisCache"
    assert eager == "False"
    assert broker == "redis://cache:6379/1"


def test_defaults_need_no_services():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'],"
        " s.CELERY_TASK_ALWAYS_EAGER)"
    )
    result = _run({}, "shell", "--no-imports", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "django.core.cache.backends.locmem.LocMemCache",
        "True",
    ]


def test_production_refuses_to_start_without_a_secret_key():
    result = _run({"DEBUG": "False", "SECRET_KEY": "", "ALLOWED_HOSTS": "example.org"}, "check")
    assert result.returncode != 0
