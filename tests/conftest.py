"""Shared fixtures: personas, the real-services guard, a real Celery worker, the browser."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from tests import services

ROOT = Path(__file__).resolve().parent.parent

# Timing is not under test (benchmarks live in bench/): no per-example deadline on a loaded
# 2-core machine, and a fixed seed in CI so a run is repeatable.
hypothesis_settings.register_profile("default", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if services.in_ci() else "default")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def missing(reason: str) -> None:
    """Skip with the reason on a developer's machine; fail under CI (a missing service is a bug)."""
    if services.in_ci():
        pytest.fail(f"CI=true and a required service is missing: {reason}", pytrace=False)
    pytest.skip(reason)


def fail_a_skip_under_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    """Under CI=true a skip from anywhere (a plugin, a module's importorskip, a skip marker)
    fails: a full run in CI runs every test it selects."""
    if services.in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"CI=true and this was skipped: {report.longrepr}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    fail_a_skip_under_ci(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    report = yield
    fail_a_skip_under_ci(report)
    return report


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Chromium is checked before any fixture: pytest-playwright's session-scoped browser would
    otherwise try to launch (and error) before an autouse fixture could skip the test."""
    if item.get_closest_marker("browser") and (reason := services.chromium()):
        missing(reason)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A run with browser tests keeps its SQLite test database in a file, not in memory.

    With an in-memory database the live server hands the test's one connection to every request
    thread: two phones polling while a third request writes then share one transaction state, and
    a fresh-clone CI run saw a request fail in `close_old_connections` and the tests after it
    fail in turn. With a file each thread has its own connection, and SQLite's lock with the
    busy timeout in config/settings.py orders the writers, as in production. Unit runs (no browser
    test selected) keep the faster in-memory database."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    browser_run = any(item.get_closest_marker("browser") for item in request.session.items)
    if browser_run and db["ENGINE"] == "django.db.backends.sqlite3":
        path = tmp_path_factory.mktemp("browser-db") / "test.sqlite3"
        db.setdefault("TEST", {})["NAME"] = str(path)


@pytest.fixture(autouse=True)
def _real_services_guard(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("integration"):
        from django.conf import settings

        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            missing(services.postgres() or "DATABASE_URL does not point at PostgreSQL")
        if not settings.REDIS_URL:
            missing(services.redis() or "REDIS_URL is not set")
        _empty_cache()


def _empty_cache() -> None:
    """An integration test starts with an empty cache, as it starts with an empty database: the
    Redis database outlives the test database, which hands out the same ids again. Only the
    cache's own keys go; the Celery broker's queues and bindings in the same Redis stay."""
    from django.core.cache import cache

    delete_pattern = getattr(cache, "delete_pattern", None)
    if delete_pattern is not None:
        delete_pattern("*")


@pytest.fixture(autouse=True)
def _throttle_counts_start_at_zero() -> None:
    """The throttles and the per-address sign-in limit count in the "throttle" cache, which in
    memory outlives a test: a worker's earlier failed sign-ins must not pause a later test's
    address (integration tests empty Redis' cache keys in `_real_services_guard`)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    throttle = caches["throttle"]
    if isinstance(throttle, LocMemCache):
        throttle.clear()


@pytest.fixture(autouse=True)
def _kept_renders_start_empty() -> None:
    """Pads and forms are kept under their rubber's state (games/pad/rendered.py), whose ids a
    flushed test database hands out again: a kept render of an earlier test's rubber 1 must not
    answer a later test's rubber 1 in the same worker (in production an id is never reused)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from games.pad import rendered

    default = caches["default"]
    if isinstance(default, LocMemCache):
        default.clear()
    rendered._FIELDS.renders.clear()
    rendered._CARDS.renders.clear()
    rendered._CHOICES.renders.clear()


@pytest.fixture(autouse=True)
def _each_test_starts_in_the_default_language() -> Iterator[None]:
    """A request leaves its language active in the thread (a club page activates the club's, and
    nothing deactivates it): each test starts from LANGUAGE_CODE, whatever the test before it in
    the same worker asked for (a model's refusal read in Italian after an Italian club's page)."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """PBKDF2 costs ~0.6 s a user and tests create many; hashing strength is not under test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- personas ------------------------------------------------------------------------------------


@pytest.fixture
def make_user(db: Any) -> Any:
    from django.contrib.auth import get_user_model

    def make(username: str, password: str = "correct-horse-battery") -> Any:
        return get_user_model().objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def api() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def director(db: Any) -> Any:
    from tests.factories import UserFactory

    return UserFactory(username="director")


@pytest.fixture
def outsider(db: Any) -> Any:
    from tests.factories import UserFactory

    return UserFactory(username="outsider")


@pytest.fixture
def club(director: Any) -> Any:
    from tests.factories import make_club

    return make_club(director=director, slug="riverside")


@pytest.fixture
def table_of_four(club: Any) -> dict[str, Any]:
    """Four players with logins, by name: north, east, south, west (precedence order)."""
    from tests.factories import UserFactory, add_player

    return {
        name: add_player(club, name.title(), user=UserFactory(username=name))
        for name in ("north", "east", "south", "west")
    }


@pytest.fixture
def north(table_of_four: dict[str, Any]) -> Any:
    return table_of_four["north"].user


@pytest.fixture
def east(table_of_four: dict[str, Any]) -> Any:
    return table_of_four["east"].user


@pytest.fixture
def south(table_of_four: dict[str, Any]) -> Any:
    return table_of_four["south"].user


@pytest.fixture
def west(table_of_four: dict[str, Any]) -> Any:
    return table_of_four["west"].user


@pytest.fixture
def running_session(club: Any, table_of_four: dict[str, Any]) -> Any:
    """A started pivot session with one table of four: its first rubber is in play."""
    from tests.factories import make_session

    return make_session(club, [list(table_of_four.values())])


@pytest.fixture
def night(director: Any) -> Any:
    """The club night of the clubs and games tests (tests/factories.build_night)."""
    from tests.factories import build_night

    return build_night(director=director, public=True)


@pytest.fixture
def private_night(director: Any) -> Any:
    from tests.factories import build_night

    return build_night(director=director, public=False)


# --- a refused write changes nothing -------------------------------------------------------------


def _owned_models() -> list[Any]:
    """The models a write of the product can touch: the project's own apps (found by their
    path, whatever their names), its logins and their API tokens."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    ours = [
        config
        for config in apps.get_app_configs()
        if Path(config.path).is_relative_to(ROOT) and "site-packages" not in Path(config.path).parts
    ]
    return [
        *(model for config in ours for model in config.get_models()),
        get_user_model(),
        apps.get_model("knox", "AuthToken"),
    ]


def _rows(target: Any) -> tuple[str, list[tuple[Any, ...]]]:
    """A model (all its rows), a queryset or a saved instance (its row), as stored now."""
    from django.db.models import Model, QuerySet

    if isinstance(target, QuerySet):
        queryset = target
    elif isinstance(target, Model):
        queryset = type(target)._default_manager.filter(pk=target.pk)
    else:
        queryset = target._default_manager.all()
    return queryset.model._meta.label, list(queryset.order_by("pk").values_list())


Snapshot = list[tuple[str, list[tuple[Any, ...]]]]


def snapshot(*targets: Any) -> Snapshot:
    """Every row of `targets` (models, querysets, saved instances) as stored now; with no
    targets, every row of `_owned_models()`."""
    return [_rows(target) for target in targets or _owned_models()]


def assert_same(before: Snapshot, after: Snapshot) -> None:
    changed = [
        f"{label}: {sorted(set(map(repr, was)) ^ set(map(repr, now)))[:6]}"
        for (label, was), (_, now) in zip(before, after, strict=True)
        if was != now
    ]
    assert not changed, "a refused write changed rows:\n" + "\n".join(changed)


@contextmanager
def unchanged(*targets: Any) -> Iterator[None]:
    """Assert that the block leaves `targets` as they were, every field of every row (see
    `snapshot`). For the writes a test expects to be refused (issue 16: a refused write
    asserts that nothing changed)."""
    before = snapshot(*targets)
    yield
    assert_same(before, snapshot(*targets))


# --- a real Celery worker -----------------------------------------------------------------------


class Worker:
    """A `celery worker` process pointed at the test database and the test Redis."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = ROOT / ".pytest-worker.log"

    def start(self) -> None:
        self.spawn()
        self.wait_ready()

    def spawn(self) -> None:
        """Start the process without waiting for it to be ready (``wait_ready``)."""
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 60) -> None:
        from config.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited early: see {self.log}")
            replies = app.control.ping(timeout=0.5)
            if replies:
                return
        raise RuntimeError(f"worker not ready after {timeout}s: see {self.log}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def kill(self) -> None:
        self.stop(signal.SIGKILL)


@pytest.fixture
def worker_env(transactional_db: Any) -> dict[str, str]:
    """The environment for processes that must see this test's rows (the test database)."""
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DEBUG": "true",
    }


