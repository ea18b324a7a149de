"""OpenAPI documentation of the club register's endpoints (league/club/api.py): summaries,
descriptions and examples of clubs, seasons, members, the login token and "who am I", as
drf-spectacular decorators the viewsets wear. Nothing here runs on a request.
"""

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view

from games.rules import PRESETS
from league.club.api_common import api_example, error_responses
from league.club.serializers import (
    CalendarLinkSerializer,
    ClubSerializer,
    MemberCreateSerializer,
    MemberSerializer,
    MemberUpdateSerializer,
    MeSerializer,
    SeasonCreateSerializer,
    SeasonRulesSerializer,
    SeasonSerializer,
    SeasonStatutesSerializer,
    SeasonStatutesUpdateSerializer,
)
from league.club.statutes import CLUB_STATUTES

CLUB_EXAMPLE = {"id": 1, "name": "Schockclub Sample", "rule_preset": "club"}


SEASON_EXAMPLE: dict[str, Any] = {
    "id": 48,
    "club": 1,
    "year": 2026,
    "starts_on": "2026-01-01",
    "ends_on": "2026-12-31",
    "rule_preset": "club",
    "rules": PRESETS["club"].to_dict(),  # the flags as the season stores them
    "rules_preset": "club",
    "mark_value": "0.50",
    "currency": "EUR",
    "data_version": 27,
}

# The club's rules plus Jule, collected Straße and 15 Deckel: a composition of its own.
COMPOSED_SEASON_EXAMPLE: dict[str, Any] = {
    **SEASON_EXAMPLE,
    "rules": {
        **SEASON_EXAMPLE["rules"],
        "jule": True,
        "collected_strasse_counts": True,
        "deckel_total": 15,
        "name": "custom",
    },
    "rules_preset": None,
    "data_version": 28,
}


MEMBER_EXAMPLE = {
    "id": 2,
    "club": 1,
    "name": "Bernd Krause",
    "kind": "member",
    "active": True,
    "is_secretary": True,
}


