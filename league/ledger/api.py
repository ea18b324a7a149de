"""REST API of the kitty: payments (the secretary records and cancels them), a member's
statement and the club's balances, through the same services as the pages of
league/ledger/views.py (league/ledger/services.py). Roles and errors:
league/club/api_common.py; the OpenAPI prose: league/ledger/schema.py.

- ``GET  payments/``                  payments (member: own; secretary: the club's)
- ``POST payments/``                  secretary: payment_record
- ``GET  payments/{id}/``             one payment
- ``POST payments/{id}/cancel/``      secretary: payment_cancel
- ``GET  members/{id}/statement/``    member_statement (member: own only, 403 otherwise)
- ``GET  balances/``                  secretary: club_balances

Decision where the brief was silent: without ``?season=`` statement and balances cover
every season (the page's "alle"); the kitty totals are always over all seasons.
"""

import django_filters
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.api_common import (
    ClubScopedMixin,
    club_of,
    is_secretary,
    request_club,
    request_member,
    require_secretary,
    season_param,
)
from league.club.errors import BooksError
from league.club.filters import IntFilter
from league.club.selectors import club_member_by_id
from league.ledger import schema
from league.ledger.models import Payment
from league.ledger.serializers import (
    ClubBalancesSerializer,
    MemberStatementSerializer,
    PaymentCreateSerializer,
    PaymentSerializer,
)
from league.ledger.services import club_balances, member_statement, payment_cancel, payment_record


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


@schema.PAYMENT_VIEWSET
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
        data = PaymentCreateSerializer(data=request.data, context={"club": request_club(request)})
        data.is_valid(raise_exception=True)
        payment = payment_record(created_by=request.user, **data.validated_data)
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

    @schema.STATEMENT_GET
    def get(self, request, id: int):  # named like the path parameter of members/{id}/
        club = request_club(request)
        person = club_member_by_id(club=club, member_id=id) if club else None
        if person is None:
            raise Http404
        if not is_secretary(request) and request_member(request) != person:
            raise BooksError(
                "own_dues_only", _("Members see only their own statement."), status=403
            )
        statement = member_statement(member=person, season=season_param(request, club=club))
        return Response(MemberStatementSerializer(statement).data)


@extend_schema(tags=["Kitty"])
class BalancesView(APIView):
    """GET /api/v1/balances/: who owes what, and the kitty per currency."""

    permission_classes = [IsAuthenticated]

    @schema.BALANCES_GET
    def get(self, request):
        require_secretary(request)
        club = club_of(request)
        season = season_param(request, club=club)
        return Response(ClubBalancesSerializer(club_balances(club=club, season=season)).data)
