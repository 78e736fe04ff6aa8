"""Celery tasks: thin, idempotent, taking ids (CONVENTIONS.md)."""

from __future__ import annotations

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from .models import WorkerHeartbeat


@shared_task(acks_late=True, ignore_result=True)
def record_heartbeat(name: str = "default") -> None:
    """Mark that a worker is alive and can write to the database."""
    updated = WorkerHeartbeat.objects.filter(name=name).update(
        beat_at=timezone.now(), count=F("count") + 1
    )
    if not updated:
        WorkerHeartbeat.objects.get_or_create(name=name, defaults={"count": 1})
