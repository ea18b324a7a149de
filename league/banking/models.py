"""The club's bank account: where members pay the kitty by transfer.

Audited (django-simple-history): who changed holder, IBAN or BIC and when.
"""

from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.club.history import ClubHistoricalRecords
from league.club.models import Club, ClubOneToOneField
from league.club.scoping import ScopedManager


class ClubBankAccount(models.Model):
    """The one bank account of a club: ``holder`` (at most 70 characters, the EPC limit),
    ``iban`` (stored compact, upper case, validated with schwifty), ``bic`` (8 or 11
    characters, may be empty: a SEPA transfer in the EEA needs none)."""

    objects: ClassVar[models.Manager["ClubBankAccount"]] = ScopedManager(club="club")

    club = models.OneToOneField(Club, on_delete=models.PROTECT, related_name="bank_account")
    holder = models.CharField(_("account holder"), max_length=70)
    iban = models.CharField(_("IBAN"), max_length=34)
    bic = models.CharField(_("BIC"), max_length=11, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("club bank account")
        verbose_name_plural = _("club bank accounts")

    def __str__(self) -> str:
        return f"{self.holder} {self.iban}"


class BankStatementLine(models.Model):
    """A line of an uploaded bank statement booked as a payment, or one ``part`` of it.

    ``line_hash`` is the line's key: sha256 of the club and the bank's own reference
    (EndToEndId, AcctSvcrRef) with date and amount, or, where the bank gives none, of the
    line's normalised fields (date, name, reference, amount). A line that settles several
    open amounts (oldest season first) is booked as several payments, parts 0, 1, ...;
    (club, line_hash, part) is unique, and every booking writes part 0 first: the same bank
    line is never booked twice, whether the statement is uploaded again or two
    secretaries confirm at once. ``amount`` is the part's amount (Decimal, the season's
    currency).
    """

    objects: ClassVar[models.Manager["BankStatementLine"]] = ScopedManager(club="club")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="bank_lines")
    line_hash = models.CharField(max_length=64)
    part = models.PositiveSmallIntegerField(default=0)
    booked_on = models.DateField(_("booking date"))
    name = models.CharField(_("name"), max_length=200, blank=True)
    reference = models.CharField(_("reference"), max_length=400, blank=True)
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    payment = ClubOneToOneField(
        "league.Payment", on_delete=models.PROTECT, related_name="bank_line"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("bank statement line")
        verbose_name_plural = _("bank statement lines")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "line_hash", "part"], name="bank_line_unique_part_per_club"
            ),
            # A payment comes from one bank line (part), per club: the composite foreign key
            # of league migration 0027 keeps the payment one of the line's club.
            models.UniqueConstraint(fields=["club", "payment"], name="bank_line_unique_payment"),
        ]

    def __str__(self) -> str:
        return f"{self.booked_on} {self.amount} {self.name}"


class PaymentReminder(models.Model):
    """A payment reminder e-mailed to a member for ``month`` (its first day): at most one
    per member and month (unique), so a task run twice, or by two workers, mails once."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["PaymentReminder"]] = ScopedManager(club="club")

    member = models.ForeignKey(
        "league.Member", on_delete=models.CASCADE, related_name="payment_reminders_sent"
    )
    month = models.DateField(_("month"))
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("payment reminder")
        verbose_name_plural = _("payment reminders")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member", "month"], name="payment_reminder_once_a_month"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.month:%m.%Y}"


class NotificationKind(models.TextChoices):
    """What a person is told of (league/banking/notifications.py)."""

    OPEN_AMOUNT = "open_amount", _("open amount")
    EVENING_TOMORROW = "evening_tomorrow", _("evening tomorrow")
    OBJECTION_ANSWERED = "objection_answered", _("objection answered")
    SEASON_CLOSED = "season_closed", _("season closed")


class NotificationChoice(models.Model):
    """How a person wants to hear of one kind of message: by e-mail, by web push, both or
    neither. A person without a row for a kind gets both (where they can: an e-mail
    address, a push subscription)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["NotificationChoice"]] = ScopedManager(club="club")

    member = models.ForeignKey(
        "league.Member", on_delete=models.CASCADE, related_name="notification_choices"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=NotificationKind.choices)
    email = models.BooleanField(_("by e-mail"), default=True)
    push = models.BooleanField(_("by push message"), default=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("notification choice")
        verbose_name_plural = _("notification choices")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member", "kind"], name="notification_choice_once_per_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.kind}"


class PushSubscription(models.Model):
    """A browser's web push subscription (its PushSubscription JSON: `endpoint` and the
    keys `p256dh` and `auth`) for a person's login. One row per club and endpoint; a subscription
    the push service reports gone (404, 410) is deleted."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["PushSubscription"]] = ScopedManager(club="club")

    member = models.ForeignKey(
        "league.Member", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "endpoint"], name="push_subscription_unique_endpoint"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.endpoint[:40]}"


class NotificationSent(models.Model):
    """A message of `kind` sent to a person in the week starting `period` (a Monday): at
    most one per person, kind and week (unique), so a task run twice, or by two workers,
    sends once. `channels` names how it went ("email", "push" or "email,push")."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["NotificationSent"]] = ScopedManager(club="club")

    member = models.ForeignKey(
        "league.Member", on_delete=models.CASCADE, related_name="notifications_sent"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=NotificationKind.choices)
    period = models.DateField(_("week"))
    channels = models.CharField(max_length=20)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("notification sent")
        verbose_name_plural = _("notifications sent")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member", "kind", "period"],
                name="notification_once_per_kind_and_week",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.kind} {self.period}"
