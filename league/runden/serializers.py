"""REST API shapes of the Runden owed and given: a season's Runden (league/runden/selectors.py),
the club's list with its query, and the record that a Runde was given.

Serializers translate only: JSON in, plain values for one service call
(league/runden/services.py); selector results out. No rule of the books lives here
(STYLE.md 3).
"""

from django.utils.translation import gettext as _
from rest_framework import serializers

from league.club.errors import BooksError
from league.club.fields import StrictDateField, StrictIntegerField
from league.club.selectors import club_member_by_id, club_season_by_id
from league.club.serializers import PersonRefSerializer


class RundeOwedSerializer(serializers.Serializer):
    """A Runde owed (docs/rules.md 5): evening, the Schock-Aus ordinal in that evening, its
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
    """A Runde owed (docs/rules.md 5), identified by its Schock-Aus: evening, the Schock-Aus
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

    season = StrictIntegerField(required=False, min_value=1)
    member = StrictIntegerField(required=False, min_value=1)
    status = serializers.ChoiceField(choices=["open", "given", "all"], default="open")

    def validate(self, attrs: dict) -> dict:
        """The ids as the requesting club's Season and Member (context `club`; None: not
        named). Unknown, or another club's: 400 `unknown_season` / `unknown_person`."""
        club = self.context["club"]
        season = member = None
        if "season" in attrs and club is not None:
            season = club_season_by_id(club=club, season_id=attrs["season"])
            if season is None:
                raise BooksError(
                    "unknown_season", _("The club has no such season."), field="season"
                )
        if "member" in attrs and club is not None:
            member = club_member_by_id(club=club, member_id=attrs["member"])
            if member is None:
                raise BooksError(
                    "unknown_person",
                    _("Unknown person: %(value)s.") % {"value": attrs["member"]},
                    field="member",
                )
        return {"season": season, "member": member, "status": attrs["status"]}


class RundeGivenSerializer(serializers.Serializer):
    """Input of `runde_mark_given`: the day the Runde was given, and a note."""

    given_on = StrictDateField()
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class RundeGivenResultSerializer(serializers.Serializer):
    """The record that a Runde was given."""

    schock_aus = serializers.IntegerField(source="schock_aus_id")
    given_on = serializers.DateField()
    note = serializers.CharField(allow_blank=True)
