"""REST API of money in:

- ``GET members/{id}/girocode.png[?season=<id>]``  the EPC GiroCode of the member's open
  amount: the member themself or the club's secretary. Without ``season``: the newest EUR
  season with an open amount. 404 ``no_girocode`` when there is none (nothing open, a DM
  season, or no club bank account).
- ``GET members/{id}/payment/``  the transfer details of the person's open EUR amount: the
  club account, amount, RF reference and EPC payload (the same roles; 404 ``no_girocode``).
- ``POST bank-statements/``  the secretary imports a CAMT.053, MT940 or CSV statement
  (league/banking/settlement.py).
- ``POST push-subscriptions/``  the logged-in person's browser subscribes to web push (its
  PushSubscription JSON); ``DELETE push-subscriptions/`` (``{"endpoint": ...}``) forgets it;
  ``GET push-subscriptions/?endpoint=...`` says whether the person keeps that one.
- ``GET/PUT me/notifications/``  how the logged-in person hears of each kind of reminder
  (league/banking/notifications.py).
"""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from league.banking.bank_import import MAX_BYTES
from league.banking.girocode import epc_payload
from league.banking.models import NotificationKind
from league.banking.selectors import (
    girocode_access_check,
    member_girocode_png,
    member_payment_girocode,
    push_subscription_kept,
)
from league.banking.services import (
    notification_choice_set,
    push_subscription_delete,
    push_subscription_save,
)
from league.banking.settlement import bank_statement_import
from league.banking.statement_files import parse_statement
from league.club.api_common import (
    club_of,
    error_responses,
    request_club,
    request_member,
    require_secretary,
)
from league.club.api_login import ClubLogin
from league.club.errors import BooksError
from league.club.fields import BoundedListField, StrictIntegerField
from league.club.idempotency import idempotent
from league.club.models import Member


@extend_schema(tags=["Money in"])
class MemberGiroCodeView(APIView):
    """GET /api/v1/members/{id}/girocode.png: the GiroCode of the member's open amount."""

    permission_classes = [ClubLogin]

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
        girocode_access_check(member=member, viewer=request_member(request))
        raw = request.query_params.get("season")
        season_id = None if raw is None else StrictIntegerField(min_value=1).run_validation(raw)
        png = member_girocode_png(club=club, member=member, season_id=season_id)
        response = HttpResponse(png, content_type="image/png")
        response["Cache-Control"] = "private, no-store"
        return response


class MemberPaymentSerializer(serializers.Serializer):
    """How to pay a person's open amount to the club's account."""

    iban = serializers.CharField(help_text="The club account's IBAN (compact).")
    bic = serializers.CharField(allow_blank=True, help_text="The club account's BIC; may be empty.")
    holder = serializers.CharField(help_text="The club account's holder.")
    amount = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        help_text="The open amount over every EUR season with one (EUR, two decimals).",
    )
    currency = serializers.CharField(help_text='Always "EUR": DM seasons cannot be paid by SEPA.')
    reference = serializers.CharField(
        help_text="The ISO 11649 creditor reference (RF, check digits, the club's code for "
        "the person and the newest open season), the same on every reprint."
    )
    epc_payload = serializers.CharField(
        help_text="The EPC069-12 (version 002) GiroCode text, lines joined by \\n; the RF "
        "reference is in the structured remittance line (10), the text line (11) is empty."
    )


@extend_schema(tags=["Money in"])
class MemberPaymentView(APIView):
    """GET /api/v1/members/{id}/payment/: how to pay the person's open EUR amount."""

    permission_classes = [ClubLogin]

    @extend_schema(
        summary="Transfer details of a person's open amount",
        description="The club's account, the open amount over every EUR season (oldest paid "
        "first when the transfer arrives), the person's RF creditor reference and the EPC "
        "GiroCode payload. The member themself or the club's secretary (403 "
        "`not_own_statement` otherwise). 404 `no_girocode`: nothing open or no club bank "
        "account.",
        responses={200: MemberPaymentSerializer, **error_responses(403)},
    )
    def get(self, request, id: int):  # named like the path parameter of members/{id}/
        club = request_club(request)
        if club is None:  # a login without a club: no person exists for it
            raise Http404
        member = get_object_or_404(Member, pk=id, club=club)
        girocode_access_check(member=member, viewer=request_member(request))
        code = member_payment_girocode(club=club, member=member)
        body = {
            "iban": code.iban,
            "bic": code.bic,
            "holder": code.holder,
            "amount": code.amount,
            "currency": "EUR",
            "reference": code.reference,
            "epc_payload": epc_payload(code),
        }
        response = Response(MemberPaymentSerializer(body).data)
        response["Cache-Control"] = "private, no-store"
        return response


class BankStatementUploadSerializer(serializers.Serializer):
    """The statement file and the keys of the guessed lines the secretary confirms."""

    file = serializers.FileField(
        help_text="CAMT.053 (.001.02 to .001.08), MT940 or a German bank CSV (including "
        "Sparkasse CSV-CAMT V2); at most 2 MB and 20,000 lines."
    )
    confirm = BoundedListField(
        child=serializers.RegexField(r"^[0-9a-f]{64}$"),
        required=False,
        max_length=20_000,
        help_text="Keys (`key` of `to_review`) of name-and-amount guesses to book.",
    )


