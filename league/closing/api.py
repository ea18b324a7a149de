"""REST API of the season close (issue 14 item 3), through league/closing/services.py:

- ``GET  seasons/{id}/close/``     every person of the club: the close state
- ``POST seasons/{id}/close/``     secretary: season_close (body ``{"confirm": bool}``)
- ``POST seasons/{id}/reopen/``    secretary: season_reopen (body ``{"reason": str}``)
- ``POST seasons/{id}/sign-off/``  an auditor: season_sign_off

Another club's season: 404. Errors: league/club/api_common.py; OpenAPI prose:
league/closing/schema.py. The GET is kept per club books version, season and signatures
(`season_sign_off_state`) and answers 304 to its ETag (league/club/caching.py, issue 15).
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.closing import schema
from league.closing.serializers import (
    CloseBodySerializer,
    CloseStateSerializer,
    ReopenBodySerializer,
)
from league.closing.services import (
    season_close,
    season_close_state,
    season_reopen,
    season_sign_off,
    season_sign_off_state,
)
from league.club.api_common import club_of, member_of, require_secretary
from league.club.caching import (
    api_etag,
    api_not_modified,
    api_private,
    books_cached,
    club_books_version,
)
from league.club.idempotency import idempotent
from league.club.models import Season


def _season(request, season_id: int) -> Season:
    return get_object_or_404(Season, pk=season_id, club=club_of(request))


def _state(season: Season, code: int = status.HTTP_200_OK) -> Response:
    return Response(CloseStateSerializer(season_close_state(season=season)).data, status=code)


@extend_schema(tags=["Season close"])
class SeasonCloseView(APIView):
    """GET/POST /api/v1/seasons/{id}/close/: the close state; close the season."""

    permission_classes = [IsAuthenticated]

    @schema.STATE_GET
    def get(self, request, season_id: int):
        season = _season(request, season_id)
        sign_offs = season_sign_off_state(season=season)
        version = club_books_version(club=season.club_id)
        etag = api_etag(request, "season_close", version, sign_offs)
        if (not_modified := api_not_modified(request, etag)) is not None:
            return not_modified
        data = books_cached(
            "api_season_close",
            version,
            season.pk,
            sign_offs,
            build=lambda: dict(CloseStateSerializer(season_close_state(season=season)).data),
        )
        return api_private(Response(data), etag)

    @schema.CLOSE_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        require_secretary(request)
        body = CloseBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        season_close(season=season, by=member_of(request), confirm=body.validated_data["confirm"])
        return _state(season)


@extend_schema(tags=["Season close"])
class SeasonReopenView(APIView):
    """POST /api/v1/seasons/{id}/reopen/: reopen a closed season with a reason."""

    permission_classes = [IsAuthenticated]

    @schema.REOPEN_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        require_secretary(request)
        body = ReopenBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        season_reopen(season=season, by=member_of(request), reason=body.validated_data["reason"])
        return _state(season)


@extend_schema(tags=["Season close"])
class SeasonSignOffView(APIView):
    """POST /api/v1/seasons/{id}/sign-off/: the requesting auditor signs the season."""

    permission_classes = [IsAuthenticated]

    @schema.SIGN_OFF_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        season_sign_off(season=season, auditor=member_of(request))
        return _state(season, status.HTTP_201_CREATED)
