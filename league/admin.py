"""The admin for the league's models: the secretary's fallback (staff users only).

Models with an audit trail (`history`) use SimpleHistoryAdmin, so their changes can be
read in the admin. The admin writes the books only through the services (STYLE.md 1), so
every change ends in the one books-changed event:

- A season is added through `season_create` (Mark value and currency follow from the
  year, docs/rules.md 5) and changed through `season_update`: a new Mark value re-books the
  season's charges by reversal. Club, year and currency stay.
- A payment is added through `payment_record` and corrected by reversal, never edited or
  deleted: the action "cancel" calls `payment_cancel` (docs/rules.md 5).
- The kitty ledger is append-only: its entries are read-only here.

A refusal of a service (`BooksError`) rolls the change back and shows on the form, the
input kept.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from games.evenings.models import Objection, PlannedEvening
from league.audit.selectors import clubs_overview
from league.banking.models import (
    BankStatementLine,
    ClubBankAccount,
    NotificationChoice,
    NotificationSent,
    PaymentReminder,
    PushSubscription,
)
from league.closing.models import SeasonSignOff
from league.club.accounts.services import password_set
from league.club.admin_base import BooksAdmin, across_clubs_formfield, adopt
from league.club.books import register_changed, register_changed_of_login
from league.club.errors import BooksError
from league.club.models import Club, ClubSignup, IdempotencyKey, Member, Season
from league.club.services import (
    club_suspend,
    member_create,
    member_login_set,
    member_update,
    season_create,
    season_update,
)
from league.ledger.models import LedgerEntry, Payment
from league.ledger.services import payment_cancel, payment_record
from league.reports.models import ReportBuild
from league.sharing.models import WallScreen


@admin.register(Club)
class ClubAdmin(SimpleHistoryAdmin):
    """The operator's list of clubs: people, seasons and games counted, the last activity
    (an evening or a game changed), suspended or not; the actions suspend a club (its
    pages and API answer 403, nothing is deleted) and lift it again."""

    list_display = (
        "name",
        "rule_preset",
        "created_at",
        "people",
        "seasons",
        "games",
        "last_activity",
        "suspended_at",
    )
    list_filter = (("suspended_at", admin.EmptyFieldListFilter),)
    search_fields = ("name",)
    # The statutes change through league.club.services (checked, audited): the season's
    # page /saison/<jahr>/satzung/ or the API, never as raw JSON here. A suspension only
    # through the actions (`club_suspend`).
    readonly_fields = ("statutes", "suspended_at")
    actions = ("suspend", "resume")

    def get_queryset(self, request):
        return clubs_overview()

    @admin.display(description=_("people"), ordering="people_count")
    def people(self, obj) -> int:
        return obj.people_count

    @admin.display(description=_("seasons"), ordering="season_count")
    def seasons(self, obj) -> int:
        return obj.season_count

    @admin.display(description=_("games"), ordering="game_count")
    def games(self, obj) -> int:
        return obj.game_count

    @admin.display(description=_("last activity"), ordering="last_activity")
    def last_activity(self, obj):
        return obj.last_activity

    @admin.action(description=_("Suspend the selected clubs"))
    def suspend(self, request, queryset):
        for club in queryset:
            club_suspend(club=club, suspended=True)
        self.message_user(request, _("Suspended: %(n)s") % {"n": len(queryset)})

    @admin.action(description=_("Lift the suspension of the selected clubs"))
    def resume(self, request, queryset):
        for club in queryset:
            club_suspend(club=club, suspended=False)
        self.message_user(request, _("Suspension lifted: %(n)s") % {"n": len(queryset)})

    def save_model(self, request, obj, form, change):
        # The club's name shows on every page: a change of the register (its version).
        super().save_model(request, obj, form, change)
        register_changed(club=obj.pk)


@admin.register(Season)
class SeasonAdmin(BooksAdmin):
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

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["club", "year", "starts_on", "ends_on", "rule_preset"]
        return [
            "club",
            "year",
            "currency",
            "mark_value",
            "rule_preset",
            "starts_on",
            "ends_on",
            "data_version",
        ]

    def get_readonly_fields(self, request, obj=None):
        return ("club", "year", "currency", "data_version") if obj else ()

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        fields = {
            "rule_preset": data["rule_preset"],
            "starts_on": data["starts_on"],
            "ends_on": data["ends_on"],
        }
        if change:
            saved = season_update(season=obj, mark_value=data["mark_value"], **fields)
        else:
            saved = season_create(club=data["club"], year=data["year"], **fields)
        adopt(obj, saved)

    def has_delete_permission(self, request, obj=None):
        # A season's books are kept for ever (docs/rules.md 5); the report's data version is
        # summed over the club's seasons, so a deleted season would lower it.
        return False


@admin.register(Member)
class MemberAdmin(BooksAdmin):
    list_display = ("name", "club", "kind", "active", "is_secretary", "user")
    list_filter = ("club", "kind", "active", "is_secretary")
    search_fields = ("name", "user__username")
    autocomplete_fields = ("user",)
    # Set only by the holder's own password flows (league.club.accounts.services.password_set).
    readonly_fields = ("password_set_by_holder", "calendar_version")

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if not change:
            created = member_create(
                club=data["club"],
                name=data["name"],
                kind=data["kind"],
                is_secretary=data["is_secretary"],
            )
            obj.pk = created.pk
        saved = member_update(
            member=obj,
            name=data["name"],
            kind=data["kind"],
            active=data["active"],
            is_secretary=data["is_secretary"],
        )
        if "user" in form.changed_data or not change:
            # Nobody can tell who chose the password of a login handed over here.
            saved.password_set_by_holder = False
            member_login_set(person=saved, user=data["user"], also_saved=["password_set_by_holder"])
        adopt(obj, saved)

    def has_delete_permission(self, request, obj=None):
        # Every lost game and Schock-Aus of a person is kept for ever (docs/rules.md 5).
        return False


class ReadOnlyMixin:
    """An admin that shows rows and never writes them: they are written through the
    services (and audited there), so the admin cannot go around them."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
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


