"""REST API shapes of the championship: a season's standings and a person's dues, the
results of league/standings/selectors.py.

Serializers translate only: no rule of the books lives here (STYLE.md 3). Money is a
decimal string in the season's currency (e.g. "15.50" with currency "EUR"); Marks are
integers.
"""

from rest_framework import serializers

from league.club.serializers import MONEY, PersonRefSerializer


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
