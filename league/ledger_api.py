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
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Evening
from league.api_common import (
    ClubScopedMixin,
    ErrorSerializer,
    error_responses,
    is_secretary,
    request_club,
    request_member,
)
from league.audit import club_audit_recent, evening_audit, member_audit
from league.errors import BooksError
from league.filters import IntFilter
from league.ledger_serializers import (
    AuditLineSerializer,
    BadRowsSerializer,
    ClubBalancesSerializer,
    ClubBookUploadSerializer,
    ImportResultSerializer,
    MemberStatementSerializer,
    PaymentCreateSerializer,
    PaymentSerializer,
    bad_rows_body,
)
from league.models import Member, Payment, Season
from league.services.club_book import club_book_export, club_book_import
from league.services.ledger import club_balances, member_statement, payment_cancel, payment_record

MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # as the import page (league/ledger_views.py)
ID_MAX = 2**63 - 1

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
IMPORT_EXAMPLE = {
    "dry_run": True,
    "changed": True,
    "created": {
        "members": 6,
        "seasons": 1,
        "evenings": 1,
        "attendances": 7,
        "games": 25,
        "schock_aus": 5,
        "ledger_entries": 26,
    },
    "skipped": 0,
    "seasons": [
        {
            "year": 2026,
            "currency": "EUR",
            "evenings": 1,
            "new_evenings": 1,
            "games": 25,
            "schock_aus": 5,
            "runden": 3,
            "marks_total": 31,
            "money_total": "15.50",
        }
    ],
}
BAD_ROWS_EXAMPLE = {
    "code": "bad_rows",
    "message": "Die Dateien enthalten fehlerhafte Zeilen; nichts wurde importiert.",
    "field": None,
    "errors": [
        {
            "file": "club-book-attendance.csv",
            "line": 4,
            "code": "unknown_role",
            "reason": "Unbekannte Rolle „chef“.",
        }
    ],
}
AUDIT_EXAMPLE = {
    "when": "2026-10-09T22:41:10+02:00",
    "who": "bernd",
    "action": "~",
    "action_label": "geändert",
    "what": "Spiel 2 am 09.10.2026",
    "changes": [{"label": "Verlierer", "before": "Carla Vogt", "after": "Anna Becker"}],
    "reason": "",
    "reason_label": "",
    "evening": 7,
}


def _example(name: str, value, **kwargs) -> OpenApiExample:
    return OpenApiExample(name, value=value, **kwargs)


def _secretary_only(request) -> None:
    """403 `secretary_required` for everyone but the club's secretary (pages:
    @secretary_required)."""
    if not is_secretary(request):
        raise BooksError(
            "secretary_required", _("Only the club's secretary may do this."), status=403
        )


def _id_param(request, name: str) -> int | None:
    """A query parameter naming an object by id, or None when absent (400 `invalid`)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not raw.isdigit() or int(raw) > ID_MAX or int(raw) < 1:
        raise BooksError("invalid", _("An object is named by its id."), field=name)
    return int(raw)


def _season_param(request, club) -> Season | None:
    """The club's season named by `?season=<id>` (404 `unknown_season`), or None (every
    season)."""
    season_id = _id_param(request, "season")
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


# --------------------------------------------------------------------------- payments


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
        examples=[_example("Payments", PAYMENT_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="A payment",
        description="One payment (a member: only an own one; others do not exist, 404).",
        responses={200: PaymentSerializer, **error_responses()},
        examples=[_example("Payment", PAYMENT_EXAMPLE, response_only=True)],
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
            _example(
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
            _example("Recorded", PAYMENT_EXAMPLE, response_only=True, status_codes=["201"]),
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
            _example("Cancelled", {**PAYMENT_EXAMPLE, "cancelled": True}, response_only=True)
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


# --------------------------------------------------------------------------- statement


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
        examples=[_example("Statement", STATEMENT_EXAMPLE, response_only=True)],
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
        season = _season_param(request, club)
        statement = member_statement(member=person, season=season)
        return Response(MemberStatementSerializer(statement).data)


# --------------------------------------------------------------------------- balances


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
        examples=[_example("Overview", BALANCES_EXAMPLE, response_only=True)],
    )
    def get(self, request):
        _secretary_only(request)
        club = request_club(request)
        season = _season_param(request, club)
        return Response(ClubBalancesSerializer(club_balances(club=club, season=season)).data)


# --------------------------------------------------------------------------- club book


@extend_schema(tags=["Club book"])
class ClubBookImportView(APIView):
    """POST /api/v1/club-book/import/: import the club book (two CSV files)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        summary="Import the club book",
        description="Secretary only (club_book_import, issue 6.3). Multipart with the two "
        "files `attendance` (`date,name,role`) and `games` (`date,number,loser,schock_aus`) "
        "and `dry_run`. All or nothing: with `dry_run=true` the answer says what would be "
        "created and the recomputed totals per season, and nothing is written; without it "
        "the books are written in one transaction. Evenings already in the books with the "
        "same data are skipped (a second import changes nothing). Any bad row: 400 "
        "`bad_rows` with every row's `file`, `line`, `code` and `reason`, and nothing is "
        "imported. A file over 20 MB: 400 `file_too_large`.",
        request={"multipart/form-data": ClubBookUploadSerializer},
        responses={
            200: ImportResultSerializer,
            400: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="ClubBookImportRefusal",
                    serializers=[BadRowsSerializer, ErrorSerializer],
                    resource_type_field_name=None,
                ),
                description="`bad_rows` (with `errors`: file, line, code, reason) or an "
                "invalid request (`required`, `file_too_large`, ...).",
                examples=[
                    _example("Bad rows", BAD_ROWS_EXAMPLE, response_only=True, status_codes=["400"])
                ],
            ),
            **{k: v for k, v in error_responses(403).items() if k != 404},
        },
        examples=[_example("Dry run", IMPORT_EXAMPLE, response_only=True, status_codes=["200"])],
    )
    def post(self, request):
        _secretary_only(request)
        data = ClubBookUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        files = data.validated_data["attendance"], data.validated_data["games"]
        if any(f.size > MAX_UPLOAD_BYTES for f in files):
            raise BooksError(
                "file_too_large", _("A file is too large (at most 20 MB)."), field="attendance"
            )
        result = club_book_import(
            club_name=request_club(request).name,
            attendance=files[0].read(),
            games=files[1].read(),
            dry_run=data.validated_data["dry_run"],
            user=request.user,
            attendance_name=files[0].name or "club-book-attendance.csv",
            games_name=files[1].name or "club-book-games.csv",
        )
        if not result.ok:
            return Response(bad_rows_body(result.errors), status=status.HTTP_400_BAD_REQUEST)
        return Response(ImportResultSerializer(result).data)


