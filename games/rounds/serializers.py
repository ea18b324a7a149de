"""REST API shapes of games entered round by round and of the rules' live check: the
rounds of a stored game, the rounds sent to record or preview a game (with
`round_inputs`, their translation into the service's input) and the preview's answer
(`rounds_preview_values`), a throw or turn to evaluate and its evaluation.

Serializers translate only (STYLE.md 3): a person is named by id or by exact name and
becomes a Member of the requesting user's club (anything else: 400 `unknown_person`); then
the view makes one call of games/rounds/services.py. Every rule lives in games/rules and
the services.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from games.evenings.serializers import PersonField
from games.rounds.models import Round, RoundThrow
from games.rounds.selectors import (
    KINDS,
    RoundInput,
    RoundsPlay,
    ThrowInput,
)
from games.rules import PRESETS, Category
from league.club.answer_serializers import AnswerSerializer
from league.club.fields import (
    DICE,
    MAX_ATTEMPTS,
    MAX_PEOPLE,
    MAX_ROUNDS,
    MAX_THROWS,
    BoundedListField,
    StrictIntegerField,
    bounded_many,
    too_many_items,
)


class RoundThrowSerializer(AnswerSerializer):
    """A player's final throw in a round, with the attempts when entered in detail, and
    whether the Muss-Regel applied to the turn."""

    dice = serializers.SerializerMethodField()

    class Meta:
        model = RoundThrow
        fields = ["position", "player", "dice", "attempts", "natural", "turn", "muss_regel"]
        read_only_fields = fields

    def get_dice(self, throw: RoundThrow) -> list[int]:
        return list(throw.dice)


class RoundSerializer(AnswerSerializer):
    """One entry of a game entered round by round (docs/rules.md 4): `kind` `round`,
    `ausscheidung` (a step; `loser` null while tied), `deckel_nehmen` (`player` the taker,
    `covered` its covered dice), `choose_opener`, `join` (seated `after`) or `leave`
    (`player`, no throws)."""

    throws = RoundThrowSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "number",
            "kind",
            "phase",
            "vorleger",
            "loser",
            "deckel",
            "player",
            "after",
            "covered",
            "throws",
        ]
        read_only_fields = fields


class DeckelSerializer(serializers.Serializer):
    """Deckel a player holds."""

    player = serializers.IntegerField()
    deckel = serializers.IntegerField()


class RoundOutcomeSerializer(serializers.Serializer):
    """What one round did: who opened, won and lost it, the Deckel it was worth and that
    moved (`source` stock, winner or schock_aus), Schock-Aus throwers, the Muss-Regel per
    player in throwing order, who went out."""

    number = serializers.IntegerField()
    phase = serializers.CharField()
    vorleger = serializers.IntegerField()
    winner = serializers.IntegerField()
    loser = serializers.IntegerField()
    deckel = serializers.IntegerField()
    moved = serializers.IntegerField()
    source = serializers.CharField()  # type: ignore[assignment]  # the public field name
    schock_aus = serializers.ListField(child=serializers.IntegerField())
    muss_regel = serializers.ListField(child=serializers.BooleanField())
    went_out = serializers.ListField(child=serializers.IntegerField())
    kind = serializers.ChoiceField(choices=["round", "ausscheidung", "deckel_nehmen"])
    taken_by = serializers.IntegerField(allow_null=True)
    covered = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class RoundsPreviewSerializer(serializers.Serializer):
    """The state of a game after the rounds entered so far (nothing saved)."""

    number = serializers.IntegerField()
    finished = serializers.BooleanField()
    loser = serializers.IntegerField(allow_null=True)
    schock_aus = serializers.ListField(child=serializers.IntegerField())
    stock = serializers.IntegerField()
    deckel = DeckelSerializer(many=True)
    next_order = serializers.ListField(child=serializers.IntegerField())
    tied = serializers.ListField(
        child=serializers.IntegerField(), help_text="Tied in the Ausscheidung: throw again."
    )
    rounds = RoundOutcomeSerializer(many=True)


PRESET_CHOICES = sorted(PRESETS)


class AttemptSerializer(serializers.Serializer):
    """One attempt (Versuch): dice rolled, dice laid out after it, ones made by
    Umwandlung. The rules check the values (docs/rules.md 3)."""

    rolled = BoundedListField(child=StrictIntegerField(), max_length=DICE)
    keep = BoundedListField(child=StrictIntegerField(), default=list, max_length=DICE)
    umwandlung = StrictIntegerField(default=0, min_value=-99, max_value=99)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "description": "Attempts used for a final throw (1..3)."},
            {
                "type": "array",
                "maxItems": MAX_ATTEMPTS,
                "items": {
                    "type": "object",
                    "properties": {
                        "rolled": {"type": "array", "maxItems": DICE, "items": {"type": "integer"}},
                        "keep": {"type": "array", "maxItems": DICE, "items": {"type": "integer"}},
                        "umwandlung": {"type": "integer"},
                    },
                    "required": ["rolled"],
                },
                "description": "The turn, attempt by attempt.",
            },
        ]
    }
)
class AttemptsField(serializers.Field):
    """Either the number of attempts of a final throw, or the turn's list of attempts."""

    def to_internal_value(self, data):
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        if isinstance(data, list):
            if len(data) > MAX_ATTEMPTS:  # before any attempt is read
                raise too_many_items(MAX_ATTEMPTS)
            items = AttemptSerializer(data=data, many=True)
            items.is_valid(raise_exception=True)
            return items.validated_data
        raise serializers.ValidationError(
            _("A number of attempts, or a list of attempts."), code="invalid"
        )

    def to_representation(self, value):
        return value


