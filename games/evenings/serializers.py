"""REST API shapes of evenings, attendance, games, Schock-Aus, rounds, an evening's summary
and the rules' live check.

Serializers translate only (STYLE.md 3): a person is named by id or by exact name and
becomes a Member of the requesting user's club (anything else: 400 `unknown_person`); then
the view makes one service call. Every rule lives in games/rules and the services.
"""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.evenings.models import Attendance, Evening, Game
from league.club.answer_serializers import AnswerSerializer
from league.club.fields import (
    MAX_NEW_GUESTS,
    MAX_PEOPLE,
    MAX_SCHOCK_AUS,
    BoundedListField,
    StrictDateField,
    StrictIntegerField,
)
from league.club.models import Member
from league.club.names import NameField
from league.club.serializers import MONEY, PersonRefSerializer

PERSON_SCHEMA = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "description": "Member id"},
        {"type": "string", "minLength": 1, "maxLength": 100, "description": "Exact name"},
    ],
    "description": "A person of your club, by id or by exact name.",
}


def _people(context: Any) -> tuple[dict[int, Member], dict[str, Member]]:
    """The club's people by id and by name, loaded once per request (one query)."""
    if "_people" not in context:
        club = context["club"]
        members = list(Member.objects.filter(club=club)) if club is not None else []
        context["_people"] = ({m.pk: m for m in members}, {m.name: m for m in members})
    return context["_people"]


@extend_schema_field(PERSON_SCHEMA)
class PersonField(serializers.Field):
    """A person of the requesting user's club, given as id (int) or exact name (str).

    Raises a validation error with code `unknown_person` for anything else, including a
    person of another club (which does not exist for the caller).
    """

    def to_internal_value(self, data) -> Member:
        by_id, by_name = _people(self.context)
        person = None
        if isinstance(data, int) and not isinstance(data, bool):
            person = by_id.get(data)
        elif isinstance(data, str):
            person = by_name.get(" ".join(data.split()))
        if person is None:
            raise serializers.ValidationError(
                _("Unknown person: %(value)s.") % {"value": str(data)[:100]},
                code="unknown_person",
            )
        return person

    def to_representation(self, value) -> int:
        return value.pk


class AttendanceSerializer(AnswerSerializer):
    """One person at an evening: present club member, guest, or absent club member."""

    name = serializers.CharField(source="member.name")

    class Meta:
        model = Attendance
        fields = ["member", "name", "role"]
        read_only_fields = fields


