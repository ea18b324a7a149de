"""REST endpoints of the season report (issue 5 item 2), under /api/v1/:

- ``GET  seasons/{id}/report/``      the report's state (``ReportStateSerializer``);
- ``POST seasons/{id}/report/``      ask for a build: 202 with the state (200 when ready);
- ``GET  seasons/{id}/report/pdf/``  the PDF when ready; 404 ``report_not_ready`` otherwise.

Any person of the season's club may read and ask (asking builds a file from the books and
changes nothing in them); other clubs' seasons are 404.
"""

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import ErrorSerializer, request_club
from league.club.errors import BooksError
from league.club.models import Season
from league.reports.builds import (
    ReportState,
    report_build_for_download,
    report_build_request,
    report_state,
)
from league.reports.models import ReportBuild


class ReportBuildSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReportBuild
        fields = ["id", "status", "data_version", "attempts", "error", "created_at", "updated_at"]


class ReportStateSerializer(serializers.Serializer):
    """The report's state: none, queued, building, retrying, ready, stale, failed or
    unavailable (the task queue cannot be reached)."""

    state = serializers.CharField()
    message = serializers.CharField(help_text="German sentence for people.")
    build = ReportBuildSerializer(allow_null=True, help_text="The latest build.")
    download_url = serializers.CharField(allow_null=True, help_text="Set when ready.")
    worker_late = serializers.BooleanField(help_text="Queued for long: no worker running?")
    broker_ok = serializers.BooleanField(help_text="False when Redis cannot be reached.")


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


def _state_body(request, season: Season, state: ReportState) -> dict:
    url = None
    if state.ready is not None:
        url = request.build_absolute_uri(reverse("api-season-report-pdf", args=[season.pk]))
    return ReportStateSerializer(
        {
            "state": state.state,
            "message": state.message,
            "build": state.build,
            "download_url": url,
            "worker_late": state.worker_late,
            "broker_ok": state.broker_ok,
        }
    ).data


def _season(request, season_id: int) -> Season:
    return get_object_or_404(Season, pk=season_id, club=request_club(request))


class SeasonReportView(APIView):
    """The season report: its state (GET) and a request to build it (POST)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        description="The season report's state: none, queued, building, retrying, ready "
        "(with `download_url`), stale, failed (with the reason) or unavailable (Redis down).",
        responses={200: ReportStateSerializer, 404: ErrorSerializer},
        examples=[READY_EXAMPLE, UNAVAILABLE_EXAMPLE],
    )
    def get(self, request, season_id: int):
        season = _season(request, season_id)
        return Response(_state_body(request, season, report_state(season=season)))

    @extend_schema(
        description="Ask for the season report. 200 with the state when a report of the "
        "current data is ready, else 202: it is queued for the worker (built at once when "
        "tasks run eagerly). Any person of the club may ask.",
        request=None,
        responses={200: ReportStateSerializer, 202: ReportStateSerializer, 404: ErrorSerializer},
        examples=[READY_EXAMPLE, QUEUED_EXAMPLE],
    )
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        report_build_request(season=season, user=request.user)
        state = report_state(season=season)
        code = status.HTTP_200_OK if state.state == "ready" else status.HTTP_202_ACCEPTED
        return Response(_state_body(request, season, state), status=code)


class SeasonReportPdfView(APIView):
    """The season report PDF, only when a build of the current data is ready."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        description="The season report PDF (German, A4) when a build of the current data is "
        "ready; 404 `report_not_ready` otherwise.",
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY),
            404: ErrorSerializer,
        },
        examples=[NOT_READY_EXAMPLE],
    )
    def get(self, request, season_id: int):
        season = _season(request, season_id)
        build = report_build_for_download(season=season)
        if build is None:
            raise BooksError(
                "report_not_ready",
                _("The report is not ready. Ask for it with POST and check its state."),
                status=404,
            )
        return FileResponse(
            build.file.open("rb"),
            content_type="application/pdf",
            filename=f"saisonbericht-{season.year}.pdf",
        )