class RulesEvaluateSerializer(serializers.Serializer):
    """Input of /api/v1/rules/evaluate/: a final throw (`dice`, `attempts` as a number,
    `natural`) or a turn (`attempts` as a list of attempts, no `dice`), under `preset`, with
    the Vorleger's cap `max_attempts` and whether the Muss-Regel applies."""

    preset = serializers.ChoiceField(choices=PRESET_CHOICES, default="club")
    dice = BoundedListField(child=StrictIntegerField(), required=False, max_length=DICE)
    attempts = AttemptsField(required=False)
    natural = serializers.BooleanField(default=True)
    max_attempts = StrictIntegerField(default=3, min_value=1, max_value=3)
    muss_regel = serializers.BooleanField(default=False)

    def validate(self, attrs):
        turn = isinstance(attrs.get("attempts"), list)
        if turn and "dice" in attrs:
            raise serializers.ValidationError(
                {"dice": _("Send either dice or a list of attempts, not both.")},
                code="dice_with_turn",
            )
        if not turn and "dice" not in attrs:
            raise serializers.ValidationError(
                {"dice": _("Send the dice of the final throw, or a list of attempts.")},
                code="required",
            )
        attrs.setdefault("attempts", 1)
        return attrs


class RulesEvaluationSerializer(serializers.Serializer):
    """What the throw is (docs/rules.md 1): category, value, Deckel it is worth, German label,
    and the final throw (dice high to low, attempts, natural)."""

    preset = serializers.ChoiceField(choices=PRESET_CHOICES)
    category = serializers.ChoiceField(choices=[c.value for c in Category])
    value = serializers.IntegerField()
    deckel = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the public field name
    dice = serializers.ListField(child=serializers.IntegerField(), min_length=3, max_length=3)
    attempts = serializers.IntegerField()
    natural = serializers.BooleanField()


class ThrowEntrySerializer(serializers.Serializer):
    """One player's throw in a round: `player` and either the final throw (`dice`,
    `attempts`, `natural`) or the turn attempt by attempt (`turn`)."""

    player = PersonField()
    dice = BoundedListField(child=StrictIntegerField(), required=False, max_length=DICE)
    attempts = StrictIntegerField(required=False, min_value=-99, max_value=99)
    natural = serializers.BooleanField(default=True)
    turn = bounded_many(AttemptSerializer(), max_length=MAX_ATTEMPTS, required=False)


class RoundEntrySerializer(serializers.Serializer):
    """One entry of the game, in the order it happened (docs/rules.md 4): `kind` `round` (the
    default; `throws` in throwing order, the Vorleger first), `ausscheidung` (one throw of
    one attempt per player: everyone, then the tied), `deckel_nehmen` (`throws` of the
    players before the taker, `player` the taker, optional `covered` dice),
    `choose_opener` (`player` opens the second half), `join` (`player`, optional `after`)
    or `leave` (`player`). The season's rule set must have the action's flag."""

    kind = serializers.ChoiceField(choices=list(KINDS), default="round")
    throws = bounded_many(
        ThrowEntrySerializer(), max_length=MAX_PEOPLE, required=False, default=list
    )
    player = PersonField(required=False)
    after = PersonField(required=False)
    covered = BoundedListField(
        child=StrictIntegerField(), required=False, allow_null=True, max_length=DICE
    )
    not_thrown = BoundedListField(
        child=PersonField(),
        required=False,
        default=list,
        max_length=MAX_PEOPLE,
        help_text="deckel_nehmen: the players after the taker in throwing order, who did not "
        "throw; only needed for the seating when no round or Ausscheidung comes before.",
    )