class EveningSerializer(AnswerSerializer):
    """An evening with its attendance and `version` (send it back when changing it)."""

    attendance = AttendanceSerializer(source="attendances", many=True, read_only=True)
    present_members = serializers.SerializerMethodField()
    guests = serializers.SerializerMethodField()
    absent_members = serializers.SerializerMethodField()

    class Meta:
        model = Evening
        fields = [
            "id",
            "club",
            "season",
            "date",
            "secretary",
            "notes",
            "version",
            "present_members",
            "guests",
            "absent_members",
            "attendance",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def _ids(self, evening: Evening, role: str) -> list[int]:
        return [a.member_id for a in evening.attendances.all() if a.role == role]

    def get_present_members(self, evening: Evening) -> list[int]:
        return self._ids(evening, Attendance.Role.MEMBER)

    def get_guests(self, evening: Evening) -> list[int]:
        return self._ids(evening, Attendance.Role.GUEST)

    def get_absent_members(self, evening: Evening) -> list[int]:
        return self._ids(evening, Attendance.Role.ABSENT)


class EveningWriteSerializer(serializers.Serializer):
    """Input of `evening_create` / `evening_update`. The season follows from the date. The
    secretary of the evening defaults to the requesting secretary; `new_guests` are names
    (strings) the service turns into guests. On update `version`
    (or the `If-Match` header) is required; PATCH keeps what is not sent."""

    date = StrictDateField()
    secretary = PersonField(required=False)
    present_members = BoundedListField(child=PersonField(), max_length=MAX_PEOPLE)
    guests = BoundedListField(child=PersonField(), required=False, max_length=MAX_PEOPLE)
    absent_members = BoundedListField(child=PersonField(), required=False, max_length=MAX_PEOPLE)
    new_guests = BoundedListField(
        child=NameField(),
        required=False,
        max_length=MAX_NEW_GUESTS,
        help_text="Names of guests who come for the first time: each becomes a guest of "
        "the club (an existing guest of that name, ignoring case, is taken instead) and "
        "joins `guests`, in the same transaction as the evening. A club member's name: 409 "
        "`member_exists`.",
    )
    notes = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    version = StrictIntegerField(required=False, min_value=1, max_value=999_999_999)


class SchockAusSerializer(serializers.Serializer):
    """A Schock-Aus of a game: its thrower and place in throwing order within the game."""

    thrower = serializers.IntegerField(source="thrower_id")
    position = serializers.IntegerField()


class GameSerializer(AnswerSerializer):
    """A game: number, Vorleger, loser, the Schock-Aus throwers in throwing order (ids),
    how it was entered, and `version` (send it back when changing it)."""

    schock_aus = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "evening",
            "number",
            "vorleger",
            "loser",
            "schock_aus",
            "entry_mode",
            "version",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_schock_aus(self, game: Game) -> list[int]:
        return [sa.thrower_id for sa in sorted(game.schock_aus.all(), key=lambda s: s.position)]


class GameWriteSerializer(serializers.Serializer):
    """Input of `game_record` / `game_update`: the loser and the Schock-Aus throwers in
    throwing order; `number` defaults to the next free one, `vorleger` to the previous
    game's loser. Create: `evening` (id) and optionally `evening_version` (412 if the
    evening changed) and `beyond_target` (confirms a game beyond the evening's target
    count). Update: `version` (or If-Match) required; PATCH keeps what is not sent."""

    evening = StrictIntegerField(min_value=1, required=False)
    number = StrictIntegerField(min_value=1, max_value=9999, required=False)
    loser = PersonField()
    schock_aus = BoundedListField(child=PersonField(), required=False, max_length=MAX_SCHOCK_AUS)
    vorleger = PersonField(required=False, allow_null=True)
    evening_version = StrictIntegerField(required=False, min_value=1, max_value=999_999_999)
    version = StrictIntegerField(required=False, min_value=1, max_value=999_999_999)
    client_key = serializers.UUIDField(required=False)
    beyond_target = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Create: true confirms a game beyond the evening's target count "
        "(Abendsoll: games per present club member); without it such a game is refused "
        "with 409 `evening_target_reached`.",
    )


class SchockAusLineSerializer(serializers.Serializer):
    """A Schock-Aus of the evening: ordinal 1..n in throwing order, game number, thrower."""

    ordinal = serializers.IntegerField()
    game = serializers.IntegerField()
    thrower = PersonRefSerializer()


class RundeLineSerializer(serializers.Serializer):
    """A Runde owed: the Schock-Aus ordinal, its thrower, why (first, fifth, last)."""

    ordinal = serializers.IntegerField()
    thrower = PersonRefSerializer()
    reason = serializers.ChoiceField(choices=["first", "fifth", "last"])
    schock_aus = serializers.IntegerField(source="schock_aus_id")


class PersonLineSerializer(serializers.Serializer):
    """One person's figures for the evening. `points` is null for guests."""

    member = PersonRefSerializer()
    role = serializers.ChoiceField(choices=Attendance.Role.choices)
    games_lost = serializers.IntegerField()
    schock_aus = serializers.IntegerField()
    points = serializers.IntegerField(allow_null=True)
    runden = serializers.IntegerField()
    marks = serializers.IntegerField()
    money = serializers.DecimalField(**MONEY)
    guest = serializers.BooleanField()
    absent = serializers.BooleanField()


