# Backscore: `make run` to try it, `make test` for the whole suite. See README.md.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The real services used by the integration tests (docs/deploy.md describes production).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/backscore
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
# DEBUG is off unless the environment turns it on (config/settings.py): `make run` turns it on with
# the development key; the tools that only load the settings (compilemessages, mypy) get the same.
DEV_ENV := DEBUG=true SECRET_KEY=$${SECRET_KEY:-dev-insecure-key-for-local-use-only}

.PHONY: run test test-unit test-integration test-browser lint audit serve bench messages clean venv

$(BIN)/.installed: requirements/base.txt requirements/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip 2>&1 | grep -v "is ignored" || true
	$(PY) -m pip install --quiet -r requirements/dev.txt 2>&1 | grep -v "is ignored" || true
	$(PY) -m pip check
	touch $@

venv: $(BIN)/.installed

messages: venv
	@if ls locale/*/LC_MESSAGES/django.po >/dev/null 2>&1; then $(DEV_ENV) $(PY) manage.py compilemessages --ignore=.venv -v 0; fi

run: venv messages
	$(DEV_ENV) $(PY) manage.py migrate --no-input
	$(DEV_ENV) $(PY) manage.py load_demo
	$(DEV_ENV) $(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --lifespan off \
		--reload --reload-dir config --reload-dir clubs --reload-dir games --reload-dir scoring

# The whole suite: unit and API tests on SQLite, then integration tests on PostgreSQL, Redis and a
# real Celery worker, then browser tests in Chromium. Pytest's "no tests collected" (5) is a pass.
test: test-unit test-integration test-browser

test-unit: venv messages
	$(BIN)/pytest -m "not integration and not browser" -q -n 2 --dist loadfile || [ $$? -eq 5 ]

test-integration: venv messages
	@if CI=$${CI:-} $(PY) -m tests.services postgres redis; then \
		DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/pytest -m integration -q -rs || [ $$? -eq 5 ]; \
	else \
		$(BIN)/pytest -m integration -q -rs || [ $$? -eq 5 ]; \
	fi

test-browser: venv messages
	$(BIN)/pytest -m browser -q -rs -n 2 --dist load || [ $$? -eq 5 ]

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(DEV_ENV) $(BIN)/mypy
	$(BIN)/lint-imports

# Security audit: bandit (no finding allowed) and pip-audit (says so when offline); docs/security.md.
audit: venv
	bash .ci/audit

# Production-like: everything from the environment (DATABASE_URL, REDIS_URL, SECRET_KEY, ...).
# The worker sends no events to other workers and asks none at start: an idle one costs little
# (docs/deploy.md, "An idle worker").
WORKER_QUIET := --without-gossip --without-mingle --without-heartbeat
serve: venv messages
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input -v 0
	$(BIN)/celery -A config worker --loglevel=INFO $(WORKER_QUIET) & worker=$$!; \
	$(BIN)/celery -A config beat --loglevel=INFO --schedule=/tmp/backscore-beat & beat=$$!; \
	trap 'kill $$worker $$beat 2>/dev/null; wait' EXIT INT TERM; \
	$(BIN)/gunicorn -c config/gunicorn.py --bind $(HOST):$(PORT)

bench: venv
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
