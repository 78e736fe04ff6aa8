"""Django admin for clubs, memberships, players, sessions, tables and seats.

State changes (start, close, seating) belong to the services and the director's console; the
admin is for looking things up and fixing names and settings.
"""

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from simple_history.admin import SimpleHistoryAdmin

from .models import Club, Invitation, Membership, Player, Session, Table, TableChange, TableSeat


class HistoryShownNotRevertedAdmin(SimpleHistoryAdmin):  # type: ignore[misc]  # no type hints
    """A model's history, shown and never posted back (config/settings.py,
    SIMPLE_HISTORY_REVERT_DISABLED): simple_history saves a posted old version even when its
    Revert button is hidden, past the services that change sessions and deals."""

    def history_form_view(
        self, request: HttpRequest, object_id: str, version_id: str, extra_context: Any = None
    ) -> HttpResponse:
        if request.method != "GET":
            raise PermissionDenied
        response: HttpResponse = super().history_form_view(
            request, object_id, version_id, extra_context
        )
        return response


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "public", "rules_preset", "default_stake", "currency"]
    list_filter = ["public", "rules_preset", "language", "confirm_entries"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "created_at"
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name", "club__slug"]
    list_select_related = ["user", "club"]
    autocomplete_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Pending invitations, to look up; only the invited login's holder accepts one."""

    list_display = ["username", "player", "director", "created_at"]
    search_fields = ["username", "player__name", "player__club__slug"]
    list_select_related = ["player"]
    raw_id_fields = ["player"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "user__username", "club__name"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["club", "user"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Session)
class SessionAdmin(HistoryShownNotRevertedAdmin):
    """With the session's history: started, closed, reopened, re-seated (who and when)."""

    list_display = ["date", "club", "kind", "movement", "status", "stake_per_hundred"]
    list_filter = ["status", "kind", "movement", "club"]
    search_fields = ["club__name", "club__slug"]
    date_hierarchy = "date"
    list_select_related = ["club"]
    readonly_fields = ["status", "rules", "created_at", "started_at", "closed_at", "created_by"]
    inlines = [TableInline]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    fields = ["position", "player", "active"]
    readonly_fields = ["position", "player", "active"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        # Seats change through the console so the rotation is re-planned (RULES 6.2).
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "number"]
    list_filter = ["session__club", "session__status"]
    search_fields = ["session__club__name"]
    list_select_related = ["session__club"]
    inlines = [TableSeatInline]


@admin.register(TableSeat)
class TableSeatAdmin(admin.ModelAdmin):
    list_display = ["player", "table", "session", "position", "active"]
    list_filter = ["active", "session__club", "session__status"]
    search_fields = ["player__name", "session__club__name"]
    list_select_related = ["player", "table", "session__club"]
    raw_id_fields = ["player", "table", "session"]


@admin.register(TableChange)
class TableChangeAdmin(admin.ModelAdmin):
    """The changes at the tables (issue 18), read only: they are history, made by the console."""

    list_display = ["at", "session", "table", "kind", "player", "replaced", "from_rubber", "by"]
    list_filter = ["kind", "session__club"]
    list_select_related = ["session__club", "table", "player", "replaced", "by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: TableChange | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: TableChange | None = None) -> bool:
        return False
