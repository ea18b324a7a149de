"""The admin for evenings, games, Schock-Aus, rounds and Runden given: the secretary's
fallback (staff users only). Models with an audit trail use SimpleHistoryAdmin.

The admin writes the books only through the services (STYLE.md 1), so every change ends in
the one books-changed event: versions, the season report and the kitty ledger follow an
admin correction exactly as they follow one made on the pages.

- An evening is added and changed with its attendance (three lists, as on the evening
  page) through `evening_create` / `evening_update`, and deleted with its games through
  `evening_delete(with_games=True)`, which reverses every charge visibly.
- A game is added and changed with its Schock-Aus (in throwing order) through
  `game_record` / `game_update`, and deleted through `game_delete`.
- A Runde given is marked through `runde_mark_given` and taken back (deleted) through
  `runde_unmark`; it is never edited (take it back and mark it again).
- Attendance, Schock-Aus, rounds and throws are read-only here: they change through their
  evening or game ("View on site" opens the page).
- The audit trail's "revert" is off: an old version comes back through the same forms.

A refusal of a service (`BooksError`) rolls the whole change back and shows on the form,
the input kept; a refused delete or action shows as a message.
"""

from typing import cast

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from games.rounds.models import Round, RoundThrow
from league.club.admin_base import BooksAdmin, across_clubs_formfield, adopt
from league.club.models import Member
from league.runden.models import RundeGiven
from league.runden.services import runde_mark_given, runde_unmark


