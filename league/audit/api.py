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

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated

from games.evenings.models import Evening
from league.audit.selectors import club_audit_recent, evening_audit, member_audit
from league.audit.serializers import AuditLineSerializer
from league.club.api_common import (
    api_example,
    error_responses,
    id_param,
    request_club,
    require_secretary,
)
from league.club.errors import BooksError
from league.club.models import Member

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
        examples=[api_example("A corrected loser", AUDIT_EXAMPLE, response_only=True)],
    )
    def get(self, request):
        require_secretary(request)
        club = request_club(request)
        evening_id = id_param(request, "evening")
        member_id = id_param(request, "member")
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
