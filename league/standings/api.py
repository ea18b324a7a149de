"""The championship through the API: a season's standings and Runden owed, a member's dues.

The viewsets extend the club register's (league.club.api) with the books' read actions, so
the register never imports the books (README "Layout").
"""

from django.db.models import Max
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.response import Response

from league.club import api as club_api
from league.club.api import DUES_EXAMPLE, RUNDE_EXAMPLE, STANDINGS_EXAMPLE
from league.club.api_common import api_example, error_responses, is_secretary, request_member
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.money import marks_to_money
from league.runden.models import RundeGiven
from league.runden.selectors import season_runden
from league.runden.serializers import RundeOwedSerializer
from league.standings.selectors import member_dues, season_standings
from league.standings.serializers import DuesSerializer, StandingsSerializer


@extend_schema_view(
    standings=extend_schema(
        summary="Standings of a season",
        description="The championship table (RULES.md 5): +1 per Schock-Aus, -1 per lost "
        "game; equal points share a place (1, 2, 2, 4), listed by more Schock-Aus, then "
        "name. Guests are listed apart, unranked. Marks and money (season's currency) per "
        "person and in total. A fixed number of queries, whatever the season's size.",
        responses={200: StandingsSerializer, **error_responses()},
        examples=[api_example("Standings", STANDINGS_EXAMPLE, response_only=True)],
    ),
    runden=extend_schema(
        summary="Runden owed in a season",
        description="Every Runde owed in the season, evening by evening (RULES.md 5: the "
        "thrower of the first, every fifth and the last Schock-Aus of an evening), with "
        "`given_on` once it was given. `?member=<id>` keeps one thrower's.",
        parameters=[OpenApiParameter("member", OpenApiTypes.INT, description="Thrower id.")],
        responses={200: RundeOwedSerializer(many=True), **error_responses(400)},
        examples=[api_example("Runden", [RUNDE_EXAMPLE], response_only=True)],
    ),
)
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
        member_id = request.query_params.get("member")
        if member_id is not None and not member_id.isdigit():
            raise BooksError("invalid", _("A member is named by its id."), field="member")
        rows = season_runden(season=season)
        if member_id is not None:
            rows = [r for r in rows if r["thrower_id"] == int(member_id)]
        names = dict(
            Member.objects.filter(pk__in={r["thrower_id"] for r in rows}).values_list("pk", "name")
        )
        given = dict(
            RundeGiven.objects.filter(
                schock_aus__in=[r["schock_aus_id"] for r in rows]
            ).values_list("schock_aus_id", "given_on")
        )
        for r in rows:
            r["thrower_name"] = names[r["thrower_id"]]
            r["given_on"] = given.get(r["schock_aus_id"])
        return Response(RundeOwedSerializer(rows, many=True).data)


@extend_schema_view(
    dues=extend_schema(
        summary="A member's dues in a season",
        description="The Marks a person owes, evening by evening: 1 Mark per lost game, 6 "
        "Marks per evening absent as a club member (RULES.md 5), in Marks and in the "
        "season's currency. `?season=<id>` (default: the club's latest season). A member "
        "reads only the own dues (another member's: 403); the secretary reads everyone's.",
        parameters=[OpenApiParameter("season", OpenApiTypes.INT, description="Season id.")],
        responses={200: DuesSerializer, **error_responses(400, 403)},
        examples=[api_example("Dues of an absent member", DUES_EXAMPLE, response_only=True)],
    ),
)
@extend_schema(tags=["Members"])
class MemberViewSet(club_api.MemberViewSet):
    """The people of the club (members and guests); their dues."""

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def dues(self, request, pk=None):
        member = self.get_object()
        me = request_member(request)
        if not is_secretary(request) and me.pk != member.pk:
            raise BooksError("own_dues_only", _("Members see only their own dues."), status=403)
        season = self._season(request, member.club_id)
        lines = member_dues(member=member, season=season)
        marks = sum(line.marks for line in lines)
        return Response(
            DuesSerializer(
                {
                    "member": member,
                    "season": season,
                    "lines": lines,
                    "marks_total": marks,
                    "money_total": marks_to_money(marks, season.mark_value),
                }
            ).data
        )

    @staticmethod
    def _season(request, club_id: int) -> Season:
        raw = request.query_params.get("season")
        seasons = Season.objects.filter(club_id=club_id)
        if raw is None:
            latest = seasons.aggregate(year=Max("year"))["year"]
            season = seasons.filter(year=latest).first()
        elif raw.isdigit() and len(raw) < 19:
            season = seasons.filter(pk=int(raw)).first()
        else:
            raise BooksError("invalid", _("A season is named by its id."), field="season")
        if season is None:
            raise BooksError(
                "unknown_season", _("The club has no such season."), field="season", status=404
            )
        return season
