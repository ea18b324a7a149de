"""Clubs, seasons, members, and the club's money: ledger, payments, Runden given, reports.

Sources: docs/rules.md section 5 (the club's books) and section 6 (rule sets per season).
"""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.club.models import Club, Season
from league.club.scoping import ScopedManager


class ReportBuild(models.Model):
    """A season report PDF built by a Celery task.

    `data_version` is the season's `data_version` the file was built from; when the season
    changes, the stored file is stale and a new build is needed.
    """

    objects: ClassVar[models.Manager["ReportBuild"]] = ScopedManager(club="club")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        BUILDING = "building", _("building")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
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
