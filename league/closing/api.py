"""REST API of the season close, through league/closing/services.py:

- ``GET  seasons/{id}/close/``     every person of the club: the close state
- ``POST seasons/{id}/close/``     secretary: season_close (body ``{"confirm": bool}``)
- ``POST seasons/{id}/reopen/``    secretary: season_reopen (body ``{"reason": str}``)
- ``POST seasons/{id}/sign-off/``  an auditor: season_sign_off

Another club's season: 404. Every person's open balance only for the secretary and a
Kassenprüfer auditing the closed season (`may_see_balances`); the others read the count
and the total. Errors: league/club/api_common.py; OpenAPI prose:
league/closing/schema.py. The GET is kept per club books version, season and signatures
(`season_sign_off_state`) and answers 304 to its ETag (league/club/caching.py).
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.evenings.selectors import club_provisional_evenings_key
from league.closing import schema
from league.closing.selectors import (
    VALID,
    may_see_balances,
    season_close_state,
    season_sign_off_state,
)
from league.closing.serializers import (
    CloseBodySerializer,
    CloseStateSerializer,
    ReopenBodySerializer,
)
from league.closing.services import (
    season_close,
    season_reopen,
    season_sign_off,
)
from league.club.api_common import (
    club_of,
    kept_api_read,
    member_of,
    request_member,
    require_secretary,
)
from league.club.api_login import ClubLogin
from league.club.api_schema import answers_not_modified
from league.club.idempotency import idempotent
from league.club.models import Season


def _season(request, season_id: int) -> Season:
    return get_object_or_404(Season, pk=season_id, club=club_of(request))


def _visible(request, data: dict) -> dict:
    """The close state as the requesting person may read it: every person's open balance
    for the secretary and an auditing Kassenprüfer (`may_see_balances`), else the list
    empty and only `open_balance_count` and `open_balance_total` beside it."""
    signed = {line["auditor_id"] for line in data["sign_offs"] if line["state"] == VALID}
    if may_see_balances(request_member(request), closed=data["closed"], signed_by=signed):
        return data
    return {**data, "open_items": {**data["open_items"], "open_balances": []}}


def _state(request, season: Season, code: int = status.HTTP_200_OK) -> Response:
    data = dict(CloseStateSerializer(season_close_state(season=season)).data)
    return Response(_visible(request, data), status=code)


@extend_schema(tags=["Season close"])
class SeasonCloseView(APIView):
    """GET/POST /api/v1/seasons/{id}/close/: the close state; close the season."""

    permission_classes = [ClubLogin]

    @schema.STATE_GET
    @answers_not_modified
    def get(self, request, season_id: int):
        season = _season(request, season_id)
        sign_offs = season_sign_off_state(season=season)
        return kept_api_read(
            request,
            "season_close",
            season.pk,
            sign_offs,
            club_provisional_evenings_key(club=club_of(request)),
            club=club_of(request),
            build=lambda: dict(CloseStateSerializer(season_close_state(season=season)).data),
            shape=lambda data: _visible(request, data),
        )

    @schema.CLOSE_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        require_secretary(request)
        body = CloseBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        season_close(season=season, by=member_of(request), confirm=body.validated_data["confirm"])
        return _state(request, season)


@extend_schema(tags=["Season close"])
class SeasonReopenView(APIView):
    """POST /api/v1/seasons/{id}/reopen/: reopen a closed season with a reason."""

    permission_classes = [ClubLogin]

    @schema.REOPEN_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        require_secretary(request)
        body = ReopenBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        season_reopen(season=season, by=member_of(request), reason=body.validated_data["reason"])
        return _state(request, season)


@extend_schema(tags=["Season close"])
class SeasonSignOffView(APIView):
    """POST /api/v1/seasons/{id}/sign-off/: the requesting auditor signs the season."""

    permission_classes = [ClubLogin]

    @schema.SIGN_OFF_POST
    @idempotent
    def post(self, request, season_id: int):
        season = _season(request, season_id)
        season_sign_off(season=season, auditor=member_of(request))
        return _state(request, season, status.HTTP_201_CREATED)
