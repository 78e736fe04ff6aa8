from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Deal, Rubber


class DealInline(admin.TabularInline):
    model = Deal
    fields = ["number", "contract", "declarer", "tricks", "honours_side", "honours_points", "data"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:  # type: ignore[no-untyped-def]
        # Deals change only through record_deal / Deal.correct (the page and the API).
        return False


@admin.register(Rubber)
class RubberAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "kind", "status", "started_at", "ended_at"]
    list_filter = ["status", "kind"]
    readonly_fields = ["kind", "status", "rules", "started_at", "ended_at"]
    inlines = [DealInline]


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "rubber", "version", "entered_by", "updated_at"]
    readonly_fields = [
        "rubber",
        "number",
        "contract",
        "declarer",
        "tricks",
        "honours_side",
        "honours_points",
        "data",
        "version",
        "entered_by",
        "entered_at",
        "confirmed_by",
    ]

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False
