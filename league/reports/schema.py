"""OpenAPI documentation of the season report's endpoints (league/reports/api.py): its
state, the request to build it and the PDF, as drf-spectacular decorators with their
descriptions and examples. Nothing here runs on a request.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from league.club.api_common import ErrorSerializer
from league.reports.serializers import ReportStateSerializer

READY_EXAMPLE = OpenApiExample(
    "Ready",
    value={
        "state": "ready",
        "message": "Der Bericht ist fertig.",
        "build": {
            "id": 12,
            "status": "ready",
            "data_version": 148,
            "attempts": 1,
            "error": "",
            "created_at": "2026-10-10T09:12:03+02:00",
            "updated_at": "2026-10-10T09:12:06+02:00",
        },
        "download_url": "https://schockclub.example.org/api/v1/seasons/3/report/pdf/",
        "worker_late": False,
        "broker_ok": True,
    },
    response_only=True,
    status_codes=["200"],
)
QUEUED_EXAMPLE = OpenApiExample(
    "Queued",
    value={
        "state": "queued",
        "message": "Der Bericht ist in der Warteschlange und wird gleich erstellt.",
        "build": {
            "id": 13,
            "status": "queued",
            "data_version": 149,
            "attempts": 0,
            "error": "",
            "created_at": "2026-10-17T08:40:00+02:00",
            "updated_at": "2026-10-17T08:40:00+02:00",
        },
        "download_url": None,
        "worker_late": False,
        "broker_ok": True,
    },
    response_only=True,
    status_codes=["202"],
)
UNAVAILABLE_EXAMPLE = OpenApiExample(
    "Redis down",
    value={
        "state": "unavailable",
        "message": "Der Bericht kann gerade nicht erstellt werden: Die Warteschlange (Redis) "
        "ist nicht erreichbar. Alles andere funktioniert; bitte später noch einmal versuchen.",
        "build": None,
        "download_url": None,
        "worker_late": False,
        "broker_ok": False,
    },
    response_only=True,
    status_codes=["200"],
)
NOT_READY_EXAMPLE = OpenApiExample(
    "Not ready",
    value={
        "code": "report_not_ready",
        "message": "Der Bericht ist noch nicht fertig. Fordern Sie ihn mit POST an und "
        "fragen Sie seinen Stand ab.",
        "field": None,
    },
    response_only=True,
    status_codes=["404"],
)


STATE_GET = extend_schema(
    description="The season report's state: none, queued, building, retrying, ready "
    "(with `download_url`), stale, failed (with the reason) or unavailable (Redis down).",
    responses={200: ReportStateSerializer, 404: ErrorSerializer},
    examples=[READY_EXAMPLE, UNAVAILABLE_EXAMPLE],
)


STATE_POST = extend_schema(
    description="Ask for the season report. 200 with the state when a report of the "
    "current data is ready, else 202: it is queued for the worker (built at once when "
    "tasks run eagerly). Any person of the club may ask.",
    request=None,
    responses={200: ReportStateSerializer, 202: ReportStateSerializer, 404: ErrorSerializer},
    examples=[READY_EXAMPLE, QUEUED_EXAMPLE],
)


PDF_GET = extend_schema(
    description="The season report PDF (German, A4) when a build of the current data is "
    "ready; 404 `report_not_ready` otherwise.",
    responses={
        (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY),
        404: ErrorSerializer,
    },
    examples=[NOT_READY_EXAMPLE],
)
