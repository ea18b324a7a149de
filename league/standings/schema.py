"""OpenAPI documentation of the championship's endpoints (league/standings/api.py): a
season's standings and Runden owed, a member's dues, as drf-spectacular decorators with
their descriptions and examples. Nothing here runs on a request.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view

from league.club.api_common import api_example, error_responses
from league.runden.serializers import RundeOwedSerializer
from league.standings.serializers import (
    AllTimeStandingsSerializer,
    DuesSerializer,
    StandingsSerializer,
)

ROW_EXAMPLE = {
    "member": {"id": 1, "name": "Anna Becker"},
    "place": 2,
    "points": -3,
    "evenings_attended": 1,
    "evenings_absent": 0,
    "games_played": 25,
    "games_lost": 4,
    "schock_aus": 1,
    "runden": 1,
    "marks": 4,
    "money": "2.00",
}


STANDINGS_EXAMPLE = {
    "season": 48,
    "year": 2026,
    "rows": [ROW_EXAMPLE],
    "guests": [
        {
            **ROW_EXAMPLE,
            "member": {"id": 7, "name": "Gustav Meier"},
            "place": None,
            "points": -3,
            "games_lost": 3,
            "schock_aus": 0,
            "runden": 0,
            "marks": 3,
            "money": "1.50",
        }
    ],
    "evenings": 1,
    "games": 25,
    "schock_aus": 5,
    "runden": 3,
    "marks_total": 31,
    "money_total": "15.50",
    "currency": "EUR",
}


DUES_EXAMPLE = {
    "member": {"id": 6, "name": "Frank Roth"},
    "season": 48,
    "year": 2026,
    "currency": "EUR",
    "lines": [
        {
            "evening": 1,
            "date": "2026-10-09",
            "role": "absent",
            "games_lost": 0,
            "schock_aus": 0,
            "runden": 0,
            "marks": 6,
            "money": "3.00",
        }
    ],
    "marks_total": 6,
    "money_total": "3.00",
}


RUNDE_EXAMPLE = {
    "evening": 1,
    "date": "2026-10-09",
    "ordinal": 1,
    "thrower": 1,
    "thrower_name": "Anna Becker",
    "reason": "first",
    "schock_aus": 3,
    "given_on": None,
}


SEASON_VIEWSET = extend_schema_view(
    standings=extend_schema(
        summary="Standings of a season",
        description="The championship table (docs/rules.md 5): +1 per Schock-Aus, -1 per lost "
        "game; equal points share a place (1, 2, 2, 4), listed by more Schock-Aus, then "
        "name. Guests are listed apart, unranked. Marks and money (season's currency) per "
        "person and in total. A fixed number of queries, whatever the season's size.",
        responses={200: StandingsSerializer, **error_responses()},
        examples=[api_example("Standings", STANDINGS_EXAMPLE, response_only=True)],
    ),
    runden=extend_schema(
        summary="Runden owed in a season",
        description="Every Runde owed in the season, evening by evening (docs/rules.md 5: the "
        "thrower of the first, every fifth and the last Schock-Aus of an evening), with "
        "`given_on` once it was given. `?member=<id>` keeps one thrower's.",
        parameters=[OpenApiParameter("member", OpenApiTypes.INT, description="Thrower id.")],
        responses={200: RundeOwedSerializer(many=True), **error_responses(400)},
        examples=[api_example("Runden", [RUNDE_EXAMPLE], response_only=True)],
    ),
)


MEMBER_VIEWSET = extend_schema_view(
    dues=extend_schema(
        summary="A member's dues in a season",
        description="The Marks a person owes, evening by evening: 1 Mark per lost game, 6 "
        "Marks per evening absent as a club member (docs/rules.md 5), in Marks and in the "
        "season's currency. `?season=<id>` (default: the club's latest season). A member "
        "reads only the own dues (another member's: 403); the secretary reads everyone's.",
        parameters=[OpenApiParameter("season", OpenApiTypes.INT, description="Season id.")],
        responses={200: DuesSerializer, **error_responses(400, 403)},
        examples=[api_example("Dues of an absent member", DUES_EXAMPLE, response_only=True)],
    ),
)


ALL_TIME_EXAMPLE = {
    "rows": [
        {
            "member": {"id": 1, "name": "Anna Becker"},
            "place": 1,
            "points": 41,
            "seasons": 12,
            "evenings_attended": 430,
            "evenings_absent": 18,
            "games_played": 10750,
            "games_lost": 1490,
            "schock_aus": 1531,
            "titles": 3,
            "title_years": [2009, 2015, 2024],
            "best_season": {"year": 2009, "place": 1},
        }
    ],
    "guests": [],
    "seasons": 48,
    "first_year": 1979,
    "last_year": 2026,
    "evenings": 1896,
    "games": 47700,
    "schock_aus": 9512,
}

ALL_TIME_GET = extend_schema(
    summary="All-time standings",
    description="Any person of the club: every season's table added up. "
    "`points` is the sum of the points of the seasons in which the person was ranked, each "
    "under its season's statutes; ordered by points, then Schock-Aus, then name, equal "
    "points share a place (1, 2, 2, 4). `seasons` counts seasons with at least one evening "
    "present; `titles` the seasons ranked first; `best_season` the best place (the earliest "
    "season of it). Guests apart, unranked. No money: DM and EUR seasons cannot be added. "
    "Read from per-season parts: a change to one season rebuilds that season's part only. "
    "A GET with the ETag it got answers 304.",
    responses={200: AllTimeStandingsSerializer, **error_responses(403)},
    examples=[api_example("All-time standings", ALL_TIME_EXAMPLE, response_only=True)],
)
