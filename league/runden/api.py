"""REST API of evenings, games (short or round by round), an evening's summary and the
rules' live check (issue 4).

Every write is one service call (games.services.evenings, games.services.rounds); every
computed figure comes from a selector (games.selectors). Evenings and games carry a
`version`: PUT, PATCH and DELETE must send the version last read (`version` in the body,
the `If-Match` header, or `?version=` on DELETE); none -> 428 `version_required`, a stale
one -> 412 `stale_version`. Roles and error bodies: league.api_common.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from games.evenings.models import SchockAus
from league.club.api_common import ClubScopedMixin, api_example, error_responses, request_club
from league.club.errors import BooksError
from league.runden.serializers import (
    RundeGivenResultSerializer,
    RundeGivenSerializer,
    RundenQuerySerializer,
    RundeStatusSerializer,
)

RUNDE_EXAMPLE = {
    "schock_aus": 3,
    "evening": 1,
    "date": "2026-10-09",
    "season": 48,
    "ordinal": 1,
    "reason": "first",
    "thrower": {"id": 1, "name": "Anna Becker"},
    "given": False,
    "given_on": None,
    "note": "",
}


@extend_schema_view(
    list=extend_schema(
        summary="Runden owed",
        description="The club's Runden owed (RULES.md 5: the thrower of the first, every "
        "fifth and the last Schock-Aus of an evening), oldest first, each identified by its "
        "Schock-Aus. `status` open (default), given or all; `season` (id, default every "
        "season: one query per season), `member` (thrower id).",
        parameters=[RundenQuerySerializer],
        responses={200: RundeStatusSerializer(many=True), **error_responses(400)},
        examples=[api_example("Open Runde", RUNDE_EXAMPLE, response_only=True)],
    ),
    given=extend_schema(
        summary="Mark a Runde as given / take it back",
        description="Secretary only. POST records that the Runde owed for this Schock-Aus "
        "was given (`given_on`, `note`); refusals: `no_runde_owed` (this Schock-Aus owes "
        "none), `given_before_evening`, `runde_already_given` (409). DELETE takes the "
        "record back (404 `runde_not_given` if there is none). A game whose Schock-Aus has "
        "a Runde given cannot be deleted or lose that Schock-Aus (409 `runde_given`).",
        request=RundeGivenSerializer,
        responses={201: RundeGivenResultSerializer, 204: None, **error_responses(400, 403, 409)},
        examples=[
            api_example(
                "Given", {"given_on": "2026-10-16", "note": "Pils für alle"}, request_only=True
            ),
            api_example(
                "Recorded",
                {"schock_aus": 3, "given_on": "2026-10-16", "note": "Pils für alle"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
)
@extend_schema(tags=["Runden"])
class RundeViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """Runden owed, identified by their Schock-Aus; marking them given."""

    club_field = "game__evening__club_id"
    serializer_class = RundeStatusSerializer
    filter_backends: list = []

    def get_queryset(self):
        return self.scope(SchockAus.objects.select_related("game"))

    def list(self, request):
        from league.club.models import Member, Season
        from league.runden.services import runden_overview

        query = RundenQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        q = query.validated_data
        club = request_club(request)
        if club is None:
            return self.get_paginated_response(self.paginate_queryset([]))
        season = member = None
        if "season" in q:
            season = Season.objects.filter(club=club, pk=q["season"]).first()
            if season is None:
                raise BooksError(
                    "unknown_season", _("The club has no such season."), field="season"
                )
        if "member" in q:
            member = Member.objects.filter(club=club, pk=q["member"]).first()
            if member is None:
                raise BooksError(
                    "unknown_person",
                    _("Unknown person: %(value)s.") % {"value": q["member"]},
                    field="member",
                )
        rows = runden_overview(club=club, season=season, member=member, status=q["status"])
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(RundeStatusSerializer(page, many=True).data)

    @action(detail=True, methods=["post", "delete"], pagination_class=None)
    def given(self, request, pk=None):
        from league.runden.services import runde_mark_given, runde_unmark

        schock_aus = self.get_object()
        if request.method == "DELETE":
            runde_unmark(schock_aus=schock_aus)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = RundeGivenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = runde_mark_given(
            schock_aus=schock_aus,
            given_on=data.validated_data["given_on"],
            note=data.validated_data["note"],
            recorded_by=request.user,
        )
        return Response(RundeGivenResultSerializer(given).data, status=status.HTTP_201_CREATED)
