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
