"""Without REDIS_URL the same task runs eagerly, in-process (issue: Foundation)."""

import pytest

from scoring.standings.models import WorkerHeartbeat
from scoring.standings.tasks import record_heartbeat


@pytest.mark.django_db(transaction=True)
def test_without_redis_a_task_runs_eagerly_after_commit(settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
    record_heartbeat.delay_on_commit("eager")
    assert WorkerHeartbeat.objects.get(name="eager").count == 1
    record_heartbeat.delay("eager")
    assert WorkerHeartbeat.objects.get(name="eager").count == 2


def test_a_worker_builds_the_scoring_tables_before_its_pool_forks():
    from celery.signals import worker_init

    from config.celery import build_scoring_tables
    from scoring.rules import rubber

    assert any(r() is build_scoring_tables for _, r in worker_init.receivers)
    rubber._bridge_tables.cache_clear()
    build_scoring_tables()
    assert rubber._bridge_tables.cache_info().currsize == 1
