"""REST API shapes of clubs, seasons, members, standings, dues and Runden.

Serializers translate only: JSON in, plain values for one service call; selector results
out. No rule of the books lives here (STYLE.md 3). Money is a decimal string in the
season's currency (e.g. "15.50" with currency "EUR"); Marks are integers.
"""

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.rules import FLAGS, preset_name
from league.club.answer_serializers import AnswerSerializer
from league.club.fields import BoundedDictField, StrictDateField, StrictIntegerField
from league.club.models import RULE_PRESET_CHOICES, Club, Member, Season
from league.club.names import NameField
from league.club.selectors import member_calendar_token
from league.club.statutes import CLUB_STATUTES, season_rules

# Money the API answers (sums: balances, totals, running balances): a decimal with cents
# (Decimal, never float) and no digit limit. A sum has no bound of its own (101 payments
# of the most a ledger row holds pass twelve digits), and DRF's max_digits on output
# raised InvalidOperation, a 500. Input money is bounded where it is
# read (league/club/fields.py, PAYMENT_MAX).
MONEY: dict[str, Any] = {"max_digits": None, "decimal_places": 2}


class ClubSerializer(AnswerSerializer):
    """A club: name and the rule preset new seasons get."""

    class Meta:
        model = Club
        fields = ["id", "name", "rule_preset"]
        read_only_fields = fields


class SeasonSerializer(AnswerSerializer):
    """A season with its rule set and the value of one Mark in its currency.

    `rules` are the flags the season plays (``RuleSet.to_dict()``, docs/rules.md 6);
    `rules_preset` the preset they equal, or null for a club's own composition;
    `rule_preset` the preset the season started from (its "Grundlage")."""

    mark_value = serializers.DecimalField(max_digits=6, decimal_places=2, read_only=True)
    rules = serializers.SerializerMethodField()
    rules_preset = serializers.SerializerMethodField()

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {
                "oneOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "string"}]
            },
            "description": "Every flag of the season's rule set (docs/rules.md 6), by name.",
        }
    )
    def get_rules(self, season: Season) -> dict[str, bool | int | str]:
        return season_rules(season).to_dict()

    @extend_schema_field(serializers.ChoiceField(choices=RULE_PRESET_CHOICES, allow_null=True))
    def get_rules_preset(self, season: Season) -> str | None:
        return preset_name(season_rules(season))

    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "year",
            "starts_on",
            "ends_on",
            "rule_preset",
            "rules",
            "rules_preset",
            "mark_value",
            "currency",
            "data_version",
        ]
        read_only_fields = fields


class SeasonCreateSerializer(serializers.Serializer):
    """Input of `season_create`: the year; rule preset and first/last day optional (the
    club's preset and the calendar year by default); Mark value and currency follow the
    year (docs/rules.md 5)."""

    year = StrictIntegerField(min_value=1900, max_value=2200)
    rule_preset = serializers.ChoiceField(choices=RULE_PRESET_CHOICES, required=False)
    rules = BoundedDictField(
        max_length=len(FLAGS),
        required=False,
        help_text='Flags laid over the preset (docs/rules.md 6), e.g. {"jule": true}; '
        "bad flags: 400 `invalid_rule_set`.",
    )
    starts_on = StrictDateField(required=False)
    ends_on = StrictDateField(required=False)

    def validate(self, attrs):
        starts, ends = attrs.get("starts_on"), attrs.get("ends_on")
        if starts and ends and starts > ends:
            raise serializers.ValidationError(
                {"ends_on": _("The last day lies before the first day.")}, code="dates_reversed"
            )
        return attrs


class SeasonRulesSerializer(serializers.Serializer):
    """Input of a season's rule change (PATCH): flags laid over the season's rules, or over
    `rule_preset` when one is named (a new Grundlage)."""

    rule_preset = serializers.ChoiceField(choices=RULE_PRESET_CHOICES, required=False)
    rules = BoundedDictField(
        max_length=len(FLAGS),
        required=False,
        help_text='Flags to change (docs/rules.md 6), e.g. {"deckel_total": 15}; bad flags: '
        "400 `invalid_rule_set`.",
    )


class SeasonStatutesSerializer(serializers.Serializer):
    """A season's statutes (``Statutes.to_data()``), with what they
    decide beside: the Mark's value and currency of the season and its evenings."""

    season = serializers.IntegerField(source="pk")
    year = serializers.IntegerField()
    evenings = serializers.IntegerField(
        help_text="Evenings of the season: a change recomputes them."
    )
    mark_value = serializers.DecimalField(max_digits=6, decimal_places=2)
    currency = serializers.CharField()
    data_version = serializers.IntegerField()
    statutes = serializers.JSONField(
        source="statutes_data",
        help_text="scoring (mode per_event or by_rank, points_per_schock_aus, "
        "points_per_game_lost, rank_points), marks_per_game_lost, absence (mode none, fixed "
        "or average_plus; marks; surcharge), games_per_present_member, mark_eras "
        "(since_year, value, currency), runden (first, last, every, shift).",
    )


class SeasonStatutesUpdateSerializer(serializers.Serializer):
    """Input of a season's statutes change (PUT): the statutes (keys left out keep the
    season's figures) and `confirm` for a season that has evenings."""

    statutes = BoundedDictField(
        max_length=len(CLUB_STATUTES.to_data()),
        help_text="The statutes in the shape GET answers; a bad figure is a 400 with a "
        "`statutes_*` code.",
    )
    confirm = serializers.BooleanField(
        default=False,
        help_text="Needed when the season has evenings (all amounts and points are "
        "recomputed); without it: 409 `confirmation_required`.",
    )


class MemberSerializer(AnswerSerializer):
    """A person of the club: a club member or a guest."""

    class Meta:
        model = Member
        fields = ["id", "club", "name", "kind", "active", "is_secretary"]
        read_only_fields = fields


class MemberCreateSerializer(serializers.Serializer):
    """Input of `member_create`."""

    name = NameField()
    kind = serializers.ChoiceField(choices=Member.Kind.choices, default=Member.Kind.MEMBER)
    is_secretary = serializers.BooleanField(default=False)


class MemberUpdateSerializer(serializers.Serializer):
    """Input of `member_change` (PATCH of a member): every field optional."""

    name = serializers.CharField(max_length=100, required=False)
    kind = serializers.ChoiceField(choices=Member.Kind.choices, required=False)
    active = serializers.BooleanField(required=False)
    is_secretary = serializers.BooleanField(required=False)


class PersonRefSerializer(serializers.Serializer):
    """A person named in a computed figure: id and name."""

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class MeSerializer(serializers.Serializer):
    """Who is asking: the own person, club and role."""

    member = MemberSerializer()
    club = ClubSerializer(source="member.club")
    is_secretary = serializers.BooleanField(source="member.is_secretary")
    calendar_url = serializers.SerializerMethodField(
        help_text="The person's secret iCalendar link of the club's evenings (played and "
        "planned), for a calendar app; readable without a login until revoked "
        "(POST /api/v1/me/calendar/revoke/), then 404."
    )

    def get_calendar_url(self, data: dict[str, Any]) -> str:
        path = reverse("calendar_feed", args=[member_calendar_token(member=data["member"])])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class CalendarLinkSerializer(serializers.Serializer):
    """The person's new calendar link, after the old one was revoked."""

    calendar_url = serializers.CharField()
