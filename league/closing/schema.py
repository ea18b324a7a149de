"""OpenAPI documentation of the season-close endpoints (league/closing/api.py):
drf-spectacular decorators with descriptions and examples. Nothing here runs on a request.
"""

from drf_spectacular.utils import extend_schema

from league.closing.serializers import (
    CloseBodySerializer,
    CloseStateSerializer,
    ReopenBodySerializer,
)
from league.club.api_common import api_example, error_responses

STATE_EXAMPLE = {
    "season_id": 1,
    "year": 2026,
    "currency": "EUR",
    "closed": True,
    "closed_at": "2027-01-08T20:15:00+01:00",
    "closed_by": "Bernd Krause",
    "data_version": 42,
    "fingerprint": "9f2c" + "0" * 60,
    "open_items": {
        "incomplete_evenings": [],
        "objection_time": [],
        "runden_open": [
            {
                "evening_id": 7,
                "date": "2026-10-09",
                "ordinal": 1,
                "reason": "first",
                "thrower_id": 3,
                "thrower": "Anna Becker",
            }
        ],
        "open_balances": [
            {
                "member_id": 3,
                "name": "Anna Becker",
                "charged": "2.00",
                "paid": "0.50",
                "carried_in": "0.00",
                "balance": "1.50",
            }
        ],
        "open_balance_count": 1,
        "open_balance_total": "1.50",
        "needs_confirmation": True,
    },
    "sign_offs": [
        {
            "id": 1,
            "auditor_id": 5,
            "auditor": "Dieter Hahn",
            "signed_at": "2027-01-10T19:02:11+01:00",
            "fingerprint": "9f2c" + "0" * 60,
            "data_version": 42,
            "state": "valid",
        }
    ],
    "events": [
        {
            "when": "2027-01-08T20:15:00+01:00",
            "who": "sekretaer",
            "action": "closed",
            "reason": "season_closed",
        }
    ],
}

_STATE = "The answer is the season's close state (as GET)."

STATE_GET = extend_schema(
    summary="A season's close state",
    description="Every person of the club. Whether the season is closed "
    "(when, by whom), what is still open (evenings with games missing, Runden owed and not "
    "given, people whose balance is not zero: carried into the next season on close), the "
    "fingerprint of its figures now and every Kassenprüfer signature with its state "
    "(`valid`, or `broken` when the figures changed after it). Every person's balance "
    "(`open_balances`) only for the secretary and for a Kassenprüfer of the closed season "
    "while fewer than two have signed validly or who signed; everyone else reads an empty "
    "list and `open_balance_count` and `open_balance_total` (owed minus credits).",
    responses={200: CloseStateSerializer, **error_responses()},
    examples=[api_example("Closed and signed", STATE_EXAMPLE, response_only=True)],
)

CLOSE_POST = extend_schema(
    summary="Close a season",
    description="Secretary only (season_close). Carries every open balance into the next "
    "season (created when missing; DM to EUR at 1.95583 DM = 1 EUR), then locks the "
    "season's books: every change is refused with 409 `season_closed` until it is "
    "reopened. With incomplete evenings, Runden not given or an evening whose objection "
    "time still runs: 409 `open_items` unless `confirm` is true (the closing then declares "
    "such an evening final: nobody may object to it any more). With an objection open: "
    "409 `objections_open`, whatever `confirm` says. Already closed: 409 "
    "`season_already_closed`; the next season closed: 409 `next_season_closed`. " + _STATE,
    request=CloseBodySerializer,
    responses={200: CloseStateSerializer, **error_responses(400, 403, 409)},
    examples=[api_example("Close anyway", {"confirm": True}, request_only=True)],
)

REOPEN_POST = extend_schema(
    summary="Reopen a closed season",
    description="Secretary only (season_reopen). `reason` (1 to 100 characters) is kept "
    "in the season's audit history; the carry-over booked on close is reversed. Errors: "
    "400 `reason_required` / `reason_too_long`, 409 `season_not_closed`, 409 "
    "`next_season_closed`. Signatures stay; a later change of the figures breaks them. " + _STATE,
    request=ReopenBodySerializer,
    responses={200: CloseStateSerializer, **error_responses(400, 403, 409)},
    examples=[api_example("Reopen", {"reason": "Zahlung von Anna fehlte"}, request_only=True)],
)

SIGN_OFF_POST = extend_schema(
    summary="Sign a closed season as Kassenprüfer",
    description="A club member with a login who is not the secretary (season_sign_off): "
    "records who, when and the fingerprint of the figures signed. At most two valid "
    "signatures, one per auditor. Errors: 403 `auditor_not_allowed`; 403 "
    "`auditor_password_not_own` when the login's password was not set by its holder "
    "(invitation, reset or change; set a new one first); 403 `auditor_was_secretary` for "
    "anyone who was a secretary at any moment of the season's dates (the person's audit "
    "history); 409 `season_not_closed`, `already_signed`, `auditors_complete`. No body. " + _STATE,
    request=None,
    responses={201: CloseStateSerializer, **error_responses(403, 409)},
)