@pytest.fixture
def celery_worker_process(worker_env: dict[str, str]) -> Iterator[Worker]:
    from config.celery import app

    app.control.purge()
    worker = Worker(worker_env)
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def web(worker_env: dict[str, str]) -> Iterator[str]:
    """The web server as `make serve` runs it, on a free port and the worker's services; its base
    URL (tests/integration/test_concurrency.py starts it)."""
    from tests.integration.test_concurrency import free_port, gunicorn, stop, wait_healthy

    port = free_port()
    proc = gunicorn(worker_env, port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base)
        yield base
    finally:
        stop(proc)


def wait_for(predicate: Any, timeout: float = 30, interval: float = 0.2) -> Any:
    """Poll until `predicate()` is truthy; return its value or fail with the timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout}s")


class Held:
    """A route handler (`page.route(url, held)`) that holds the requests it gets until
    `release()`, then lets them and every later one through. Releasing before unrouting: an
    unroute that leaves a page no route lets Playwright go on with the held requests itself."""

    def __init__(self) -> None:
        self.routes: list[Any] = []
        self.holding = True

    def __call__(self, route: Any) -> None:
        if self.holding:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.holding = False
        for route in self.routes:
            route.continue_()


# --- the browser (pytest-playwright, Debian's Chromium) ---------------------------------------


@pytest.fixture(autouse=True)
def _quick_live_poll(request: pytest.FixtureRequest) -> None:
    """Browser tests hear no push: their pages poll each second (the fallback's pace is a
    setting, LIVE_POLL_MS), so a change reaches another phone within the tests' waits."""
    if request.node.get_closest_marker("browser"):
        request.getfixturevalue("settings").LIVE_POLL_MS = 1000


@pytest.fixture(autouse=True)
def _close_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a browser test, close every page it opened: a page left open keeps polling the
    live server (its pad's live poll), and on SQLite its reads lock tables that the next test
    writes from its own thread ("database table is locked")."""
    yield
    if request.node.get_closest_marker("browser") and "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


def csv_cell(value: Any) -> str:
    """A JSON value as the API's CSV writes it: null empty, booleans as JSON spells them."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sign_in(page: Any, base_url: str, username: str, next_path: str = "/") -> None:
    """Sign in through the login page and land on `next_path` (every browser test starts so)."""
    from tests.factories import PASSWORD

    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"**{next_path}")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": services.CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
