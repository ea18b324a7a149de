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
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.filters import EveningFilter, GameFilter
from games.models import Attendance, Evening, Game, Round, RoundThrow, SchockAus
from games.rules import (
    PRESETS,
    Attempt,
    RuleViolation,
    Throw,
    evaluate,
    validate_throw,
    validate_turn,
)
from games.selectors import evening_books
from games.serializers import (
    AttemptSerializer,
    EveningSerializer,
    EveningSummarySerializer,
    EveningWriteSerializer,
    GameSerializer,
    GameWriteSerializer,
    PersonField,
    RoundSerializer,
    RoundsPreviewSerializer,
    RulesEvaluateSerializer,
    RulesEvaluationSerializer,
    RundeGivenResultSerializer,
    RundeGivenSerializer,
    RundenQuerySerializer,
    RundeStatusSerializer,
)
from games.services.evenings import (
    evening_create,
    evening_delete,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from league.api_common import (
    ClubScopedMixin,
    error_responses,
    etag,
    expected_version,
    request_club,
    request_member,
    rule_violation_field,
)
from league.errors import BooksError

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
ROUNDS_INPUT = {
    "evening": 1,
    "rounds": [
        {
            "throws": [
                {
                    "player": "Erik Lange",
                    "turn": [
                        {"rolled": [1, 4, 5], "keep": [1]},
                        {"rolled": [6, 1], "keep": [1]},
                        {"rolled": [1]},
                    ],
                },
                {"player": "Anna Becker", "dice": [6, 5, 5], "attempts": 3, "natural": False},
                {"player": "Bernd Krause", "turn": [{"rolled": [4, 5, 2]}, {"rolled": [1, 1, 1]}]},
            ]
        }
    ],
}
ROUND_EXAMPLE = {
    "number": 1,
    "phase": "single",
    "vorleger": 5,
    "loser": 1,
    "deckel": 13,
    "throws": [
        {
            "position": 1,
            "player": 5,
            "dice": [1, 1, 1],
            "attempts": 3,
            "natural": False,
            "turn": [{"rolled": [1, 4, 5], "keep": [1], "umwandlung": 0}],
            "muss_regel": False,
        }
    ],
}


def _example(name: str, value, **kwargs) -> OpenApiExample:
    return OpenApiExample(name, value=value, **kwargs)


def _club_context(request) -> dict:
    return {"request": request, "club": request_club(request)}


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
        examples=[_example("Evenings", EVENING_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="An evening",
        description="One evening with its attendance and `version` (also sent as ETag).",
        responses={200: EveningSerializer, **error_responses()},
        examples=[_example("Evening", EVENING_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Create an evening",
        description="Secretary only. The season follows from the date (400 `no_season` "
        "without one). People by id or exact name; the evening's secretary defaults to you. "
        "Refusals: `evening_exists` (409), `unknown_person`, `person_twice`, "
        "`member_as_guest`, `guest_as_member`, `secretary_not_present`, `no_members_present`.",
        request=EveningWriteSerializer,
        responses={201: EveningSerializer, **error_responses(400, 403, 409)},
        examples=[
            _example("Sample evening", EVENING_INPUT, request_only=True),
            _example(
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
        "the evening: 409 `attendance_in_use`.",
        request=EveningWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: EveningSerializer, **error_responses(400, 403, 409, 412, 428)},
        examples=[
            _example(
                "Change", {**EVENING_INPUT, "notes": "Bei Hahn", "version": 27}, request_only=True
            ),
            _example(
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
            _example("Notes", {"notes": "Bei Hahn", "version": 27}, request_only=True),
            _example(
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
        examples=[_example("Deleted", None, response_only=True, status_codes=["204"])],
    ),
    summary=extend_schema(
        summary="An evening's books",
        description="Computed from the records (RULES.md 5): games expected (5 per present "
        "club member) and entered, the Schock-Aus in throwing order, the Runden owed with "
        "their reasons, per person lost games, Schock-Aus, points, Marks and money (absent "
        "club members 6 Marks), totals and warnings. A fixed number of queries.",
        responses={200: EveningSummarySerializer, **error_responses()},
        examples=[_example("Sample evening", SUMMARY_EXAMPLE, response_only=True)],
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
        data = EveningWriteSerializer(data=request.data, context=_club_context(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        evening = evening_create(
            club=request_club(request),
            date=v["date"],
            secretary=v.get("secretary") or request_member(request),
            present_members=v["present_members"],
            guests=v.get("guests", []),
            absent_members=v.get("absent_members", []),
            notes=v.get("notes", ""),
        )
        return self._respond(evening, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        evening = self.get_object()
        data = EveningWriteSerializer(
            data=request.data,
            partial=kwargs.get("partial", False),
            context=_club_context(request),
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


class ThrowEntrySerializer(serializers.Serializer):
    """One player's throw in a round: `player` and either the final throw (`dice`,
    `attempts`, `natural`) or the turn attempt by attempt (`turn`)."""

    player = PersonField()
    dice = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=10)
    attempts = serializers.IntegerField(required=False, min_value=-99, max_value=99)
    natural = serializers.BooleanField(default=True)
    turn = AttemptSerializer(many=True, required=False, max_length=10)


class RoundEntrySerializer(serializers.Serializer):
    """One round: the throws in throwing order, the Vorleger first."""

    throws = ThrowEntrySerializer(many=True)


class GameRoundsWriteSerializer(serializers.Serializer):
    """Input of `game_record_rounds`: the evening, every round of the game in order,
    optionally the game's number and the evening's version."""

    evening = serializers.IntegerField(min_value=1)
    number = serializers.IntegerField(min_value=1, max_value=9999, required=False)
    evening_version = serializers.IntegerField(required=False, min_value=1, max_value=999_999_999)
    rounds = RoundEntrySerializer(many=True, max_length=500)


def _evening_of_club(request, evening_id: int) -> Evening:
    club = request_club(request)
    evening = Evening.objects.filter(club=club, pk=evening_id).first() if club else None
    if evening is None:
        raise BooksError(
            "unknown_evening", _("Unknown evening: %(id)s.") % {"id": evening_id}, field="evening"
        )
    return evening


@extend_schema_view(
    list=extend_schema(
        summary="Games",
        description="The club's games. Filter by `evening`, `season`, `loser`, `vorleger`, "
        "`schock_aus_thrower` (ids), `entry_mode`, `number`; order by `number`, "
        "`evening__date`.",
        responses={200: GameSerializer(many=True), **error_responses(400)},
        examples=[_example("Games", GAME_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A game",
        description="One game: number, Vorleger, loser, Schock-Aus throwers in throwing "
        "order, entry mode and `version` (also sent as ETag).",
        responses={200: GameSerializer, **error_responses()},
        examples=[_example("Game 20", GAME_EXAMPLE, response_only=True)],
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
            _example(
                "Game 20",
                {
                    "evening": 1,
                    "loser": "Anna Becker",
                    "schock_aus": ["Erik Lange", "Bernd Krause"],
                },
                request_only=True,
            ),
            _example("Recorded", GAME_EXAMPLE, response_only=True, status_codes=["201"]),
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
            _example(
                "Correct the loser",
                {"loser": 1, "schock_aus": [5, 2], "version": 1},
                request_only=True,
            ),
            _example("Corrected", {**GAME_EXAMPLE, "version": 2}, response_only=True),
        ],
    ),
    partial_update=extend_schema(
        summary="Correct part of a game",
        description="As PUT, but only the fields sent change. The version is required.",
        request=GameWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: GameSerializer, **error_responses(400, 403, 409, 412, 428)},
        examples=[
            _example("No Schock-Aus", {"schock_aus": [], "version": 1}, request_only=True),
            _example(
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
        examples=[_example("Deleted", None, response_only=True, status_codes=["204"])],
    ),
    rounds=extend_schema(
        summary="A game's rounds",
        description="The rounds of a game entered round by round, with every throw (and the "
        "turn attempt by attempt where entered so). Empty for a game entered short.",
        responses={200: RoundSerializer(many=True), **error_responses()},
        examples=[_example("Last round of game 20", [ROUND_EXAMPLE], response_only=True)],
    ),
    preview_rounds=extend_schema(
        summary="Play rounds through the rules without saving",
        description="Any logged-in member of the club. The same body as recording a game "
        "round by round; the rounds may stop before the game is over. Answers the game's "
        "state: Deckel per player, stock, who threw Schock-Aus, the next round's throwing "
        "order, whether it is finished and who lost. Refusals as when recording.",
        request=GameRoundsWriteSerializer,
        responses={200: RoundsPreviewSerializer, **error_responses(400)},
        examples=[
            _example("One round", ROUNDS_INPUT, request_only=True),
            _example(
                "Finished by Schock-Aus",
                {
                    "number": 20,
                    "finished": True,
                    "loser": 1,
                    "schock_aus": [5, 2],
                    "stock": 0,
                    "deckel": [
                        {"player": 5, "deckel": 0},
                        {"player": 1, "deckel": 13},
                        {"player": 2, "deckel": 0},
                    ],
                    "next_order": [],
                    "rounds": [
                        {
                            "number": 1,
                            "phase": "game",
                            "vorleger": 5,
                            "winner": 2,
                            "loser": 1,
                            "deckel": 13,
                            "moved": 13,
                            "source": "schock_aus",
                            "schock_aus": [5, 2],
                            "muss_regel": [False, True, True],
                            "went_out": [],
                        }
                    ],
                },
                response_only=True,
            ),
        ],
    ),
    record_rounds=extend_schema(
        summary="Record a game round by round",
        description="Secretary only. Every round of the game in order, each with its throws "
        "in throwing order (the Vorleger first); a throw is a final throw (`dice`, "
        "`attempts`, `natural`) or a turn (`turn`: attempts with `rolled`, `keep`, "
        "`umwandlung`). The season's rule set decides everything (Deckel flow, attempt "
        "caps, Muss-Regel); loser and Schock-Aus follow from the rounds. A throw the rules "
        "refuse: 400 with its rule code and `field` `rounds[i].throws[j]`.",
        request=GameRoundsWriteSerializer,
        responses={201: GameSerializer, **error_responses(400, 403, 409, 412)},
        examples=[
            _example("One round, two Schock-Aus", ROUNDS_INPUT, request_only=True),
            _example(
                "Recorded",
                {**GAME_EXAMPLE, "entry_mode": "rounds"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
)
@extend_schema(tags=["Games"])
class GameViewSet(ClubScopedMixin, viewsets.ModelViewSet):
    """The club's games; recording, correcting and deleting them; their rounds."""

    serializer_class = GameSerializer
    filterset_class = GameFilter
    club_field = "evening__club_id"
    read_actions = {"preview_rounds"}
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
        data = GameWriteSerializer(data=request.data, context=_club_context(request))
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "evening" not in v:
            raise BooksError("required", _("Name the evening of the game."), field="evening")
        game = game_record(
            evening=_evening_of_club(request, v["evening"]),
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
            context=_club_context(request),
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

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def rounds(self, request, pk=None):
        game = self.get_object()
        rows = Round.objects.filter(game=game).prefetch_related(
            Prefetch("throws", queryset=RoundThrow.objects.order_by("position"))
        )
        return Response(RoundSerializer(rows, many=True).data)

    @action(
        detail=False,
        methods=["post"],
        url_path="rounds",
        filterset_class=None,
        pagination_class=None,
    )
    def record_rounds(self, request):
        from games.services.rounds import game_record_rounds

        evening, rounds, v = _rounds_input(request)
        game = game_record_rounds(
            evening=evening,
            rounds=rounds,
            number=v.get("number"),
            expected_evening_version=v.get("evening_version"),
        )
        return self._respond(game, status.HTTP_201_CREATED)

    @action(
        detail=False,
        methods=["post"],
        url_path="rounds/preview",
        filterset_class=None,
        pagination_class=None,
    )
    def preview_rounds(self, request):
        from games.services.rounds import game_rounds_play

        evening, rounds, v = _rounds_input(request)
        play = game_rounds_play(
            evening=evening, rounds=rounds, number=v.get("number"), require_finished=False
        )
        return Response(RoundsPreviewSerializer(_preview(play)).data)


def _rounds_input(request):
    """The evening, the service's RoundInput list and the validated data of a rounds body."""
    from games.services.rounds import RoundInput, ThrowInput

    data = GameRoundsWriteSerializer(data=request.data, context=_club_context(request))
    data.is_valid(raise_exception=True)
    v = data.validated_data
    rounds = [
        RoundInput(
            throws=[
                ThrowInput(
                    player=t["player"],
                    dice=t.get("dice"),
                    attempts=t.get("attempts"),
                    natural=t["natural"],
                    turn=t.get("turn"),
                )
                for t in round_data["throws"]
            ]
        )
        for round_data in v["rounds"]
    ]
    return _evening_of_club(request, v["evening"]), rounds, v


def _preview(play) -> dict:
    """A RoundsPlay as plain values (members as ids; `play.player` maps engine keys)."""

    def pk(key) -> int:
        return play.player(key).pk

    return {
        "number": play.number,
        "finished": play.finished,
        "loser": play.loser.pk if play.loser else None,
        "schock_aus": [m.pk for m in play.schock_aus],
        "stock": play.stock,
        "deckel": [{"player": m.pk, "deckel": n} for m, n in play.deckel.items()],
        "next_order": [m.pk for m in play.next_order],
        "rounds": [
            {
                "number": o.number,
                "phase": o.phase,
                "vorleger": pk(o.vorleger),
                "winner": pk(o.winner),
                "loser": pk(o.loser),
                "deckel": o.deckel,
                "moved": o.moved,
                "source": o.source,
                "schock_aus": [pk(k) for k in o.schock_aus],
                "muss_regel": list(o.muss_regel),
                "went_out": [pk(k) for k in o.went_out],
            }
            for o in play.outcomes
        ],
    }


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
        examples=[_example("Open Runde", RUNDE_EXAMPLE, response_only=True)],
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
            _example(
                "Given", {"given_on": "2026-10-16", "note": "Pils für alle"}, request_only=True
            ),
            _example(
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
        from games.services.runden import runden_overview
        from league.models import Member, Season

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
        from games.services.runden import runde_mark_given, runde_unmark

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


@extend_schema(tags=["Rules"])
class RulesEvaluateView(APIView):
    """POST /api/v1/rules/evaluate/: what a throw is worth, or whether a turn could have
    happened at the table, under a preset (the pages' live feedback)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Evaluate a throw or validate a turn",
        description="Open to every logged-in user. Send either a final throw (`dice`, "
        "`attempts` as a number, `natural`) or a turn (`attempts` as a list of "
        "`{rolled, keep, umwandlung}`), with the `preset` (default `club`), the Vorleger's "
        "cap `max_attempts` and whether the Muss-Regel applies (`muss_regel`). Answers what "
        "the final throw is (RULES.md 1). A throw or turn the rules refuse: 400 with the "
        "rule's code, e.g. `collected_in_one_attempt`, `keep_not_one`, `muss_regel_broken`.",
        request=RulesEvaluateSerializer,
        responses={200: RulesEvaluationSerializer, **error_responses(400)},
        examples=[
            _example(
                "Final throw",
                {"preset": "club", "dice": [1, 1, 5], "attempts": 2, "natural": True},
                request_only=True,
            ),
            _example(
                "Turn",
                {
                    "preset": "club",
                    "attempts": [
                        {"rolled": [1, 4, 5], "keep": [1]},
                        {"rolled": [6, 1], "keep": [1]},
                        {"rolled": [1]},
                    ],
                    "max_attempts": 3,
                    "muss_regel": False,
                },
                request_only=True,
            ),
            _example(
                "Schock 5",
                {
                    "preset": "club",
                    "category": "schock",
                    "value": 5,
                    "deckel": 5,
                    "label": "Schock 5",
                    "dice": [5, 1, 1],
                    "attempts": 2,
                    "natural": True,
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request):
        data = RulesEvaluateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        rules = PRESETS[v["preset"]]
        turn = isinstance(v["attempts"], list)
        try:
            if turn:
                attempts = [Attempt(a["rolled"], a["keep"], a["umwandlung"]) for a in v["attempts"]]
                throw = validate_turn(
                    attempts, rules, max_attempts=v["max_attempts"], muss_regel=v["muss_regel"]
                )
            else:
                throw = validate_throw(
                    Throw(v["dice"], v["attempts"], v["natural"]),
                    rules,
                    max_attempts=v["max_attempts"],
                    muss_regel=v["muss_regel"],
                )
        except RuleViolation as exc:
            raise BooksError(
                exc.code, str(exc), field=rule_violation_field(exc, turn=turn)
            ) from exc
        result = evaluate(throw, rules)
        return Response(
            RulesEvaluationSerializer(
                {
                    "preset": v["preset"],
                    "category": result.category.value,
                    "value": result.value,
                    "deckel": result.deckel,
                    "label": result.label,
                    "dice": list(throw.dice),
                    "attempts": throw.attempts,
                    "natural": throw.natural,
                }
            ).data
        )
