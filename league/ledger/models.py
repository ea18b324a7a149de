"""Clubs, seasons, members, and the club's money: ledger, payments, Runden given, reports.

Sources: docs/rules.md section 5 (the club's books) and section 6 (rule sets per season).
"""

from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.club.history import ClubHistoricalRecords
from league.club.models import Club, ClubOneToOneField, Currency, Member, Season
from league.club.scoping import ScopedManager

PAYMENT_MIN = Decimal("0.01")
PAYMENT_MAX = Decimal("10000.00")
"""The most one payment may be, in the season's currency (DM or EUR). A member pays the
kitty a season's Marks, tens or hundreds; 10,000 is far above any real payment and keeps
every sum the books can reach small (the API and the payment page refuse
more, German message, `max_value`)."""


class LedgerEntry(models.Model):
    """One line of the kitty ledger: a charge, its reversal, or a payment received.

    `marks` is the integer number of Marks (charges positive, reversals and payments
    negative); `amount` is the money in the season's currency (same sign), `marks *
    season.mark_value` for charges. Entries are never edited or deleted: a correction is a
    reversal entry (`reverses`). Source: docs/rules.md section 5.
    """

    objects: ClassVar[models.Manager["LedgerEntry"]] = ScopedManager(club="club")

    class Kind(models.TextChoices):
        GAME_LOST = "game_lost", _("game lost")
        ABSENCE = "absence", _("absence")
        REVERSAL = "reversal", _("reversal")
        PAYMENT = "payment", _("payment")
        # Season close (league.closing): a member's open balance leaves the closed season
        # (carry_out) and opens the next season's statement (carry_in).
        CARRY_OUT = "carry_out", _("carried to next season")
        CARRY_IN = "carry_in", _("carried from last season")

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
    reverses = ClubOneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    payment = ClubOneToOneField(
        "Payment", on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entry"
    )
    booked_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Who wrote each line and when (entries are never changed, so one record each).
    history = ClubHistoricalRecords()

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
        constraints = [
            # An entry is reversed once, a payment booked once: per club (the composite
            # foreign keys of league migration 0027 keep both rows of one club).
            models.UniqueConstraint(
                fields=["club", "reverses"], name="ledger_entry_unique_reverses"
            ),
            models.UniqueConstraint(fields=["club", "payment"], name="ledger_entry_unique_payment"),
            # Lets the composite foreign key of a reversal refer to (entry, club) together.
            models.UniqueConstraint(fields=["id", "club"], name="ledger_entry_id_club"),
        ]

    def __str__(self) -> str:
        return f"{self.booked_on} {self.member} {self.kind} {self.marks}"


class Payment(models.Model):
    """Money received by the kitty from a member, in the season's currency."""

    objects: ClassVar[models.Manager["Payment"]] = ScopedManager(club="club")

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
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        ordering = ["-paid_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=Decimal("0")), name="payment_amount_positive"
            ),
            # Lets the composite foreign keys of its ledger entry and bank line refer to
            # (payment, club) together (league migration 0027).
            models.UniqueConstraint(fields=["id", "club"], name="payment_id_club"),
        ]

    def __str__(self) -> str:
        return f"{self.paid_on} {self.member} {self.amount} {self.currency}"
