"""REST API of evenings, games (short or round by round), an evening's summary and the
rules' live check (issue 4).

Every write is one service call (games.services.evenings, games.services.rounds); every
computed figure comes from a selector (games.selectors). Evenings and games carry a
`version`: PUT, PATCH and DELETE must send the version last read (`version` in the body,
the `If-Match` header, or `?version=` on DELETE); none -> 428 `version_required`, a stale
one -> 412 `stale_version`. Roles and error bodies: league.api_common.
"""

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.evenings import api as evenings_api
from games.evenings.api import GAME_EXAMPLE, club_context, evening_of_club
from games.evenings.serializers import GameSerializer, PersonField
from games.rounds.models import Round, RoundThrow
from games.rounds.serializers import (
    AttemptSerializer,
    RoundSerializer,
    RoundsPreviewSerializer,
    RulesEvaluateSerializer,
    RulesEvaluationSerializer,
)
from games.rounds.services import game_record_rounds, game_rounds_play
from games.rules import (
    PRESETS,
    Attempt,
    RuleViolation,
    Throw,
    evaluate,
    validate_throw,
    validate_turn,
)
from league.club.api_common import api_example, error_responses, rule_violation_field
from league.club.errors import BooksError

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


def _rounds_input(request):
    """The evening, the service's RoundInput list and the validated data of a rounds body."""
    from games.rounds.services import RoundInput, ThrowInput

    data = GameRoundsWriteSerializer(data=request.data, context=club_context(request))
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
    return evening_of_club(request, v["evening"]), rounds, v


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
            api_example(
                "Final throw",
                {"preset": "club", "dice": [1, 1, 5], "attempts": 2, "natural": True},
                request_only=True,
            ),
            api_example(
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
            api_example(
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


@extend_schema_view(
    rounds=extend_schema(
        summary="A game's rounds",
        description="The rounds of a game entered round by round, with every throw (and the "
        "turn attempt by attempt where entered so). Empty for a game entered short.",
        responses={200: RoundSerializer(many=True), **error_responses()},
        examples=[api_example("Last round of game 20", [ROUND_EXAMPLE], response_only=True)],
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
            api_example("One round", ROUNDS_INPUT, request_only=True),
            api_example(
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
            api_example("One round, two Schock-Aus", ROUNDS_INPUT, request_only=True),
            api_example(
                "Recorded",
                {**GAME_EXAMPLE, "entry_mode": "rounds"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
)
@extend_schema(tags=["Games"])
class GameViewSet(evenings_api.GameViewSet):
    """The club's games (games.evenings.api.GameViewSet) with their rounds: read them,
    play them through the rules without saving, record a game round by round."""

    read_actions = {"preview_rounds"}

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
        evening, rounds, v = _rounds_input(request)
        play = game_rounds_play(
            evening=evening, rounds=rounds, number=v.get("number"), require_finished=False
        )
        return Response(RoundsPreviewSerializer(_preview(play)).data)
