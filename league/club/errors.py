"""The one error type of the club's bookkeeping services.

Every service refuses bad input with a `BooksError` that carries a stable `code` (for the
API), a German-translatable `message` (for the pages), the `field` it concerns and the HTTP
`status` an API answers with (400 bad input, 404 unknown, 409 conflict, 412 stale version).
Nothing is written when one is raised (services run in one transaction).
"""

from typing import Protocol

from django.db import IntegrityError
from django.utils.translation import gettext as _


class BooksError(Exception):
    """A refused change to the books. Attributes: code, message, field (or None), status,
    and `details` (None, or a dict of plain JSON values the API adds to its answer: what
    the refusal is about, e.g. the game that took a number)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        status: int = 400,
        details: dict[str, object] | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.field = field
        self.status = status
        self.details = details

    def as_dict(self) -> dict:
        """The API's error body: {"code", "message", "field"}, and "details" when the
        refusal carries them."""
        body: dict[str, object] = {"code": self.code, "message": self.message, "field": self.field}
        if self.details is not None:
            body["details"] = self.details
        return body


# Stable codes raised by the database triggers (games migration 0002) and constraints.
# What the database says (trigger code or constraint name) -> (our code, field, status).
_DB_CODES = {
    "evening_outside_season": ("evening_outside_season", "date", 400),
    "person_of_other_club": ("person_of_other_club", None, 400),
    "loser_not_present": ("loser_not_present", "loser", 400),
    "vorleger_not_present": ("vorleger_not_present", "vorleger", 400),
    "thrower_not_present": ("thrower_not_present", "schock_aus", 400),
    "attendance_in_use": ("attendance_in_use", "attendance", 409),
    "game_unique_number": ("duplicate_game_number", "number", 409),
    "evening_unique_date_per_club": ("evening_exists", "date", 409),
    "season_closed": ("season_closed", None, 409),
    "season_dates_no_overlap": ("season_overlaps", "starts_on", 409),
}


def db_refusal_messages() -> dict[str, str]:
    return {
        "evening_outside_season": _("The date lies outside the season."),
        "person_of_other_club": _("This person belongs to another club."),
        "loser_not_present": _("The loser was not present at this evening."),
        "vorleger_not_present": _("The Vorleger was not present at this evening."),
        "thrower_not_present": _("A Schock-Aus thrower was not present at this evening."),
        "attendance_in_use": _(
            "This person lost, opened or threw a Schock-Aus in a game of this evening: "
            "correct those games first."
        ),
        "game_unique_number": _("This evening has a game with this number already."),
        "evening_unique_date_per_club": _("There is an evening on this date already."),
        "season_closed": season_closed_message(),
        "season_dates_no_overlap": _("The dates overlap another season of the club."),
    }


def season_closed_message() -> str:
    """The German refusal of a change to a closed season (league.closing)."""
    return _("The season is closed. To change it, it must be reopened first.")


def season_closed_error() -> BooksError:
    """`season_closed` (409): the season's books are locked until it is reopened."""
    return BooksError("season_closed", season_closed_message(), status=409)


def books_error_from_integrity(exc: IntegrityError) -> BooksError:
    """Translate a refusal by the database into a BooksError with its stable code."""
    text = str(exc)
    for db_code, (code, field, status) in _DB_CODES.items():
        if db_code in text:
            return BooksError(code, db_refusal_messages()[db_code], field=field, status=status)
    return BooksError("conflict", _("The change conflicts with the stored books."), status=409)


class Versioned(Protocol):
    """A record that carries a `version` (an evening, a game): its ETag."""

    version: int


def check_version(obj: Versioned, expected_version: int | None) -> None:
    """Refuse a change made from a stale read: `stale_version` (412) when the client sent
    a version and it is not the record's current one. None means "not checked"."""
    if expected_version is not None and obj.version != expected_version:
        raise BooksError(
            "stale_version",
            _("Someone else changed this in the meantime. Reload and enter it again."),
            field="version",
            status=412,
        )
