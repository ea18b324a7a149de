"""REST API shapes of clubs, seasons, members, standings, dues and Runden (issue 4).

Serializers translate only: JSON in, plain values for one service call; selector results
out. No rule of the books lives here (STYLE.md 3). Money is a decimal string in the
season's currency (e.g. "15.50" with currency "EUR"); Marks are integers.
"""

from rest_framework import serializers

from league.club.serializers import PersonRefSerializer


class RundeOwedSerializer(serializers.Serializer):
    """A Runde owed (RULES.md 5): evening, the Schock-Aus ordinal in that evening, its
    thrower, the reason (first, fifth, last), and whether it was given."""

    evening = serializers.IntegerField(source="evening_id")
    date = serializers.DateField()
    ordinal = serializers.IntegerField()
    thrower = serializers.IntegerField(source="thrower_id")
    thrower_name = serializers.CharField()
    reason = serializers.ChoiceField(choices=["first", "fifth", "last"])
    schock_aus = serializers.IntegerField(source="schock_aus_id")
    given_on = serializers.DateField(allow_null=True)


class RundeStatusSerializer(serializers.Serializer):
    """A Runde owed (RULES.md 5), identified by its Schock-Aus: evening, the Schock-Aus
    ordinal in that evening, why (first, fifth, last), the thrower, and when it was given
    (null while open)."""

    schock_aus = serializers.IntegerField(source="schock_aus_id")
    evening = serializers.IntegerField(source="evening_id")
    date = serializers.DateField()
    season = serializers.IntegerField(source="season.pk")
    ordinal = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["first", "fifth", "last"])
    thrower = PersonRefSerializer()
    given = serializers.BooleanField()
    given_on = serializers.DateField(allow_null=True)
    note = serializers.CharField(allow_blank=True)


class RundenQuerySerializer(serializers.Serializer):
    """Query of the Runden list: `season` (id; default all), `member` (thrower id),
    `status` open (default), given or all."""

    season = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    member = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    status = serializers.ChoiceField(choices=["open", "given", "all"], default="open")


class RundeGivenSerializer(serializers.Serializer):
    """Input of `runde_mark_given`: the day the Runde was given, and a note."""

    given_on = serializers.DateField()
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class RundeGivenResultSerializer(serializers.Serializer):
    """The record that a Runde was given."""

    schock_aus = serializers.IntegerField(source="schock_aus_id")
    given_on = serializers.DateField()
    note = serializers.CharField(allow_blank=True)
