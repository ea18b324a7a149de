"""REST API of the audit trail.

- ``GET  history/``   secretary: ``?evening=<id>`` evening_audit, ``?member=<id>``
  member_audit, neither: club_audit_recent (league/audit/selectors.py), paginated.

Roles and errors: league.club.api_common. The lines are the same the pages show
(league/audit/views.py).
"""

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)
from rest_framework.generics import GenericAPIView

from league.audit.selectors import (
    MemberAuditLines,
    audit_state,
    club_audit_recent,
    evening_audit,
)
from league.audit.serializers import AuditLineSerializer
from league.club.api_common import (
    api_example,
    club_of,
    error_responses,
    id_param,
    kept_api_read,
    require_secretary,
)
from league.club.api_login import ClubLogin
from league.club.api_schema import answers_not_modified
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

    permission_classes = [ClubLogin]
    serializer_class = AuditLineSerializer
    filter_backends: list = []

    @extend_schema(
        summary="The audit trail",
        description="Secretary only (league/audit/selectors.py). "
        "`?evening=<id>`: every change of that evening (also of a deleted one), its "
        "attendance, games, Schock-Aus, rounds and throws, reversal lines and Runden given; "
        "`?member=<id>`: every change concerning that person (the person itself with login "
        "and secretary flag, attendance, games, Schock-Aus, rounds and throws, payments, "
        "reversal lines, Runden); neither: the club's latest changes (also to the club, its "
        "seasons and people; not the club-book import's records). Newest first, each with "
        "who, when, what and the changed fields before -> after. Both parameters at once: "
        "400 `one_filter_only`; another club's evening or person: 404.",
        parameters=[
            OpenApiParameter("evening", OpenApiTypes.INT, description="Evening id."),
            OpenApiParameter("member", OpenApiTypes.INT, description="Person id."),
        ],
        responses={200: AuditLineSerializer(many=True), **error_responses(400, 403)},
        examples=[api_example("A corrected loser", AUDIT_EXAMPLE, response_only=True)],
    )
    @answers_not_modified
    def get(self, request):
        require_secretary(request)
        club = club_of(request)
        evening_id = id_param(request, "evening")
        member_id = id_param(request, "member")
        if evening_id is not None and member_id is not None:
            raise BooksError(
                "one_filter_only", _("Ask for an evening or a person, not both."), field="member"
            )
        # The books version and what the history shows beyond it (league/audit/selectors.py
        # AuditState): the page of lines is kept under both, per full URI (the pagination's
        # links name the host); a repeat with the ETag gets 304.
        state = audit_state(club=club, evening_id=evening_id, member_id=member_id)
        if state.evening_known is False or state.member_known is False:
            raise Http404

        def build() -> dict:
            if evening_id is not None:
                lines = evening_audit(evening_id=evening_id)
            elif member_id is not None:
                person = Member.objects.get(pk=member_id, club=club)
                # A page reads only its own records.
                lines = MemberAuditLines(person)  # type: ignore[assignment]
            else:
                lines = club_audit_recent(club=club)
            page = self.paginate_queryset(lines)
            return dict(self.get_paginated_response(AuditLineSerializer(page, many=True).data).data)

        return kept_api_read(
            request,
            "history",
            club.pk,
            state.key,
            request.build_absolute_uri(),
            club=club,
            build=build,
        )
