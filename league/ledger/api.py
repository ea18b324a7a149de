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

Decisions: without ``?season=`` the statement covers the club's current season (the season
of today, else the latest), ``?season=all`` every season a few a page
(``?page=``, ``?page_size=`` seasons, newest first; ``count``, ``next``, ``previous``
beside the accounts); balances without ``?season=`` cover every season; the kitty totals
are always over all seasons. Statement and balances are cached by the club's books version
and answer a GET with the ETag they gave with 304 (league/club/caching.py).
"""

import django_filters
from django.core.paginator import EmptyPage, Paginator
from django.db.models import F
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from games.evenings.selectors import club_provisional_evening_ids
from league.club.api_common import (
    ClubScopedMixin,
    club_of,
    is_secretary,
    kept_api_read,
    request_club,
    request_member,
    require_secretary,
    season_param,
)
from league.club.api_login import ClubLogin
from league.club.api_schema import answers_not_modified
from league.club.caching import KeptRead, api_conditional, api_private
from league.club.errors import BooksError
from league.club.filters import DateFilter, IntFilter
from league.club.idempotency import idempotent
from league.club.selectors import club_current_season, club_member_by_id, whole_number
from league.ledger import schema
from league.ledger.models import Payment
from league.ledger.selectors import (
    club_balances,
    member_statement,
    member_statement_seasons,
)
from league.ledger.serializers import (
    ClubBalancesSerializer,
    MemberStatementSerializer,
    PaymentCreateSerializer,
    PaymentSerializer,
)
from league.ledger.services import (
    payment_cancel,
    payment_record,
)

STATEMENT_PAGE_SIZE = 4
"""Seasons a page of `?season=all` (at most STATEMENT_PAGE_SIZE_MAX with `?page_size=`)."""
STATEMENT_PAGE_SIZE_MAX = 12


class PaymentFilter(django_filters.FilterSet):
    """`?season=<id>`, `?member=<id>`, `?method=cash`, `?paid_from=`/`?paid_to=` (dates)."""

    season = IntFilter(field_name="season_id")
    member = IntFilter(field_name="member_id")
    method = django_filters.ChoiceFilter(choices=Payment.Method.choices)
    paid_from = DateFilter(field_name="paid_on", lookup_expr="gte")
    paid_to = DateFilter(field_name="paid_on", lookup_expr="lte")

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
        # Whether the payment was cancelled: the id of its entry's reversal, in the same
        # query (a reverse select_related of the ClubOneToOneField links is not possible).
        queryset = self.scope(
            Payment.objects.select_related("member", "season").annotate(
                reversal_id=F("ledger_entry__reversed_by__id")
            )
        )
        if not is_secretary(self.request):
            me = request_member(self.request)
            queryset = queryset.filter(member_id=me.pk if me else None)
        return queryset

    @idempotent
    def create(self, request, *args, **kwargs):
        data = PaymentCreateSerializer(data=request.data, context={"club": request_club(request)})
        data.is_valid(raise_exception=True)
        payment = payment_record(created_by=request.user, **data.validated_data)
        payment = self.get_queryset().get(pk=payment.pk)
        return Response(PaymentSerializer(payment).data, status=status.HTTP_201_CREATED)

    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    @idempotent
    def cancel(self, request, pk=None):
        payment = self.get_object()
        payment_cancel(payment=payment)
        payment = self.get_queryset().get(pk=payment.pk)
        return Response(PaymentSerializer(payment).data)


#: A person's statement of one season (the call adds the person's and season's ids), the
#: seasons of the statement over every season (the person's id) and one page of it (the
#: person's id, page size and number): each kept by the club's books.
API_STATEMENT = KeptRead("api_statement", depends=("books",))
MEMBER_STATEMENT_SEASONS = KeptRead("member_statement_seasons", depends=("books",))
API_STATEMENT_PAGE = KeptRead("api_statement_page", depends=("books",))


@extend_schema(tags=["Kitty"])
class MemberStatementView(APIView):
    """GET /api/v1/members/{id}/statement/: a person's kitty statement."""

    permission_classes = [ClubLogin]

    @schema.STATEMENT_GET
    @answers_not_modified
    def get(self, request, id: int):  # named like the path parameter of members/{id}/
        club = request_club(request)
        person = club_member_by_id(club=club, member_id=id) if club else None
        if club is None or person is None:
            raise Http404
        if not is_secretary(request) and request_member(request) != person:
            raise BooksError(
                "own_dues_only", _("Members see only their own statement."), status=403
            )
        provisional = tuple(sorted(club_provisional_evening_ids(club=club)))
        # Without ?season the statement is the season of today's: the ETag names the day;
        # it names the provisional evenings too (they move with the clock, not the books).
        etag, not_modified = api_conditional(request, "statement", provisional, club=club)
        if not_modified is not None:
            return not_modified
        if request.query_params.get("season") == "all":
            data = _statement_page(request, person, club)
        else:
            season = season_param(request, club=club) or club_current_season(club=club)
            data = API_STATEMENT.cached(
                person.pk,
                season.pk if season else None,
                club=club,
                build=lambda: dict(
                    MemberStatementSerializer(
                        member_statement(member=person, season=season)
                        if season
                        else member_statement(member=person, seasons=[])  # no season yet
                    ).data
                ),
            )
        return api_private(Response(_mark_provisional(data, set(provisional))), etag)


