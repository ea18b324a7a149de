"""REST API of the season report, under /api/v1/:

- ``GET  seasons/{id}/report/``      the report's state (``ReportStateSerializer``);
- ``POST seasons/{id}/report/``      ask for a build: 202 with the state (200 when ready);
- ``GET  seasons/{id}/report/pdf/``  the PDF when ready; 404 ``report_not_ready`` otherwise.

Any person of the season's club may read and ask (asking builds a file from the books and
changes nothing in them); other clubs' seasons are 404. Builds: league/reports/builds.py;
the OpenAPI prose: league/reports/schema.py.
"""

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import request_club
from league.club.api_login import ClubLogin
from league.club.errors import BooksError
from league.club.idempotency import idempotent
from league.club.models import Season
from league.reports import schema
from league.reports.builds import (
    ReportState,
    report_build_for_download,
    report_build_request,
    report_state,
)
from league.reports.serializers import ReportStateSerializer


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

    writes_books = False  # queues a build, the books stay: no 409 (league/club/api_schema.py)

    permission_classes = [ClubLogin]

    @schema.STATE_GET
    def get(self, request, season_id: int):
        season = _season(request, season_id)
        return Response(_state_body(request, season, report_state(season=season)))

    @schema.STATE_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        report_build_request(season=season, user=request.user)
        state = report_state(season=season)
        code = status.HTTP_200_OK if state.state == "ready" else status.HTTP_202_ACCEPTED
        return Response(_state_body(request, season, state), status=code)


class SeasonReportPdfView(APIView):
    """The season report PDF, only when a build of the current data is ready."""

    permission_classes = [ClubLogin]

    @schema.PDF_GET
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