PAYMENT_ADD_FIELDS = ["member", "season", "amount", "paid_on", "method", "note"]


class PaymentAddForm(forms.ModelForm):
    """A payment received: the season may be left empty (the one containing the date)."""

    season = forms.ModelChoiceField(
        # The operator's admin works across clubs (league.club.middleware.ClubScopeMiddleware).
        queryset=Season._base_manager.select_related("club"),
        required=False,
        label=Season._meta.verbose_name,
        help_text=_("Empty: the season of the date."),
    )

    class Meta:
        model = Payment
        fields = PAYMENT_ADD_FIELDS
        formfield_callback = across_clubs_formfield


@admin.register(Payment)
class PaymentAdmin(BooksAdmin):
    """Recorded through `payment_record`, corrected by reversal (`payment_cancel`, the
    action "cancel"), never edited or deleted (docs/rules.md 5)."""

    list_display = (
        "paid_on",
        "member",
        "amount",
        "currency",
        "method",
        "season",
        "note",
        "cancelled",
    )
    list_filter = ("club", "season", "method", "currency")
    search_fields = ("member__name", "note")
    date_hierarchy = "paid_on"
    list_select_related = ("member", "season", "season__club")
    autocomplete_fields = ("member",)
    actions = ("cancel_payments",)

    def get_queryset(self, request):
        reversed_ = LedgerEntry.objects.filter(reverses__payment=OuterRef("pk"))
        return super().get_queryset(request).annotate(is_cancelled=Exists(reversed_))

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = PaymentAddForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return list(PAYMENT_ADD_FIELDS)
        return [
            "club",
            "season",
            "member",
            "amount",
            "currency",
            "paid_on",
            "method",
            "note",
            "created_by",
            "created_at",
            "cancelled",
        ]

    @admin.display(boolean=True, description=_("cancelled"))
    def cancelled(self, obj) -> bool:
        return bool(getattr(obj, "is_cancelled", False))

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_cancel_permission(self, request) -> bool:
        return request.user.has_perm("league.change_payment")

    def revert_disabled(self, request, obj=None):
        return True

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":  # a revert would edit a payment: cancel it instead
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        saved = payment_record(
            member=data["member"],
            amount=data["amount"],
            paid_on=data["paid_on"],
            method=data["method"],
            note=data["note"],
            season=data["season"],
            created_by=request.user,
        )
        adopt(obj, saved)

    @admin.action(
        description=_("Cancel the selected payments (by reversal)"), permissions=["cancel"]
    )
    def cancel_payments(self, request, queryset):
        cancelled = 0
        for payment in queryset:
            try:
                payment_cancel(payment=payment)
            except BooksError as refusal:
                self.message_user(request, f"{payment}: {refusal.message}", messages.WARNING)
            else:
                cancelled += 1
        if cancelled:
            text = _("Payments cancelled: %(count)s.") % {"count": cancelled}
            self.message_user(request, text, messages.SUCCESS)


@admin.register(ReportBuild)
class ReportBuildAdmin(admin.ModelAdmin):
    list_display = ("season", "status", "data_version", "attempts", "created_at", "updated_at")
    list_filter = ("status", "season__club")
    search_fields = ("season__club__name", "error")
    # The club is the season's (set when the build is saved).
    readonly_fields = ("club", "created_at", "updated_at")


