"""Report pages: the season report's state, request and download; the evening sheet PDF;
CSV exports of standings, dues and the Schock-Aus chronicle.

Every page needs a member of the club (league/club/access.py); other clubs' seasons and
evenings are 404. The views parse, call one service or selector (league/reports/builds.py,
pdf.py, csv_exports.py), and respond.
"""

from django.http import FileResponse, Http404, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.evenings.models import Evening
from league.club.access import ClubRequest, member_required
from league.club.caching import KeptRead, books_page
from league.club.models import Season
from league.reports import csv_exports as report_csv
from league.reports.builds import (
    report_build_for_download,
    report_build_request,
    report_refresh_if_stale,
    report_state,
)
from league.reports.pdf import (
    build_evening_sheet_pdf,
)


def _season(request: ClubRequest, year: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), club=request.club, year=year)


@member_required
def season_report(request: ClubRequest, year: int) -> HttpResponse:
    """The report page: state, download link when ready, request button, CSV links.
    A report that went stale after a change is rebuilt (queued) on the way."""
    season = _season(request, year)
    report_refresh_if_stale(season=season, user=request.user)
    state = report_state(season=season)
    return render(request, "reports/season_report_page.html", {"season": season, "report": state})


@member_required
def season_report_status(request: ClubRequest, year: int) -> HttpResponse:
    """The report box alone (HTML fragment), for polling and for the standings page."""
    season = _season(request, year)
    state = report_state(season=season)
    return render(request, "reports/_season_report_box.html", {"season": season, "report": state})


@require_POST
@member_required
def season_report_request(request: ClubRequest, year: int) -> HttpResponse:
    """Ask for the report (POST), then show the report page."""
    season = _season(request, year)
    report_build_request(season=season, user=request.user)
    return redirect("season_report", year=year)


@member_required
def season_report_download(request: ClubRequest, year: int) -> HttpResponseBase:
    """The stored PDF, only from a READY build of the current data; else the report page."""
    season = _season(request, year)
    build = report_build_for_download(season=season)
    if build is None:
        return redirect("season_report", year=year)
    return FileResponse(
        build.file.open("rb"),
        content_type="application/pdf",
        as_attachment=False,
        filename=f"saisonbericht-{season.year}.pdf",
    )


@member_required
def evening_sheet_pdf(request: ClubRequest, pk: int) -> HttpResponse:
    """The one-page evening sheet, rendered on the spot (small and fast)."""
    evening = get_object_or_404(Evening, club=request.club, pk=pk)
    pdf = build_evening_sheet_pdf(evening=evening)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = f"schockabend-{evening.date:%Y-%m-%d}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


CSV_EXPORTS = {
    "tabelle": (report_csv.standings_csv, "tabelle"),
    "kasse": (report_csv.dues_csv, "kasse"),
    "schock-aus": (report_csv.chronicle_csv, "schock-aus"),
}


#: A season's CSV export: the club's books (the call adds the kind, the season's id and,
#: for the dues of a person who is not the secretary, that person's id).
SEASON_CSV = KeptRead("season_csv", depends=("books",))


@member_required
@books_page(season_year="year")
def season_csv(request: ClubRequest, year: int, kind: str) -> HttpResponse:
    """CSV export of a season: standings (tabelle), dues (kasse) or the Schock-Aus
    chronicle (schock-aus). German Excel style: ';', decimal comma, UTF-8 with BOM.
    The dues (kasse) of everyone only for the secretary; a member or a guest gets the own
    line (what a person paid and owes is theirs and the secretary's).
    The file is kept per club books version, season, kind and, for the dues of a person
    who is not the secretary, that person; a repeated GET with its ETag is answered 304
    (league/club/caching.py)."""
    if kind not in CSV_EXPORTS:
        raise Http404
    season: Season = request.season
    build, stem = CSV_EXPORTS[kind]
    own = None if kind != "kasse" or request.member.is_secretary else request.member.pk

    def text() -> str:
        season.club = request.club  # the club the season was read for: no second read
        return (
            build(season=season)
            if own is None
            else report_csv.dues_csv(season=season, person_id=own)
        )

    body = SEASON_CSV.cached(kind, season.pk, own, request=request, build=text)
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{stem}-{season.year}.csv"'
    return response