class EveningSummarySerializer(serializers.Serializer):
    """An evening's books (games.selectors.evening_books)."""

    evening = serializers.IntegerField(source="evening.pk")
    date = serializers.DateField(source="evening.date")
    season = serializers.IntegerField(source="evening.season_id")
    version = serializers.IntegerField(source="evening.version")
    games_expected = serializers.IntegerField()
    games_entered = serializers.IntegerField()
    schock_aus = SchockAusLineSerializer(many=True)
    runden = RundeLineSerializer(many=True)
    people = PersonLineSerializer(many=True)
    marks_total = serializers.IntegerField()
    money_total = serializers.DecimalField(**MONEY)
    currency = serializers.CharField()
    warnings = serializers.ListField(child=serializers.CharField())


# --- objections to a provisional evening ---------------------------------------------


class ObjectionSerializer(serializers.Serializer):
    """An objection to a game of a provisional evening and the secretary's answer."""

    id = serializers.IntegerField()
    evening = serializers.IntegerField(source="evening_id")
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="Null when the correction deleted it."
    )
    game_number = serializers.IntegerField()
    raised_by = serializers.IntegerField(source="raised_by_id")
    raised_by_name = serializers.CharField(source="raised_by.name")
    text = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["open", "corrected", "dismissed"],
        help_text="`open` until the secretary answers: `corrected` or `dismissed`.",
    )
    answer = serializers.CharField(help_text="The reason of a dismissal (may be empty).")
    answered_by = serializers.IntegerField(source="answered_by_id", allow_null=True)
    answered_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class EveningObjectionsSerializer(serializers.Serializer):
    """An evening's provisional state with its objections."""

    evening = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text="The evening's charges are still provisional (vorläufig)."
    )
    provisional_until = serializers.DateTimeField(
        help_text="The end of the objection time: the last game's entry plus the statutes' "
        "`provisional_hours`. Past it the evening is final once no objection is open."
    )
    finalised_at = serializers.DateTimeField(
        allow_null=True, help_text="When the secretary declared it final early."
    )
    open_objections = serializers.IntegerField()
    objections = ObjectionSerializer(many=True)


class ObjectionCreateSerializer(serializers.Serializer):
    """`POST /api/v1/evenings/{id}/objections/`: the game objected to and why."""

    game = StrictIntegerField(min_value=1, help_text="A game of this evening, by id.")
    text = serializers.CharField(
        max_length=1000, allow_blank=True, help_text="What is wrong, 1 to 1,000 characters."
    )


class ObjectionAnswerSerializer(serializers.Serializer):
    """`POST /api/v1/objections/{id}/answer/`: the secretary's answer."""

    outcome = serializers.ChoiceField(
        choices=["corrected", "dismissed"],
        help_text="`corrected`: the game was corrected (PUT or DELETE of the game) after the "
        "objection; `dismissed`: with a `reason`.",
    )
    reason = serializers.CharField(
        max_length=1000,
        allow_blank=True,
        required=False,
        default="",
        help_text="Why it is dismissed (required then), up to 1,000 characters.",
    )


# --- planned evenings (the calendar) ----------------------------------------------------


class PlannedEveningSerializer(serializers.Serializer):
    """A planned evening of the club's calendar."""

    date = serializers.DateField()
    starts = serializers.DateTimeField(help_text="When it begins (Europe/Berlin).")
    cancelled = serializers.BooleanField()
    regular_date = serializers.DateField(
        allow_null=True,
        help_text="The statutes' date it stands for (moved when it differs from `date`); "
        "null for an evening the secretary added.",
    )


class PlannedEveningWriteSerializer(serializers.Serializer):
    """Add an evening (`date`) or move one (`date`: where it goes); `time` "HH:MM" or
    left out for the statutes' time."""

    date = StrictDateField()
    time = serializers.RegexField(
        r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
        required=False,
        allow_null=True,
        default=None,
        help_text='The time it begins, "HH:MM"; left out: the statutes\' evening time.',
    )
