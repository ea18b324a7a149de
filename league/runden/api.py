"""REST API of the Runden owed (RULES.md 5), each identified by its Schock-Aus: the
club's list (open, given or all) and marking one as given or taking that back.

Writes go through league/runden/services.py; roles and errors: league/club/api_common.py;
the OpenAPI prose: league/runden/schema.py. A season's Runden with the throwers' names are
also at ``seasons/{id}/runden/`` (league/standings/api.py).
"""

from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from games.evenings.api import kept_api_list
from games.evenings.models import SchockAus
from league.club.api_common import ClubScopedMixin, request_club
from league.runden import schema
from league.runden.serializers import (
    RundeGivenResultSerializer,
    RundeGivenSerializer,
    RundenQuerySerializer,
    RundeStatusSerializer,
)
from league.runden.services import runde_mark_given, runde_unmark, runden_overview


@schema.RUNDE_VIEWSET
@extend_schema(tags=["Runden"])
class RundeViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """Runden owed, identified by their Schock-Aus; marking them given."""

    club_field = "game__evening__club_id"
    serializer_class = RundeStatusSerializer
    filter_backends: list = []

    def get_queryset(self):
        return self.scope(SchockAus.objects.select_related("game"))

    def list(self, request):
        """The page of Runden asked for, kept by the club's books version (issue 15: the
        Runden of every season are computed once per change of the books, not per read);
        a GET with the ETag it got answers 304."""
        return kept_api_list(request, "runden", lambda: self._page(request))

    def _page(self, request) -> dict:
        club = request_club(request)
        query = RundenQuerySerializer(data=request.query_params, context={"club": club})
        query.is_valid(raise_exception=True)
        rows = runden_overview(club=club, **query.validated_data) if club is not None else []
        page = self.paginate_queryset(rows)
        response = self.get_paginated_response(RundeStatusSerializer(page, many=True).data)
        data = dict(response.data)
        data["results"] = [dict(row) for row in data["results"]]
        return data

    @action(detail=True, methods=["post", "delete"], pagination_class=None)
    def given(self, request, pk=None):
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
