"""The secretary's forms: an evening with its attendance, and a game.

Each form parses input, calls exactly one service in `save()`, and turns a refused change
(`BooksError`) into an error on the field the service names, so the German message appears
where it was typed. Services run in one transaction: nothing is saved half.
"""

import copy
from typing import cast

from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.html import escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.evenings.models import Attendance, Evening, Game
from games.evenings.selectors import next_game_number
from games.evenings.services import evening_create, evening_update, game_record, game_update
from league.club.errors import BooksError
from league.club.fields import DateFormField
from league.club.forms import BooksErrorMixin, PeopleSelect
from league.club.models import Member

# What the attendance list offers for each club member. "none" leaves the member out of
# the evening altogether (neither games nor the absence charge).
ROLE_PRESENT, ROLE_ABSENT, ROLE_NONE = "member", "absent", "none"
ROLE_CHOICES = [
    (ROLE_PRESENT, _("present")),
    (ROLE_ABSENT, _("absent")),
    (ROLE_NONE, _("not counted")),
]


class PersonChoiceField(forms.ModelChoiceField):
    """A person of the club, by primary key. An id that is not a person of the club is
    refused as unknown; whether the person was there is the service's question."""

    default_error_messages = {"invalid_choice": _("Unknown person.")}

    def label_from_instance(self, obj: Member) -> str:
        return obj.name


class OrderedSelectsWidget(forms.Widget):
    """Several inputs of one name whose order matters (the Schock-Aus in throwing order).
    The page renders the selects itself; this widget only reads them back in order."""

    def value_from_datadict(self, data, files, name):
        if hasattr(data, "getlist"):
            return data.getlist(name)
        value = data.get(name, [])
        return value if isinstance(value, list | tuple) else [value]


