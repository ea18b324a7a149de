"""REST API of the league: clubs, seasons (with standings and Runden owed), members (with
dues) and the requesting user (issue 4). Writes go through league.services.seasons, reads
through league.selectors; roles and errors: league.api_common.
"""

from django.db.models import Max
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import RundeGiven
from league.api_common import (
    ClubScopedMixin,
    error_responses,
    is_secretary,
    request_club,
    request_member,
)
from league.errors import BooksError
from league.filters import MemberFilter, SeasonFilter
from league.models import Club, Member, Season
from league.money import marks_to_money
from league.selectors import member_dues, season_runden, season_standings
from league.serializers import (
    ClubSerializer,
    DuesSerializer,
    MemberCreateSerializer,
    MemberSerializer,
    MeSerializer,
    RundeOwedSerializer,
    SeasonCreateSerializer,
    SeasonSerializer,
    StandingsSerializer,
)
from league.services.seasons import member_create, season_create

CLUB_EXAMPLE = {"id": 1, "name": "Schockclub Sample", "rule_preset": "club"}
SEASON_EXAMPLE = {
    "id": 48,
    "club": 1,
    "year": 2026,
    "starts_on": "2026-01-01",
    "ends_on": "2026-12-31",
    "rule_preset": "club",
    "mark_value": "0.50",
    "currency": "EUR",
    "data_version": 27,
}
MEMBER_EXAMPLE = {
    "id": 2,
    "club": 1,
    "name": "Bernd Krause",
    "kind": "member",
    "active": True,
    "is_secretary": True,
}
ROW_EXAMPLE = {
    "member": {"id": 1, "name": "Anna Becker"},
    "place": 2,
    "points": -3,
    "evenings_attended": 1,
    "evenings_absent": 0,
    "games_played": 25,
    "games_lost": 4,
    "schock_aus": 1,
    "runden": 1,
    "marks": 4,
    "money": "2.00",
}
STANDINGS_EXAMPLE = {
    "season": 48,
    "year": 2026,
    "rows": [ROW_EXAMPLE],
    "guests": [
        {
            **ROW_EXAMPLE,
            "member": {"id": 7, "name": "Gustav Meier"},
            "place": None,
            "points": -3,
            "games_lost": 3,
            "schock_aus": 0,
            "runden": 0,
            "marks": 3,
            "money": "1.50",
        }
    ],
    "evenings": 1,
    "games": 25,
    "schock_aus": 5,
    "runden": 3,
    "marks_total": 31,
    "money_total": "15.50",
    "currency": "EUR",
}
DUES_EXAMPLE = {
    "member": {"id": 6, "name": "Frank Roth"},
    "season": 48,
    "year": 2026,
    "currency": "EUR",
    "lines": [
        {
            "evening": 1,
            "date": "2026-10-09",
            "role": "absent",
            "games_lost": 0,
            "schock_aus": 0,
            "runden": 0,
            "marks": 6,
            "money": "3.00",
        }
    ],
    "marks_total": 6,
    "money_total": "3.00",
}
RUNDE_EXAMPLE = {
    "evening": 1,
    "date": "2026-10-09",
    "ordinal": 1,
    "thrower": 1,
    "thrower_name": "Anna Becker",
    "reason": "first",
    "schock_aus": 3,
    "given_on": None,
}


def _example(name: str, value, **kwargs) -> OpenApiExample:
    return OpenApiExample(name, value=value, **kwargs)


