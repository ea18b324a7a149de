"""OpenAPI documentation of the kitty's endpoints (league/ledger/api.py): payments, a
member's statement and the balances, as drf-spectacular decorators with their descriptions
and examples. Nothing here runs on a request.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view

from league.club.api_common import api_example, error_responses
from league.ledger.serializers import (
    ClubBalancesSerializer,
    MemberStatementSerializer,
    PaymentCreateSerializer,
    PaymentSerializer,
)

PAYMENT_EXAMPLE = {
    "id": 12,
    "member": 3,
    "member_name": "Anna Becker",
    "season": 48,
    "year": 2026,
    "amount": "15.50",
    "currency": "EUR",
    "paid_on": "2026-10-16",
    "method": "cash",
    "note": "Oktober",
    "cancelled": False,
    "created_at": "2026-10-16T21:14:03+02:00",
}


STATEMENT_EXAMPLE = {
    "member": {"id": 3, "name": "Anna Becker"},
    "seasons": [
        {
            "season": 48,
            "year": 2026,
            "currency": "EUR",
            "mark_value": "0.50",
            "lines": [
                {
                    "entry": 101,
                    "booked_on": "2026-10-09",
                    "kind": "game_lost",
                    "label": "Spiel 2 verloren am 09.10.2026",
                    "marks": 1,
                    "amount": "0.50",
                    "balance": "0.50",
                    "balance_marks": "1.00",
                    "evening": 7,
                    "game": 31,
                    "payment": None,
                    "reversed": False,
                },
                {
                    "entry": 140,
                    "booked_on": "2026-10-16",
                    "kind": "payment",
                    "label": "Zahlung (bar): Oktober",
                    "marks": 0,
                    "amount": "-0.25",
                    "balance": "0.25",
                    "balance_marks": "0.50",
                    "evening": None,
                    "game": None,
                    "payment": 12,
                    "reversed": False,
                },
            ],
            "marks_charged": 1,
            "charged": "0.50",
            "paid": "0.25",
            "balance": "0.25",
            "balance_marks": "0.50",
        }
    ],
    "balance_by_currency": [{"currency": "EUR", "amount": "0.25"}],
}


BALANCE_ROW = {
    "member": {"id": 3, "name": "Anna Becker"},
    "season": 48,
    "year": 2026,
    "currency": "EUR",
    "marks_charged": 13,
    "charged": "6.50",
    "paid": "5.00",
    "balance": "1.50",
}


BALANCES_EXAMPLE = {
    "rows": [BALANCE_ROW],
    "owing": [BALANCE_ROW],
    "seasons": [
        {
            "season": 48,
            "year": 2026,
            "currency": "EUR",
            "charged": "6.50",
            "paid": "5.00",
            "owed": "1.50",
            "credit": "0.00",
        }
    ],
    "kitty": [{"currency": "DM", "amount": "412.00"}, {"currency": "EUR", "amount": "5.00"}],
    "owed": [{"currency": "EUR", "amount": "1.50"}],
}


SEASON_PARAM = OpenApiParameter(
    "season",
    OpenApiTypes.INT,
    description="Season id; without it every season of the club.",
)


PAYMENT_VIEWSET = extend_schema_view(
    list=extend_schema(
        summary="Payments into the kitty",
        description="A member sees the own payments, the secretary every payment of the "
        "club (a login without a club: none). Filter by `season`, `member`, `method`, "
        "`paid_from`/`paid_to`; order by `paid_on`, `amount`, `id` (default newest first). "
        "Amounts are decimal strings in the season's `currency`.",
        responses={200: PaymentSerializer(many=True), **error_responses(400)},
        examples=[api_example("Payments", PAYMENT_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A payment",
        description="One payment (a member: only an own one; others do not exist, 404).",
        responses={200: PaymentSerializer, **error_responses()},
        examples=[api_example("Payment", PAYMENT_EXAMPLE, response_only=True)],
    ),
    create=extend_schema(
        summary="Record a payment",
        description='Secretary only; the page "Zahlung erfassen" (payment_record, issue '
        '6.1). `amount` is a decimal STRING with at most two places (`"15.50"`; a JSON '
        "number is refused: `amount_not_string`), in the currency of the season; `season` "
        "(id) defaults to the club's season containing `paid_on` (none: 400 `no_season`). "
        "Partial payments are normal; paying more than owed leaves a credit. A person of "
        "another club or unknown: 400 `unknown_person`. Not positive: 400 `invalid_amount`.",
        request=PaymentCreateSerializer,
        responses={201: PaymentSerializer, **error_responses(400, 403)},
        examples=[
            api_example(
                "Cash",
                {
                    "member": 3,
                    "amount": "15.50",
                    "paid_on": "2026-10-16",
                    "method": "cash",
                    "note": "Oktober",
                },
                request_only=True,
            ),
            api_example("Recorded", PAYMENT_EXAMPLE, response_only=True, status_codes=["201"]),
        ],
    ),
    cancel=extend_schema(
        summary="Cancel a payment",
        description="Secretary only (payment_cancel): a payment entered by mistake gets a "
        "reversal line booked today that takes its money back out of the kitty; the "
        "payment stays visible with `cancelled: true`. Cancelled already: 409 "
        "`payment_cancelled`.",
        request=None,
        responses={200: PaymentSerializer, **error_responses(403, 409)},
        examples=[
            api_example("Cancelled", {**PAYMENT_EXAMPLE, "cancelled": True}, response_only=True)
        ],
    ),
)


STATEMENT_GET = extend_schema(
    summary="A member's kitty statement",
    description="Every ledger line of a person (member_statement), season by "
    "season: charges (1 Mark per lost game, 6 Marks per evening absent; docs/rules.md 5), "
    "payments and reversals with their reason, each with the running balance in money "
    "(decimal string, season's currency) and in Marks. Without `?season=` the club's "
    "current season; `?season=<id>` another season; `?season=all` every season, a few a "
    "page (`?page=`, `?page_size=` seasons, at most 12; newest seasons first, each "
    "season's lines oldest first; `count` (seasons), `next` and `previous` beside the "
    "accounts, `balance_by_currency` over every season). Cached by the club's books "
    "version: a GET with the ETag it got answers 304. A member reads only the own statement "
    "(another person's: 403 `own_dues_only`); the secretary reads everyone's.",
    parameters=[
        OpenApiParameter(
            "season",
            OpenApiTypes.STR,
            description="Season id, or `all`; without it the club's current season.",
        ),
        OpenApiParameter("page", OpenApiTypes.INT, description="With `season=all`: page."),
        OpenApiParameter(
            "page_size", OpenApiTypes.INT, description="With `season=all`: seasons a page."
        ),
    ],
    responses={200: MemberStatementSerializer, **error_responses(400, 403, 404)},
    examples=[api_example("Statement", STATEMENT_EXAMPLE, response_only=True)],
)


BALANCES_GET = extend_schema(
    summary="Who owes what; the kitty",
    description="Secretary only (club_balances). `rows`: every person's "
    "account per season (Marks charged, money charged, paid, still owed); `owing`: the "
    "rows still owing, newest season and largest debt first; `seasons`: per season "
    "charged, paid, owed and credit; `kitty`: money received per currency and `owed`: "
    "money still owed per currency (DM and EUR never added; always over every season). "
    "`?season=<id>` limits rows and season totals to one season.",
    parameters=[SEASON_PARAM],
    responses={200: ClubBalancesSerializer, **error_responses(400, 403)},
    examples=[api_example("Overview", BALANCES_EXAMPLE, response_only=True)],
)
