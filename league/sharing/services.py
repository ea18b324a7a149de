"""Writes of the wall screens' links (league/sharing/models.py): make one, revoke one.

Not the books: no Marks or money move, so no books-changed event, and the wall's kept
read does not depend on the links (a link is looked up on every request, before the kept
read). Audited by django-simple-history (the request's user through its middleware).
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from league.club.errors import BooksError
from league.club.models import Club
from league.sharing.models import WallScreen, wall_token_hash

MAX_SCREENS = 50
"""How many working links a club may have at once."""

TOKEN_BYTES = 32
"""The token's randomness in bytes (43 characters of URL-safe base64, after the club's id
and a dash: league.sharing.models `wall_token_club`)."""


def wall_screen_create(
    *, club: Club, name: str, user: object | None = None
) -> tuple[WallScreen, str]:
    """Make a wall screen's secret link for `club`: ``name`` (1 to 60 characters after
    collapsing spaces). Returns (the row, the token): the token, `<club id>-<secret>`, is
    shown to the secretary once and stored only as its hash.

    Raises BooksError: ``invalid_name`` (empty or too long, field "name"),
    ``too_many_screens`` (the club has MAX_SCREENS working links); nothing is saved then.
    """
    text = " ".join(name.split())
    if not text or len(text) > 60:
        raise BooksError(
            "invalid_name", _("Name the screen (at most 60 characters)."), field="name"
        )
    token = f"{club.pk}-{secrets.token_urlsafe(TOKEN_BYTES)}"
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if WallScreen.objects.filter(club=club, revoked_at=None).count() >= MAX_SCREENS:
            raise BooksError(
                "too_many_screens",
                _("A club has at most %(max)s wall links: revoke one first.")
                % {"max": MAX_SCREENS},
            )
        screen = WallScreen.objects.create(
            club=club,
            name=text,
            token_hash=wall_token_hash(token),
            created_by=user if isinstance(user, User) else None,
        )
    return screen, token


def wall_screen_revoke(*, club: Club, screen_id: int) -> WallScreen:
    """Revoke the wall link `screen_id` of `club`: from now on it is a 404. Revoking a
    revoked link changes nothing.

    Raises WallScreen.DoesNotExist for a link of another club or none.
    """
    with transaction.atomic():
        screen = WallScreen.objects.select_for_update().get(pk=screen_id, club=club)
        if screen.revoked_at is None:
            screen.revoked_at = timezone.now()
            screen.save(update_fields=["revoked_at"])
    return screen
