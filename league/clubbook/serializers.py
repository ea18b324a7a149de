"""REST API shapes of the kitty ledger, payments, the club-book import and the audit trail
(issue 6 through the API of issue 4).

Serializers translate only: JSON in, plain values for one service call
(league.services.ledger, league.services.club_book); service results out
(league.audit). No rule of the books lives here (STYLE.md 3). Money is always a decimal
string with two places in the season's currency (e.g. "15.50" with currency "EUR"), never
a float; Marks charged are integers, a balance in Marks is a decimal string ("1.50").
"""

from django.utils.translation import gettext as _
from rest_framework import serializers

from league.club.serializers import MONEY


class ClubBookUploadSerializer(serializers.Serializer):
    """The two club-book files (multipart) and whether it is a dry run."""

    attendance = serializers.FileField(help_text="club-book-attendance.csv (UTF-8).")
    games = serializers.FileField(help_text="club-book-games.csv (UTF-8).")
    dry_run = serializers.BooleanField(
        default=False, help_text="Count what would be created, write nothing."
    )


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
    errors = RowErrorSerializer(many=True)


def bad_rows_body(errors) -> dict:
    """The 400 body of an import refused for its bad rows (errors: list of RowError)."""
    return {
        "code": "bad_rows",
        "message": _("The files have bad rows; nothing was imported."),
        "field": None,
        "errors": RowErrorSerializer(errors, many=True).data,
    }
