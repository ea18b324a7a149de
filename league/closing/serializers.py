"""Serializers of the season-close API (league/closing/api.py): the close state with its
open items and signatures, and the bodies of close, reopen and sign-off."""

from rest_framework import serializers


class CloseBodySerializer(serializers.Serializer):
    """POST close: `confirm` closes although evenings are incomplete, Runden not given or
    an evening's objection time still runs (closing declares that evening final)."""

    confirm = serializers.BooleanField(required=False, default=False)


class ReopenBodySerializer(serializers.Serializer):
    """POST reopen: why the season is reopened (kept in the audit history)."""

    reason = serializers.CharField(max_length=100, allow_blank=True)


class IncompleteEveningSerializer(serializers.Serializer):
    evening_id = serializers.IntegerField()
    date = serializers.DateField()
    games_entered = serializers.IntegerField()
    games_expected = serializers.IntegerField()


class ObjectionTimeEveningSerializer(serializers.Serializer):
    evening_id = serializers.IntegerField()
    date = serializers.DateField()
    until = serializers.DateTimeField(help_text="When the evening's objection time ends.")


class OpenRundeSerializer(serializers.Serializer):
    evening_id = serializers.IntegerField()
    date = serializers.DateField()
    ordinal = serializers.IntegerField(help_text="The Schock-Aus's ordinal in the evening.")
    reason = serializers.CharField(help_text="first, fifth or last")
    thrower_id = serializers.IntegerField(source="thrower.pk")
    thrower = serializers.CharField(source="thrower.name")


class OpenBalanceSerializer(serializers.Serializer):
    member_id = serializers.IntegerField(source="member.pk")
    name = serializers.CharField(source="member.name")
    charged = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid = serializers.DecimalField(max_digits=12, decimal_places=2)
    carried_in = serializers.DecimalField(max_digits=12, decimal_places=2)
    balance = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        help_text="Owed (positive) or credit (negative), in the season's currency; carried "
        "into the next season on close.",
    )


class OpenItemsSerializer(serializers.Serializer):
    incomplete_evenings = IncompleteEveningSerializer(many=True)
    runden_open = OpenRundeSerializer(many=True)
    objection_time = ObjectionTimeEveningSerializer(
        many=True,
        help_text="Evenings whose objection time still runs (no objection open): closing "
        "the season (with `confirm`) declares them final.",
    )
    open_balances = OpenBalanceSerializer(
        many=True,
        help_text="Every person's open balance: for the secretary and a Kassenprüfer "
        "auditing the closed season only; empty for everyone else, who reads "
        "`open_balance_count` and `open_balance_total`.",
    )
    open_balance_count = serializers.SerializerMethodField(
        help_text="People whose balance is not zero."
    )
    open_balance_total = serializers.DecimalField(
        max_digits=None,
        decimal_places=2,
        help_text="The open balances summed (owed minus credits), in the season's currency.",
    )
    needs_confirmation = serializers.BooleanField()

    def get_open_balance_count(self, items) -> int:
        return len(items.open_balances)


class SignOffSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="sign_off.pk")
    auditor_id = serializers.IntegerField(source="sign_off.auditor_id")
    auditor = serializers.CharField(source="sign_off.auditor.name")
    signed_at = serializers.DateTimeField(source="sign_off.signed_at")
    fingerprint = serializers.CharField(source="sign_off.fingerprint")
    data_version = serializers.IntegerField(source="sign_off.data_version")
    state = serializers.ChoiceField(
        choices=["valid", "broken"],
        help_text="broken: the season's figures changed after the signature.",
    )


class CloseEventSerializer(serializers.Serializer):
    when = serializers.DateTimeField()
    who = serializers.CharField(help_text="The login's username; empty for a command.")
    action = serializers.SerializerMethodField()
    reason = serializers.CharField(help_text="A reopen's reason; `season_closed` for a close.")

    def get_action(self, event) -> str:
        """`closed` or `reopened`."""
        return "closed" if event.closed else "reopened"


class CloseStateSerializer(serializers.Serializer):
    """The close wizard's state of a season."""

    season_id = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    currency = serializers.CharField(source="season.currency")
    closed = serializers.BooleanField()
    closed_at = serializers.DateTimeField(source="season.closed_at", allow_null=True)
    closed_by = serializers.CharField(source="season.closed_by.name", allow_null=True, default=None)
    data_version = serializers.IntegerField(source="season.data_version")
    fingerprint = serializers.CharField(
        help_text="sha256 of the season's figures now (league.closing.selectors.season_figures)."
    )
    open_items = OpenItemsSerializer()
    sign_offs = SignOffSerializer(many=True)
    events = CloseEventSerializer(
        many=True, help_text="Every close and reopen, oldest first (the season's history)."
    )
