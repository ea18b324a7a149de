"""REST API shapes of the club-book import: the upload, what an import did (or in a dry
run would do), and the refusal listing every bad row.

Serializers translate only: the files in for one call of
league/clubbook/services.py's club_book_import, its result out. No rule of the books lives
here (STYLE.md 3). Money is a decimal string in the season's currency, never a float.
"""

from django.utils.translation import gettext as _
from rest_framework import serializers

from league.club.errors import BooksError
from league.club.serializers import MONEY

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
"""The largest club-book file the import takes, on the page and through the API."""

MAX_UPLOAD_BODY_BYTES = 2 * MAX_UPLOAD_BYTES + 1024 * 1024
"""The largest request of an import (league/club/body_limits.py): both files at their
largest and the form around them; a larger one is refused before it is read."""


class ClubBookUploadSerializer(serializers.Serializer):
    """The two club-book files (multipart) and whether it is a dry run."""

    attendance = serializers.FileField(help_text="club-book-attendance.csv (UTF-8).")
    games = serializers.FileField(help_text="club-book-games.csv (UTF-8).")
    dry_run = serializers.BooleanField(
        default=False, help_text="Count what would be created, write nothing."
    )

    def validate(self, attrs: dict) -> dict:
        """A file over MAX_UPLOAD_BYTES: 400 `file_too_large` (as the import page)."""
        if any(attrs[name].size > MAX_UPLOAD_BYTES for name in ("attendance", "games")):
            raise BooksError(
                "file_too_large", _("A file is too large (at most 20 MB)."), field="attendance"
            )
        return attrs


class SeasonTotalsSerializer(serializers.Serializer):
    """A season's recomputed figures after the import."""

    year = serializers.IntegerField()
    currency = serializers.CharField()
    evenings = serializers.IntegerField()
    new_evenings = serializers.IntegerField()
    games = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    runden = serializers.IntegerField()
    marks_total = serializers.IntegerField()
    money_total = serializers.DecimalField(**MONEY)


class ImportResultSerializer(serializers.Serializer):
    """What an import did, or in a dry run would do: rows created per kind, evenings
    skipped (already in the books with the same data), totals of every season touched."""

    dry_run = serializers.BooleanField()
    changed = serializers.BooleanField()
    created = serializers.DictField(child=serializers.IntegerField())
    skipped = serializers.IntegerField()
    seasons = SeasonTotalsSerializer(many=True)


class RowErrorSerializer(serializers.Serializer):
    """One bad row of a club-book file (1-based line; 0: the file as a whole)."""

    file = serializers.CharField()
    line = serializers.IntegerField()
    code = serializers.CharField()
    reason = serializers.CharField()


class BadRowsSerializer(serializers.Serializer):
    """The refusal of an import with bad rows: nothing was imported."""

    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    errors = RowErrorSerializer(many=True)  # type: ignore[assignment]  # the public field name


def bad_rows_body(errors) -> dict:
    """The 400 body of an import refused for its bad rows (errors: list of RowError)."""
    return {
        "code": "bad_rows",
        "message": _("The files have bad rows; nothing was imported."),
        "field": None,
        "errors": RowErrorSerializer(errors, many=True).data,
    }
