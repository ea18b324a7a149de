"""REST API of evenings, games (short or round by round), an evening's summary and the
rules' live check (issue 4).

Every write is one service call (games.services.evenings, games.services.rounds); every
computed figure comes from a selector (games.selectors). Evenings and games carry a
`version`: PUT, PATCH and DELETE must send the version last read (`version` in the body,
the `If-Match` header, or `?version=` on DELETE); none -> 428 `version_required`, a stale
one -> 412 `stale_version`. Roles and error bodies: league.api_common.
"""

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from games.evenings.filters import EveningFilter, GameFilter
from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.selectors import evening_books
from games.evenings.serializers import (
    EveningSerializer,
    EveningSummarySerializer,
    EveningWriteSerializer,
    GameSerializer,
    GameWriteSerializer,
)
from games.evenings.services import (
    evening_create,
    evening_delete,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from league.club.api_common import (
    ClubScopedMixin,
    api_example,
    club_of,
    error_responses,
    etag,
    expected_version,
    member_of,
    request_club,
)
from league.club.errors import BooksError

IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The version last read, as its ETag ("3") or plain (3). Instead of the '
    "body's `version`.",
)


VERSION_QUERY = OpenApiParameter(
    "version", OpenApiTypes.INT, description="The version last read (instead of If-Match)."
)


EVENING_EXAMPLE = {
    "id": 1,
    "club": 1,
    "season": 48,
    "date": "2026-10-09",
    "secretary": 2,
    "notes": "",
    "version": 27,
    "present_members": [1, 2, 3, 4, 5],
    "guests": [7],
    "absent_members": [6],
    "attendance": [
        {"member": 1, "name": "Anna Becker", "role": "member"},
        {"member": 6, "name": "Frank Roth", "role": "absent"},
        {"member": 7, "name": "Gustav Meier", "role": "guest"},
    ],
    "created_at": "2026-10-09T19:02:11+02:00",
    "updated_at": "2026-10-09T23:41:05+02:00",
}


EVENING_INPUT = {
    "date": "2026-10-09",
    "secretary": "Bernd Krause",
    "present_members": ["Anna Becker", "Bernd Krause", "Carla Vogt", "Dieter Hahn", "Erik Lange"],
    "guests": ["Gustav Meier"],
    "absent_members": ["Frank Roth"],
}


GAME_EXAMPLE = {
    "id": 20,
    "evening": 1,
    "number": 20,
    "vorleger": 5,
    "loser": 1,
    "schock_aus": [5, 2],
    "entry_mode": "short",
    "version": 1,
    "created_at": "2026-10-09T22:58:40+02:00",
    "updated_at": "2026-10-09T22:58:40+02:00",
}


SUMMARY_EXAMPLE = {
    "evening": 1,
    "date": "2026-10-09",
    "season": 48,
    "version": 27,
    "games_expected": 25,
    "games_entered": 25,
    "schock_aus": [{"ordinal": 1, "game": 3, "thrower": {"id": 1, "name": "Anna Becker"}}],
    "runden": [
        {
            "ordinal": 1,
            "thrower": {"id": 1, "name": "Anna Becker"},
            "reason": "first",
            "schock_aus": 3,
        }
    ],
    "people": [
        {
            "member": {"id": 1, "name": "Anna Becker"},
            "role": "member",
            "games_lost": 4,
            "schock_aus": 1,
            "points": -3,
            "runden": 1,
            "marks": 4,
            "money": "2.00",
            "guest": False,
            "absent": False,
        }
    ],
    "marks_total": 31,
    "money_total": "15.50",
    "currency": "EUR",
    "warnings": [],
}


def _evening_queryset():
    return Evening.objects.prefetch_related(
        Prefetch("attendances", queryset=Attendance.objects.select_related("member"))
    )


def _game_queryset():
    return Game.objects.prefetch_related(
        Prefetch("schock_aus", queryset=SchockAus.objects.order_by("position"))
    )


