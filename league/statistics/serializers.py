"""The statistics as JSON: read-only serializers of
league/statistics/selectors.py's dataclasses. Decimals are strings, dates ISO."""

from rest_framework import serializers


class PersonStatisticsSerializer(serializers.Serializer):
    member_id = serializers.IntegerField()
    name = serializers.CharField()
    guest = serializers.BooleanField()
    games = serializers.IntegerField()
    losses = serializers.IntegerField()
    loss_rate = serializers.DecimalField(
        max_digits=6, decimal_places=2, allow_null=True, help_text="Percent of games lost."
    )
    schock_aus = serializers.IntegerField()
    expected = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        allow_null=True,
        help_text="Schock-Aus expected from the exact odds (null: unknown).",
    )
    luck = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        allow_null=True,
        help_text="Schock-Aus thrown minus expected.",
    )
    runden_owed = serializers.IntegerField()
    runden_given = serializers.IntegerField()
    evenings_present = serializers.IntegerField()
    evenings_absent = serializers.IntegerField()
    attendance_rate = serializers.DecimalField(max_digits=6, decimal_places=2, allow_null=True)
    longest_without_loss = serializers.IntegerField(help_text="Games in a row not lost.")
    longest_schock_aus_evenings = serializers.IntegerField(
        help_text="Evenings present in a row with a Schock-Aus."
    )
    longest_present = serializers.IntegerField(help_text="Club evenings in a row present.")


class EveningRecordSerializer(serializers.Serializer):
    name = serializers.CharField()
    date = serializers.DateField()
    count = serializers.IntegerField()


class SeasonRecordSerializer(serializers.Serializer):
    name = serializers.CharField()
    year = serializers.IntegerField()
    points = serializers.IntegerField()


class GameRecordSerializer(serializers.Serializer):
    date = serializers.DateField()
    number = serializers.IntegerField()
    rounds = serializers.IntegerField()
    loser = serializers.CharField()


class StreakRecordSerializer(serializers.Serializer):
    name = serializers.CharField()
    length = serializers.IntegerField()


class RecordsSerializer(serializers.Serializer):
    most_schock_aus_evening = EveningRecordSerializer(allow_null=True)
    most_losses_evening = EveningRecordSerializer(allow_null=True)
    best_season = SeasonRecordSerializer(allow_null=True)
    fastest_game = GameRecordSerializer(allow_null=True)
    longest_without_loss = StreakRecordSerializer(allow_null=True)
    longest_schock_aus_evenings = StreakRecordSerializer(allow_null=True)
    longest_present = StreakRecordSerializer(allow_null=True)


class HeadToHeadSerializer(serializers.Serializer):
    after = serializers.CharField(help_text="Lost the game before (the Vorleger).")
    loser = serializers.CharField()
    count = serializers.IntegerField()


class EveningAttendanceSerializer(serializers.Serializer):
    evening_id = serializers.IntegerField()
    date = serializers.DateField()
    secretary = serializers.CharField()
    members_present = serializers.IntegerField()
    guests = serializers.IntegerField()
    members_absent = serializers.IntegerField()
    games = serializers.IntegerField()
    schock_aus = serializers.IntegerField()


class StatisticsSerializer(serializers.Serializer):
    """A season's statistics (``year`` set, ``attendance`` by evening) or all-time ones."""

    year = serializers.SerializerMethodField()
    seasons = serializers.IntegerField()
    evenings = serializers.IntegerField()
    games = serializers.IntegerField()
    games_with_rounds = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    people = PersonStatisticsSerializer(many=True)
    records = RecordsSerializer()
    head_to_head = HeadToHeadSerializer(many=True)
    attendance = EveningAttendanceSerializer(many=True)

    def get_year(self, obj) -> int | None:
        return obj.season.year if obj.season is not None else None