class ThrowersField(forms.Field):
    """The Schock-Aus throwers of a game in throwing order: a list of club persons (empty
    slots skipped). Nobody can throw two Schock-Aus in one game: a Schock-Aus ends the game
    once its round is complete, and everyone throws once per round (docs/rules.md 4.4)."""

    widget = OrderedSelectsWidget
    default_error_messages = {
        "invalid_choice": _("Unknown person."),
        "twice": _("%(name)s is listed twice: one Schock-Aus per person and game."),
    }

    def __init__(self, *, queryset=None, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.queryset = queryset

    def to_python(self, value) -> list[Member]:
        ids = [str(v).strip() for v in (value or []) if str(v).strip()]
        if not all(v.isdigit() for v in ids):
            raise forms.ValidationError(self.error_messages["invalid_choice"], "invalid_choice")
        people = self.queryset.in_bulk([int(v) for v in ids])
        throwers = []
        for v in ids:
            person = people.get(int(v))
            if person is None:
                raise forms.ValidationError(self.error_messages["invalid_choice"], "invalid_choice")
            if person in throwers:
                raise forms.ValidationError(
                    self.error_messages["twice"], "twice", params={"name": person.name}
                )
            throwers.append(person)
        return throwers


class GameForm(BooksErrorMixin, forms.Form):
    """A game of an evening: number, Vorleger, loser and Schock-Aus throwers in throwing
    order. Records a new game (`game_record`) or corrects one (`game_update`)."""

    number = forms.IntegerField(label=_("Game"), min_value=1)
    vorleger = PersonChoiceField(
        label=_("Vorleger"), queryset=Member.objects.none(), required=False
    )
    loser = PersonChoiceField(
        label=_("Loser"),
        queryset=Member.objects.none(),
        error_messages={"required": _("Please choose who lost the game.")},
    )
    schock_aus = ThrowersField(label=_("Schock-Aus in throwing order"))
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # Set by the page's "yes, save as game N" button: a new game whose number is not the
    # evening's next one (a typo like 99, or a gap filled later) is saved only then.
    confirm_number = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # Set by the page's "yes, save anyway" button: a game beyond the evening's target
    # count (Abendsoll) is saved only then (`game_record(target_confirmed=...)`).
    confirm_target = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, evening: Evening, game: Game | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.evening, self.game = evening, game
        # The number the page asks about (None: no question); see clean_number.
        self.number_question: int | None = None
        # The page asks whether to save a game beyond the evening's target count.
        self.target_question = False
        people = Member.objects.filter(club_id=evening.club_id)
        for name in ("vorleger", "loser"):
            cast(PersonChoiceField, self.fields[name]).queryset = people
        cast(ThrowersField, self.fields["schock_aus"]).queryset = people

    # The people present, in name order: set by the page that renders the form (the radio
    # buttons, the selects and the number of Schock-Aus slots follow them).
    present: list[Member] = []

    def thrower_slots(self) -> list[dict]:
        """The Schock-Aus selects: one per present person (at least 3), each with its 1-based
        `index` and the `value` chosen so far (a string, "" for none)."""
        chosen = [str(getattr(v, "pk", v)) for v in (self["schock_aus"].value() or [])]
        count = max(3, len(self.present), len(chosen))
        chosen += [""] * (count - len(chosen))
        return [{"index": i, "value": v} for i, v in enumerate(chosen, start=1)]

    def clean_number(self) -> int:
        """A new game's number must be the evening's next one (a typo'd 99
        is not saved without a question) unless `confirm_number` is set; a taken number is
        the service's refusal (`duplicate_game_number`)."""
        number = self.cleaned_data["number"]
        if self.game is not None or self.confirmed("confirm_number"):
            return number
        expected = next_game_number(evening=self.evening)
        taken = self.evening.games.filter(number=number).exists()
        if number != expected and not taken:
            self.number_question = number
            if number == expected + 1:
                message = _(
                    "Game %(number)s? The next game of this evening is game %(next)s: "
                    "game %(next)s would be missing."
                )
            elif number > expected:
                message = _(
                    "Game %(number)s? The next game of this evening is game %(next)s: "
                    "games %(next)s to %(before)s would be missing."
                )
            else:
                message = _(
                    "Game %(number)s? The next game of this evening is game %(next)s: "
                    "game %(number)s would be entered after the games that follow it."
                )
            raise forms.ValidationError(
                message,
                code="number_not_next",
                params={"number": number, "next": expected, "before": number - 1},
            )
        return number

    def save(self) -> Game | None:
        """Record or correct the game; None (and errors on the form) when refused."""
        data = self.cleaned_data
        try:
            if self.game is None:
                return game_record(
                    evening=self.evening,
                    number=data["number"],
                    loser=data["loser"],
                    vorleger=data["vorleger"],
                    schock_aus_throwers=data["schock_aus"],
                    target_confirmed=self.confirmed("confirm_target"),
                )
            return game_update(
                game=self.game,
                number=data["number"],
                loser=data["loser"],
                vorleger=data["vorleger"],
                schock_aus_throwers=data["schock_aus"],
                expected_version=data["version"],
            )
        except BooksError as exc:
            if exc.code == "evening_target_reached":
                self.target_question = True
                self.add_error(None, exc.message)
                return None
            self.add_books_error(exc)
            return None

    @property
    def confirmed_number(self) -> bool:
        """The page's "yes, save as game N" was pressed (carried on to a later question)."""
        return self.confirmed("confirm_number")

    def confirmed(self, name: str) -> bool:
        """Whether the page's confirming button `name` (confirm_number, confirm_target)
        was pressed, now or on the question before (sent back as a hidden field)."""
        return self.data.get(name) in ("1", "true", "on")


class EveningForm(BooksErrorMixin, forms.Form):
    """An evening with its attendance: date, secretary, a role for every club member
    (present / absent / not counted), guests (existing ones ticked, new ones typed).

    `role_<member id>` fields are made for the active club members (and, when editing,
    for everyone already in the evening's attendance). New guest names go to the service,
    which makes them guest Members in the same transaction as the evening (nothing saved
    half; the API does the same with its `new_guests` list).
    """

    group_errors = ("attendance",)
    field_aliases = {"present_members": "attendance"}

    date = DateFormField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    secretary = PersonChoiceField(
        label=_("Secretary"), queryset=Member.objects.none(), widget=PeopleSelect
    )
    guests = forms.ModelMultipleChoiceField(
        label=_("Guests"),
        queryset=Member.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _("Unknown person."),
            "invalid_pk_value": _("Unknown person."),
        },
    )
    new_guests = forms.CharField(
        label=_("New guests"),
        required=False,
        max_length=300,
        help_text=_("Names of guests who are here for the first time, separated by commas."),
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, club, evening: Evening | None = None, secretary=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club, self.evening = club, evening
        people = list(Member.objects.filter(club=club).order_by("name"))
        current = {}
        if evening is not None:
            current = dict(evening.attendances.values_list("member_id", "role"))
        # A member who came to this evening as a guest (before joining the club, or entered
        # twice and merged) stays a guest of this evening: listed with the guests.
        guest_role, member_kind, guest_kind = (
            Attendance.Role.GUEST,
            Member.Kind.MEMBER,
            Member.Kind.GUEST,
        )
        came_as_guest = {pk for pk, role in current.items() if role == guest_role}
        self.members = [
            p
            for p in people
            if p.kind == member_kind and (p.active or p.pk in current) and p.pk not in came_as_guest
        ]
        secretary_field = cast(PersonChoiceField, self.fields["secretary"])
        guests = cast(forms.ModelMultipleChoiceField, self.fields["guests"])
        if self.is_bound:
            # The querysets check a posted choice; an unbound form (the page's GET) never
            # asks them, so they are not built for it.
            secretary_field.queryset = Member.objects.filter(club=club)
            guests.queryset = Member.objects.filter(
                Q(kind=Member.Kind.GUEST) | Q(pk__in=came_as_guest), club=club
            )
        # The page writes its choices from the people read above (in name order, as the
        # querysets list them), not from the querysets again.
        secretary_field.choices = [
            ("", secretary_field.empty_label),
            *((p.pk, p.name) for p in people),
        ]
        self.guest_people = [p for p in people if p.kind == guest_kind or p.pk in came_as_guest]
        # One role field made, copied per member with its name and initial role: the copies
        # share the (stateless) radio widget and the choices, normalised once.
        role_field = forms.ChoiceField(
            choices=ROLE_CHOICES, widget=forms.RadioSelect, required=False
        )
        default_role = ROLE_NONE if evening else ROLE_PRESENT
        for person in self.members:
            field = copy.copy(role_field)
            field.label, field.initial = person.name, current.get(person.pk, default_role)
            self.fields[f"role_{person.pk}"] = field
        if evening is None:
            self.fields["date"].initial = timezone.localdate()
            self.fields["secretary"].initial = secretary.pk if secretary else None
        else:
            self.fields["date"].initial = evening.date
            self.fields["secretary"].initial = evening.secretary_id
            self.fields["notes"].initial = evening.notes
            self.fields["version"].initial = evening.version
            self.fields["guests"].initial = [
                pk for pk, role in current.items() if role == Attendance.Role.GUEST
            ]

    def role_fields(self) -> list:
        """The bound role fields, one per club member, in name order."""
        return [self[f"role_{p.pk}"] for p in self.members]

    def role_lines(self) -> list[dict]:
        """The attendance list as the page shows it: per club member (name order) its
        `label`, `errors` and `seg`, the three radio buttons written in one pass (the HTML
        the page wrote from the radio widget's choices: input name, value, checked state
        and label), not through a widget template per choice."""
        # Per choice its escaped value and label, once; per line only the field's name
        # (role_<id>, digits) and the checked state vary.
        choices = [(str(escape(value)), str(escape(str(label)))) for value, label in ROLE_CHOICES]
        errors = self.errors if self.is_bound else {}
        lines = []
        for person in self.members:
            field = self[f"role_{person.pk}"]
            value = field.value()
            chosen = "" if value is None else str(value)
            name = str(escape(field.html_name))
            seg = "".join(
                f'<label class="segbtn seg-{v}"><input type="radio" name="{name}" value="{v}"'
                f"{' checked' if v == chosen else ''}><span>{label}</span></label>"
                for v, label in choices
            )
            lines.append(
                {
                    "label": field.label,
                    "errors": errors.get(field.name, ()),
                    "seg": mark_safe(seg),  # escaped above
                }
            )
        return lines

    def guest_boxes(self) -> SafeString:
        """The club's guests (and the people who came to this evening as guests) as ticked
        or unticked checkboxes named `guests`, in name order, written in one pass; empty
        when the club has none."""
        chosen = {str(getattr(v, "pk", v)) for v in (self["guests"].value() or [])}
        return format_html_join(
            "",
            '<label class="tap small"><input type="checkbox" name="guests" value="{}"{}>'
            "<span>{}</span></label>",
            (
                (p.pk, mark_safe(" checked") if str(p.pk) in chosen else "", p.name)
                for p in self.guest_people
            ),
        )

    def _attendance(self) -> dict:
        """The service's attendance arguments: present and absent club members, ticked
        guests, and the names typed as new guests (comma separated)."""
        groups: dict[str, list[Member]] = {ROLE_PRESENT: [], ROLE_ABSENT: []}
        for person in self.members:
            role = self.cleaned_data[f"role_{person.pk}"] or ROLE_NONE
            if role in groups:
                groups[role].append(person)
        return {
            "present_members": groups[ROLE_PRESENT],
            "absent_members": groups[ROLE_ABSENT],
            "guests": list(self.cleaned_data["guests"]),
            "new_guests": self.cleaned_data["new_guests"].split(","),
        }

    def save(self) -> Evening | None:
        """Create or update the evening (and its new guests) through the evening service;
        None with form errors if refused (then nothing was saved)."""
        data = self.cleaned_data
        try:
            if self.evening is None:
                return evening_create(
                    club=self.club,
                    date=data["date"],
                    secretary=data["secretary"],
                    notes=data["notes"],
                    **self._attendance(),
                )
            return evening_update(
                evening=self.evening,
                date=data["date"],
                secretary=data["secretary"],
                notes=data["notes"],
                expected_version=data["version"],
                **self._attendance(),
            )
        except BooksError as exc:
            self.add_books_error(exc)
            return None
