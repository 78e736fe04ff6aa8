"""Celery tasks: thin, idempotent, taking ids (CONVENTIONS.md)."""

from __future__ import annotations

import time
from typing import Any

from celery import chord, shared_task
from django.db import InterfaceError, OperationalError
from django.db.models import F
from django.utils import timezone

from . import queueing, ratings, results_mail, services
from .models import WorkerHeartbeat

# A database that blips (failover, restart, too many connections) is retried with backoff; the
# work is idempotent, so a retry after a partial run is harmless.
_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 6,
}


@shared_task(acks_late=True, ignore_result=True, name="scoring.tasks.record_heartbeat")
def record_heartbeat(name: str = "default") -> None:
    """Mark that a worker is alive and can write to the database."""
    updated = WorkerHeartbeat.objects.filter(name=name).update(
        beat_at=timezone.now(), count=F("count") + 1
    )
    if not updated:
        WorkerHeartbeat.objects.get_or_create(name=name, defaults={"count": 1})


@shared_task(
    acks_late=True, ignore_result=True, **_RETRY, name="scoring.tasks.refresh_session_standings"
)
def refresh_session_standings(session_id: int) -> None:
    """Recompute one session's standings from its deals (coalesced: see
    scoring.standings.services)."""
    services.standings_refresh(session_id=session_id)


@shared_task(
    acks_late=True, ignore_result=True, **_RETRY, name="scoring.tasks.refresh_club_ratings"
)
def refresh_club_ratings(club_id: int) -> None:
    """Replay one club's ratings from its ended rubbers (coalesced as the standings)."""
    ratings.ratings_refresh(club_id=club_id)


@shared_task(
    acks_late=True, ignore_result=True, **_RETRY, name="scoring.tasks.refresh_stale_standings"
)
def refresh_stale_standings() -> int:
    """Queue a refresh for stale sessions, then for clubs with stale ratings, whose refresh was
    lost (beat, every minute); return how many were queued."""
    return queueing.standings_queue_stale() + queueing.ratings_queue_stale()


@shared_task(acks_late=True, **_RETRY, name="scoring.tasks.rebuild_all_standings")
def rebuild_all_standings() -> dict[str, Any]:
    """Recompute every session here, one chunk after the other; repair and report differences
    (a summary dict). The nightly run fans out instead (``fan_out_standings_rebuild``)."""
    return services.standings_rebuild_all()


@shared_task(acks_late=True, **_RETRY, name="scoring.tasks.fan_out_standings_rebuild")
def fan_out_standings_rebuild() -> str:
    """Nightly (beat): the full rebuild as one task per chunk of sessions, spread over the
    workers (chunks are independent); ``finish_standings_rebuild`` sums them up once all are
    done. Returns the id of that last task, whose result is the summary."""
    chunks = services.standings_rebuild_begin()
    finish = finish_standings_rebuild.s(sessions=sum(map(len, chunks)), started=time.time())
    return str(chord(rebuild_standings_chunk.s(ids) for ids in chunks)(finish).id)


@shared_task(acks_late=True, **_RETRY, name="scoring.tasks.rebuild_standings_chunk")
def rebuild_standings_chunk(session_ids: list[int]) -> dict[str, Any]:
    """Recompute and repair one chunk of sessions (differences and failures, JSON-safe)."""
    return services.standings_rebuild_chunk(session_ids=session_ids)


@shared_task(acks_late=True, **_RETRY, name="scoring.tasks.finish_standings_rebuild")
def finish_standings_rebuild(
    parts: list[dict[str, Any]], sessions: int, started: float
) -> dict[str, Any]:
    """The fanned-out rebuild's summary, as ``rebuild_all_standings`` returns it (logged)."""
    return services.standings_rebuild_summary(parts=parts, sessions=sessions, started=started)


# A mail server that is down or slow is retried as the database is; a row is claimed before its
# mail goes, so a retry sends only what is still waiting (``results_mail``).
_MAIL_RETRY: dict[str, Any] = {**_RETRY, "autoretry_for": (*_RETRY["autoretry_for"], OSError)}


@shared_task(
    acks_late=True, ignore_result=True, **_MAIL_RETRY, name="scoring.tasks.send_results_mail"
)
def send_results_mail(session_id: int, close: int) -> dict[str, int]:
    """Mail each player their night of this close of the session, once (``results_mail``)."""
    return results_mail.results_mail_send(session_id=session_id, close=close)


@shared_task(
    acks_late=True, ignore_result=True, **_RETRY, name="scoring.tasks.send_waiting_results_mail"
)
def send_waiting_results_mail() -> int:
    """Queue the results mail a dead broker or a killed worker left waiting (beat)."""
    return results_mail.results_mail_queue_waiting()
