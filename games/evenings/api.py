"""REST API of evenings and games (short entry) and an evening's summary.

Every write is one service call (games/evenings/services.py); every computed figure comes
from a selector (games/evenings/selectors.py). Evenings and games carry a `version`: PUT,
PATCH and DELETE must send the version last read (`version` in the body, the `If-Match`
header, or `?version=` on DELETE); none -> 428 `version_required`, a stale one -> 412
`stale_version`. Roles and error bodies: league/club/api_common.py; the OpenAPI prose:
games/evenings/schema.py. Rounds: games/rounds/api.py extends GameViewSet.
"""

import datetime
from typing import Any

from django.db.models import Prefetch
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from games.evenings import schema
from games.evenings.filters import EveningFilter, GameFilter
from games.evenings.models import Attendance, Evening, Game, Objection, SchockAus
from games.evenings.selectors import (
    PLANNED_WEEKS,
    PlannedEveningLine,
    club_planned_evenings,
    evening_books,
    evening_objections,
    evening_provisional_state,
)
from games.evenings.serializers import (
    EveningObjectionsSerializer,
    EveningSerializer,
    EveningSummarySerializer,
    EveningWriteSerializer,
    GameSerializer,
    GameWriteSerializer,
    ObjectionAnswerSerializer,
    ObjectionCreateSerializer,
    ObjectionSerializer,
    PlannedEveningSerializer,
    PlannedEveningWriteSerializer,
)
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_finalise,
    evening_update,
    game_delete,
    game_record,
    game_undo,
    game_update,
    objection_answer,
    objection_create,
    planned_evening_add,
    planned_evening_cancel,
    planned_evening_move,
)
from league.club.api_common import (
    ClubScopedMixin,
    club_of,
    etag,
    expected_version,
    kept_api_list,
    kept_api_object,
    member_of,
    request_club,
    require_secretary,
)
from league.club.api_login import ClubLogin
from league.club.api_schema import answers_not_modified
from league.club.errors import BooksError
from league.club.fields import parse_iso_date
from league.club.idempotency import idempotent


def _plain_page(response: Response) -> dict[str, Any]:
    """A paginated response's data as a plain dict (for the cache)."""
    data = dict(response.data)
    data["results"] = [dict(row) for row in data["results"]]
    return data


def _evening_queryset():
    return Evening.objects.prefetch_related(
        Prefetch("attendances", queryset=Attendance.objects.select_related("member"))
    )


def _game_queryset():
    return Game.objects.prefetch_related(
        Prefetch("schock_aus", queryset=SchockAus.objects.order_by("position"))
    )


