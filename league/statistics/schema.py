"""OpenAPI documentation of the statistics endpoints (league/statistics/api.py):
drf-spectacular decorators with descriptions and examples. Nothing here runs on a request.
"""

from drf_spectacular.utils import extend_schema

from league.club.api_common import api_example, error_responses
from league.statistics.serializers import StatisticsSerializer

PERSON_EXAMPLE = {
    "member_id": 3,
    "name": "Anna Becker",
    "guest": False,
    "games": 25,
    "losses": 4,
    "loss_rate": "16.00",
    "schock_aus": 2,
    "expected": "1.37",
    "luck": "0.63",
    "runden_owed": 1,
    "runden_given": 1,
    "evenings_present": 1,
    "evenings_absent": 0,
    "attendance_rate": "100.00",
    "longest_without_loss": 9,
    "longest_schock_aus_evenings": 1,
    "longest_present": 1,
}

RECORDS_EXAMPLE = {
    "most_schock_aus_evening": {"name": "Anna Becker", "date": "2026-10-09", "count": 2},
    "most_losses_evening": {"name": "Erik Wagner", "date": "2026-10-09", "count": 6},
    "best_season": {"name": "Anna Becker", "year": 2026, "points": -2},
    "fastest_game": {"date": "2026-10-09", "number": 20, "rounds": 7, "loser": "Erik Wagner"},
    "longest_without_loss": {"name": "Anna Becker", "length": 9},
    "longest_schock_aus_evenings": {"name": "Anna Becker", "length": 1},
    "longest_present": {"name": "Anna Becker", "length": 1},
}

SEASON_EXAMPLE = {
    "year": 2026,
    "seasons": 1,
    "evenings": 1,
    "games": 25,
    "games_with_rounds": 1,
    "schock_aus": 5,
    "people": [PERSON_EXAMPLE],
    "records": RECORDS_EXAMPLE,
    "head_to_head": [{"after": "Bernd Krause", "loser": "Erik Wagner", "count": 3}],
    "attendance": [
        {
            "evening_id": 1,
            "date": "2026-10-09",
            "secretary": "Bernd Krause",
            "members_present": 5,
            "guests": 1,
            "members_absent": 1,
            "games": 25,
            "schock_aus": 5,
        }
    ],
}

_FIGURES = (
    "Per person: games taken part in, losses, loss rate (percent), Schock-Aus, Schock-Aus "
    "expected from the exact odds of the season's rules and `luck` (thrown minus expected; "
    "null when the club never entered a game round by round), Runden owed and given, "
    "evenings present and absent, and the longest streaks (games without a loss, evenings "
    "with a Schock-Aus, evenings present). Records, head to head (who lost right after "
    "whom, from the Vorleger chain). Read in a constant number of queries."
)

SEASON_GET = extend_schema(
    summary="Statistics of a season",
    description="Any person of the season's club. "
    + _FIGURES
    + " `attendance` lists every evening of the season. Another club's season: 404.",
    responses={200: StatisticsSerializer, **error_responses()},
    examples=[api_example("Season 2026", SEASON_EXAMPLE, response_only=True)],
)

RECORDS_GET = extend_schema(
    summary="All-time statistics and records",
    description="Any person of the club: the figures over every season. "
    + _FIGURES
    + " `year` is null and `attendance` empty (see the seasons' statistics).",
    responses={200: StatisticsSerializer, **error_responses()},
    examples=[
        api_example(
            "All time",
            {**SEASON_EXAMPLE, "year": None, "seasons": 48, "attendance": []},
            response_only=True,
        )
    ],
)
