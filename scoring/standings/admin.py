"""Admin: the standings rows are derived, so they are shown read-only; refresh is an action."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import queueing
from .models import (
    RubberResult,
    SessionPayment,
    SessionStanding,
    SessionStandingsState,
    WorkerHeartbeat,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SessionStandingsState)
class SessionStandingsStateAdmin(ReadOnlyAdmin):
    list_display = ["session", "stale", "computed_at", "requested_at", "pending_since", "dirty"]
    list_filter = ["stale"]
    actions = ["queue_refresh"]

    @admin.action(description=gettext_lazy("Queue a refresh of the selected sessions' standings"))
    def queue_refresh(
        self, request: HttpRequest, queryset: QuerySet[SessionStandingsState]
    ) -> None:
        for session_id in queryset.values_list("session_id", flat=True):
            queueing.queue_session_refresh(session_id)
        self.message_user(request, _("Refresh queued."), messages.SUCCESS)


@admin.register(SessionStanding)
class SessionStandingAdmin(ReadOnlyAdmin):
    list_display = ["session", "player", "rank", "table_number", "rubbers", "hundreds", "money"]
    list_select_related = ["session__club", "player"]
    list_filter = ["club"]


@admin.register(RubberResult)
class RubberResultAdmin(ReadOnlyAdmin):
    list_display = ["rubber", "player", "seat", "points", "net", "hundreds", "provisional"]
    list_select_related = ["rubber__table", "player"]
    list_filter = ["club", "provisional"]


@admin.register(SessionPayment)
class SessionPaymentAdmin(ReadOnlyAdmin):
    list_display = ["session", "position", "payer", "payee", "amount"]
    list_select_related = ["session__club", "payer", "payee"]


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(ReadOnlyAdmin):
    list_display = ["name", "beat_at", "count"]
