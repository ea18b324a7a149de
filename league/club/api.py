"""REST API of the club register: clubs, seasons, members and guests and the requesting
person ("who am I"); logins and tokens: league/club/accounts/api.py.

Writes go through league/club/services.py; roles, scoping and error bodies come from
league/club/api_common.py, the OpenAPI prose from league/club/schema.py. The books' read
actions (standings, Runden owed, dues) extend these viewsets in league/standings/api.py, so
the register never imports the books.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club import schema
from league.club.api_common import ClubScopedMixin, club_of, request_club, request_member
from league.club.api_login import ClubLogin
from league.club.errors import BooksError
from league.club.filters import MemberFilter, SeasonFilter
from league.club.idempotency import idempotent
from league.club.models import Club, Member, Season
from league.club.serializers import (
    CalendarLinkSerializer,
    ClubSerializer,
    MemberCreateSerializer,
    MemberSerializer,
    MemberUpdateSerializer,
    MeSerializer,
    SeasonCreateSerializer,
    SeasonRulesSerializer,
    SeasonSerializer,
    SeasonStatutesSerializer,
    SeasonStatutesUpdateSerializer,
)
from league.club.services import (
    member_calendar_revoke,
    member_change,
    member_create,
    season_create,
    season_statutes_update,
    season_update,
)
from league.club.statutes import statutes_view


@schema.CLUB_VIEWSET
@extend_schema(tags=["Club and login"])
class ClubViewSet(ClubScopedMixin, viewsets.ReadOnlyModelViewSet):
    """The own club (read only: clubs are set up in the admin)."""

    serializer_class = ClubSerializer
    club_field = "pk"
    ordering_fields = ["name"]
    ordering = ["name"]

    def get_queryset(self):
        return self.scope(Club.objects.all())

    def list(self, request, *args, **kwargs):
        """The own club as a page of one: the club read with the login (its token's or
        its session's person), so the list makes no query of its own."""
        club = request_club(request)
        page = self.paginate_queryset([club] if club is not None else [])
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


@schema.SEASON_VIEWSET
@extend_schema(tags=["Seasons"])
class SeasonViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The club's seasons (standings and Runden: league.standings.api.SeasonViewSet); the
    secretary creates them and changes their rule set (PATCH)."""

    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    ordering_fields = ["year"]
    ordering = ["-year"]

    def get_queryset(self):
        return self.scope(Season.objects.all())

    @idempotent
    def create(self, request, *args, **kwargs):
        data = SeasonCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_create(club=club_of(request), **data.validated_data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        season = self.get_object()  # another club's season: 404; a member: 403
        data = SeasonRulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_update(season=season, **data.validated_data)
        return Response(SeasonSerializer(season).data)

    @schema.SEASON_STATUTES
    @action(
        detail=True,
        methods=["get", "put"],
        url_path="statutes",
        filterset_class=None,
        pagination_class=None,
    )
    def statutes(self, request, pk=None):
        """The statutes the season's books are kept under (GET: everyone of the club; PUT:
        the secretary, `season_statutes_update`)."""
        season = self.get_object()  # another club's season: 404; a member's PUT: 403
        if request.method == "PUT":
            data = SeasonStatutesUpdateSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            season = season_statutes_update(season=season, **data.validated_data)
        return Response(SeasonStatutesSerializer(statutes_view(season)).data)


@schema.MEMBER_VIEWSET
@extend_schema(tags=["Members"])
class MemberViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """The people of the club (members and guests; dues: league.standings.api); the
    secretary adds them and changes them (PATCH, `member_change`: the people pages' rules)."""

    serializer_class = MemberSerializer
    filterset_class = MemberFilter
    ordering_fields = ["name", "kind"]
    ordering = ["name"]

    def get_queryset(self):
        return self.scope(Member.objects.all())

    @idempotent
    def create(self, request, *args, **kwargs):
        data = MemberCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member = member_create(club=club_of(request), **data.validated_data)
        return Response(MemberSerializer(member).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        person = self.get_object()  # another club's person: 404; a member: 403
        data = MemberUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        person = member_change(person=person, **data.validated_data)
        return Response(MemberSerializer(person).data)


@extend_schema(tags=["Club and login"])
class MeView(APIView):
    """GET /api/v1/me/: the requesting person, club and role."""

    permission_classes = [ClubLogin]

    @schema.ME_GET
    def get(self, request):
        member = request_member(request)
        if member is None:
            raise BooksError("no_club", _("This login belongs to no club."), status=404)
        return Response(MeSerializer({"member": member}, context={"request": request}).data)


class CalendarRevokeView(APIView):
    """POST /api/v1/me/calendar/revoke/: revoke the own calendar link, get a new one."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.CALENDAR_REVOKE_POST
    def post(self, request):
        member = request_member(request)
        if member is None:
            raise BooksError("no_club", _("This login belongs to no club."), status=404)
        member = member_calendar_revoke(member=member)
        data = MeSerializer({"member": member}, context={"request": request}).data
        return Response(CalendarLinkSerializer({"calendar_url": data["calendar_url"]}).data)