class ReadOnlyAdmin(ReadOnlyMixin, SimpleHistoryAdmin):
    """Shown, never written here: the club's pages write these through their services
    (bank account: the secretary's page; bank lines: the bank-payment matching, which books
    the payment; reminders: the monthly task), so the admin cannot go around them."""


@admin.register(ClubBankAccount)
class ClubBankAccountAdmin(ReadOnlyAdmin):
    list_display = ("club", "holder", "iban", "bic", "updated_at")
    search_fields = ("club__name", "holder", "iban")


@admin.register(BankStatementLine)
class BankStatementLineAdmin(ReadOnlyAdmin):
    list_display = ("booked_on", "club", "name", "amount", "payment")
    list_filter = ("club",)
    search_fields = ("name", "reference")
    list_select_related = ("club", "payment")


@admin.register(WallScreen)
class WallScreenAdmin(ReadOnlyAdmin):
    """Read-only: the secretary makes and revokes wall links on /verein/tafel/ (the token
    is never stored, only its hash)."""

    list_display = ("club", "name", "created_at", "created_by", "revoked_at")
    list_filter = ("club",)
    exclude = ("token_hash",)


@admin.register(PaymentReminder)
class PaymentReminderAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: a reminder is a record that an e-mail went out."""

    list_display = ("month", "member", "amount", "sent_at")
    search_fields = ("member__name",)
    list_select_related = ("member",)


@admin.register(ClubSignup)
class ClubSignupAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The sign-ups at /registrieren/ (read only): requested, confirmed or not."""

    list_display = ("club_name", "email", "address", "created_at", "confirmed_at")
    search_fields = ("club_name", "email")


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: the answers kept for a retried write (league/club/idempotency.py), for an
    operator asking why a retry was answered as it was; kept 24 hours, written only by the
    API and the payment form."""

    list_display = ("created_at", "user", "club", "key", "status")
    search_fields = ("key", "user__username")
    list_select_related = ("user", "club")


@admin.register(SeasonSignOff)
class SeasonSignOffAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: a Kassenprüfer signs on the season close page (league.closing), which
    takes the fingerprint of the figures; the admin cannot sign or alter a signature."""

    list_display = ("season", "auditor", "signed_at", "data_version")
    list_filter = ("season__club",)
    search_fields = ("auditor__name",)
    list_select_related = ("season", "season__club", "auditor")


class PasswordSetForm(AdminPasswordChangeForm):
    """The admin's "change password" of a login, through the one path every password
    takes (`password_set`): the login's API tokens and other sessions go, and the person
    is recorded as not having chosen it (`by_holder` False)."""

    def save(self, commit=True):
        usable = self.cleaned_data.get("set_usable_password", True)
        password = self.cleaned_data["password1"] if usable else None
        password_set(user=self.user, password=password, by_holder=False)
        return self.user


class LoginAdmin(UserAdmin):
    """Django's user admin, its password change through `password_set`. Deleting a login
    is a change of its club's register (`register_changed_of_login`, before the row goes:
    the history and the logins page name the login), and takes the login's idempotency
    keys with it (the answers kept for its retried writes), which the admin only shows."""

    change_password_form = PasswordSetForm

    def get_deleted_objects(self, objs, request):
        """Django's, but the idempotency keys need no permission of their own: their admin
        is read-only, and Django would refuse to delete any login that ever wrote through
        the API."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed.discard(IdempotencyKey._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def delete_model(self, request, obj):
        with transaction.atomic():
            register_changed_of_login(user=obj)
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for user in queryset:
                register_changed_of_login(user=user)
            super().delete_queryset(request, queryset)


admin.site.unregister(User)
admin.site.register(User, LoginAdmin)


@admin.register(Objection)
class ObjectionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Members' objections to a game and the secretary's answers (read-only: they are
    raised and answered through the evening's page and API, audited)."""

    list_display = ("evening", "game_number", "raised_by", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("text", "answer", "raised_by__name")


@admin.register(PlannedEvening)
class PlannedEveningAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The calendar's planned evenings (read-only: the secretary plans them on
    /abende/termine/)."""

    list_display = ("club", "date", "starts_at", "cancelled")
    search_fields = ("club__name",)


@admin.register(NotificationChoice)
class NotificationChoiceAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Each person's choice of reminders per kind (read-only: the person's own page)."""

    list_display = ("member", "kind", "email", "push")
    search_fields = ("member__name",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The browsers a person receives push messages in (read-only)."""

    list_display = ("member", "created_at")
    search_fields = ("member__name",)


@admin.register(NotificationSent)
class NotificationSentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The reminders sent, one per person, kind and week (read-only)."""

    list_display = ("member", "kind", "period", "channels", "sent_at")
    search_fields = ("member__name",)
