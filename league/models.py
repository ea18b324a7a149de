"""The league app's models, gathered for Django from the packages that own them.

Code imports a model from its own package (`league.club.models`, `league.ledger.models`, ...);
only Django's app loading reads this module.
"""

from league.banking.models import (
    BankStatementLine,
    ClubBankAccount,
    NotificationChoice,
    NotificationSent,
    PaymentReminder,
    PushSubscription,
)
from league.closing.models import SeasonSignOff
from league.club.models import (
    RULE_PRESET_CHOICES,
    Club,
    ClubSignup,
    Currency,
    IdempotencyKey,
    LoginClub,
    Member,
    Season,
)
from league.ledger.models import LedgerEntry, Payment
from league.reports.models import ReportBuild
from league.runden.models import RundeGiven
from league.sharing.models import WallScreen

__all__ = [
    "BankStatementLine",
    "RULE_PRESET_CHOICES",
    "Club",
    "ClubBankAccount",
    "ClubSignup",
    "Currency",
    "IdempotencyKey",
    "LedgerEntry",
    "LoginClub",
    "Member",
    "NotificationChoice",
    "NotificationSent",
    "Payment",
    "PaymentReminder",
    "PushSubscription",
    "ReportBuild",
    "RundeGiven",
    "Season",
    "SeasonSignOff",
    "WallScreen",
]