class ReadOnlyAdmin(BooksAdmin):
    """Records changed only through their evening or game: shown, never written here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- evenings ------------------------------------------------------------------------------

# The attendance lists of the evening form: field name, attendance role, kind of person.
ATTENDANCE_FIELDS = (
    ("present_members", Attendance.Role.MEMBER, Member.Kind.MEMBER),
    ("guests", Attendance.Role.GUEST, Member.Kind.GUEST),
    ("absent_members", Attendance.Role.ABSENT, Member.Kind.MEMBER),
)


def _people_field(label) -> forms.ModelMultipleChoiceField:
    return forms.ModelMultipleChoiceField(
        queryset=Member.objects.none(),
        required=False,
        label=label,
        widget=FilteredSelectMultiple(label, is_stacked=False),
    )


class EveningAdminForm(forms.ModelForm):
    """An evening with its attendance as three lists, as on the evening page."""

    present_members = _people_field(_("Present club members"))
    guests = _people_field(_("Guests"))
    absent_members = _people_field(_("Absent club members"))

    class Meta:
        model = Evening
        fields = ("club", "date", "secretary", "notes")
        formfield_callback = across_clubs_formfield

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        people = Member.objects.order_by("name")
        roles: dict[str, list[int]] = {}
        if self.instance.pk:
            people = people.filter(club_id=self.instance.club_id)
            for member_id, role in self.instance.attendances.values_list("member_id", "role"):
                roles.setdefault(role, []).append(member_id)
        for name, role, kind in ATTENDANCE_FIELDS:
            field = cast(forms.ModelMultipleChoiceField, self.fields[name])
            field.queryset = people.filter(kind=kind)
            field.initial = roles.get(role, [])

    def attendance(self) -> dict[str, list[Member]]:
        """The attendance keywords of `evening_create` / `evening_update`."""
        return {name: list(self.cleaned_data[name]) for name, _role, _kind in ATTENDANCE_FIELDS}


@admin.register(Evening)
class EveningAdmin(BooksAdmin):
    form = EveningAdminForm
    list_display = ("date", "club", "season", "secretary", "version")
    list_filter = ("club", "season")
    search_fields = ("club__name", "secretary__name", "notes")
    date_hierarchy = "date"
    list_select_related = ("club", "season", "season__club", "secretary")
    autocomplete_fields = ("secretary",)

    def get_fields(self, request, obj=None):
        return ["club", "season", "date", "secretary", "notes", "version"] + [
            name for name, _role, _kind in ATTENDANCE_FIELDS
        ]

    def get_readonly_fields(self, request, obj=None):
        return ("club", "season", "version") if obj else ("season", "version")

    def view_on_site(self, obj):
        return reverse("evening_detail", args=[obj.pk])

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        fields = {"date": data["date"], "secretary": data["secretary"], "notes": data["notes"]}
        if change:
            saved = evening_update(evening=obj, **fields, **form.attendance())
        else:
            saved = evening_create(club=data["club"], **fields, **form.attendance())
        adopt(obj, saved)

    def delete_model(self, request, obj):
        evening_delete(evening=obj, with_games=True)

    def delete_queryset(self, request, queryset):
        for evening in queryset:
            evening_delete(evening=evening, with_games=True)

    def get_deleted_objects(self, objs, request):
        # The service deletes the games, Schock-Aus, rounds and attendance itself (they are
        # read-only here), so only the evening's own delete permission counts. A Runde
        # given still protects its Schock-Aus.
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected


@admin.register(Attendance)
class AttendanceAdmin(ReadOnlyAdmin):
    list_display = ("evening", "member", "role")
    list_filter = ("role", "evening__club")
    search_fields = ("member__name",)
    list_select_related = ("evening", "evening__club", "member")

    def view_on_site(self, obj):
        return reverse("evening_detail", args=[obj.evening_id])


# --- games ---------------------------------------------------------------------------------


class SchockAusInline(admin.TabularInline):
    """The game's Schock-Aus in throwing order (`position`), saved through the game's
    service with the game."""

    model = SchockAus
    extra = 0
    fields = ("position", "thrower")
    autocomplete_fields = ("thrower",)


def _throwers(formsets) -> list[Member]:
    """The Schock-Aus throwers of the inline in throwing order (rows marked for deletion
    left out). The rows are written by the service, not by the formset."""
    rows = []
    for formset in formsets:
        for form in formset.forms:
            data = form.cleaned_data
            if data and not data.get("DELETE") and data.get("thrower"):
                rows.append((data["position"], data["thrower"]))
        # The admin's change message reads what the formset saved: nothing.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
    return [thrower for _position, thrower in sorted(rows, key=lambda row: row[0])]


@admin.register(Game)
class GameAdmin(BooksAdmin):
    list_display = ("evening", "number", "vorleger", "loser", "entry_mode")
    list_filter = ("evening__club", "entry_mode", "evening__season")
    search_fields = ("loser__name", "vorleger__name")
    list_select_related = ("evening", "evening__club", "vorleger", "loser")
    autocomplete_fields = ("evening", "vorleger", "loser")
    fields = ("evening", "number", "vorleger", "loser", "entry_mode", "version")
    inlines = (SchockAusInline,)

    def get_readonly_fields(self, request, obj=None):
        return ("evening", "entry_mode", "version") if obj else ("entry_mode", "version")

    def view_on_site(self, obj):
        return reverse("evening_detail", args=[obj.evening_id])

    def save_model(self, request, obj, form, change):
        """Nothing yet: the game is written with its Schock-Aus in `save_related`."""

    def save_related(self, request, form, formsets, change):
        data, throwers = form.cleaned_data, _throwers(formsets)
        people = {"loser": data["loser"], "vorleger": data["vorleger"], "number": data["number"]}
        if change:
            saved = game_update(game=form.instance, schock_aus_throwers=throwers, **people)
        else:
            saved = game_record(evening=data["evening"], schock_aus_throwers=throwers, **people)
        adopt(form.instance, saved)

    def delete_model(self, request, obj):
        game_delete(game=obj)

    def delete_queryset(self, request, queryset):
        for game in queryset.order_by("-number"):
            game_delete(game=game)

    def get_deleted_objects(self, objs, request):
        # `game_delete` deletes the Schock-Aus and rounds itself (read-only here).
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected


@admin.register(SchockAus)
class SchockAusAdmin(ReadOnlyAdmin):
    list_display = ("game", "position", "thrower")
    list_filter = ("game__evening__club",)
    search_fields = ("thrower__name",)
    list_select_related = ("game", "game__evening", "game__evening__club", "thrower")

    def view_on_site(self, obj):
        return reverse("evening_detail", args=[obj.game.evening_id])


class RoundThrowInline(admin.TabularInline):
    model = RoundThrow
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "phase", "vorleger", "loser", "deckel")
    list_filter = ("phase", "game__evening__club")
    search_fields = ("loser__name", "vorleger__name")
    list_select_related = ("game", "game__evening", "game__evening__club", "vorleger", "loser")
    inlines = (RoundThrowInline,)

    def view_on_site(self, obj):
        return reverse("game_rounds", args=[obj.game_id])


@admin.register(RoundThrow)
class RoundThrowAdmin(ReadOnlyAdmin):
    list_display = ("round", "position", "player", "die1", "die2", "die3", "attempts", "natural")
    list_filter = ("natural", "attempts")
    search_fields = ("player__name",)
    list_select_related = ("round", "round__game", "round__game__evening", "player")

    def view_on_site(self, obj):
        return reverse("game_rounds", args=[obj.round.game_id])


# --- Runden given --------------------------------------------------------------------------


@admin.register(RundeGiven)
class RundeGivenAdmin(BooksAdmin):
    """Marked through `runde_mark_given`, taken back (deleted) through `runde_unmark`;
    never edited: take it back and mark it again."""

    list_display = ("schock_aus", "given_on", "note", "recorded_by")
    list_filter = ("given_on",)
    search_fields = ("schock_aus__thrower__name", "note")
    list_select_related = ("schock_aus", "schock_aus__thrower", "schock_aus__game")
    autocomplete_fields = ("schock_aus",)
    fields = ("schock_aus", "given_on", "note", "recorded_by")
    readonly_fields = ("recorded_by",)

    def has_change_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = runde_mark_given(
            schock_aus=data["schock_aus"],
            given_on=data["given_on"],
            note=data["note"],
            recorded_by=request.user,
        )
        adopt(obj, saved)

    def delete_model(self, request, obj):
        runde_unmark(schock_aus=obj.schock_aus)

    def delete_queryset(self, request, queryset):
        for given in queryset.select_related("schock_aus"):
            runde_unmark(schock_aus=given.schock_aus)
