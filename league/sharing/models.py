"""Screens on the wall: a secret link that shows an evening and the standings on a TV or
tablet at the pub, without a login.

The link's token is shown once, when it is made; the database keeps only its SHA-256
(`token_hash`), so a copy of the database opens no screen. Audited (django-simple-history):
who made or revoked a link, and when.
"""

import hashlib
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.club.history import ClubHistoricalRecords
from league.club.models import Club
from league.club.scoping import ScopedManager


class WallScreen(models.Model):
    """One secret link of a club's wall screen: ``name`` (what the secretary calls it,
    e.g. "Fernseher im Vereinslokal", at most 60 characters), ``token_hash`` (SHA-256 hex of
    the link's token, unique in the club), who made it and when, and ``revoked_at`` (None while the
    link works; a revoked link is a 404)."""

    objects: ClassVar[models.Manager["WallScreen"]] = ScopedManager(club="club")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="wall_screens")
    name = models.CharField(_("name"), max_length=60)
    token_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    history = ClubHistoricalRecords()

    class Meta:
        verbose_name = _("wall screen")
        verbose_name_plural = _("wall screens")
        ordering = ("-created_at", "-pk")
        constraints = [
            models.UniqueConstraint(fields=["club", "token_hash"], name="wall_screen_unique_token"),
        ]
        # A link made before its token named the club is opened by its token alone.
        indexes = [models.Index(fields=["token_hash"], name="wall_screen_token_hash")]

    def __str__(self) -> str:
        return self.name


def wall_token_hash(token: str) -> str:
    """The SHA-256 hex digest of a wall link's token, as stored in `WallScreen.token_hash`."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: The length of a token made before tokens named their club (URL-safe base64 of 32 random
#: bytes, nothing else): such a link is found by its hash alone.
UNNAMED_TOKEN_LENGTH = 43


def wall_token_club(token: str) -> int | None:
    """The id of the club a wall link's token names (`<club id>-<secret>`, as
    league.sharing.services `wall_screen_create` makes them), so the link is found among
    that club's rows only (one node when the tables are distributed by club, README
    "Distributing by club (Citus)"); None for a token of the older form
    (UNNAMED_TOKEN_LENGTH characters, no club) or one that names none."""
    head, dash, secret = token.partition("-")
    if len(token) == UNNAMED_TOKEN_LENGTH or not dash or not secret:
        return None
    if not (head.isascii() and head.isdigit()) or len(head) > 18:
        return None
    return int(head)
