"""The championship through the REST API: a season's standings and Runden owed, a member's
dues.

The viewsets extend the club register's (league/club/api.py) with the books' read actions,
so the register never imports the books (README "Layout"). Figures come from
league/standings/selectors.py and league/runden/selectors.py; the OpenAPI prose lives in
league/standings/schema.py.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club import api as club_api
from league.club import schema as club_schema
from league.club.api_common import (
    club_of,
    id_param,
    is_secretary,
    kept_api_list,
    kept_api_read,
    request_club,
    request_member,
    season_param,
)
from league.club.api_login import ClubLogin
from league.club.api_schema import answers_not_modified
from league.club.errors import BooksError
from league.runden.selectors import season_runden_owed
from league.runden.serializers import RundeOwedSerializer
from league.standings import schema
from league.standings.all_time import all_time_standings
from league.standings.selectors import member_dues, season_standings
from league.standings.serializers import (
    AllTimeStandingsSerializer,
    DuesSerializer,
    StandingsSerializer,
)


def _page_data(response: Response) -> dict:
    """A paginated list response's data as plain dicts (what the cache keeps)."""
    data = dict(response.data)
    data["results"] = [dict(row) for row in data["results"]]
    return data


@schema.SEASON_VIEWSET
@extend_schema(tags=["Seasons"])
class SeasonViewSet(club_api.SeasonViewSet):
    """The club's seasons; standings and Runden owed per season."""

    @club_schema.SEASON_LIST
    @answers_not_modified
    def list(self, request, *args, **kwargs):
        """The seasons (filtered, ordered, paginated), kept by the club's books version: a
        season's fields change only with the books (`season_update`, a new season); a GET
        with the ETag it got answers 304 (48 seasons, 30 KiB serialized on every
        read)."""
        return kept_api_list(
            request, "seasons", lambda: _page_data(super(SeasonViewSet, self).list(request))
        )

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    @answers_not_modified
    def standings(self, request, pk=None):
        """The standings, their serialized form cached by the club's books version; a
        GET with the ETag it got answers 304."""
        season = self.get_object()
        return kept_api_read(
            request,
            "standings",
            season.pk,
            club=club_of(request),
            build=lambda: dict(StandingsSerializer(season_standings(season=season)).data),
        )

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    @answers_not_modified
    def runden(self, request, pk=None):
        """The season's Runden owed (`?member=<id>`: one thrower's), serialized once per
        club books version (a Runde given or taken back, a rename: a change of the books);
        a GET with the ETag it got answers 304."""
        season = self.get_object()
        thrower_id = id_param(request, "member", _("A member is named by its id."))
        return kept_api_read(
            request,
            "season_runden",
            season.pk,
            thrower_id,
            club=club_of(request),
            build=lambda: [
                dict(row)
                for row in RundeOwedSerializer(
                    season_runden_owed(season=season, thrower_id=thrower_id), many=True
                ).data
            ],
        )


@schema.MEMBER_VIEWSET
@extend_schema(tags=["Members"])
class MemberViewSet(club_api.MemberViewSet):
    """The people of the club (members and guests); their dues."""

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    @answers_not_modified
    def dues(self, request, pk=None):
        member = self.get_object()
        if not is_secretary(request) and request_member(request) != member:
            raise BooksError("own_dues_only", _("Members see only their own dues."), status=403)
        season = season_param(request, club=request_club(request), latest_by_default=True)
        return kept_api_read(
            request,
            "dues",
            season.pk,
            member.pk,
            club=club_of(request),
            build=lambda: dict(DuesSerializer(member_dues(member=member, season=season)).data),
        )


@extend_schema(tags=["Standings"])
class AllTimeStandingsView(APIView):
    """GET /api/v1/standings/all-time/: the club's all-time standings,
    for every person of the club; serialized once per club books version, from the kept
    per-season parts (league/standings/all_time.py); a GET with its ETag answers 304."""

    permission_classes = [ClubLogin]

    @schema.ALL_TIME_GET
    @answers_not_modified
    def get(self, request):
        club = club_of(request)
        return kept_api_read(
            request,
            "all_time_standings",
            club=club,
            build=lambda: dict(AllTimeStandingsSerializer(all_time_standings(club=club)).data),
        )
