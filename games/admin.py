from django.contrib import admin
from django.http import HttpRequest

from clubs.admin import HistoryShownNotRevertedAdmin

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

    # Read-only as its deals: its players, table and number are what the deals were scored and
    # noted under (a change here re-seated a scored rubber, unnoted).
    def has_change_permission(self, request: HttpRequest, obj: Rubber | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Rubber | None = None) -> bool:
        # Its deals would go with it, unlocked and unscored (see DealAdmin).
        return False


@admin.register(Deal)
class DealAdmin(HistoryShownNotRevertedAdmin):
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

    # Read-only, history included: a deal changes only through Deal.correct, confirm, dispute
    # and rule, and goes only as the last of its rubber (Deal.delete_last), each under the
    # rubber's lock, rescored and noted in the history (the page and the API). A row changed,
    # reverted or deleted here left a gap in the numbering or a scoresheet that no longer added up.
    # Its history is shown, never posted back (HistoryShownNotRevertedAdmin).
    def has_change_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        return False
