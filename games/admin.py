from django.contrib import admin
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from .models import Deal, Rubber

#: A deal as entered; read-only here (deals change only through the page and the API).
DEAL_FIELDS = (
    "number",
    "contract",
    "declarer",
    "tricks",
    "honours_side",
    "honours_points",
    "data",
)


class DealInline(admin.TabularInline):
    model = Deal
    fields = DEAL_FIELDS
    readonly_fields = DEAL_FIELDS
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Rubber | None = None) -> bool:
        # Deals change only through record_deal / Deal.correct (the page and the API).
        return False


@admin.register(Rubber)
class RubberAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "kind", "status", "started_at", "ended_at"]
    list_filter = ["status", "kind"]
    readonly_fields = ["kind", "status", "rules", "started_at", "ended_at"]
    inlines = [DealInline]


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):  # type: ignore[misc]  # simple_history has no type hints
    list_display = ["__str__", "rubber", "version", "entered_by", "updated_at"]
    readonly_fields = (
        "rubber",
        *DEAL_FIELDS,
        "version",
        "entered_by",
        "entered_at",
        "confirmed_by",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
