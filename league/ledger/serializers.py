"""REST API shapes of the kitty: payments (in and out), a member's statement and the
club's balances.

Serializers translate only: JSON in, plain values for one service call
(league/ledger/services.py: payment_record); service results out (member_statement,
club_balances). No rule of the books lives here (STYLE.md 3). Money is always a decimal
string with two places in the season's currency (e.g. "15.50" with currency "EUR"), never
a float; Marks charged are integers, a balance in Marks is a decimal string ("1.50").
"""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.club.answer_serializers import AnswerSerializer
from league.club.errors import BooksError
from league.club.fields import MoneyField, StrictDateField, StrictIntegerField
from league.club.models import Currency
from league.club.selectors import club_member_by_id, club_season_by_id
from league.club.serializers import MONEY, PersonRefSerializer
from league.ledger.models import PAYMENT_MAX, LedgerEntry, Payment


class PaymentSerializer(AnswerSerializer):
    """A payment into the kitty: who, how much (decimal string, season's currency), when,
    how; `cancelled` once `payment_cancel` reversed it."""

    member_name = serializers.CharField(source="member.name", read_only=True)
    year = serializers.IntegerField(source="season.year", read_only=True)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)
    cancelled = serializers.SerializerMethodField()

    class Meta:
        model = Payment
        fields = [
            "id",
            "member",
            "member_name",
            "season",
            "year",
            "amount",
            "currency",
            "paid_on",
            "method",
            "note",
            "cancelled",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_cancelled(self, payment: Payment) -> bool:
        if hasattr(payment, "reversal_id"):  # annotated by the API's queryset
            return payment.reversal_id is not None
        entry = getattr(payment, "ledger_entry", None)
        return bool(entry and hasattr(entry, "reversed_by"))


class PaymentCreateSerializer(serializers.Serializer):
    """Input of `payment_record`: member id, amount as a decimal string in ASCII digits
    (more than zero, at most PAYMENT_MAX, two decimal places; league/club/fields.py), the date,
    how, a note, and optionally the season id (by default the club's season containing
    the date)."""

    member = StrictIntegerField(min_value=1)
    # Zero or less is the service's `invalid_amount` (as before); more than PAYMENT_MAX
    # is DRF's `max_value`.
    amount = MoneyField(max_value=PAYMENT_MAX)
    paid_on = StrictDateField()
    method = serializers.ChoiceField(choices=Payment.Method.choices, default=Payment.Method.CASH)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    season = StrictIntegerField(min_value=1, required=False, allow_null=True)

    def validate(self, attrs: dict) -> dict:
        """The ids as the requesting club's Member and Season (context `club`): an unknown
        one, or another club's, is refused as `unknown_person` / `unknown_season` (400)."""
        club = self.context["club"]
        member = club_member_by_id(club=club, member_id=attrs["member"])
        if member is None:
            raise BooksError("unknown_person", _("Unknown person."), field="member")
        season = None
        if attrs.get("season") is not None:
            season = club_season_by_id(club=club, season_id=attrs["season"])
            if season is None:
                raise BooksError(
                    "unknown_season", _("The club has no such season."), field="season"
                )
        return {**attrs, "member": member, "season": season}


class StatuteClauseSerializer(serializers.Serializer):
    """The clause of the season's statutes that charges a line, in the club's words."""

    key = serializers.CharField(help_text="`marks_per_game_lost` or `absence`.")
    title = serializers.CharField(help_text="German: the clause's name.")
    text = serializers.CharField(help_text="German: what it says, e.g. `1 Mark je ...`.")


class LineReasonSerializer(serializers.Serializer):
    """Why a line charges what it charges (league/ledger/line_reasons.py)."""

    source = serializers.ChoiceField(  # type: ignore[assignment]  # the body's field name
        choices=["game", "evening", "payment", "reversal", "carry"]
    )
    evening_date = serializers.DateField(allow_null=True)
    game_number = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField(help_text="Games lost or evenings missed (0: neither).")
    marks_each = serializers.IntegerField(help_text="Marks per game or per evening.")
    average_marks = serializers.IntegerField(
        allow_null=True, help_text="An absence at the evening's average: that average."
    )
    surcharge_marks = serializers.IntegerField(allow_null=True)
    mark_value = serializers.DecimalField(**MONEY)
    amount = serializers.DecimalField(**MONEY)
    currency = serializers.CharField()
    statute = StatuteClauseSerializer(source="clause", allow_null=True)
    arithmetic = serializers.CharField(help_text="German: the calculation.")
    reason = serializers.CharField(help_text="German: why a reversal was made; else empty.")


class StatementLineSerializer(serializers.Serializer):
    """One ledger line: charge (game lost, absence), payment or reversal, with the
    running balance in money and in Marks (balance / Mark value), and `why`: what it is
    made of, the statute that charges it and the arithmetic."""

    entry = serializers.IntegerField(source="entry_id")
    booked_on = serializers.DateField()
    kind = serializers.CharField(
        help_text="Ledger entry kind: " + ", ".join(f"`{v}`" for v in LedgerEntry.Kind.values)
    )
    label = serializers.CharField(help_text="German text: where the line comes from.")  # type: ignore[assignment]
    marks = serializers.IntegerField()
    amount = serializers.DecimalField(**MONEY)
    balance = serializers.DecimalField(**MONEY)
    balance_marks = serializers.DecimalField(**MONEY)
    evening = serializers.IntegerField(source="evening_id", allow_null=True)
    game = serializers.IntegerField(source="game_id", allow_null=True)
    payment = serializers.IntegerField(source="payment_id", allow_null=True)
    reversed = serializers.BooleanField()
    why = LineReasonSerializer(source="reason", allow_null=True)
    provisional = serializers.BooleanField(
        default=False,
        help_text="A charge of a provisional evening (vorläufig): members may still object "
        "to its games (GET /api/v1/evenings/{id}/objections/).",
    )


class SeasonStatementSerializer(serializers.Serializer):
    """A member's account in one season, in that season's currency."""

    season = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    currency = serializers.CharField()
    mark_value = serializers.DecimalField(source="season.mark_value", **MONEY)
    lines = StatementLineSerializer(many=True)
    marks_charged = serializers.IntegerField()
    charged = serializers.DecimalField(**MONEY)
    paid = serializers.DecimalField(**MONEY)
    balance = serializers.DecimalField(**MONEY, help_text="Still owed; negative: credit.")
    balance_marks = serializers.DecimalField(**MONEY)
    reference = serializers.CharField(
        help_text="The ISO 11649 creditor reference (RF) a bank transfer for this season "
        "carries; empty for a DM season."
    )


class CurrencyAmountSerializer(serializers.Serializer):
    """An amount in one currency (DM and EUR are never added together)."""

    currency = serializers.ChoiceField(choices=Currency.choices)
    amount = serializers.DecimalField(**MONEY)


def currency_amounts(totals: dict) -> list[dict]:
    """{currency: Decimal} as a list of {currency, amount}, currencies in name order."""
    return [{"currency": c, "amount": totals[c]} for c in sorted(totals)]


class MemberStatementSerializer(serializers.Serializer):
    """A member's statement (league.services.ledger.member_statement): one account per
    season (oldest first) and the balance per currency."""

    member = PersonRefSerializer()
    seasons = SeasonStatementSerializer(many=True)
    balance_by_currency = serializers.SerializerMethodField()

    @extend_schema_field(CurrencyAmountSerializer(many=True))
    def get_balance_by_currency(self, statement) -> list[dict[str, object]]:
        amounts = currency_amounts(statement.balance_by_currency)
        return list(CurrencyAmountSerializer(amounts, many=True).data)


class BalanceRowSerializer(serializers.Serializer):
    """A member's account in one season: Marks charged (net), money charged, paid and
    still owed (`balance`, negative: credit)."""

    member = PersonRefSerializer()
    season = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    currency = serializers.CharField()
    marks_charged = serializers.IntegerField()
    charged = serializers.DecimalField(**MONEY)
    paid = serializers.DecimalField(**MONEY)
    balance = serializers.DecimalField(**MONEY)


class SeasonBalanceSerializer(serializers.Serializer):
    """A season's kitty: charged, received, owed by members, credit held for members."""

    season = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    currency = serializers.CharField()
    charged = serializers.DecimalField(**MONEY)
    paid = serializers.DecimalField(**MONEY)
    owed = serializers.DecimalField(**MONEY)
    credit = serializers.DecimalField(**MONEY)


class ClubBalancesSerializer(serializers.Serializer):
    """The secretary's overview (league.services.ledger.club_balances)."""

    rows = BalanceRowSerializer(many=True)
    owing = BalanceRowSerializer(many=True)
    seasons = SeasonBalanceSerializer(many=True)
    kitty = serializers.SerializerMethodField()
    owed = serializers.SerializerMethodField()

    @extend_schema_field(CurrencyAmountSerializer(many=True))
    def get_kitty(self, balances) -> list[dict[str, object]]:
        return list(CurrencyAmountSerializer(currency_amounts(balances.kitty), many=True).data)

    @extend_schema_field(CurrencyAmountSerializer(many=True))
    def get_owed(self, balances) -> list[dict[str, object]]:
        return list(CurrencyAmountSerializer(currency_amounts(balances.owed), many=True).data)
