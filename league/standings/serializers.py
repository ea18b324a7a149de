"""REST API shapes of the championship: a season's standings and a person's dues, the
results of league/standings/selectors.py.

Serializers translate only: no rule of the books lives here (STYLE.md 3). Money is a
decimal string in the season's currency (e.g. "15.50" with currency "EUR"); Marks are
integers.
"""

from drf_spectacular.utils import extend_schema_field
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


class AllTimeMemberSerializer(serializers.Serializer):
    """A person of the all-time table: id and name."""

    id = serializers.IntegerField(source="member_id")
    name = serializers.CharField()


class AllTimeBestSeasonSerializer(serializers.Serializer):
    """A person's best season: its year and the place (the earliest on equal places)."""

    year = serializers.IntegerField(source="best_year")
    place = serializers.IntegerField(source="best_place")


class AllTimeRowSerializer(serializers.Serializer):
    """One person over every season (league.standings.all_time.AllTimeRow). `place`,
    `best_season` are null for guests; `best_season` null for a person never ranked."""

    member = AllTimeMemberSerializer(source="*")
    place = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    seasons = serializers.IntegerField()
    evenings_attended = serializers.IntegerField()
    evenings_absent = serializers.IntegerField()
    games_played = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    titles = serializers.IntegerField()
    title_years = serializers.ListField(child=serializers.IntegerField())
    best_season = serializers.SerializerMethodField()

    @extend_schema_field(AllTimeBestSeasonSerializer(allow_null=True))
    def get_best_season(self, row) -> dict[str, int] | None:
        if row.best_year is None:
            return None
        return dict(AllTimeBestSeasonSerializer(row).data)


class AllTimeStandingsSerializer(serializers.Serializer):
    """The all-time table (league.standings.all_time.all_time_standings): ranked members,
    guests apart, totals over every season. No money (DM and EUR eras)."""

    rows = AllTimeRowSerializer(many=True)
    guests = AllTimeRowSerializer(many=True)
    seasons = serializers.IntegerField()
    first_year = serializers.IntegerField(allow_null=True)
    last_year = serializers.IntegerField(allow_null=True)
    evenings = serializers.IntegerField()
    games = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