@extend_schema_view(
    list=extend_schema(
        summary="Evenings",
        description="The club's evenings with their attendance, newest first. Filter by "
        "`season` (id), `year`, `date_from`, `date_to`; order by `date` or `-date`.",
        responses={200: EveningSerializer(many=True), **error_responses(400)},
        examples=[api_example("Evenings", EVENING_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="An evening",
        description="One evening with its attendance and `version` (also sent as ETag).",
        responses={200: EveningSerializer, **error_responses()},
        examples=[api_example("Evening", EVENING_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Create an evening",
        description="Secretary only. The season follows from the date (400 `no_season` "
        "without one). People by id or exact name; the evening's secretary defaults to you. "
        "`new_guests`: names of first-time guests, created as guests of the club with the "
        "evening. Refusals: `evening_exists` (409), `unknown_person`, `person_twice`, "
        "`member_as_guest`, `guest_as_member`, `secretary_not_present`, `no_members_present`, "
        "`member_exists` (409, a new guest's name is a club member's).",
        request=EveningWriteSerializer,
        responses={201: EveningSerializer, **error_responses(400, 403, 409)},
        examples=[
            api_example("Sample evening", EVENING_INPUT, request_only=True),
            api_example(
                "With a first-time guest",
                {**EVENING_INPUT, "new_guests": ["Xaver Huber"]},
                request_only=True,
            ),
            api_example(
                "Created",
                {**EVENING_EXAMPLE, "version": 2},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
    update=extend_schema(
        summary="Change an evening",
        description="Secretary only. Date, secretary, notes and attendance; fields not sent "
        "keep their value. The version last read is required (`version` or If-Match): none "
        "428, stale 412. Making absent or removing someone who lost or threw in a game of "
        "the evening: 409 `attendance_in_use`. `new_guests` adds first-time guests as on "
        "create (they join the guests kept or sent).",
        request=EveningWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: EveningSerializer, **error_responses(400, 403, 409, 412, 428)},
        examples=[
            api_example(
                "Change", {**EVENING_INPUT, "notes": "Bei Hahn", "version": 27}, request_only=True
            ),
            api_example(
                "Changed",
                {**EVENING_EXAMPLE, "notes": "Bei Hahn", "version": 28},
                response_only=True,
            ),
        ],
    ),
    partial_update=extend_schema(
        summary="Change part of an evening",
        description="As PUT, but only the fields sent change. The version is required.",
        request=EveningWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: EveningSerializer, **error_responses(400, 403, 409, 412, 428)},
        examples=[
            api_example("Notes", {"notes": "Bei Hahn", "version": 27}, request_only=True),
            api_example(
                "Changed",
                {**EVENING_EXAMPLE, "notes": "Bei Hahn", "version": 28},
                response_only=True,
            ),
        ],
    ),
    destroy=extend_schema(
        summary="Delete an evening",
        description="Secretary only, and only an evening without games (409 "
        "`evening_has_games`: delete its games first, so every charge is reversed "
        "visibly). The version is required: If-Match or `?version=`.",
        parameters=[IF_MATCH, VERSION_QUERY],
        responses={204: None, **error_responses(400, 403, 409, 412, 428)},
        examples=[api_example("Deleted", None, response_only=True, status_codes=["204"])],
    ),
    summary=extend_schema(
        summary="An evening's books",
        description="Computed from the records (RULES.md 5): games expected (5 per present "
        "club member) and entered, the Schock-Aus in throwing order, the Runden owed with "
        "their reasons, per person lost games, Schock-Aus, points, Marks and money (absent "
        "club members 6 Marks), totals and warnings. A fixed number of queries.",
        responses={200: EveningSummarySerializer, **error_responses()},
        examples=[api_example("Sample evening", SUMMARY_EXAMPLE, response_only=True)],
    ),
)
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

    def retrieve(self, request, *args, **kwargs):
        return self._respond(self.get_object())

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
        evening = self.get_object()
        books = evening_books(evening=evening)
        return Response(EveningSummarySerializer(books).data, headers=etag(books.evening.version))


@extend_schema_view(
    list=extend_schema(
        summary="Games",
        description="The club's games. Filter by `evening`, `season`, `loser`, `vorleger`, "
        "`schock_aus_thrower` (ids), `entry_mode`, `number`; order by `number`, "
        "`evening__date`.",
        responses={200: GameSerializer(many=True), **error_responses(400)},
        examples=[api_example("Games", GAME_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A game",
        description="One game: number, Vorleger, loser, Schock-Aus throwers in throwing "
        "order, entry mode and `version` (also sent as ETag).",
        responses={200: GameSerializer, **error_responses()},
        examples=[api_example("Game 20", GAME_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Record a game",
        description="Secretary only. The loser and the Schock-Aus throwers in throwing order "
        "(ids or exact names). `number` defaults to the evening's next free number (two "
        "clients adding at once get distinct numbers), `vorleger` to the previous game's "
        "loser. `evening_version` (optional) refuses the entry with 412 if the evening "
        "changed. Refusals: `unknown_evening`, `unknown_person`, `loser_not_present`, "
        "`thrower_not_present`, `vorleger_not_present`, `duplicate_game_number` (409).",
        request=GameWriteSerializer,
        responses={201: GameSerializer, **error_responses(400, 403, 409, 412)},
        examples=[
            api_example(
                "Game 20",
                {
                    "evening": 1,
                    "loser": "Anna Becker",
                    "schock_aus": ["Erik Lange", "Bernd Krause"],
                },
                request_only=True,
            ),
            api_example("Recorded", GAME_EXAMPLE, response_only=True, status_codes=["201"]),
        ],
    ),
    update=extend_schema(
        summary="Correct a game",
        description="Secretary only. Loser, Schock-Aus throwers, Vorleger, number; fields "
        "not sent keep their value. The game's version is required (`version` or "
        "If-Match): none 428, stale 412.",
        request=GameWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: GameSerializer, **error_responses(400, 403, 409, 412, 428)},
        examples=[
            api_example(
                "Correct the loser",
                {"loser": 1, "schock_aus": [5, 2], "version": 1},
                request_only=True,
            ),
            api_example("Corrected", {**GAME_EXAMPLE, "version": 2}, response_only=True),
        ],
    ),
    partial_update=extend_schema(
        summary="Correct part of a game",
        description="As PUT, but only the fields sent change. The version is required.",
        request=GameWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: GameSerializer, **error_responses(400, 403, 409, 412, 428)},
        examples=[
            api_example("No Schock-Aus", {"schock_aus": [], "version": 1}, request_only=True),
            api_example(
                "Corrected", {**GAME_EXAMPLE, "schock_aus": [], "version": 2}, response_only=True
            ),
        ],
    ),
    destroy=extend_schema(
        summary="Delete a game",
        description="Secretary only. Deletes the game with its Schock-Aus and rounds; its "
        "charge is reversed. A Runde of one of its Schock-Aus given already: 409 "
        "`runde_given`. The version is required: If-Match or `?version=`.",
        parameters=[IF_MATCH, VERSION_QUERY],
        responses={204: None, **error_responses(400, 403, 409, 412, 428)},
        examples=[api_example("Deleted", None, response_only=True, status_codes=["204"])],
    ),
)
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

    def retrieve(self, request, *args, **kwargs):
        return self._respond(self.get_object())

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
