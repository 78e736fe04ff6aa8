"""The Celery app: configured from Django settings (namespace CELERY), tasks autodiscovered."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("backscore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def close_old_connections(task: Any = None, **kwargs: Any) -> None:
    """Around each task what Django does around each request: close a database connection that
    failed or outlived CONN_MAX_AGE and keep the others (CELERY_DB_REUSE_MAX stops Celery from
    closing every one; a new connection cost a standings refresh ~15 ms, docs/benchmarks.md)."""
    if task is None or getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections as close

    close()


task_prerun.connect(close_old_connections)
task_postrun.connect(close_old_connections)


def build_scoring_tables(**kwargs: Any) -> None:
    """Build the scoring engine's tables (~0.3 s, once per process) in the worker's main
    process, before its pool forks: every pool process inherits them instead of building its
    own at its first task (the nightly rebuild's chunks, fanned out, each paid them; gunicorn's
    workers build theirs at start the same way, config/gunicorn.py)."""
    from scoring.rules.options import DEFAULT
    from scoring.rules.rubber import rubber_table
    from scoring.rules.rubber_totals import totals_table

    rubber_table()
    totals_table(DEFAULT.insult_redoubled, DEFAULT.old_undertricks)  # the rebuild's replay


worker_init.connect(build_scoring_tables)
