"""Clubs, seasons, members, and the club's money: ledger, payments, Runden given, reports.

Sources: RULES.md section 5 (the club's books) and section 6 (rule sets per season).
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

# RULES.md section 6: the preset names. Kept here as plain choices so that the database
# never depends on importing the rules module's objects.
RULE_PRESET_CHOICES = [
    ("club", _("Club rules (seed 003)")),
    ("regelwerk2019", _("Regelwerk 2019 (seed 000)")),
    ("stammtisch", _("Stammtisch (seed 001)")),
    ("meisterschaft", _("Meisterschaft (seed 002)")),
    ("app", _("App rules (seed 004)")),
]


class Currency(models.TextChoices):
    DM = "DM", "DM"
    EUR = "EUR", "EUR"


class Club(models.Model):
    """A Schocken club. Each club sees only its own data."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    rule_preset = models.CharField(
        _("rule set"), max_length=20, choices=RULE_PRESET_CHOICES, default="club"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A championship period of a club (RULES.md section 5), with its rule set and Mark value.

    `mark_value` is the money one Mark is worth in `currency`: 1.00 DM up to and including
    2001, 0.50 EUR from 2002 (see `league.services.seasons.default_mark_value`).
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    year = models.PositiveIntegerField(_("year"))
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    rule_preset = models.CharField(
        _("rule set"), max_length=20, choices=RULE_PRESET_CHOICES, default="club"
    )
    mark_value = models.DecimalField(_("value of one Mark"), max_digits=6, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices)
    data_version = models.PositiveIntegerField(
        default=0, help_text="Bumped whenever the season's records change (report cache key)."
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club", "-year"]
        constraints = [
            models.UniqueConstraint(fields=["club", "year"], name="season_unique_year_per_club"),
            models.CheckConstraint(
                condition=Q(starts_on__lte=models.F("ends_on")), name="season_dates_ordered"
            ),
            models.CheckConstraint(
                condition=Q(mark_value__gt=Decimal("0")), name="season_mark_value_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.year}"


class Member(models.Model):
    """A person of a club: a club member or a guest, with an optional login.

    `is_secretary` gives write access to the club's books (the Buchführer).
    """

    class Kind(models.TextChoices):
        MEMBER = "member", _("club member")
        GUEST = "guest", _("guest")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members")
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.MEMBER)
    active = models.BooleanField(_("active"), default=True)
    is_secretary = models.BooleanField(_("secretary"), default=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="member",
        verbose_name=_("login"),
    )

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="member_unique_name_per_club"),
            # Lets other tables refer to (member, club) together, so the database can refuse
            # a person of another club (see games migrations).
            models.UniqueConstraint(fields=["id", "club"], name="member_id_club"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.kind == self.Kind.GUEST


class LedgerEntry(models.Model):
    """One line of the kitty ledger: a charge, its reversal, or a payment received.

    `marks` is the integer number of Marks (charges positive, reversals and payments
    negative); `amount` is the money in the season's currency (same sign), `marks *
    season.mark_value` for charges. Entries are never edited or deleted: a correction is a
    reversal entry (`reverses`). Source: issue 6, RULES.md section 5.
    """

    class Kind(models.TextChoices):
        GAME_LOST = "game_lost", _("game lost")
        ABSENCE = "absence", _("absence")
        REVERSAL = "reversal", _("reversal")
        PAYMENT = "payment", _("payment")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="ledger_entries")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="ledger_entries")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="ledger_entries")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    marks = models.IntegerField(default=0)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3, choices=Currency.choices)
    # What caused the entry. Plain ids survive the deletion of a game (the entry stays).
    evening_id_ref = models.BigIntegerField(null=True, blank=True)
    game_id_ref = models.BigIntegerField(null=True, blank=True)
    source_key = models.CharField(
        max_length=64,
        blank=True,
        help_text="Stable key of the record that caused a charge, e.g. 'game:12' or "
        "'absence:3:7' (evening, member).",
    )
    description = models.CharField(max_length=200, blank=True)
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    payment = models.OneToOneField(
        "Payment", on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entry"
    )
    booked_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["booked_on", "id"]
        indexes = [
            models.Index(fields=["member", "booked_on"]),
            models.Index(fields=["source_key"]),
            # ledger_sync_evening reads an evening's entries after every change.
            models.Index(fields=["evening_id_ref"], name="ledger_entry_evening_ref"),
        ]

    def __str__(self) -> str:
        return f"{self.booked_on} {self.member} {self.kind} {self.marks}"


class Payment(models.Model):
    """Money received by the kitty from a member, in the season's currency."""

    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        TRANSFER = "transfer", _("bank transfer")
        OTHER = "other", _("other")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="payments")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="payments")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3, choices=Currency.choices)
    paid_on = models.DateField(_("date"))
    method = models.CharField(_("how"), max_length=10, choices=Method.choices, default="cash")
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        ordering = ["-paid_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=Decimal("0")), name="payment_amount_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.paid_on} {self.member} {self.amount} {self.currency}"


class ReportBuild(models.Model):
    """A season report PDF built by a Celery task (issue 5).

    `data_version` is the season's `data_version` the file was built from; when the season
    changes, the stored file is stale and a new build is needed.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        BUILDING = "building", _("building")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="report_builds")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    data_version = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="reports/", blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.season} {self.status}"
