"""REST API of the kitty ledger, payments, the club book and the audit trail (issue 6 through
the API of issue 4): everything the secretary does on the pages of league/ledger_views.py,
through the same services (league.services.ledger, league.services.club_book,
league.audit). Roles and errors: league.api_common.

- ``GET  payments/``                  payments (member: own; secretary: the club's)
- ``POST payments/``                  secretary: payment_record
- ``GET  payments/{id}/``             one payment
- ``POST payments/{id}/cancel/``      secretary: payment_cancel
- ``GET  members/{id}/statement/``    member_statement (member: own only, 403 otherwise)
- ``GET  balances/``                  secretary: club_balances
- ``POST club-book/import/``          secretary: club_book_import (multipart)
- ``GET  club-book/export/attendance.csv`` / ``games.csv``  secretary: club_book_export
- ``GET  history/``                   secretary: evening_audit / member_audit / club_audit_recent

Decision where the brief was silent: without ``?season=`` statement and balances cover
every season (the page's "alle"); the kitty totals are always over all seasons.
"""

import django_filters
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import (
    ClubScopedMixin,
    api_example,
    error_responses,
    id_param,
    is_secretary,
    request_club,
    request_member,
    require_secretary,
)
from league.club.errors import BooksError
from league.club.filters import IntFilter
from league.club.models import Member, Season
from league.ledger.models import Payment
from league.ledger.serializers import (
    ClubBalancesSerializer,
    MemberStatementSerializer,
    PaymentCreateSerializer,
    PaymentSerializer,
)
from league.ledger.services import club_balances, member_statement, payment_cancel, payment_record

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


def season_from_query(request, club) -> Season | None:
    """The club's season named by `?season=<id>` (404 `unknown_season`), or None (every
    season)."""
    season_id = id_param(request, "season")
    if season_id is None:
        return None
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise BooksError(
            "unknown_season", _("The club has no such season."), field="season", status=404
        )
    return season


SEASON_PARAM = OpenApiParameter(
    "season",
    OpenApiTypes.INT,
    description="Season id; without it every season of the club.",
)


class PaymentFilter(django_filters.FilterSet):
    """`?season=<id>`, `?member=<id>`, `?method=cash`, `?paid_from=`/`?paid_to=` (dates)."""

    season = IntFilter(field_name="season_id")
    member = IntFilter(field_name="member_id")
    method = django_filters.ChoiceFilter(choices=Payment.Method.choices)
    paid_from = django_filters.DateFilter(field_name="paid_on", lookup_expr="gte")
    paid_to = django_filters.DateFilter(field_name="paid_on", lookup_expr="lte")

    class Meta:
        model = Payment
        fields = ["season", "member", "method", "paid_from", "paid_to"]


@extend_schema_view(
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
@extend_schema(tags=["Kitty"])
class PaymentViewSet(ClubScopedMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Payments into the kitty (the ledger pages' "Zahlung" and "Storno")."""

    serializer_class = PaymentSerializer
    filterset_class = PaymentFilter
    ordering_fields = ["paid_on", "amount", "id"]
    ordering = ["-paid_on", "-id"]

    def get_queryset(self):
        queryset = self.scope(
            Payment.objects.select_related("member", "season", "ledger_entry__reversed_by")
        )
        if not is_secretary(self.request):
            me = request_member(self.request)
            queryset = queryset.filter(member_id=me.pk if me else None)
        return queryset

    def create(self, request, *args, **kwargs):
        data = PaymentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        club = request_club(request)
        member = Member.objects.filter(club=club, pk=values.pop("member")).first()
        if member is None:
            raise BooksError("unknown_person", _("Unknown person."), field="member")
        season_id = values.pop("season", None)
        season = None
        if season_id is not None:
            season = Season.objects.filter(club=club, pk=season_id).first()
            if season is None:
                raise BooksError(
                    "unknown_season", _("The club has no such season."), field="season"
                )
        payment = payment_record(member=member, season=season, created_by=request.user, **values)
        payment = self.get_queryset().get(pk=payment.pk)
        return Response(PaymentSerializer(payment).data, status=status.HTTP_201_CREATED)

    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def cancel(self, request, pk=None):
        payment = self.get_object()
        payment_cancel(payment=payment)
        payment = self.get_queryset().get(pk=payment.pk)
        return Response(PaymentSerializer(payment).data)


@extend_schema(tags=["Kitty"])
class MemberStatementView(APIView):
    """GET /api/v1/members/{id}/statement/: a person's kitty statement."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A member's kitty statement",
        description="Every ledger line of a person (member_statement, issue 6.1), season by "
        "season: charges (1 Mark per lost game, 6 Marks per evening absent; RULES.md 5), "
        "payments and reversals with their reason, each with the running balance in money "
        "(decimal string, season's currency) and in Marks. `?season=<id>` limits it to one "
        "season (default: every season). A member reads only the own statement (another "
        "person's: 403 `own_dues_only`); the secretary reads everyone's.",
        parameters=[SEASON_PARAM],
        responses={200: MemberStatementSerializer, **error_responses(400, 403)},
        examples=[api_example("Statement", STATEMENT_EXAMPLE, response_only=True)],
    )
    def get(self, request, id: int):  # named like the path parameter of members/{id}/
        club = request_club(request)
        person = Member.objects.filter(club=club, pk=id).first() if club else None
        if person is None:
            raise Http404
        if not is_secretary(request) and request_member(request).pk != person.pk:
            raise BooksError(
                "own_dues_only", _("Members see only their own statement."), status=403
            )
        season = season_from_query(request, club)
        statement = member_statement(member=person, season=season)
        return Response(MemberStatementSerializer(statement).data)


@extend_schema(tags=["Kitty"])
class BalancesView(APIView):
    """GET /api/v1/balances/: who owes what, and the kitty per currency."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Who owes what; the kitty",
        description="Secretary only (club_balances, issue 6.1). `rows`: every person's "
        "account per season (Marks charged, money charged, paid, still owed); `owing`: the "
        "rows still owing, newest season and largest debt first; `seasons`: per season "
        "charged, paid, owed and credit; `kitty`: money received per currency and `owed`: "
        "money still owed per currency (DM and EUR never added; always over every season). "
        "`?season=<id>` limits rows and season totals to one season.",
        parameters=[SEASON_PARAM],
        responses={200: ClubBalancesSerializer, **error_responses(400, 403)},
        examples=[api_example("Overview", BALANCES_EXAMPLE, response_only=True)],
    )
    def get(self, request):
        require_secretary(request)
        club = request_club(request)
        season = season_from_query(request, club)
        return Response(ClubBalancesSerializer(club_balances(club=club, season=season)).data)
