"""The auditors' sign-off of a closed season."""

from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.club.models import Club, Member, Season
from league.club.scoping import ScopedManager


class SeasonSignOff(models.Model):
    """A Kassenprüfer's signature on a closed season: who (`auditor`, a member with a
    login), when (`signed_at`, aware), and what: `fingerprint`, the sha256 hex digest of
    the season's figures at signing (`league.closing.selectors.season_fingerprint`), and
    the season's `data_version` then (for the record; validity is decided by the
    fingerprint, see `signature_state`).

    Never changed or deleted: a change of the books after the signature shows it as
    broken; the auditor may sign again after a new check.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    objects: ClassVar[models.Manager["SeasonSignOff"]] = ScopedManager(club="club")

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="sign_offs")
    auditor = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="sign_offs", verbose_name=_("auditor")
    )
    signed_at = models.DateTimeField(_("signed at"))
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    data_version = models.PositiveIntegerField(_("data version at signing"))

    class Meta:
        verbose_name = _("sign-off")
        verbose_name_plural = _("sign-offs")
        ordering = ["season", "signed_at", "id"]

    def __str__(self) -> str:
        return f"{self.season} {self.auditor} {self.signed_at:%Y-%m-%d}"
