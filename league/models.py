"""The league app's models, gathered for Django from the packages that own them.

Code imports a model from its own package (`league.club.models`, `league.ledger.models`, ...);
only Django's app loading reads this module.
"""

from league.club.models import RULE_PRESET_CHOICES, Club, Currency, Member, Season
from league.ledger.models import LedgerEntry, Payment
from league.reports.models import ReportBuild
from league.runden.models import RundeGiven

__all__ = [
    "RULE_PRESET_CHOICES",
    "Club",
    "Currency",
    "LedgerEntry",
    "Member",
    "Payment",
    "ReportBuild",
    "RundeGiven",
    "Season",
]