class GameRoundsWriteSerializer(serializers.Serializer):
    """Input of `game_record_rounds`: the evening, every round of the game in order,
    optionally the game's number, the evening's version and `beyond_target` (confirms a
    game beyond the evening's target count; the preview ignores it)."""

    evening = StrictIntegerField(min_value=1)
    number = StrictIntegerField(min_value=1, max_value=9999, required=False)
    evening_version = StrictIntegerField(required=False, min_value=1, max_value=999_999_999)
    rounds = bounded_many(RoundEntrySerializer(), max_length=MAX_ROUNDS)
    beyond_target = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Recording: true confirms a game beyond the evening's target count "
        "(Abendsoll: games per present club member); without it such a game is refused "
        "with 409 `evening_target_reached`. The preview ignores it.",
    )

    def to_internal_value(self, data):
        """Before any round is read: at most MAX_THROWS throws (and players who did not
        throw) over all rounds, else 400 `too_many_throws` (field `rounds`)."""
        rounds = data.get("rounds") if isinstance(data, dict) else None
        if isinstance(rounds, list) and len(rounds) <= MAX_ROUNDS:
            # A list past its own bound counts as just past it: its own refusal names it.
            named = sum(
                min(len(entry[name]), MAX_PEOPLE + 1)
                for entry in rounds
                if isinstance(entry, dict)
                for name in ("throws", "not_thrown")
                if isinstance(entry.get(name), list)
            )
            if named > MAX_THROWS:
                raise serializers.ValidationError(
                    {
                        "rounds": [
                            ErrorDetail(
                                _("A game has at most %(max)s throws.") % {"max": MAX_THROWS},
                                code="too_many_throws",
                            )
                        ]
                    }
                )
        return super().to_internal_value(data)


def round_inputs(rounds: list[dict]) -> list[RoundInput]:
    """The validated `rounds` of GameRoundsWriteSerializer as the service's RoundInputs."""
    return [
        RoundInput(
            kind=round_data["kind"],
            player=round_data.get("player"),
            after=round_data.get("after"),
            covered=round_data.get("covered"),
            not_thrown=round_data.get("not_thrown", []),
            throws=[
                ThrowInput(
                    player=t["player"],
                    dice=t.get("dice"),
                    attempts=t.get("attempts"),
                    natural=t["natural"],
                    turn=t.get("turn"),
                )
                for t in round_data["throws"]
            ],
        )
        for round_data in rounds
    ]


def rounds_preview_values(play: RoundsPlay) -> dict:
    """A RoundsPlay as the plain values of RoundsPreviewSerializer (members as ids;
    `play.player` maps the engine's player keys)."""

    def pk(key) -> int:
        return play.player(key).pk

    return {
        "number": play.number,
        "finished": play.finished,
        "loser": play.loser.pk if play.loser else None,
        "schock_aus": [m.pk for m in play.schock_aus],
        "stock": play.stock,
        "deckel": [{"player": m.pk, "deckel": n} for m, n in play.deckel.items()],
        "next_order": [m.pk for m in play.next_order],
        "tied": [m.pk for m in play.tied],
        "rounds": [
            {
                "number": o.number,
                "phase": o.phase,
                "vorleger": pk(o.vorleger),
                "winner": pk(o.winner),
                "loser": pk(o.loser),
                "deckel": o.deckel,
                "moved": o.moved,
                "source": o.source,
                "schock_aus": [pk(k) for k in o.schock_aus],
                "muss_regel": list(o.muss_regel),
                "went_out": [pk(k) for k in o.went_out],
                "kind": o.kind,
                "taken_by": pk(o.taken_by) if o.taken_by else None,
                "covered": list(o.covered) if o.covered else None,
            }
            for o in play.outcomes
        ],
    }