@extend_schema_view(
    list=extend_schema(
        summary="Your club",
        description="The clubs you can see: your own (a list of one; empty without a club).",
        responses={200: ClubSerializer(many=True), **error_responses()},
        examples=[_example("Own club", CLUB_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A club",
        description="Your club. Another club's id answers 404.",
        responses={200: ClubSerializer, **error_responses()},
        examples=[_example("Club", CLUB_EXAMPLE, response_only=True)],
    ),
)
@extend_schema(tags=["Club and login"])
class ClubViewSet(ClubScopedMixin, viewsets.ReadOnlyModelViewSet):
    """The own club (read only: clubs are set up in the admin)."""

    serializer_class = ClubSerializer
    club_field = "pk"
    ordering_fields = ["name"]
    ordering = ["name"]

    def get_queryset(self):
        return self.scope(Club.objects.all())


@extend_schema_view(
    list=extend_schema(
        summary="Seasons",
        description="The club's seasons, newest first. Filter by year, year range, currency "
        "and rule preset; order by `year` or `-year`.",
        responses={200: SeasonSerializer(many=True), **error_responses(400)},
        examples=[_example("Seasons", SEASON_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A season",
        description="One season of the club: rule preset, Mark value and currency.",
        responses={200: SeasonSerializer, **error_responses()},
        examples=[_example("Season", SEASON_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Create a season",
        description="Secretary only. Creates the season of `year` (a calendar year unless "
        "`starts_on`/`ends_on` are given) with the club's rule preset unless another is "
        "named. The Mark is worth 1.00 DM up to 2001 and 0.50 EUR from 2002 (RULES.md 5). "
        "A year the club has already: 409 `season_exists`.",
        request=SeasonCreateSerializer,
        responses={201: SeasonSerializer, **error_responses(400, 403, 409)},
        examples=[
            _example("New season", {"year": 2027}, request_only=True),
            _example(
                "Created",
                {
                    **SEASON_EXAMPLE,
                    "id": 49,
                    "year": 2027,
                    "starts_on": "2027-01-01",
                    "ends_on": "2027-12-31",
                    "data_version": 0,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
    standings=extend_schema(
        summary="Standings of a season",
        description="The championship table (RULES.md 5): +1 per Schock-Aus, -1 per lost "
        "game; equal points share a place (1, 2, 2, 4), listed by more Schock-Aus, then "
        "name. Guests are listed apart, unranked. Marks and money (season's currency) per "
        "person and in total. A fixed number of queries, whatever the season's size.",
        responses={200: StandingsSerializer, **error_responses()},
        examples=[_example("Standings", STANDINGS_EXAMPLE, response_only=True)],
    ),
    runden=extend_schema(
        summary="Runden owed in a season",
        description="Every Runde owed in the season, evening by evening (RULES.md 5: the "
        "thrower of the first, every fifth and the last Schock-Aus of an evening), with "
        "`given_on` once it was given. `?member=<id>` keeps one thrower's.",
        parameters=[OpenApiParameter("member", OpenApiTypes.INT, description="Thrower id.")],
        responses={200: RundeOwedSerializer(many=True), **error_responses(400)},
        examples=[_example("Runden", [RUNDE_EXAMPLE], response_only=True)],
    ),
)
@extend_schema(tags=["Seasons"])
class SeasonViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The club's seasons; standings and Runden owed per season."""

    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    ordering_fields = ["year"]
    ordering = ["-year"]

    def get_queryset(self):
        return self.scope(Season.objects.all())

    def create(self, request, *args, **kwargs):
        data = SeasonCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_create(club=request_club(request), **data.validated_data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

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
    list=extend_schema(
        summary="Members and guests",
        description="The people of the club. Filter by `kind` (member, guest), `active`, "
        "`is_secretary`, `name` (contains); order by `name`.",
        responses={200: MemberSerializer(many=True), **error_responses(400)},
        examples=[_example("Members", MEMBER_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A member or guest",
        description="One person of the club.",
        responses={200: MemberSerializer, **error_responses()},
        examples=[_example("Member", MEMBER_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Add a member or guest",
        description="Secretary only. A name the club has already: 409 `member_exists`.",
        request=MemberCreateSerializer,
        responses={201: MemberSerializer, **error_responses(400, 403, 409)},
        examples=[
            _example("New guest", {"name": "Gustav Meier", "kind": "guest"}, request_only=True),
            _example(
                "Created",
                {
                    **MEMBER_EXAMPLE,
                    "id": 7,
                    "name": "Gustav Meier",
                    "kind": "guest",
                    "is_secretary": False,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
    dues=extend_schema(
        summary="A member's dues in a season",
        description="The Marks a person owes, evening by evening: 1 Mark per lost game, 6 "
        "Marks per evening absent as a club member (RULES.md 5), in Marks and in the "
        "season's currency. `?season=<id>` (default: the club's latest season). A member "
        "reads only the own dues (another member's: 403); the secretary reads everyone's.",
        parameters=[OpenApiParameter("season", OpenApiTypes.INT, description="Season id.")],
        responses={200: DuesSerializer, **error_responses(400, 403)},
        examples=[_example("Dues of an absent member", DUES_EXAMPLE, response_only=True)],
    ),
)
@extend_schema(tags=["Members"])
class MemberViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The people of the club (members and guests); their dues."""

    serializer_class = MemberSerializer
    filterset_class = MemberFilter
    ordering_fields = ["name", "kind"]
    ordering = ["name"]

    def get_queryset(self):
        return self.scope(Member.objects.all())

    def create(self, request, *args, **kwargs):
        data = MemberCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member = member_create(club=request_club(request), **data.validated_data)
        return Response(MemberSerializer(member).data, status=status.HTTP_201_CREATED)

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


class TokenSerializer(serializers.Serializer):
    """The API token of a login."""

    token = serializers.CharField()


@extend_schema(tags=["Club and login"])
class TokenView(ObtainAuthToken):
    """POST /api/v1/auth/token/: exchange username and password for the login's token."""

    @extend_schema(
        summary="Get an API token",
        description="Send username and password; the answer is the login's token. Send it "
        "as `Authorization: Token <key>` with every request. Wrong credentials: 400.",
        request=AuthTokenSerializer,
        responses={200: TokenSerializer, 400: error_responses(400)[400]},
        auth=[],
        examples=[
            _example("Login", {"username": "bernd", "password": "geheim-123"}, request_only=True),
            _example(
                "Token", {"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"}, response_only=True
            ),
        ],
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


@extend_schema(tags=["Club and login"])
class MeView(APIView):
    """GET /api/v1/me/: the requesting person, club and role."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Who am I",
        description="The logged-in user's person, club and whether it is the club's "
        "secretary. A login without a club: 404.",
        responses={200: MeSerializer, **error_responses()},
        examples=[
            _example(
                "Secretary",
                {"member": MEMBER_EXAMPLE, "club": CLUB_EXAMPLE, "is_secretary": True},
                response_only=True,
            )
        ],
    )
    def get(self, request):
        member = request_member(request)
        if member is None:
            raise BooksError("no_club", _("This login belongs to no club."), status=404)
        return Response(MeSerializer({"member": member}).data)


__all__ = ["ClubViewSet", "MeView", "MemberViewSet", "SeasonViewSet", "OpenApiResponse"]