class _LineSerializer(serializers.Serializer):
    key = serializers.CharField(source="line_hash", help_text="The line's key (sha256 hex).")
    line = serializers.IntegerField(help_text="The line's (entry's) number in the file.")
    booked_on = serializers.DateField()
    name = serializers.CharField()
    purpose = serializers.CharField(source="reference")
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, coerce_to_string=True)
    currency = serializers.CharField()
    bank_ref = serializers.CharField(help_text="EndToEndId or the bank's reference; may be empty.")


class _PartSerializer(serializers.Serializer):
    season = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, coerce_to_string=True)
    payment = serializers.IntegerField(source="payment.pk")


class _SettledSerializer(serializers.Serializer):
    bank_line = _LineSerializer()
    member = serializers.IntegerField(source="member.pk")
    parts = _PartSerializer(many=True)


class _ReviewSerializer(serializers.Serializer):
    bank_line = _LineSerializer()
    member = serializers.IntegerField(source="member.pk")
    season = serializers.IntegerField(source="season.pk")


class _IgnoredSerializer(serializers.Serializer):
    bank_line = _LineSerializer()
    reason = serializers.CharField(help_text='"debit", "unknown", "currency" or a refusal code.')


class BankStatementResultSerializer(serializers.Serializer):
    """What the import did with each line of the statement."""

    settled = _SettledSerializer(many=True)
    to_review = _ReviewSerializer(many=True)
    ignored = _IgnoredSerializer(many=True)
    duplicates = _LineSerializer(many=True)


@extend_schema(tags=["Money in"])
class BankStatementView(APIView):
    """POST /api/v1/bank-statements/: import a bank statement."""

    permission_classes = [ClubLogin]
    parser_classes = [MultiPartParser]
    # The statement and the form around it (league/club/body_limits.py): a larger upload
    # is refused unread; within it the file's own bound answers `file_too_large`.
    max_body_bytes = MAX_BYTES + 1024 * 1024

    @extend_schema(
        summary="Import a bank statement",
        description="The secretary uploads a statement (multipart `file`: CAMT.053, MT940 or "
        "CSV). Every credit line carrying a person's RF reference is booked at once as "
        "payments (oldest open season first, in the line's currency); name-and-amount "
        "guesses are listed in `to_review` and booked when their `key` is sent again in "
        "`confirm` with the same file; debits and unknown lines are `ignored`; a line "
        "booked before is a `duplicate` and never booked again. Errors: 400 "
        "`file_too_large`, `bad_bank_file`, `hostile_xml` (a DTD or entity in the XML); "
        "403 `secretary_required`.",
        request={"multipart/form-data": BankStatementUploadSerializer},
        responses={200: BankStatementResultSerializer, **error_responses(400, 403)},
    )
    def post(self, request):
        require_secretary(request)
        club = club_of(request)
        data = BankStatementUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        if upload.size > MAX_BYTES:
            raise BooksError("file_too_large", _("The file is larger than 2 MB."), field="file")
        lines = parse_statement(club=club, data=upload.read(MAX_BYTES + 1))
        result = bank_statement_import(
            club=club,
            lines=lines,
            confirmed=set(data.validated_data.get("confirm", [])),
            user=request.user,
        )
        return Response(BankStatementResultSerializer(result).data)


# --- reminders: web push and the person's choices ---------------------------------------


class PushKeysSerializer(serializers.Serializer):
    """The keys of a PushSubscription (base64url text)."""

    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class PushSubscriptionSerializer(serializers.Serializer):
    """The browser's PushSubscription JSON (`subscription.toJSON()`): `endpoint` (https;
    its host a known push service, checked by `push_subscription_save`), `keys`;
    `expirationTime` is accepted and not kept."""

    endpoint = serializers.URLField(max_length=1000)
    expirationTime = serializers.IntegerField(  # the browser's name
        required=False, allow_null=True, min_value=0
    )
    keys = PushKeysSerializer()

    def validate_endpoint(self, value: str) -> str:
        if not value.startswith("https://"):
            raise serializers.ValidationError(_("A push endpoint is an https address."))
        return value


class PushUnsubscribeSerializer(serializers.Serializer):
    """The endpoint of a browser subscription (`subscription.endpoint`): the one to forget
    (DELETE's body) or to look up (GET's query)."""

    endpoint = serializers.URLField(max_length=1000)


class PushSubscribedSerializer(serializers.Serializer):
    """Whether the person keeps a subscription with the endpoint asked for."""

    subscribed = serializers.BooleanField(read_only=True)


class NotificationChoiceSerializer(serializers.Serializer):
    """How the person hears of one kind."""

    kind = serializers.ChoiceField(choices=NotificationKind.values)
    email = serializers.BooleanField()
    push = serializers.BooleanField()


