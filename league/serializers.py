"""REST API shapes of clubs, seasons, members, standings, dues and Runden (issue 4).

Serializers translate only: JSON in, plain values for one service call; selector results
out. No rule of the books lives here (STYLE.md 3). Money is a decimal string in the
season's currency (e.g. "15.50" with currency "EUR"); Marks are integers.
"""

from django.utils.translation import gettext as _
from rest_framework import serializers

from league.models import RULE_PRESET_CHOICES, Club, Member, Season

MONEY = {"max_digits": 12, "decimal_places": 2}


class ClubSerializer(serializers.ModelSerializer):
    """A club: name and the rule preset new seasons get."""

    class Meta:
        model = Club
        fields = ["id", "name", "rule_preset"]
        read_only_fields = fields


class SeasonSerializer(serializers.ModelSerializer):
    """A season with its rule preset and the value of one Mark in its currency."""

    mark_value = serializers.DecimalField(max_digits=6, decimal_places=2, read_only=True)

    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "year",
            "starts_on",
            "ends_on",
            "rule_preset",
            "mark_value",
            "currency",
            "data_version",
        ]
        read_only_fields = fields


class SeasonCreateSerializer(serializers.Serializer):
    """Input of `season_create`: the year; rule preset and first/last day optional (the
    club's preset and the calendar year by default); Mark value and currency follow the
    year (RULES.md 5)."""

    year = serializers.IntegerField(min_value=1900, max_value=2200)
    rule_preset = serializers.ChoiceField(choices=RULE_PRESET_CHOICES, required=False)
    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False)

    def validate(self, attrs):
        starts, ends = attrs.get("starts_on"), attrs.get("ends_on")
        if starts and ends and starts > ends:
            raise serializers.ValidationError(
                {"ends_on": _("The last day lies before the first day.")}, code="dates_reversed"
            )
        return attrs


class MemberSerializer(serializers.ModelSerializer):
    """A person of the club: a club member or a guest."""

    class Meta:
        model = Member
        fields = ["id", "club", "name", "kind", "active", "is_secretary"]
        read_only_fields = fields


class MemberCreateSerializer(serializers.Serializer):
    """Input of `member_create`."""

    name = serializers.CharField(max_length=100)
    kind = serializers.ChoiceField(choices=Member.Kind.choices, default=Member.Kind.MEMBER)
    is_secretary = serializers.BooleanField(default=False)


class PersonRefSerializer(serializers.Serializer):
    """A person named in a computed figure: id and name."""

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class StandingRowSerializer(serializers.Serializer):
    """One person's season. `place` is null for guests (not ranked)."""

    member = PersonRefSerializer()
    place = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    evenings_attended = serializers.IntegerField()
    evenings_absent = serializers.IntegerField()
    games_played = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    runden = serializers.IntegerField()
    marks = serializers.IntegerField()
    money = serializers.DecimalField(**MONEY)


class StandingsSerializer(serializers.Serializer):
    """A season's championship table (league.selectors.season_standings)."""

    season = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    rows = StandingRowSerializer(many=True)
    guests = StandingRowSerializer(many=True)
    evenings = serializers.IntegerField()
    games = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    runden = serializers.IntegerField()
    marks_total = serializers.IntegerField()
    money_total = serializers.DecimalField(**MONEY)
    currency = serializers.CharField()


class DuesLineSerializer(serializers.Serializer):
    """One evening of a person's dues."""

    evening = serializers.IntegerField(source="evening.pk")
    date = serializers.DateField(source="evening.date")
    role = serializers.CharField()
    games_lost = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    runden = serializers.IntegerField()
    marks = serializers.IntegerField()
    money = serializers.DecimalField(**MONEY)


class DuesSerializer(serializers.Serializer):
    """A person's dues in a season, evening by evening, with the totals."""

    member = PersonRefSerializer()
    season = serializers.IntegerField(source="season.pk")
    year = serializers.IntegerField(source="season.year")
    currency = serializers.CharField(source="season.currency")
    lines = DuesLineSerializer(many=True)
    marks_total = serializers.IntegerField()
    money_total = serializers.DecimalField(**MONEY)


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


class MeSerializer(serializers.Serializer):
    """Who is asking: the own person, club and role."""

    member = MemberSerializer()
    club = ClubSerializer(source="member.club")
    is_secretary = serializers.BooleanField(source="member.is_secretary")
