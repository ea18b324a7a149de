"""REST API of games entered round by round and of the rules' live check: a game's rounds,
playing rounds through the rules without saving, recording a game round by round
(extending games/evenings/api.py's GameViewSet), and evaluating a throw or turn.

Every write is one call of games/rounds/services.py; the rules' answers come from
games/rounds/feedback.py and the reads from games/rounds/selectors.py. The evening's
`version` works as for every game write (games/evenings/api.py). Roles and error bodies:
league/club/api_common.py; the OpenAPI prose: games/rounds/schema.py.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from games.evenings import api as evenings_api
from games.evenings.api import club_context, evening_of_club
from games.rounds import schema
from games.rounds.feedback import throw_evaluation
from games.rounds.selectors import (
    game_round_rows,
    game_rounds_play,
)
from games.rounds.serializers import (
    GameRoundsWriteSerializer,
    RoundSerializer,
    RoundsPreviewSerializer,
    RulesEvaluateSerializer,
    RulesEvaluationSerializer,
    round_inputs,
    rounds_preview_values,
)
from games.rounds.services import (
    game_record_rounds,
)
from games.rules import RuleViolation
from league.club.api_common import kept_api_object, rule_violation_field
from league.club.api_login import ClubLogin
from league.club.errors import BooksError
from league.club.idempotency import idempotent


def _rounds_body(request) -> dict:
    """The validated body of a rounds write or preview (persons of the requesting club)."""
    data = GameRoundsWriteSerializer(data=request.data, context=club_context(request))
    data.is_valid(raise_exception=True)
    return data.validated_data


@extend_schema(tags=["Rules"])
class RulesEvaluateView(APIView):
    """POST /api/v1/rules/evaluate/: what a throw is worth, or whether a turn could have
    happened at the table, under a preset (the pages' live feedback)."""

    writes_books = False  # computes, writes nothing: no 409 (league/club/api_schema.py)

    permission_classes = [ClubLogin]

    @schema.RULES_EVALUATE_POST
    def post(self, request):
        data = RulesEvaluateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        turn = isinstance(data.validated_data["attempts"], list)
        try:
            result = throw_evaluation(**data.validated_data)
        except RuleViolation as exc:
            raise BooksError(
                exc.code, str(exc), field=rule_violation_field(exc, turn=turn)
            ) from exc
        return Response(RulesEvaluationSerializer(result).data)


@schema.GAME_VIEWSET
@extend_schema(tags=["Games"])
class GameViewSet(evenings_api.GameViewSet):
    """The club's games (games.evenings.api.GameViewSet) with their rounds: read them,
    play them through the rules without saving, record a game round by round."""

    read_actions = {"preview_rounds"}

    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def rounds(self, request, pk=None):
        """The game's rounds, kept by the club's books version."""
        data = kept_api_object(
            request,
            "game_rounds",
            pk,
            lambda: [
                dict(row)
                for row in RoundSerializer(game_round_rows(game=self.get_object()), many=True).data
            ],
        )
        return Response(data)

    @action(
        detail=False,
        methods=["post"],
        url_path="rounds",
        filterset_class=None,
        pagination_class=None,
    )
    @idempotent
    def record_rounds(self, request):
        v = _rounds_body(request)
        game = game_record_rounds(
            evening=evening_of_club(request, v["evening"]),
            rounds=round_inputs(v["rounds"]),
            number=v.get("number"),
            expected_evening_version=v.get("evening_version"),
            target_confirmed=v.get("beyond_target", False),
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
        v = _rounds_body(request)
        play = game_rounds_play(
            evening=evening_of_club(request, v["evening"]),
            rounds=round_inputs(v["rounds"]),
            number=v.get("number"),
            require_finished=False,
        )
        return Response(RoundsPreviewSerializer(rounds_preview_values(play)).data)