EXPORT_FILES = {
    "attendance": "club-book-attendance.csv",
    "games": "club-book-games.csv",
}


@extend_schema(tags=["Club book"])
class ClubBookExportView(APIView):
    """GET /api/v1/club-book/export/attendance.csv or games.csv: the club book in the
    import format, the same bytes as the page's download."""

    permission_classes = [IsAuthenticated]
    which = "attendance"

    @extend_schema(
        summary="Export the club book",
        description="Secretary only (club_book_export, issue 6.3): the club's books in the "
        "import format (UTF-8, CRLF), byte for byte what the page's download gives; "
        "importing it again changes nothing.",
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The CSV file (`text/csv; charset=utf-8`)."
            ),
            **error_responses(403),
        },
        examples=[
            _example(
                "Attendance file",
                "date,name,role\r\n2026-10-09,Anna Becker,member\r\n"
                "2026-10-09,Bernd Krause,secretary\r\n",
                response_only=True,
                media_type="text/csv",
                status_codes=["200"],
            )
        ],
    )
    def get(self, request):
        _secretary_only(request)
        attendance, games = club_book_export(club=request_club(request))
        data = attendance if self.which == "attendance" else games
        response = HttpResponse(data, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{EXPORT_FILES[self.which]}"'
        return response


# --------------------------------------------------------------------------- audit


@extend_schema(tags=["Audit trail"])
class HistoryView(GenericAPIView):
    """GET /api/v1/history/: the audit trail (who, when, what, before -> after)."""

    permission_classes = [IsAuthenticated]
    serializer_class = AuditLineSerializer
    filter_backends: list = []

    @extend_schema(
        summary="The audit trail",
        description="Secretary only (league/audit.py, issue 6.4). `?evening=<id>`: every "
        "change of that evening (also of a deleted one), its attendance, games, Schock-Aus "
        "and Runden given; `?member=<id>`: every change concerning that person (attendance, "
        "games, Schock-Aus, payments, Runden); neither: the club's latest changes. Newest "
        "first, each with who, when, what and the changed fields before -> after. Both "
        "parameters at once: 400 `one_filter_only`; another club's evening or person: 404.",
        parameters=[
            OpenApiParameter("evening", OpenApiTypes.INT, description="Evening id."),
            OpenApiParameter("member", OpenApiTypes.INT, description="Person id."),
        ],
        responses={200: AuditLineSerializer(many=True), **error_responses(400, 403)},
        examples=[_example("A corrected loser", AUDIT_EXAMPLE, response_only=True)],
    )
    def get(self, request):
        _secretary_only(request)
        club = request_club(request)
        evening_id = _id_param(request, "evening")
        member_id = _id_param(request, "member")
        if evening_id is not None and member_id is not None:
            raise BooksError(
                "one_filter_only", _("Ask for an evening or a person, not both."), field="member"
            )
        if evening_id is not None:
            known = (
                Evening.objects.filter(pk=evening_id, club=club).exists()
                or Evening.history.filter(id=evening_id, club=club).exists()
            )
            if not known:
                raise Http404
            lines = evening_audit(evening_id=evening_id)
        elif member_id is not None:
            person = Member.objects.filter(pk=member_id, club=club).first()
            if person is None:
                raise Http404
            lines = member_audit(member=person)
        else:
            lines = club_audit_recent(club=club)
        page = self.paginate_queryset(lines)
        return self.get_paginated_response(AuditLineSerializer(page, many=True).data)


__all__ = [
    "BalancesView",
    "ClubBookExportView",
    "ClubBookImportView",
    "HistoryView",
    "MemberStatementView",
    "PaymentViewSet",
]
