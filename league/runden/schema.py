"""OpenAPI documentation of the Runden endpoints (league/runden/api.py): the Runden owed
and marking one as given, as drf-spectacular decorators with their descriptions and
examples. Nothing here runs on a request.
"""

from drf_spectacular.utils import extend_schema, extend_schema_view

from league.club.api_common import api_example, error_responses
from league.runden.serializers import (
    RundeGivenResultSerializer,
    RundeGivenSerializer,
    RundenQuerySerializer,
    RundeStatusSerializer,
)

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


RUNDE_VIEWSET = extend_schema_view(
    list=extend_schema(
        summary="Runden owed",
        description="The club's Runden owed (docs/rules.md 5: the thrower of the first, every "
        "fifth and the last Schock-Aus of an evening), oldest first, each identified by its "
        "Schock-Aus. `status` open (default), given or all; `season` (id, default every "
        "season), `member` (thrower id). Paginated (`page`, `page_size`); computed once per "
        "change of the club's books and kept: a GET with the ETag it got answers 304 "
        "until the books change.",
        parameters=[RundenQuerySerializer],
        responses={200: RundeStatusSerializer(many=True), **error_responses(400)},
        examples=[api_example("Open Runde", RUNDE_EXAMPLE, response_only=True)],
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
            api_example(
                "Given", {"given_on": "2026-10-16", "note": "Pils für alle"}, request_only=True
            ),
            api_example(
                "Recorded",
                {"schock_aus": 3, "given_on": "2026-10-16", "note": "Pils für alle"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
)
