"""Runden given: the record that the Runde owed for a Schock-Aus was given (docs/rules.md 5).

The table kept its name from the games app it was first written in (`games_rundegiven`);
league migration 0003 took the model over without touching the database.
"""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.club.history import ClubHistoricalRecords
from league.club.models import Club, ClubOneToOneField
from league.club.scoping import ScopedManager


class RundeGiven(models.Model):
    """The record that the Runde owed for a Schock-Aus (docs/rules.md section 5) was given."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["RundeGiven"]] = ScopedManager(club="club")

    schock_aus = ClubOneToOneField(
        "games.SchockAus", on_delete=models.PROTECT, related_name="runde_given"
    )
    given_on = models.DateField(_("given on"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    history = ClubHistoricalRecords(table_name="games_historicalrundegiven")

    class Meta:
        verbose_name = _("Runde given")
        verbose_name_plural = _("Runden given")
        db_table = "games_rundegiven"
        constraints = [
            # One Runde given per Schock-Aus, per club (the composite foreign key of league
            # migration 0026 keeps the Schock-Aus one of the row's club).
            models.UniqueConstraint(
                fields=["club", "schock_aus"], name="runde_given_unique_schock_aus"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.schock_aus} {self.given_on}"
