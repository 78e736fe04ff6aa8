from typing import Any

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring.standings"
    # The label of the app before it moved: migrations, tables and content types keep it.
    label = "scoring"
    verbose_name = "Scoring and standings"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from clubs.models import Session
        from scoring.shared import hooks

        # Registers the Celery tasks in every process, the web's included: the services queue
        # them by name (``queueing._publish``).
        from . import tasks  # noqa: F401

        pre_delete.connect(_forget_state, sender=Session, dispatch_uid="standings-session-gone")
        hooks.results_changed.connect(_queue_refresh, dispatch_uid="standings-results-changed")
        hooks.results_restored.connect(_refresh_now, dispatch_uid="standings-results-restored")
        hooks.session_closed.connect(_post_accounts, dispatch_uid="standings-accounts-post")
        hooks.session_closed.connect(_queue_results_mail, dispatch_uid="standings-results-mail")


def _forget_state(sender: Any, *, instance: Any, **kwargs: Any) -> None:
    """A session is being deleted: delete its standings state row first, before Django's cascade
    deletes its derived rows. A refresh stores rows only while it holds that row's lock
    (``services._refresh_sessions``), so this waits for one storing now (whose rows the cascade
    then deletes) or makes a later one store nothing: no row outlives its session, with no
    foreign-key constraint to refuse one (docs/standings.md, "Stored rows")."""
    from .models import SessionStandingsState

    SessionStandingsState.objects.filter(pk=instance.pk).delete()


def _queue_refresh(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    from . import queueing

    queueing.queue_session_refresh(session_id)


def _refresh_now(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    from . import services

    services.standings_refresh(session_id=session_id)


def _post_accounts(sender: Any, *, session_id: int, **kwargs: Any) -> None:
    from . import accounts

    accounts.accounts_post_session(session_id=session_id)


def _queue_results_mail(sender: Any, *, session_id: int, close: int, **kwargs: Any) -> None:
    from . import results_mail

    results_mail.results_mail_queue(session_id=session_id, close=close)
