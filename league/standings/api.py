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

from league.club import api as club_api
from league.club.api_common import (
    id_param,
    is_secretary,
    request_club,
    request_member,
    season_param,
)
from league.club.errors import BooksError
from league.runden.selectors import season_runden_owed
from league.runden.serializers import RundeOwedSerializer
from league.standings import schema
from league.standings.selectors import member_dues, season_standings
from league.standings.serializers import DuesSerializer, StandingsSerializer


@schema.SEASON_VIEWSET
@extend_schema(tags=["Seasons"])
class SeasonViewSet(club_api.SeasonViewSet):
    """The club's seasons; standings and Runden owed per season."""

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def standings(self, request, pk=None):
        season = self.get_object()
        return Response(StandingsSerializer(season_standings(season=season)).data)

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def runden(self, request, pk=None):
        season = self.get_object()
        thrower_id = id_param(request, "member", _("A member is named by its id."))
        rows = season_runden_owed(season=season, thrower_id=thrower_id)
        return Response(RundeOwedSerializer(rows, many=True).data)


@schema.MEMBER_VIEWSET
@extend_schema(tags=["Members"])
class MemberViewSet(club_api.MemberViewSet):
    """The people of the club (members and guests); their dues."""

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def dues(self, request, pk=None):
        member = self.get_object()
        if not is_secretary(request) and request_member(request) != member:
            raise BooksError("own_dues_only", _("Members see only their own dues."), status=403)
        season = season_param(request, club=request_club(request), latest_by_default=True)
        return Response(DuesSerializer(member_dues(member=member, season=season)).data)
