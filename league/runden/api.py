"""REST API of the Runden owed (docs/rules.md 5), each identified by its Schock-Aus: the
club's list (open, given or all) and marking one as given or taking that back.

Writes go through league/runden/services.py; roles and errors: league/club/api_common.py;
the OpenAPI prose: league/runden/schema.py. A season's Runden with the throwers' names are
also at ``seasons/{id}/runden/`` (league/standings/api.py).
"""

from collections import defaultdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status as http_status
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from games.evenings.models import SchockAus
from league.club.api_common import ClubScopedMixin, kept_api_list, request_club
from league.club.api_schema import answers_not_modified
from league.club.caching import KeptRead
from league.club.idempotency import idempotent
from league.club.models import Club, Member, Season
from league.runden import schema
from league.runden.selectors import (
    RundeStatus,
    runden_overview,
)
from league.runden.serializers import (
    RundeGivenResultSerializer,
    RundeGivenSerializer,
    RundenQuerySerializer,
    RundeStatusSerializer,
)
from league.runden.services import (
    runde_mark_given,
    runde_unmark,
)


@schema.RUNDE_VIEWSET
@extend_schema(tags=["Runden"])
class RundeViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """Runden owed, identified by their Schock-Aus; marking them given."""

    club_field = "game__evening__club_id"
    serializer_class = RundeStatusSerializer
    filter_backends: list = []

    def get_queryset(self):
        return self.scope(SchockAus.objects.select_related("game"))

    @answers_not_modified
    def list(self, request):
        """The page of Runden asked for, kept by the club's books version (the
        Runden of every season are computed once per change of the books, not per read);
        a GET with the ETag it got answers 304."""
        return kept_api_list(request, "runden", lambda: self._page(request))

    def _page(self, request) -> dict:
        club = request_club(request)
        query = RundenQuerySerializer(data=request.query_params, context={"club": club})
        query.is_valid(raise_exception=True)
        rows = kept_runden_rows(club=club, **query.validated_data) if club is not None else []
        page = self.paginate_queryset(rows)
        return dict(self.get_paginated_response(page).data)

    @action(detail=True, methods=["post", "delete"], pagination_class=None)
    @idempotent
    def given(self, request, pk=None):
        schock_aus = self.get_object()
        if request.method == "DELETE":
            runde_unmark(schock_aus=schock_aus)
            return Response(status=http_status.HTTP_204_NO_CONTENT)
        data = RundeGivenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = runde_mark_given(
            schock_aus=schock_aus,
            given_on=data.validated_data["given_on"],
            note=data.validated_data["note"],
            recorded_by=request.user,
        )
        return Response(RundeGivenResultSerializer(given).data, status=http_status.HTTP_201_CREATED)


def _runde_row(r: RundeStatus) -> dict[str, Any]:
    """`RundeStatusSerializer(r).data` written out: the same keys and values (tested
    equal), for the thousands of rows of every season a first read serializes (DRF takes
    about 200 ms for 5,000 rows, this 5 ms)."""
    return {
        "schock_aus": r.schock_aus_id,
        "evening": r.evening_id,
        "date": r.date.isoformat(),
        "season": r.season.pk,
        "ordinal": r.ordinal,
        "reason": r.reason,
        "thrower": {"id": r.thrower.pk, "name": r.thrower.name},
        "given": r.given,
        "given_on": r.given_on.isoformat() if r.given_on is not None else None,
        "note": r.note,
    }


#: A season's Runden as API rows: its books and the register (the call adds the person's
#: id asked for and the status).
API_RUNDEN_SEASON = KeptRead("api_runden_season", depends=("season_part",))


def kept_runden_rows(
    *, club: Club, season: Season | None, member: Member | None, status: str
) -> list[dict[str, Any]]:
    """The Runden of `runden_overview` (league/runden/services.py) as serialized rows
    (`RundeStatusSerializer`), oldest first, from per-season parts kept under each
    season's `data_version`: after a change of one season's books only that
    season's Runden are computed again (about 30 ms at 48 seasons instead of 150 ms for
    every season). Parts missing together are computed in one `runden_overview` call of
    the club (four queries) and split by season. One query for the seasons besides."""
    seasons = [season] if season is not None else list(Season.objects.filter(club=club))
    member_id = member.pk if member is not None else None

    def build(missing: list[int]) -> list[list[dict[str, Any]]]:
        wanted = [seasons[i] for i in missing]
        only = wanted[0] if len(wanted) == 1 else None
        by_season: dict[int, list] = defaultdict(list)
        for row in runden_overview(club=club, season=only, member=member, status=status):
            by_season[row.season.pk].append(row)
        return [[_runde_row(r) for r in by_season[s.pk]] for s in wanted]

    parts = API_RUNDEN_SEASON.cached_many(seasons, member_id, status, club=club, build=build)
    rows = [row for part in parts for row in part]
    rows.sort(key=lambda r: (r["date"], r["ordinal"]))
    return rows