@schema.EVENING_VIEWSET
@extend_schema(tags=["Evenings"])
class EveningViewSet(ClubScopedMixin, viewsets.ModelViewSet):
    """The club's evenings with their attendance; their books (`summary`)."""

    serializer_class = EveningSerializer
    filterset_class = EveningFilter
    ordering_fields = ["date"]
    ordering = ["-date"]

    def get_queryset(self):
        return self.scope(_evening_queryset())

    def _respond(self, evening: Evening, code: int = status.HTTP_200_OK) -> Response:
        evening = _evening_queryset().get(pk=evening.pk)
        return Response(EveningSerializer(evening).data, status=code, headers=etag(evening.version))

    @answers_not_modified
    def list(self, request, *args, **kwargs):
        """The evenings (filtered, paginated), kept by the club's books version."""
        return kept_api_list(
            request, "evenings", lambda: _plain_page(super(EveningViewSet, self).list(request))
        )

    def retrieve(self, request, *args, **kwargs):
        """An evening, kept by the club's books version; its ETag is its `version`."""
        data = kept_api_object(
            request,
            "evening",
            kwargs.get(self.lookup_field),
            lambda: dict(EveningSerializer(self.get_object()).data),
        )
        return Response(data, headers=etag(data["version"]))

    @idempotent
    def create(self, request, *args, **kwargs):
        data = EveningWriteSerializer(data=request.data, context=club_context(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        evening = evening_create(
            club=club_of(request),
            date=v["date"],
            secretary=v.get("secretary") or member_of(request),
            present_members=v["present_members"],
            guests=v.get("guests", []),
            absent_members=v.get("absent_members", []),
            notes=v.get("notes", ""),
            new_guests=v.get("new_guests", []),
        )
        return self._respond(evening, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        evening = self.get_object()
        data = EveningWriteSerializer(
            data=request.data,
            partial=kwargs.get("partial", False),
            context=club_context(request),
        )
        data.is_valid(raise_exception=True)
        v = data.validated_data
        version = expected_version(request, v.get("version"))
        roles = {
            role: [a.member for a in evening.attendances.all() if a.role == role]
            for role in Attendance.Role.values
        }
        evening = evening_update(
            evening=evening,
            date=v.get("date", evening.date),
            secretary=v.get("secretary", evening.secretary),
            present_members=v.get("present_members", roles[Attendance.Role.MEMBER]),
            guests=v.get("guests", roles[Attendance.Role.GUEST]),
            absent_members=v.get("absent_members", roles[Attendance.Role.ABSENT]),
            notes=v.get("notes", evening.notes),
            expected_version=version,
            new_guests=v.get("new_guests", []),
        )
        return self._respond(evening)

    def destroy(self, request, *args, **kwargs):
        evening = self.get_object()
        evening_delete(evening=evening, expected_version=expected_version(request, None))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def summary(self, request, pk=None):
        data = kept_api_object(
            request,
            "evening_summary",
            pk,
            lambda: dict(EveningSummarySerializer(evening_books(evening=self.get_object())).data),
        )
        return Response(data, headers=etag(data["version"]))


@schema.GAME_VIEWSET
@extend_schema(tags=["Games"])
class GameViewSet(ClubScopedMixin, viewsets.ModelViewSet):
    """The club's games; recording, correcting and deleting them; their rounds."""

    serializer_class = GameSerializer
    filterset_class = GameFilter
    club_field = "evening__club_id"
    ordering_fields = ["number", "evening__date", "id"]
    ordering = ["-evening__date", "number"]

    def get_queryset(self):
        return self.scope(_game_queryset())

    def _respond(self, game: Game, code: int = status.HTTP_200_OK) -> Response:
        game = _game_queryset().get(pk=game.pk)
        return Response(GameSerializer(game).data, status=code, headers=etag(game.version))

    @answers_not_modified
    def list(self, request, *args, **kwargs):
        """The games (filtered, paginated), kept by the club's books version."""
        return kept_api_list(
            request, "games", lambda: _plain_page(super(GameViewSet, self).list(request))
        )

    def retrieve(self, request, *args, **kwargs):
        """A game, kept by the club's books version; its ETag is its `version`."""
        data = kept_api_object(
            request,
            "game",
            kwargs.get(self.lookup_field),
            lambda: dict(GameSerializer(self.get_object()).data),
        )
        return Response(data, headers=etag(data["version"]))

    @idempotent
    def create(self, request, *args, **kwargs):
        data = GameWriteSerializer(data=request.data, context=club_context(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "evening" not in v:
            raise BooksError("required", _("Name the evening of the game."), field="evening")
        game = game_record(
            evening=evening_of_club(request, v["evening"]),
            loser=v["loser"],
            schock_aus_throwers=v.get("schock_aus", []),
            number=v.get("number"),
            vorleger=v.get("vorleger"),
            expected_evening_version=v.get("evening_version"),
            client_key=v.get("client_key"),
            target_confirmed=v.get("beyond_target", False),
        )
        return self._respond(game, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        game = self.get_object()
        data = GameWriteSerializer(
            data=request.data,
            partial=kwargs.get("partial", False),
            context=club_context(request),
        )
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if v.get("evening", game.evening_id) != game.evening_id:
            raise BooksError(
                "evening_fixed", _("A game cannot move to another evening."), field="evening"
            )
        version = expected_version(request, v.get("version"))
        game = game_update(
            game=game,
            loser=v.get("loser", game.loser),
            schock_aus_throwers=v.get(
                "schock_aus", [sa.thrower for sa in game.schock_aus.select_related("thrower")]
            ),
            vorleger=v.get("vorleger", game.vorleger),
            number=v.get("number", game.number),
            expected_version=version,
        )
        return self._respond(game)

    def destroy(self, request, *args, **kwargs):
        game = self.get_object()
        game_delete(game=game, expected_version=expected_version(request, None))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @schema.GAME_UNDO
    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def undo(self, request, pk=None):
        """Undo the evening's last game within two minutes of saving it (game_undo)."""
        game_undo(game=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


def club_context(request) -> dict:
    return {"request": request, "club": request_club(request)}


def evening_of_club(request, evening_id: int) -> Evening:
    club = request_club(request)
    evening = Evening.objects.filter(club=club, pk=evening_id).first() if club else None
    if evening is None:
        raise BooksError(
            "unknown_evening", _("Unknown evening: %(id)s.") % {"id": evening_id}, field="evening"
        )
    return evening


# --- objections to a provisional evening ---------------------------------------------


def _evening_of(request, evening_id: int) -> Evening:
    """The requesting person's club's evening (its season with it); 404 otherwise."""
    club = club_of(request)
    evening = Evening.objects.select_related("season").filter(club=club, pk=evening_id).first()
    if evening is None:
        raise Http404
    return evening


def _objections_state(evening: Evening) -> dict[str, Any]:
    state = evening_provisional_state(evening=evening)
    return dict(
        EveningObjectionsSerializer(
            {
                "evening": evening.pk,
                "provisional": state.provisional,
                "provisional_until": state.until,
                "finalised_at": state.finalised_at,
                "open_objections": state.open_objections,
                "objections": evening_objections(evening=evening),
            }
        ).data
    )


@extend_schema(tags=["Evenings"])
class EveningObjectionsView(APIView):
    """GET/POST /api/v1/evenings/{id}/objections/: the evening's provisional state and
    objections; object to one of its games (every person of the club). Not kept: the
    state moves with the clock."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.OBJECTIONS_GET
    def get(self, request, evening_id: int):
        return Response(_objections_state(_evening_of(request, evening_id)))

    @schema.OBJECTIONS_POST
    @idempotent
    def post(self, request, evening_id: int):
        evening = _evening_of(request, evening_id)
        body = ObjectionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = Game.objects.filter(pk=body.validated_data["game"], evening=evening).first()
        if game is None:
            raise BooksError("unknown_game", _("The evening has no such game."), field="game")
        objection = objection_create(
            evening=evening, game=game, by=member_of(request), text=body.validated_data["text"]
        )
        return Response(ObjectionSerializer(objection).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["Evenings"])
class ObjectionAnswerView(APIView):
    """POST /api/v1/objections/{id}/answer/: the secretary answers an objection."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.OBJECTION_ANSWER_POST
    def post(self, request, objection_id: int):
        require_secretary(request)
        objection = Objection.objects.filter(
            pk=objection_id, evening__club=club_of(request)
        ).first()
        if objection is None:
            raise Http404
        body = ObjectionAnswerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        objection = objection_answer(
            objection=objection,
            by=member_of(request),
            outcome=body.validated_data["outcome"],
            reason=body.validated_data["reason"],
        )
        return Response(ObjectionSerializer(objection).data)


@extend_schema(tags=["Evenings"])
class EveningFinaliseView(APIView):
    """POST /api/v1/evenings/{id}/finalise/: the secretary declares the evening final."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.FINALISE_POST
    def post(self, request, evening_id: int):
        require_secretary(request)
        evening = evening_finalise(evening=_evening_of(request, evening_id), by=member_of(request))
        return Response(_objections_state(evening))


# --- planned evenings (the calendar) ----------------------------------------------------


def _planned_line(club, day: datetime.date) -> dict[str, Any]:
    """The planned line on `day` (cancelled ones too) as the API shows it."""
    weeks = max(PLANNED_WEEKS, (day - timezone.localdate()).days // 7 + 1)
    lines: list[PlannedEveningLine] = club_planned_evenings(club=club, weeks=weeks)
    line = next((line for line in lines if line.date == day), None)
    if line is None:  # an evening recorded on that day meanwhile: no longer planned
        raise Http404
    return dict(PlannedEveningSerializer(line).data)


def _path_date(raw: str) -> datetime.date:
    day = parse_iso_date(raw)
    if day is None:
        raise Http404
    return day


def _time_of(raw: str | None) -> datetime.time | None:
    return datetime.time(int(raw[:2]), int(raw[3:])) if raw else None


@extend_schema(tags=["Evenings"])
class PlannedEveningsView(APIView):
    """GET/POST /api/v1/planned-evenings/: the calendar's planned evenings; add one."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.PLANNED_GET
    def get(self, request):
        lines = club_planned_evenings(club=club_of(request))
        return Response(PlannedEveningSerializer(lines, many=True).data)

    @schema.PLANNED_POST
    @idempotent
    def post(self, request):
        require_secretary(request)
        body = PlannedEveningWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        club = club_of(request)
        row = planned_evening_add(
            club=club,
            date=body.validated_data["date"],
            starts_at=_time_of(body.validated_data["time"]),
        )
        return Response(_planned_line(club, row.date), status=status.HTTP_201_CREATED)


@extend_schema(tags=["Evenings"])
class PlannedEveningMoveView(APIView):
    """POST /api/v1/planned-evenings/{date}/move/: the secretary moves an evening."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.PLANNED_MOVE_POST
    def post(self, request, date: str):
        require_secretary(request)
        body = PlannedEveningWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        club = club_of(request)
        row = planned_evening_move(
            club=club,
            date=_path_date(date),
            new_date=body.validated_data["date"],
            starts_at=_time_of(body.validated_data["time"]),
        )
        return Response(_planned_line(club, row.date))


@extend_schema(tags=["Evenings"])
class PlannedEveningCancelView(APIView):
    """POST /api/v1/planned-evenings/{date}/cancel/: the secretary cancels an evening."""

    permission_classes = [ClubLogin]
    writes_books = False

    @schema.PLANNED_CANCEL_POST
    def post(self, request, date: str):
        require_secretary(request)
        club = club_of(request)
        row = planned_evening_cancel(club=club, date=_path_date(date))
        return Response(_planned_line(club, row.date))
