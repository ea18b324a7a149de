"""REST API of the league: clubs, seasons (with standings and Runden owed), members (with
dues) and the requesting user (issue 4). Writes go through league.services.seasons, reads
through league.selectors; roles and errors: league.api_common.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import (
    ClubScopedMixin,
    api_example,
    error_responses,
    request_club,
    request_member,
)
from league.club.errors import BooksError
from league.club.filters import MemberFilter, SeasonFilter
from league.club.models import Club, Member, Season
from league.club.serializers import (
    ClubSerializer,
    MemberCreateSerializer,
    MemberSerializer,
    MeSerializer,
    SeasonCreateSerializer,
    SeasonSerializer,
)
from league.club.services import member_create, season_create

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


@extend_schema_view(
    list=extend_schema(
        summary="Your club",
        description="The clubs you can see: your own (a list of one; empty without a club).",
        responses={200: ClubSerializer(many=True), **error_responses()},
        examples=[api_example("Own club", CLUB_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A club",
        description="Your club. Another club's id answers 404.",
        responses={200: ClubSerializer, **error_responses()},
        examples=[api_example("Club", CLUB_EXAMPLE, response_only=True)],
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
        examples=[api_example("Seasons", SEASON_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A season",
        description="One season of the club: rule preset, Mark value and currency.",
        responses={200: SeasonSerializer, **error_responses()},
        examples=[api_example("Season", SEASON_EXAMPLE, response_only=True)],
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
            api_example("New season", {"year": 2027}, request_only=True),
            api_example(
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
)
@extend_schema(tags=["Seasons"])
class SeasonViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The club's seasons (standings and Runden: league.standings.api.SeasonViewSet)."""

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


@extend_schema_view(
    list=extend_schema(
        summary="Members and guests",
        description="The people of the club. Filter by `kind` (member, guest), `active`, "
        "`is_secretary`, `name` (contains); order by `name`.",
        responses={200: MemberSerializer(many=True), **error_responses(400)},
        examples=[api_example("Members", MEMBER_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A member or guest",
        description="One person of the club.",
        responses={200: MemberSerializer, **error_responses()},
        examples=[api_example("Member", MEMBER_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Add a member or guest",
        description="Secretary only. A name the club has already: 409 `member_exists`.",
        request=MemberCreateSerializer,
        responses={201: MemberSerializer, **error_responses(400, 403, 409)},
        examples=[
            api_example("New guest", {"name": "Gustav Meier", "kind": "guest"}, request_only=True),
            api_example(
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
)
@extend_schema(tags=["Members"])
class MemberViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The people of the club (members and guests; dues: league.standings.api)."""

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
            api_example(
                "Login", {"username": "bernd", "password": "geheim-123"}, request_only=True
            ),
            api_example(
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
            api_example(
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
