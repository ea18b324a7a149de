"""OpenAPI documentation of the round-by-round endpoints (games/rounds/api.py): a game's
rounds, playing rounds through the rules without saving, recording a game round by round,
and the rules' evaluation of a throw or turn, as drf-spectacular decorators with their
descriptions and examples. Nothing here runs on a request.
"""

from drf_spectacular.utils import extend_schema, extend_schema_view

from games.evenings.schema import GAME_EXAMPLE
from games.evenings.serializers import GameSerializer
from games.rounds.serializers import (
    GameRoundsWriteSerializer,
    RoundSerializer,
    RoundsPreviewSerializer,
    RulesEvaluateSerializer,
    RulesEvaluationSerializer,
)
from league.club.api_common import api_example, error_responses

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

# Seed 000 (regelwerk2019): the Ausscheidung's tie decided by a Schock-Aus, then a round.
AUSSCHEIDUNG_INPUT = {
    "evening": 1,
    "rounds": [
        {
            "kind": "ausscheidung",
            "throws": [
                {"player": "Anna Becker", "dice": [6, 5, 3], "attempts": 1},
                {"player": "Bernd Krause", "dice": [2, 2, 1], "attempts": 1},
                {"player": "Carla Vogt", "dice": [6, 4, 2], "attempts": 1},
                {"player": "Dieter Hahn", "dice": [2, 2, 1], "attempts": 1},
            ],
        },
        {
            "kind": "ausscheidung",
            "throws": [
                {"player": "Bernd Krause", "dice": [1, 1, 1], "attempts": 1},
                {"player": "Dieter Hahn", "dice": [5, 4, 2], "attempts": 1},
            ],
        },
        {"kind": "choose_opener", "player": "Anna Becker"},
    ],
}

# Seed 000 (regelwerk2019): "Schock 3" laid, the next player keeps its throw covered and
# takes 3 Deckel.
DECKEL_NEHMEN_INPUT = {
    "evening": 1,
    "rounds": [
        {
            "kind": "deckel_nehmen",
            "throws": [{"player": "Anna Becker", "dice": [1, 1, 3], "attempts": 1}],
            "player": "Bernd Krause",
            "covered": [6, 4, 1],
        }
    ],
}

# Seed 001 (stammtisch): after a round a player joins, another leaves.
EINWUERFELN_INPUT = {
    "evening": 1,
    "rounds": [
        {
            "throws": [
                {"player": "Anna Becker", "dice": [1, 1, 3], "attempts": 1},
                {"player": "Bernd Krause", "dice": [2, 2, 1], "attempts": 1},
                {"player": "Carla Vogt", "dice": [6, 5, 3], "attempts": 1},
            ]
        },
        {"kind": "join", "player": "Dieter Hahn", "after": "Anna Becker"},
        {"kind": "leave", "player": "Carla Vogt"},
    ],
}


ROUND_EXAMPLE = {
    "number": 1,
    "kind": "round",
    "phase": "single",
    "vorleger": 5,
    "loser": 1,
    "deckel": 13,
    "player": None,
    "after": None,
    "covered": None,
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


RULES_EVALUATE_POST = extend_schema(
    summary="Evaluate a throw or validate a turn",
    description="Open to every logged-in user. Send either a final throw (`dice`, "
    "`attempts` as a number, `natural`) or a turn (`attempts` as a list of "
    "`{rolled, keep, umwandlung}`), with the `preset` (default `club`), the Vorleger's "
    "cap `max_attempts` and whether the Muss-Regel applies (`muss_regel`). Answers what "
    "the final throw is (docs/rules.md 1). A throw or turn the rules refuse: 400 with the "
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


GAME_VIEWSET = extend_schema_view(
    rounds=extend_schema(
        summary="A game's rounds",
        description="The rounds of a game entered round by round, with every throw (and the "
        "turn attempt by attempt where entered so). Empty for a game entered short.",
        responses={200: RoundSerializer(many=True), **error_responses()},
        examples=[
            api_example("Last round of game 20", [ROUND_EXAMPLE], response_only=True),
            api_example(
                "Deckel nehmen",
                [
                    {
                        "number": 1,
                        "kind": "deckel_nehmen",
                        "phase": "first_half",
                        "vorleger": 1,
                        "loser": 2,
                        "deckel": 3,
                        "player": 2,
                        "after": None,
                        "covered": [6, 4, 1],
                        "throws": [
                            {
                                "position": 1,
                                "player": 1,
                                "dice": [1, 1, 3],
                                "attempts": 1,
                                "natural": True,
                                "turn": None,
                                "muss_regel": False,
                            }
                        ],
                    }
                ],
                response_only=True,
            ),
        ],
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
            api_example("Ausscheidung, opener", AUSSCHEIDUNG_INPUT, request_only=True),
            api_example("Deckel nehmen", DECKEL_NEHMEN_INPUT, request_only=True),
            api_example("Join and leave", EINWUERFELN_INPUT, request_only=True),
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
                    "tied": [],
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
                            "kind": "round",
                            "taken_by": None,
                            "covered": None,
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
        "refuse: 400 with its rule code and `field` `rounds[i].throws[j]`. Where the season's "
        "rule set has the seed flags of docs/rules.md 4, an entry may instead be "
        "`kind` `ausscheidung` (one throw per player; the tied throw again in the next "
        "entry), `deckel_nehmen` (`throws` before the taker, `player` the taker, optional "
        "`covered` dice), `choose_opener`, `join` (`player`, optional `after`) or `leave` "
        "(`player`, who has received no Deckel in this game, else 400 `leave_with_deckel` "
        "or `leave_after_deckel`). An action the rule set lacks: 400 with the engine's code "
        "(`ausscheidung_off`, `deckel_nehmen_off`, `opener_choice_off`, `einwuerfeln_off`) "
        "and `field` `rounds[i]`; nothing is saved. A game beyond the evening's target "
        "count (the Abendsoll: games per present club member) is refused with 409 "
        '`evening_target_reached` (`details` `{"target": n}`) after its rounds are '
        "checked; send `beyond_target: true` to save it anyway.",
        request=GameRoundsWriteSerializer,
        responses={201: GameSerializer, **error_responses(400, 403, 409, 412)},
        examples=[
            api_example("One round, two Schock-Aus", ROUNDS_INPUT, request_only=True),
            api_example(
                "Ausscheidung decided by Schock-Aus", AUSSCHEIDUNG_INPUT, request_only=True
            ),
            api_example("Deckel nehmen", DECKEL_NEHMEN_INPUT, request_only=True),
            api_example("Join and leave", EINWUERFELN_INPUT, request_only=True),
            api_example(
                "Recorded",
                {**GAME_EXAMPLE, "entry_mode": "rounds"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
)
