"""REST API shapes of the kitty ledger, payments, the club-book import and the audit trail.

Serializers translate only: JSON in, plain values for one service call
(league.services.ledger, league.services.club_book); service results out
(league.audit). No rule of the books lives here (STYLE.md 3). Money is always a decimal
string with two places in the season's currency (e.g. "15.50" with currency "EUR"), never
a float; Marks charged are integers, a balance in Marks is a decimal string ("1.50").
"""

from rest_framework import serializers


class ChangeSerializer(serializers.Serializer):
    """One field's change: German label, value before and after (display text)."""

    # The API's key is "label"; DRF's Field has a `label` attribute of its own (unused here).
    label = serializers.CharField()  # type: ignore[assignment]
    before = serializers.CharField()
    after = serializers.CharField()


class AuditLineSerializer(serializers.Serializer):
    """One audit record (league.audit.AuditLine): when, who, what, and the changed fields
    before -> after. `action`: "+" created, "~" changed, "-" deleted."""

    when = serializers.DateTimeField()
    who = serializers.CharField()
    action = serializers.ChoiceField(choices=["+", "~", "-"])
    action_label = serializers.CharField()
    what = serializers.CharField()
    changes = ChangeSerializer(many=True)
    reason = serializers.CharField()
    reason_label = serializers.CharField()
    evening = serializers.IntegerField(source="evening_id", allow_null=True)
