"""Settings come from the environment; production passes `check --deploy` (issue: Foundation).

The settings module is executed afresh in this process under each environment (the Django
settings of the test run are not touched); only `check --deploy` needs a process of its own.
"""

import importlib.util
import os
import subprocess
import sys
from types import ModuleType
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.conftest import ROOT

# The test run's own environment says nothing about what production reads.
OURS = {"DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY"}


def _clean(env: dict[str, str]) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in OURS}, **env}


def settings_under(env: dict[str, str]) -> ModuleType:
    """config/settings.py as it reads `env` (a new module; os.environ is restored after)."""
    spec = importlib.util.spec_from_file_location(
        "settings_under_test", ROOT / "config" / "settings.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with mock.patch.dict(os.environ, _clean(env), clear=True):
        spec.loader.exec_module(module)
    return module


def test_production_settings_pass_check_deploy_without_warnings():
    env = {
        "DEBUG": "False",
        "SECRET_KEY": "x" * 64 + "-a-long-random-production-key",
        "ALLOWED_HOSTS": "example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_clean(env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNINGS" not in result.stdout + result.stderr


def test_settings_switch_to_postgres_and_redis_from_the_environment():
    s = settings_under(
        {
            "DATABASE_URL": "postgres://u@db:5432/x",
            "REDIS_URL": "redis://cache:6379/1",
            "SECRET_KEY": "k" * 50,
        }
    )
    assert s.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert s.DATABASES["default"]["CONN_MAX_AGE"] >= 60
    assert s.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    assert s.CELERY_TASK_ALWAYS_EAGER is False
    assert s.CELERY_BROKER_URL == "redis://cache:6379/1"


@pytest.mark.parametrize(("flag", "prepared"), [(None, True), ("false", False)])
def test_postgres_statements_are_prepared_unless_turned_off(flag: str | None, prepared: bool):
    """docs/deploy.md: parameters bound and statements prepared by PostgreSQL (a fifth run on a
    connection), off with `DATABASE_PREPARED_STATEMENTS=false` for a pooler that cannot keep
    them; in the pooled web processes too."""
    for pool in ("0", "4"):
        env = {"DATABASE_URL": "postgres://u@db:5432/x", "SECRET_KEY": "k" * 50}
        env["DATABASE_POOL_MAX_SIZE"] = pool
        if flag is not None:
            env["DATABASE_PREPARED_STATEMENTS"] = flag
        options = settings_under(env).DATABASES["default"].get("OPTIONS", {})
        assert options.get("server_side_binding", False) is prepared
        assert options.get("prepare_threshold") == (5 if prepared else None)
        assert ("pool" in options) is (pool == "4")


def test_defaults_need_no_services():
    s = settings_under({"SECRET_KEY": "k" * 50})
    assert s.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert s.CACHES["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert s.CELERY_TASK_ALWAYS_EAGER is True


def test_production_refuses_to_start_without_a_secret_key():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        settings_under({"DEBUG": "False", "SECRET_KEY": "", "ALLOWED_HOSTS": "example.org"})


def test_an_idle_worker_waits_on_redis_ten_seconds_at_a_time_unless_told():
    redis = {"REDIS_URL": "redis://cache:6379/1", "SECRET_KEY": "k" * 50}
    assert settings_under(redis).CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] == 10.0
    told = settings_under({**redis, "CELERY_BROKER_POLLING_INTERVAL": "2.5"})
    assert told.CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] == 2.5
    # The in-memory transport (no Redis) would sleep as long between its polls: not set.
    assert (
        "polling_interval" not in settings_under({"DEBUG": "true"}).CELERY_BROKER_TRANSPORT_OPTIONS
    )


@pytest.mark.parametrize(
    "path", ["Makefile", "docs/deploy.md", "bench/bench_room.py", "tests/conftest.py"]
)
def test_every_worker_is_started_without_gossip_mingle_or_heartbeat(path: str) -> None:
    text = (ROOT / path).read_text()
    for flag in ("--without-gossip", "--without-mingle", "--without-heartbeat"):
        assert flag in text, (path, flag)