class NotificationChoicesSerializer(serializers.Serializer):
    """The person's choice for every kind (`open_amount`, `evening_tomorrow`,
    `objection_answered`, `season_closed`); `push_public_key` is the site's VAPID public
    key for `pushManager.subscribe()` (empty: web push is off)."""

    choices = BoundedListField(child=NotificationChoiceSerializer(), max_length=4)
    push_public_key = serializers.CharField(read_only=True)


def _member_or_404(request) -> Member:
    member = request_member(request)
    if member is None:
        raise BooksError("no_club", _("This login belongs to no club."), status=404)
    return member


def _choices_data(member: Member) -> dict:
    kept = {c.kind: c for c in member.notification_choices.all()}
    return {
        "choices": [
            {
                "kind": kind,
                "email": kept[kind].email if kind in kept else True,
                "push": kept[kind].push if kind in kept else True,
            }
            for kind in NotificationKind.values
        ],
        "push_public_key": settings.VAPID_PUBLIC_KEY,
    }


@extend_schema(tags=["Reminders"])
class PushSubscriptionView(APIView):
    """POST /api/v1/push-subscriptions/: keep the browser's push subscription; DELETE:
    forget it; GET ?endpoint=: whether the person keeps it."""

    permission_classes = [ClubLogin]
    writes_books = False

    @extend_schema(
        summary="Whether this browser gets web push for the person",
        description="`endpoint` names the browser's subscription (`subscription.endpoint`). "
        "`subscribed` is true when the logged-in person keeps a subscription with exactly "
        "that endpoint; another person's (an earlier login on a shared phone) does not "
        "count. The reminders page asks this before it says push is on; it subscribes "
        "nobody. 400 `required`, `blank`, `invalid` or `max_length` (no endpoint, an empty "
        "one, not an address, longer than 1000).",
        parameters=[PushUnsubscribeSerializer],
        responses={200: PushSubscribedSerializer, **error_responses(400)},
    )
    def get(self, request):
        member = _member_or_404(request)
        query = PushUnsubscribeSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        subscribed = push_subscription_kept(
            member=member, endpoint=query.validated_data["endpoint"]
        )
        return Response(PushSubscribedSerializer({"subscribed": subscribed}).data)

    @extend_schema(
        summary="Subscribe this browser to web push",
        description="The body is the browser's PushSubscription JSON. The person then gets "
        "the reminders they chose by push as well. The same endpoint again updates it; "
        "a person keeps at most ten browsers (a new one replaces the oldest). "
        "400 `invalid` (no https endpoint, keys missing), `push_endpoint_not_allowed` "
        "(the endpoint is no address of a known browser push service: Google FCM, "
        "Mozilla, Microsoft WNS, Apple; settings.PUSH_SERVICE_HOSTS).",
        request=PushSubscriptionSerializer,
        responses={201: None, **error_responses(400)},
    )
    @idempotent
    def post(self, request):
        member = _member_or_404(request)
        body = PushSubscriptionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        push_subscription_save(
            member=member,
            endpoint=body.validated_data["endpoint"],
            p256dh=body.validated_data["keys"]["p256dh"],
            auth=body.validated_data["keys"]["auth"],
        )
        return Response(status=201)

    @extend_schema(
        summary="Switch web push off for this browser",
        description="The body names the browser's subscription (`endpoint`); the person "
        "gets no more push messages on it. Only the person's own subscription is "
        "forgotten; one that is not (or no longer) kept answers 204 too. 400 `required`, "
        "`invalid` or `max_length` (no endpoint, not an address, longer than 1000).",
        request=PushUnsubscribeSerializer,
        responses={204: None, **error_responses(400)},
    )
    def delete(self, request):
        member = _member_or_404(request)
        body = PushUnsubscribeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        push_subscription_delete(member=member, endpoint=body.validated_data["endpoint"])
        return Response(status=204)


@extend_schema(tags=["Reminders"])
class NotificationChoicesView(APIView):
    """GET/PUT /api/v1/me/notifications/: how the person hears of each kind."""

    permission_classes = [ClubLogin]
    writes_books = False

    @extend_schema(
        summary="My reminder choices",
        description="For each kind: by e-mail, by push. Reminders are never sent from "
        "22 to 8 o'clock (held until 8), and each kind at most once a week.",
        responses={200: NotificationChoicesSerializer, **error_responses()},
    )
    def get(self, request):
        return Response(_choices_data(_member_or_404(request)))

    @extend_schema(
        summary="Change my reminder choices",
        description="The kinds listed are set; the others keep their choice. 400 "
        "`invalid_choice` for an unknown kind.",
        request=NotificationChoicesSerializer,
        responses={200: NotificationChoicesSerializer, **error_responses(400)},
    )
    def put(self, request):
        member = _member_or_404(request)
        body = NotificationChoicesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        for choice in body.validated_data["choices"]:
            notification_choice_set(
                member=member, kind=choice["kind"], email=choice["email"], push=choice["push"]
            )
        return Response(_choices_data(member))