CLUB_VIEWSET = extend_schema_view(
    list=extend_schema(
        summary="Your club",
        description="The clubs you can see: your own (a list of one; empty without a club).",
        responses={200: ClubSerializer(many=True), **error_responses()},
        examples=[api_example("Own club", CLUB_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A club",
        description="Your club. Another club's id answers 404.",
        responses={200: ClubSerializer, **error_responses()},
        examples=[api_example("Club", CLUB_EXAMPLE, response_only=True)],
    ),
)


SEASON_LIST = extend_schema(
    summary="Seasons",
    description="The club's seasons, newest first. Filter by year, year range, currency "
    "and rule preset; order by `year` or `-year`. Kept by the club's books version: a GET "
    "with the ETag it got answers 304 until a season changes.",
    responses={200: SeasonSerializer(many=True), **error_responses(400)},
    examples=[api_example("Seasons", SEASON_EXAMPLE, response_only=True)],
)
"""The season list's schema (also for league.standings.api, whose list keeps it)."""


SEASON_VIEWSET = extend_schema_view(
    list=SEASON_LIST,
    retrieve=extend_schema(
        summary="A season",
        description="One season of the club: its rule set (`rules`, every flag of docs/rules.md "
        "6; `rules_preset` the preset it equals or null for the club's own composition; "
        "`rule_preset` the preset it started from), Mark value and currency.",
        responses={200: SeasonSerializer, **error_responses()},
        examples=[api_example("Season", SEASON_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Create a season",
        description="Secretary only. Creates the season of `year` (a calendar year unless "
        "`starts_on`/`ends_on` are given) with the club's rule preset unless another is "
        'named; `rules` changes flags of that preset (e.g. `{"jule": true}`), a flag the '
        "rules do not know or a wrong value is a 400 `invalid_rule_set`. The Mark is worth "
        "1.00 DM up to 2001 and 0.50 EUR from 2002 (docs/rules.md 5). A year the "
        "club has already: 409 `season_exists`.",
        request=SeasonCreateSerializer,
        responses={201: SeasonSerializer, **error_responses(400, 403, 409)},
        examples=[
            api_example("New season", {"year": 2027}, request_only=True),
            api_example(
                "New season with rules of its own",
                {
                    "year": 2027,
                    "rule_preset": "club",
                    "rules": {"jule": True, "collected_strasse_counts": True, "deckel_total": 15},
                },
                request_only=True,
            ),
            api_example(
                "Created",
                {
                    **SEASON_EXAMPLE,
                    "id": 49,
                    "year": 2027,
                    "starts_on": "2027-01-01",
                    "ends_on": "2027-12-31",
                    "data_version": 0,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
    partial_update=extend_schema(
        summary="Change a season's rule set",
        description="Secretary only (a member: 403; another club's season: 404). `rules` "
        "changes flags of the season's rule set (docs/rules.md 6); with `rule_preset` the season "
        "starts from that preset instead (and without `rules` plays it as it is). A flag "
        "the rules do not know, or a wrong value: 400 `invalid_rule_set`. The books' figures "
        "stay (points and Marks count games, not throws); the season's `data_version` moves, "
        "so ETags and caches follow.",
        request=SeasonRulesSerializer,
        responses={200: SeasonSerializer, **error_responses(400, 403)},
        examples=[
            api_example(
                "Add Jule, collected Straße, 15 Deckel",
                {"rules": {"jule": True, "collected_strasse_counts": True, "deckel_total": 15}},
                request_only=True,
            ),
            api_example("Composed", COMPOSED_SEASON_EXAMPLE, response_only=True),
        ],
    ),
)


MEMBER_VIEWSET = extend_schema_view(
    list=extend_schema(
        summary="Members and guests",
        description="The people of the club. Filter by `kind` (member, guest), `active`, "
        "`is_secretary`, `name` (contains); order by `name`.",
        responses={200: MemberSerializer(many=True), **error_responses(400)},
        examples=[api_example("Members", MEMBER_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A member or guest",
        description="One person of the club.",
        responses={200: MemberSerializer, **error_responses()},
        examples=[api_example("Member", MEMBER_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Add a member or guest",
        description="Secretary only. A name the club has already: 409 `member_exists`.",
        request=MemberCreateSerializer,
        responses={201: MemberSerializer, **error_responses(400, 403, 409)},
        examples=[
            api_example("New guest", {"name": "Gustav Meier", "kind": "guest"}, request_only=True),
            api_example(
                "Created",
                {
                    **MEMBER_EXAMPLE,
                    "id": 7,
                    "name": "Gustav Meier",
                    "kind": "guest",
                    "is_secretary": False,
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    ),
    partial_update=extend_schema(
        summary="Change a member or guest",
        description="Secretary only (a member: 403; another club's person: 404), under the "
        "rules of the people pages: `name` renames (another person's name: 409 "
        "`member_exists`), `kind` `member` turns a guest into a club member (a member never "
        "becomes a guest again: 400 `member_to_guest`), `active` and `is_secretary` set the "
        "flags (a guest cannot be secretary: 400 `secretary_is_guest`; the club's only "
        "secretary with a login stays: 409 `last_secretary`). All or nothing, audited. A "
        "person belongs to the register, not the books: a closed season never refuses it, "
        "and every page and API read shows the new state at once (the club's register "
        "version moves).",
        request=MemberUpdateSerializer,
        responses={200: MemberSerializer, **error_responses(400, 403, 409)},
        examples=[
            api_example("Rename", {"name": "Bernd Krause-Meier"}, request_only=True),
            api_example(
                "Renamed",
                {**MEMBER_EXAMPLE, "name": "Bernd Krause-Meier"},
                response_only=True,
            ),
        ],
    ),
)


ME_GET = extend_schema(
    summary="Who am I",
    description="The logged-in user's person, club and whether it is the club's "
    "secretary. A login without a club: 404.",
    responses={200: MeSerializer, **error_responses()},
    examples=[
        api_example(
            "Secretary",
            {
                "member": MEMBER_EXAMPLE,
                "club": CLUB_EXAMPLE,
                "is_secretary": True,
                "calendar_url": "https://schock.example.org/kalender/2-0-5d41402abc4b2a76b9719d911017c592.ics",
            },
            response_only=True,
        )
    ],
)


STATUTES_EXAMPLE: dict[str, Any] = {
    "season": 49,
    "year": 2026,
    "evenings": 12,
    "mark_value": "0.50",
    "currency": "EUR",
    "data_version": 311,
    "statutes": CLUB_STATUTES.to_data(),
}
RANK_STATUTES_EXAMPLE: dict[str, Any] = {
    "scoring": {"mode": "by_rank", "rank_points": [7, 5, 4, 3, 2, 1]},
    "absence": {"mode": "average_plus", "surcharge": 1},
    "runden": {"first": True, "last": False, "every": 3, "shift": False},
}

_STATUTES_GET = extend_schema(
    methods=["GET"],
    summary="A season's statutes",
    description="The statutes the season's books are kept under: points "
    "per Schock-Aus and per lost game (`per_event`) or by an evening's rank (`by_rank`: "
    "the club members present ranked by fewest games lost, ties share the better place), "
    "Marks per lost game, the absence charge (`none`, `fixed` Marks, or `average_plus`: "
    "the evening's lost-game Marks over its present club members, rounded half up, plus "
    "the surcharge), games per present member, the Mark's eras and the Runden rule. Every "
    "member of the club may read them.",
    responses={200: SeasonStatutesSerializer, **error_responses()},
    examples=[api_example("Seed 003", STATUTES_EXAMPLE, response_only=True)],
)
_STATUTES_PUT = extend_schema(
    methods=["PUT"],
    summary="Change a season's statutes",
    description="Secretary only (a member: 403; another club's season: 404). Keys left "
    "out keep the season's figures. A season that has evenings needs `confirm: true` "
    "(without: 409 `confirmation_required`): every point, Mark and money amount is then "
    "recomputed, the ledger reverses and re-books each charge that changed, the change "
    "is audited and the `data_version` moves. A bad figure: 400 with a `statutes_*` "
    "code (`statutes_invalid`, `statutes_invalid_number`, `statutes_invalid_mode`, "
    "`statutes_invalid_flag`, `statutes_invalid_rank_points`, "
    "`statutes_invalid_mark_eras`, `statutes_invalid_time`); new eras that would change "
    "the currency of a season with ledger lines: 409 `currency_in_use`.",
    request=SeasonStatutesUpdateSerializer,
    responses={200: SeasonStatutesSerializer, **error_responses(400, 403, 409)},
    examples=[
        api_example(
            "By rank 7/5/4/3/2/1, absence average plus one Mark",
            {"statutes": RANK_STATUTES_EXAMPLE, "confirm": True},
            request_only=True,
        ),
        api_example("Seed 003", STATUTES_EXAMPLE, response_only=True),
    ],
)


def SEASON_STATUTES(view: Any) -> Any:  # (named like the other schema constants)
    """The schema of `GET/PUT /api/v1/seasons/{id}/statutes/`."""
    return _STATUTES_GET(_STATUTES_PUT(view))


CALENDAR_REVOKE_POST = extend_schema(
    summary="Revoke my calendar link",
    description="The person's calendar link (`calendar_url` of GET /api/v1/me/) answers "
    "404 from now on; the answer holds the new link. A login without a club: 404.",
    request=None,
    responses={200: CalendarLinkSerializer, **error_responses()},
)