def _mark_provisional(data: dict, provisional: set[int]) -> dict:
    """The statement `data` (kept, shared) with `provisional` set on the charge lines of
    the provisional evenings, as a copy."""
    if not provisional:
        return data
    seasons = [
        {
            **season,
            "lines": [
                {**line, "provisional": True}
                if line["evening"] in provisional and line["kind"] != "reversal"
                else line
                for line in season["lines"]
            ],
        }
        for season in data["seasons"]
    ]
    return {**data, "seasons": seasons}


def _page_number(request, name: str, default: int, maximum: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    value = whole_number(raw, maximum=maximum)
    if not value:
        raise BooksError("invalid", _("A page is named by a whole number from 1."), field=name)
    return value


def _statement_page(request, person, club) -> dict:
    """One page of a person's statement over every season (newest seasons first; each
    season's lines oldest first), with `count` (seasons), `next` and `previous`."""
    size = _page_number(request, "page_size", STATEMENT_PAGE_SIZE, STATEMENT_PAGE_SIZE_MAX)
    number = _page_number(request, "page", 1, 10**6)
    try:
        seasons = MEMBER_STATEMENT_SEASONS.cached(
            person.pk,
            club=club,
            build=lambda: member_statement_seasons(member=person),
        )
        page = Paginator(seasons, size).page(number)
    except EmptyPage:
        raise BooksError(
            "invalid_page", _("There is no such page."), field="page", status=404
        ) from None

    def link(n: int) -> str:
        query = request.query_params.copy()
        query["page"] = str(n)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    data = API_STATEMENT_PAGE.cached(
        person.pk,
        size,
        number,
        club=club,
        build=lambda: dict(
            MemberStatementSerializer(
                member_statement(member=person, seasons=list(page.object_list))
            ).data
        ),
    )
    return {
        "count": page.paginator.count,
        "next": link(page.next_page_number()) if page.has_next() else None,
        "previous": link(page.previous_page_number()) if page.has_previous() else None,
        **data,
    }


@extend_schema(tags=["Kitty"])
class BalancesView(APIView):
    """GET /api/v1/balances/: who owes what, and the kitty per currency."""

    permission_classes = [ClubLogin]

    @schema.BALANCES_GET
    @answers_not_modified
    def get(self, request):
        require_secretary(request)
        club = club_of(request)
        season = season_param(request, club=club)
        return kept_api_read(
            request,
            "balances",
            season.pk if season else None,
            club=club,
            build=lambda: dict(
                ClubBalancesSerializer(club_balances(club=club, season=season)).data
            ),
        )
