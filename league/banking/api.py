"""REST API of money in (issue 14 item 2):

- ``GET members/{id}/girocode.png[?season=<id>]``  the EPC GiroCode of the member's open
  amount: the member themself or the club's secretary. Without ``season``: the newest EUR
  season with an open amount. 404 ``no_girocode`` when there is none (nothing open, a DM
  season, or no club bank account).
"""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from league.banking.girocode import girocode_of, girocode_png, member_open_seasons
from league.banking.models import ClubBankAccount
from league.club.api_common import club_of, error_responses, is_secretary, request_member
from league.club.caching import books_cached, club_books_version
from league.club.errors import BooksError
from league.club.fields import StrictIntegerField
from league.club.models import Member, Season
from league.ledger.services import member_balance


@extend_schema(tags=["Money in"])
class MemberGiroCodeView(APIView):
    """GET /api/v1/members/{id}/girocode.png: the GiroCode of the member's open amount."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="GiroCode of a member's open amount",
        description="The EPC QR code (SEPA credit transfer, version 002) a banking app scans "
        "to pay the member's open amount of a season to the club's account, as PNG. The "
        "member themself or the club's secretary (403 `not_own_statement` otherwise). "
        "Without `season`, the newest EUR season with an open amount. 404 `no_girocode`: "
        "nothing open, a DM season, or the club has no bank account.",
        parameters=[
            OpenApiParameter("season", OpenApiTypes.INT, description="The season's id."),
        ],
        responses={
            (200, "image/png"): OpenApiResponse(OpenApiTypes.BINARY, description="PNG"),
            **error_responses(400, 403),
        },
    )
    def get(self, request, id: int):  # named like the path parameter of members/{id}/
        club = club_of(request)
        member = get_object_or_404(Member, pk=id, club=club)
        me = request_member(request)
        if not is_secretary(request) and (me is None or me.pk != member.pk):
            raise BooksError(
                "not_own_statement", _("Only the member themself or the secretary."), status=403
            )
        account = ClubBankAccount.objects.filter(club=club).first()
        raw = request.query_params.get("season")
        season_id = None if raw is None else StrictIntegerField(min_value=1).run_validation(raw)

        def build() -> bytes:
            code = None
            if season_id is not None:
                season = get_object_or_404(Season, pk=season_id, club=club)
                if account is not None:  # without one there is no code: nothing to sum
                    amount = member_balance(member=member, season=season)
                    code = girocode_of(account=account, member=member, season=season, amount=amount)
            elif account is not None:
                # The newest open EUR season: one query whether or not anything is open.
                open_seasons = member_open_seasons(member=member)
                if open_seasons:
                    season, amount = open_seasons[0]
                    code = girocode_of(account=account, member=member, season=season, amount=amount)
            if code is None and account is None:
                raise BooksError(
                    "no_girocode", _("The club has not entered its bank account yet."), status=404
                )
            if code is None:
                raise BooksError("no_girocode", _("There is nothing open to pay."), status=404)
            return girocode_png(code)

        # The PNG (drawing it costs about twice a trivial read) is kept per books version
        # (the amount, the member's name in the reference), member, season asked for and
        # bank account (not part of the books: its fields are in the key). A refusal raises
        # in build() and is never kept; without an account every answer is one.
        png = (
            build()
            if account is None
            else books_cached(
                "girocode_png",
                club_books_version(club=club),
                member.pk,
                season_id,
                (account.holder, account.iban, account.bic),
                build=build,
            )
        )
        response = HttpResponse(png, content_type="image/png")
        response["Cache-Control"] = "private, no-store"
        return response
