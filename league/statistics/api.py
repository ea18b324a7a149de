"""REST API of the statistics, read-only for every person of the club:

- ``GET seasons/{id}/statistics/``  one season (other clubs' seasons: 404);
- ``GET statistics/records/``       all seasons of the club (all-time figures and records).

Selectors: league/statistics/selectors.py; OpenAPI prose: league/statistics/schema.py.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import club_of, kept_api_read
from league.club.api_login import ClubLogin
from league.club.api_schema import answers_not_modified
from league.club.models import Club, Season
from league.statistics import schema
from league.statistics.selectors import club_statistics
from league.statistics.serializers import StatisticsSerializer


@extend_schema(tags=["Statistics"])
class SeasonStatisticsView(APIView):
    """GET /api/v1/seasons/{id}/statistics/: the season's statistics and records."""

    permission_classes = [ClubLogin]

    @schema.SEASON_GET
    def get(self, request, season_id: int):
        club = club_of(request)
        season = get_object_or_404(Season, pk=season_id, club=club)
        return _statistics(request, club, season)


@extend_schema(tags=["Statistics"])
class RecordsView(APIView):
    """GET /api/v1/statistics/records/: the club's all-time statistics and records."""

    permission_classes = [ClubLogin]

    @schema.RECORDS_GET
    @answers_not_modified
    def get(self, request):
        club = club_of(request)
        return _statistics(request, club, None)


def _statistics(request, club: Club, season: Season | None) -> Response:
    """The serialized statistics of `season` (None: all seasons), kept per club books
    version, with an ETag (a GET with it answers 304; league/club/caching.py)."""
    return kept_api_read(
        request,
        "statistics",
        season.pk if season else None,
        club=club,
        build=lambda: dict(StatisticsSerializer(club_statistics(club=club, season=season)).data),
    )
