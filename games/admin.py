"""The admin for evenings, games, Schock-Aus, rounds and Runden given: the secretary's
fallback (staff users only). Models with an audit trail use SimpleHistoryAdmin.

The admin writes rows directly, not through the services: the database still refuses what
must never happen (constraints and triggers, games migration 0002), and every save or
delete of an evening, attendance, game or Schock-Aus runs the services' `books_changed`
afterwards, so versions, stale reports and the kitty ledger follow an admin correction
exactly as they follow one made on the pages.
"""

from django.contrib import admin
from django.db import transaction
from simple_history.admin import SimpleHistoryAdmin

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.services import evening_changed
from games.rounds.models import Round, RoundThrow
from league.ledger.services import ledger_sync_evening_deleted
from league.runden.models import RundeGiven


def _evening_id(obj) -> int:
    if isinstance(obj, Evening):
        return obj.pk
    if isinstance(obj, SchockAus):
        return Game.objects.values_list("evening_id", flat=True).get(pk=obj.game_id)
    return obj.evening_id


class BooksAdminMixin:
    """Runs `books_changed` for the evening an admin change touched (in the same
    transaction as the change)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        evening_changed(evening=Evening.objects.get(pk=_evening_id(form.instance)))

    @transaction.atomic
    def delete_model(self, request, obj):
        evening_id = _evening_id(obj)
        super().delete_model(request, obj)
        self._after_delete(evening_id)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        evening_ids = {_evening_id(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for evening_id in evening_ids:
            self._after_delete(evening_id)

    @staticmethod
    def _after_delete(evening_id: int) -> None:
        evening = Evening.objects.filter(pk=evening_id).first()
        if evening is None:
            ledger_sync_evening_deleted(evening_id=evening_id)
        else:
            evening_changed(evening=evening)


class AttendanceInline(admin.TabularInline):
    model = Attendance
    extra = 0
    autocomplete_fields = ("member",)


class SchockAusInline(admin.TabularInline):
    model = SchockAus
    extra = 0
    autocomplete_fields = ("thrower",)


class RoundThrowInline(admin.TabularInline):
    model = RoundThrow
    extra = 0


@admin.register(Evening)
class EveningAdmin(BooksAdminMixin, SimpleHistoryAdmin):
    list_display = ("date", "club", "season", "secretary", "version")
    list_filter = ("club", "season")
    search_fields = ("club__name", "secretary__name", "notes")
    date_hierarchy = "date"
    list_select_related = ("club", "season", "season__club", "secretary")
    autocomplete_fields = ("secretary",)
    readonly_fields = ("version",)
    inlines = (AttendanceInline,)


@admin.register(Attendance)
class AttendanceAdmin(BooksAdminMixin, SimpleHistoryAdmin):
    list_display = ("evening", "member", "role")
    list_filter = ("role", "evening__club")
    search_fields = ("member__name",)
    list_select_related = ("evening", "evening__club", "member")
    autocomplete_fields = ("member",)


@admin.register(Game)
class GameAdmin(BooksAdminMixin, SimpleHistoryAdmin):
    list_display = ("evening", "number", "vorleger", "loser", "entry_mode")
    list_filter = ("evening__club", "entry_mode", "evening__season")
    search_fields = ("loser__name", "vorleger__name")
    list_select_related = ("evening", "evening__club", "vorleger", "loser")
    autocomplete_fields = ("vorleger", "loser")
    readonly_fields = ("version",)
    inlines = (SchockAusInline,)


@admin.register(SchockAus)
class SchockAusAdmin(BooksAdminMixin, SimpleHistoryAdmin):
    list_display = ("game", "position", "thrower")
    list_filter = ("game__evening__club",)
    search_fields = ("thrower__name",)
    list_select_related = ("game", "game__evening", "game__evening__club", "thrower")
    autocomplete_fields = ("thrower",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "phase", "vorleger", "loser", "deckel")
    list_filter = ("phase", "game__evening__club")
    search_fields = ("loser__name", "vorleger__name")
    list_select_related = ("game", "game__evening", "game__evening__club", "vorleger", "loser")
    inlines = (RoundThrowInline,)


@admin.register(RoundThrow)
class RoundThrowAdmin(admin.ModelAdmin):
    list_display = ("round", "position", "player", "die1", "die2", "die3", "attempts", "natural")
    list_filter = ("natural", "attempts")
    search_fields = ("player__name",)
    list_select_related = ("round", "round__game", "round__game__evening", "player")


@admin.register(RundeGiven)
class RundeGivenAdmin(SimpleHistoryAdmin):
    list_display = ("schock_aus", "given_on", "note", "recorded_by")
    list_filter = ("given_on",)
    search_fields = ("schock_aus__thrower__name", "note")
    list_select_related = ("schock_aus", "schock_aus__thrower", "schock_aus__game")
