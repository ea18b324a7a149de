"""REST API of the kitty ledger, payments, the club book and the audit trail (issue 6 through
the API of issue 4): everything the secretary does on the pages of league/ledger_views.py,
through the same services (league.services.ledger, league.services.club_book,
league.audit). Roles and errors: league.api_common.

- ``GET  payments/``                  payments (member: own; secretary: the club's)
- ``POST payments/``                  secretary: payment_record
- ``GET  payments/{id}/``             one payment
- ``POST payments/{id}/cancel/``      secretary: payment_cancel
- ``GET  members/{id}/statement/``    member_statement (member: own only, 403 otherwise)
- ``GET  balances/``                  secretary: club_balances
- ``POST club-book/import/``          secretary: club_book_import (multipart)
- ``GET  club-book/export/attendance.csv`` / ``games.csv``  secretary: club_book_export
- ``GET  history/``                   secretary: evening_audit / member_audit / club_audit_recent

Decision where the brief was silent: without ``?season=`` statement and balances cover
every season (the page's "alle"); the kitty totals are always over all seasons.
"""

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import (
    ErrorSerializer,
    api_example,
    error_responses,
    request_club,
    require_secretary,
)
from league.club.errors import BooksError
from league.clubbook.serializers import (
    BadRowsSerializer,
    ClubBookUploadSerializer,
    ImportResultSerializer,
    bad_rows_body,
)
from league.clubbook.services import club_book_export, club_book_import

MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # as the import page (league/ledger_views.py)


IMPORT_EXAMPLE = {
    "dry_run": True,
    "changed": True,
    "created": {
        "members": 6,
        "seasons": 1,
        "evenings": 1,
        "attendances": 7,
        "games": 25,
        "schock_aus": 5,
        "ledger_entries": 26,
    },
    "skipped": 0,
    "seasons": [
        {
            "year": 2026,
            "currency": "EUR",
            "evenings": 1,
            "new_evenings": 1,
            "games": 25,
            "schock_aus": 5,
            "runden": 3,
            "marks_total": 31,
            "money_total": "15.50",
        }
    ],
}


BAD_ROWS_EXAMPLE = {
    "code": "bad_rows",
    "message": "Die Dateien enthalten fehlerhafte Zeilen; nichts wurde importiert.",
    "field": None,
    "errors": [
        {
            "file": "club-book-attendance.csv",
            "line": 4,
            "code": "unknown_role",
            "reason": "Unbekannte Rolle „chef“.",
        }
    ],
}


@extend_schema(tags=["Club book"])
class ClubBookImportView(APIView):
    """POST /api/v1/club-book/import/: import the club book (two CSV files)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        summary="Import the club book",
        description="Secretary only (club_book_import, issue 6.3). Multipart with the two "
        "files `attendance` (`date,name,role`) and `games` (`date,number,loser,schock_aus`) "
        "and `dry_run`. All or nothing: with `dry_run=true` the answer says what would be "
        "created and the recomputed totals per season, and nothing is written; without it "
        "the books are written in one transaction. Evenings already in the books with the "
        "same data are skipped (a second import changes nothing). Any bad row: 400 "
        "`bad_rows` with every row's `file`, `line`, `code` and `reason`, and nothing is "
        "imported. A file over 20 MB: 400 `file_too_large`.",
        request={"multipart/form-data": ClubBookUploadSerializer},
        responses={
            200: ImportResultSerializer,
            400: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="ClubBookImportRefusal",
                    serializers=[BadRowsSerializer, ErrorSerializer],
                    resource_type_field_name=None,
                ),
                description="`bad_rows` (with `errors`: file, line, code, reason) or an "
                "invalid request (`required`, `file_too_large`, ...).",
                examples=[
                    api_example(
                        "Bad rows", BAD_ROWS_EXAMPLE, response_only=True, status_codes=["400"]
                    )
                ],
            ),
            **{k: v for k, v in error_responses(403).items() if k != 404},
        },
        examples=[api_example("Dry run", IMPORT_EXAMPLE, response_only=True, status_codes=["200"])],
    )
    def post(self, request):
        require_secretary(request)
        data = ClubBookUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        files = data.validated_data["attendance"], data.validated_data["games"]
        if any(f.size > MAX_UPLOAD_BYTES for f in files):
            raise BooksError(
                "file_too_large", _("A file is too large (at most 20 MB)."), field="attendance"
            )
        result = club_book_import(
            club_name=request_club(request).name,
            attendance=files[0].read(),
            games=files[1].read(),
            dry_run=data.validated_data["dry_run"],
            user=request.user,
            attendance_name=files[0].name or "club-book-attendance.csv",
            games_name=files[1].name or "club-book-games.csv",
        )
        if not result.ok:
            return Response(bad_rows_body(result.errors), status=status.HTTP_400_BAD_REQUEST)
        return Response(ImportResultSerializer(result).data)


EXPORT_FILES = {
    "attendance": "club-book-attendance.csv",
    "games": "club-book-games.csv",
}


@extend_schema(tags=["Club book"])
class ClubBookExportView(APIView):
    """GET /api/v1/club-book/export/attendance.csv or games.csv: the club book in the
    import format, the same bytes as the page's download."""

    permission_classes = [IsAuthenticated]
    which = "attendance"

    @extend_schema(
        summary="Export the club book",
        description="Secretary only (club_book_export, issue 6.3): the club's books in the "
        "import format (UTF-8, CRLF), byte for byte what the page's download gives; "
        "importing it again changes nothing.",
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The CSV file (`text/csv; charset=utf-8`)."
            ),
            **error_responses(403),
        },
        examples=[
            api_example(
                "Attendance file",
                "date,name,role\r\n2026-10-09,Anna Becker,member\r\n"
                "2026-10-09,Bernd Krause,secretary\r\n",
                response_only=True,
                media_type="text/csv",
                status_codes=["200"],
            )
        ],
    )
    def get(self, request):
        require_secretary(request)
        attendance, games = club_book_export(club=request_club(request))
        data = attendance if self.which == "attendance" else games
        response = HttpResponse(data, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{EXPORT_FILES[self.which]}"'
        return response
