"""Pages of the statistics, for every person of the club:

- ``statistik/saisons/?saison=<year>``  one season (default: the newest season with games);
- ``statistik/rekorde/``                all seasons: all-time figures and records;
- ``saison/<year>/rueckblick/`` (and ``.png``)  the season's recap card.

They call ``club_statistics`` (league/statistics/selectors.py) and render; the chart is an
SVG image (league/statistics/charts.py) in a data: URL (CSP img-src allows data:).
"""

from __future__ import annotations

import base64

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.evenings.selectors import club_seasons_played
from league.club.access import ClubRequest, member_required
from league.club.caching import KeptRead, books_page
from league.club.models import Season
from league.club.selectors import club_seasons, query_year
from league.statistics.charts import schock_aus_chart_svg
from league.statistics.recap import recap_lines, recap_png, season_recap
from league.statistics.selectors import Statistics, club_statistics


def _chart(stats: Statistics) -> str | None:
    people = [p for p in stats.people if p.games]
    if not people:
        return None
    svg = schock_aus_chart_svg(
        names=[p.name for p in people],
        thrown=[p.schock_aus for p in people],
        expected=[p.expected for p in people],
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


#: A season's statistics (or all seasons') and chart (the call adds the season's id).
STATISTICS_PAGE = KeptRead("statistics_page", depends=("books",))
#: The books parts of the season statistics (the call adds the season's id), the records
#: and a season's recap (the call adds the season's id).
SEASON_STATISTICS_BODY = KeptRead("season_statistics_body", depends=("books",))
RECORDS_BODY = KeptRead("records_body", depends=("books",))
RECAP_BODY = KeptRead("recap_body", depends=("books",))


def _figures(request: ClubRequest, season: Season | None) -> tuple[Statistics, str | None]:
    """The statistics of `season` (None: all seasons) and their chart, kept per club books
    version (league/club/caching.py; the all-time figures are combined from per-season
    parts, league/statistics/selectors.py)."""
    return STATISTICS_PAGE.cached(
        season.pk if season else None,
        request=request,
        build=lambda: _with_chart(club_statistics(club=request.club, season=season)),
    )


def _with_chart(stats: Statistics) -> tuple[Statistics, str | None]:
    return stats, _chart(stats)


@member_required
@books_page()
def season_statistics(request: ClubRequest) -> HttpResponse:
    """A season's statistics (``?saison=<year>``; an unknown year shows the default); the
    page's books part kept per books version and season (league/club/caching.py)."""
    seasons = list(club_seasons(club=request.club))
    if not seasons:
        raise Http404
    year = query_year(request)
    season = next((s for s in seasons if s.year == year), None)
    if season is None:
        played = club_seasons_played(club=request.club)
        season = played[0] if played else seasons[0]

    def context() -> dict:
        stats, chart = _figures(request, season)
        return {"stats": stats, "seasons": seasons, "chart": chart}

    body = SEASON_STATISTICS_BODY.fragment(
        season.pk,
        request=request,
        template="league/statistics/_season_body.html",
        context=context,
    )
    return render(request, "league/statistics/season.html", {"body": body})


@member_required
@books_page()
def records(request: ClubRequest) -> HttpResponse:
    """The club's all-time statistics and records; the page's books part kept per books
    version (the figures from per-season parts, league/statistics/selectors.py)."""

    def context() -> dict:
        stats, chart = _figures(request, None)
        return {"stats": stats, "chart": chart}

    body = RECORDS_BODY.fragment(
        request=request,
        template="league/statistics/_records_body.html",
        context=context,
    )
    return render(request, "league/statistics/records.html", {"body": body})


def _season_of(request: ClubRequest, year: int) -> Season:
    return get_object_or_404(Season, club=request.club, year=year)


@member_required
@books_page(season_year="year")
def season_recap_page(request: ClubRequest, year: int) -> HttpResponse:
    """The season's recap card as a page, with the PNG to download or share; its books
    part kept per club books version and season (league/club/caching.py)."""
    season: Season = request.season

    def context() -> dict:
        season.club = request.club  # the club the season was read for: no second read
        recap = season_recap(season=season)
        return {"recap": recap, "lines": recap_lines(recap)}

    body = RECAP_BODY.fragment(
        season.pk,
        request=request,
        template="league/statistics/_recap_body.html",
        context=context,
    )
    return render(request, "league/statistics/recap.html", {"season": season, "body": body})


@member_required
def season_recap_image(request: ClubRequest, year: int) -> HttpResponse:
    """The season's recap card as a PNG 1080 px wide."""
    png = recap_png(season_recap(season=_season_of(request, year)))
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="saison-{year}.png"'
    return response
