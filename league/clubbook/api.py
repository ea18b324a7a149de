"""REST API of the club book: import the two CSV files (dry run or for real) and export
them, through the same services as the pages of league/clubbook/views.py
(league/clubbook/services.py). Roles and errors: league/club/api_common.py; the OpenAPI
prose: league/clubbook/schema.py.

- ``POST club-book/import/``                                 secretary: club_book_import
- ``GET  club-book/export/attendance.csv`` / ``games.csv``   secretary: club_book_export
"""

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import club_of, require_secretary
from league.club.api_login import ClubLogin
from league.club.idempotency import idempotent
from league.clubbook import schema
from league.clubbook.selectors import (
    club_book_export,
)
from league.clubbook.serializers import (
    MAX_UPLOAD_BODY_BYTES,
    ClubBookUploadSerializer,
    ImportResultSerializer,
    bad_rows_body,
)
from league.clubbook.services import (
    club_book_import,
)


@extend_schema(tags=["Club book"])
class ClubBookImportView(APIView):
    """POST /api/v1/club-book/import/: import the club book (two CSV files)."""

    permission_classes = [ClubLogin]
    parser_classes = [MultiPartParser]
    max_body_bytes = MAX_UPLOAD_BODY_BYTES  # league/club/body_limits.py

    @schema.IMPORT_POST
    @idempotent
    def post(self, request):
        require_secretary(request)
        data = ClubBookUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        files = data.validated_data["attendance"], data.validated_data["games"]
        result = club_book_import(
            club_name=club_of(request).name,
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

    permission_classes = [ClubLogin]
    which = "attendance"

    @schema.EXPORT_GET
    def get(self, request):
        require_secretary(request)
        attendance, games = club_book_export(club=club_of(request))
        data = attendance if self.which == "attendance" else games
        response = HttpResponse(data, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{EXPORT_FILES[self.which]}"'
        return response
