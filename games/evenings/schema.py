"""OpenAPI prose of the evenings and games API (games/evenings/api.py): parameters,
examples and the per-action descriptions, so the viewsets read as code."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view

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
from league.club.api_common import api_example, error_responses

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


EVENING_VIEWSET = extend_schema_view(
    list=extend_schema(
        summary="Evenings",
        description="The club's evenings with their attendance, newest first. Filter by "
        "`season` (id), `year`, `date_from`, `date_to`; order by `date` or `-date`. "
        "Paginated (`page`, `page_size`); each page is kept by the club's books version: "
        "a GET with the ETag it got answers 304 until the books change.",
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
        description="Computed from the records (docs/rules.md 5): games expected (5 per present "
        "club member) and entered, the Schock-Aus in throwing order, the Runden owed with "
        "their reasons, per person lost games, Schock-Aus, points, Marks and money (absent "
        "club members 6 Marks), totals and warnings. A fixed number of queries.",
        responses={200: EveningSummarySerializer, **error_responses()},
        examples=[api_example("Sample evening", SUMMARY_EXAMPLE, response_only=True)],
    ),
)


GAME_VIEWSET = extend_schema_view(
    list=extend_schema(
        summary="Games",
        description="The club's games. Filter by `evening`, `season`, `loser`, `vorleger`, "
        "`schock_aus_thrower` (ids), `entry_mode`, `number`; order by `number`, "
        "`evening__date`. Paginated (`page`, `page_size`); each page is kept by the club's "
        "books version: a GET with the ETag it got answers 304 until the books change.",
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
        "`thrower_not_present`, `vorleger_not_present`, `duplicate_game_number` (409, its "
        "`details` name the game that has the number: loser, Schock-Aus, who entered it), "
        "`evening_target_reached` (409: the evening has its target count of games, the "
        "Abendsoll; send `beyond_target: true` to save it anyway). "
        "`client_key` (optional, a UUID the client makes per game, e.g. a phone that queued "
        "the game offline) is applied once: the same key again is 409 `duplicate_client_key` "
        "and records nothing (the game arrived with the first sending).",
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


GAME_UNDO = extend_schema(
    summary="Undo the last game",
    description="Secretary only. Deletes the evening's last game within two minutes of "
    "saving it (a tap on the wrong name); its charge is reversed, audited like a deletion. "
    "Refusals: `undo_not_last` (409, a later game exists), `undo_too_late` (409, more than "
    "two minutes), `runde_given` (409).",
    request=None,
    responses={204: None, **error_responses(403, 409)},
    tags=["Games"],
)


# --- objections to a provisional evening ---------------------------------------------

OBJECTION_EXAMPLE = {
    "id": 3,
    "evening": 1,
    "game": 17,
    "game_number": 12,
    "raised_by": 4,
    "raised_by_name": "Anna Becker",
    "text": "Spiel 12 hat Bernd verloren, nicht ich.",
    "status": "open",
    "answer": "",
    "answered_by": None,
    "answered_at": None,
    "created_at": "2026-10-10T09:12:00+02:00",
}

OBJECTIONS_GET = extend_schema(
    summary="An evening's provisional state and objections",
    description="Every person of the club. An evening's charges are provisional "
    "(`provisional`, shown as vorläufig) until `provisional_until` (its last game's entry "
    "plus the season statutes' `provisional_hours`, 48 by default) has passed with no "
    "objection open, or until the secretary declares it final (`finalised_at`).",
    responses={200: EveningObjectionsSerializer, **error_responses()},
)

OBJECTIONS_POST = extend_schema(
    summary="Object to a game of a provisional evening",
    description="Every person of the club, while the evening is provisional. The "
    "objection stays `open` until the secretary answers it; meanwhile the evening stays "
    "provisional and its season cannot be closed. 400 `unknown_game`, `text_required`, "
    "`text_too_long`; 409 `evening_final` (the time for objections has passed), "
    "`objection_open_already` (the person's open objection to that game), "
    "`season_closed`.",
    request=ObjectionCreateSerializer,
    responses={201: ObjectionSerializer, **error_responses(400, 409)},
    examples=[
        api_example(
            "Wrong loser",
            {"game": 17, "text": "Spiel 12 hat Bernd verloren, nicht ich."},
            request_only=True,
        ),
        api_example("Raised", OBJECTION_EXAMPLE, response_only=True),
    ],
)

OBJECTION_ANSWER_POST = extend_schema(
    summary="Answer an objection",
    description="Secretary only. `corrected` once the game was corrected through the "
    "normal correction (PUT or DELETE of the game) after the objection was raised (else "
    "409 `game_not_corrected`); `dismissed` with a `reason` (else 400 `reason_required`). "
    "An objection answered already: 409 `objection_answered`.",
    request=ObjectionAnswerSerializer,
    responses={200: ObjectionSerializer, **error_responses(400, 409)},
    examples=[
        api_example(
            "Dismissed",
            {"outcome": "dismissed", "reason": "Laut Zettel hat Anna verloren."},
            request_only=True,
        ),
    ],
)

FINALISE_POST = extend_schema(
    summary="Declare an evening final",
    description="Secretary only: the evening's charges are final at once, before its "
    "objection time has passed. 409 `objections_open` while an objection is open. An "
    "evening final already stays as it is.",
    request=None,
    responses={200: EveningObjectionsSerializer, **error_responses(409)},
)


# --- planned evenings (the calendar) ----------------------------------------------------

PLANNED_EXAMPLE = {
    "date": "2026-11-27",
    "starts": "2026-11-27T20:00:00+01:00",
    "cancelled": False,
    "regular_date": "2026-11-27",
}

PLANNED_GET = extend_schema(
    summary="The planned evenings",
    description="Every person of the club: the statutes' evening of each of the next 12 "
    "weeks (`evening.weekday` and `evening.time` of the statutes) as the secretary moved "
    "or cancelled it, and the evenings the secretary added, by date.",
    responses={200: PlannedEveningSerializer(many=True), **error_responses()},
    examples=[api_example("Next Friday", [PLANNED_EXAMPLE], response_only=True)],
)

PLANNED_POST = extend_schema(
    summary="Add a planned evening",
    description="Secretary only. 400 `date_in_past`, `date_too_far` (more than a year "
    "ahead), `invalid_date`; 409 `evening_planned_already`.",
    request=PlannedEveningWriteSerializer,
    responses={201: PlannedEveningSerializer, **error_responses(400, 409)},
    examples=[api_example("Saturday", {"date": "2026-12-05", "time": "19:00"}, request_only=True)],
)

PLANNED_MOVE_POST = extend_schema(
    summary="Move a planned evening",
    description="Secretary only: the evening planned on `{date}` goes to the body's "
    "`date` and `time`; a calendar app keeps it as the same event. 404 "
    "`unknown_planned_evening`; 400 `date_in_past`, `date_too_far`; 409 "
    "`evening_planned_already`.",
    request=PlannedEveningWriteSerializer,
    responses={200: PlannedEveningSerializer, **error_responses(400, 409)},
)

PLANNED_CANCEL_POST = extend_schema(
    summary="Cancel a planned evening",
    description="Secretary only: the evening planned on `{date}` is shown cancelled "
    "(STATUS:CANCELLED in the calendar feed). 404 `unknown_planned_evening`.",
    request=None,
    responses={200: PlannedEveningSerializer, **error_responses(409)},
)
