"""The admin for the league's models: the secretary's fallback (staff users only).

Models with an audit trail (`history`) use SimpleHistoryAdmin, so their changes can be
read in the admin. The kitty ledger is append-only: entries are read-only here.
"""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from league.club.models import Club, Member, Season
from league.ledger.models import LedgerEntry, Payment
from league.reports.models import ReportBuild


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "rule_preset", "created_at")
    search_fields = ("name",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = (
        "club",
        "year",
        "starts_on",
        "ends_on",
        "rule_preset",
        "mark_value",
        "currency",
        "data_version",
    )
    list_filter = ("club", "currency", "rule_preset")
    search_fields = ("club__name", "year")
    readonly_fields = ("data_version",)


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "kind", "active", "is_secretary", "user")
    list_filter = ("club", "kind", "active", "is_secretary")
    search_fields = ("name", "user__username")
    autocomplete_fields = ("user",)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    """Read-only: corrections are reversal entries made by the ledger services."""

    list_display = (
        "booked_on",
        "member",
        "kind",
        "marks",
        "amount",
        "currency",
        "season",
        "source_key",
    )
    list_filter = ("club", "season", "kind", "currency")
    search_fields = ("member__name", "description", "source_key")
    date_hierarchy = "booked_on"
    list_select_related = ("member", "season", "season__club")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Payment)
class PaymentAdmin(SimpleHistoryAdmin):
    list_display = ("paid_on", "member", "amount", "currency", "method", "season", "note")
    list_filter = ("club", "season", "method", "currency")
    search_fields = ("member__name", "note")
    date_hierarchy = "paid_on"
    list_select_related = ("member", "season", "season__club")
    autocomplete_fields = ("member",)


@admin.register(ReportBuild)
class ReportBuildAdmin(admin.ModelAdmin):
    list_display = ("season", "status", "data_version", "attempts", "created_at", "updated_at")
    list_filter = ("status", "season__club")
    search_fields = ("season__club__name", "error")
    readonly_fields = ("created_at", "updated_at")
