"""OpenAPI documentation of the club-book endpoints (league/clubbook/api.py): the import
of the two CSV files and their export, as drf-spectacular decorators with their
descriptions and examples. Nothing here runs on a request.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema

from league.club.api_common import ErrorSerializer, api_example, error_responses
from league.clubbook.serializers import (
    BadRowsSerializer,
    ClubBookUploadSerializer,
    ImportResultSerializer,
)

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


IMPORT_POST = extend_schema(
    summary="Import the club book",
    description="Secretary only (club_book_import). Multipart with the two "
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
                api_example("Bad rows", BAD_ROWS_EXAMPLE, response_only=True, status_codes=["400"])
            ],
        ),
        **{k: v for k, v in error_responses(403).items() if k != 404},
    },
    examples=[api_example("Dry run", IMPORT_EXAMPLE, response_only=True, status_codes=["200"])],
)


EXPORT_GET = extend_schema(
    summary="Export the club book",
    description="Secretary only (club_book_export): the club's books in the "
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
