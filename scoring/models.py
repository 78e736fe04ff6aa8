"""Standings and worker bookkeeping (the Django side of scoring/; the laws live in rules/)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task (shown by /healthz)."""

    name = models.CharField(max_length=50, unique=True, default="default")
    beat_at = models.DateTimeField(default=timezone.now)
    count = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
