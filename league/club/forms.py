"""The secretary's forms for a season: a new season
(without one, no evening of its dates can be entered) and a season's rule set, chosen from
a preset (the "Grundlage") and then changed flag by flag."""

from functools import cache
from typing import TYPE_CHECKING

from django import forms
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.rules import FLAGS, RuleSet
from games.rules.flags import describe
from games.rules.ruleset import MAX_DECKEL
from league.club.errors import BooksError
from league.club.fields import DateFormField
from league.club.models import RULE_PRESET_CHOICES, Club, Member, Season
from league.club.names import NameFormField
from league.club.services import (
    login_create,
    member_create,
    member_merge,
    member_update,
    season_create,
    season_statutes_update,
    season_update,
)
from league.club.statutes import preset_rules, season_rules, season_statutes

FORMAT_CHOICES = [
    ("single", _("One game (single)")),
    ("halves", _("Two halves and a final (halves)")),
]


if TYPE_CHECKING:  # for the type checker only: the mixins live on a Form
    _FormBase = forms.Form
else:
    _FormBase = object


class BooksErrorMixin(_FormBase):
    """Puts a `BooksError` on the form: on the field it names when the form has one, under
    `form.errors[<name>]` for the parts a page shows as a group (e.g. "attendance"), else
    as a non-field error."""

    group_errors: tuple[str, ...] = ()
    field_aliases: dict[str, str] = {}

    def add_books_error(self, exc: BooksError) -> None:
        name = self.field_aliases.get(exc.field or "", exc.field)
        if name in self.fields and not self.fields[name].widget.is_hidden:
            self.add_error(name, exc.message)
        elif name in self.group_errors:
            self.errors.setdefault(name, self.error_class()).append(exc.message)
        else:
            self.add_error(None, exc.message)


def _flag_field(name: str, value: object, label: str, help_text: str) -> forms.Field:
    """The form field of one rule-set flag: a checkbox, a number or the format select."""
    if isinstance(value, bool):
        return forms.BooleanField(label=label, help_text=help_text, required=False)
    if name == "format":
        return forms.ChoiceField(label=label, help_text=help_text, choices=FORMAT_CHOICES)
    top = 3 if name == "max_attempts" else MAX_DECKEL
    return forms.IntegerField(label=label, help_text=help_text, min_value=1, max_value=top)


class RuleFlagsMixin(_FormBase):
    """The Grundlage (`rule_preset`) and one field per flag of ``games.rules.FLAGS``, with
    its German label and explanation. ``flag_names`` lists them in page order; ``flags``
    gives the cleaned flags (name -> value) for the services, which validate them."""

    flag_names = [flag.name for flag in FLAGS]

    def add_flag_fields(self, *, preset: str, rules: RuleSet) -> None:
        self.fields["rule_preset"] = forms.ChoiceField(
            label=_("Based on"),
            choices=RULE_PRESET_CHOICES,
            initial=preset,
            help_text=_("The preset the rules start from; change any rule below."),
        )
        for flag, value in describe(rules):  # texts fitted to the rules the form starts from
            field = _flag_field(flag.name, value, flag.label, flag.explanation)
            field.initial = value
            field.flag = flag  # type: ignore[attr-defined]  # the template shows its example
            field.required = field.required and self.flags_posted()
            self.fields[flag.name] = field

    def flag_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.flag_names]

    def flags_posted(self) -> bool:
        """Whether the flags came with the form: a browser always sends the numbers and
        the format; a post without them (a script, an old page) means the Grundlage as it
        is."""
        return not self.is_bound or any(
            name in self.data for name in ("format", "deckel_total", "max_attempts")
        )

    def flags(self) -> dict[str, object] | None:
        """The flags as cleaned, or None when none were posted (the Grundlage's)."""
        if not self.flags_posted():
            return None
        return {name: self.cleaned_data[name] for name in self.flag_names}


def preset_initial(preset: str) -> dict[str, object]:
    """Initial values of the flag fields for a preset (the "apply preset" button)."""
    return {"rule_preset": preset, **preset_rules(preset).to_dict()}


class SeasonForm(RuleFlagsMixin, BooksErrorMixin, forms.Form):
    """Year, and optionally other first/last days and another rule set than the club's.
    Calls `season_create` (Mark value and currency follow from the year, docs/rules.md 5)."""

    year = forms.IntegerField(label=_("Year"), min_value=1979, max_value=2999)
    starts_on = DateFormField(
        label=_("First day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: 1 January."),
    )
    ends_on = DateFormField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: 31 December."),
    )

    def __init__(self, *args, club: Club, previous: Season | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["year"].initial = timezone.localdate().year
        if previous is None:
            self.add_flag_fields(preset=club.rule_preset, rules=preset_rules(club.rule_preset))
        else:  # the next season: the year after `previous`, played by its rules to start with
            self.fields["year"].initial = max(previous.year + 1, timezone.localdate().year)
            self.add_flag_fields(preset=previous.rule_preset, rules=season_rules(previous))

    def clean(self):
        data = super().clean() or {}
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The last day lies before the first day."))
        return data

    def save(self) -> Season | None:
        """Create the season; None (and the error at its field) when refused."""
        data = self.cleaned_data
        try:
            return season_create(
                club=self.club,
                year=data["year"],
                rule_preset=data["rule_preset"],
                rules=self.flags(),
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
            )
        except BooksError as exc:
            self.add_books_error(exc)
            return None


class SeasonRulesForm(RuleFlagsMixin, BooksErrorMixin, forms.Form):
    """An existing season's rule set: Grundlage and flags, as the season plays them now.
    Calls `season_update` (the books' figures stay; caches and ETags follow)."""

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        self.add_flag_fields(preset=season.rule_preset, rules=season_rules(season))

    def save(self) -> Season | None:
        """Store the rule set; None (and the error on the form) when refused."""
        try:
            return season_update(
                season=self.season,
                rule_preset=self.cleaned_data["rule_preset"],
                rules=self.flags(),
            )
        except BooksError as exc:
            self.add_books_error(exc)
            return None


# --- the secretary's club administration ----------------------------------


class PersonForm(BooksErrorMixin, forms.Form):
    """A new person of the club: name, member or guest. Calls `member_create`."""

    name = NameFormField(label=_("Name"))
    kind = forms.ChoiceField(
        label=_("Joins as"), choices=Member.Kind.choices, initial=Member.Kind.MEMBER
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def save(self) -> Member | None:
        """Create the person; None (and the error at its field) when refused."""
        try:
            return member_create(
                club=self.club, name=self.cleaned_data["name"], kind=self.cleaned_data["kind"]
            )
        except BooksError as exc:
            self.add_books_error(exc)
            return None


class RenameForm(BooksErrorMixin, forms.Form):
    """A person's new name. Calls `member_update` (every season's books show it)."""

    name = NameFormField(label=_("Name"))

    def __init__(self, *args, person: Member, **kwargs):
        super().__init__(*args, **kwargs)
        self.person = person
        self.fields["name"].initial = person.name

    def save(self) -> Member | None:
        try:
            return member_update(member=self.person, name=self.cleaned_data["name"])
        except BooksError as exc:
            self.add_books_error(exc)
            return None


def _widget_attrs(attrs: dict[str, object]) -> SafeString:
    """A widget's attributes as Django's `attrs.html` writes them: in order, a True one by
    its name, a False one left out."""
    return format_html_join(
        "",
        "{}",
        (
            (format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value),)
            for name, value in attrs.items()
            if value is not False
        ),
    )


class PeopleSelect(forms.Select):
    """A select of flat choices (no groups) written in one pass: the same HTML as Django's
    `select.html` and `select_option.html` (attributes, order, white space, the selected
    choice), without a template render per option. The merge form lists every person of
    the club; through the templates that list was most of the person page's time (48 seasons, the
    page at 2.4x the trivial read)."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        chosen = set(self.format_value(value))
        options = format_html_join(
            "",
            '\n  <option value="{}"{}>{}</option>\n',
            (
                (str(v), mark_safe(" selected") if str(v) in chosen else "", label)
                for v, label in self.choices
            ),
        )
        attrs_html = _widget_attrs(self.build_attrs(self.attrs, attrs))
        return format_html('<select name="{}"{}>{}\n</select>', name, attrs_html, options)


class MergeForm(BooksErrorMixin, forms.Form):
    """Merge this person (entered twice) into the one kept. Calls `member_merge`."""

    target = forms.ModelChoiceField(
        queryset=Member.objects.none(),
        widget=PeopleSelect,
        label=_("Same person as"),
        help_text=_(
            "Everything of this entry moves to the person chosen here; this entry is then removed."
        ),
    )
    confirm = forms.BooleanField(label=_("Yes, these two entries are one person."))

    def __init__(self, *args, person: Member, acting: Member | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.person, self.acting = person, acting
        target = self.fields["target"]
        assert isinstance(target, forms.ModelChoiceField)
        people = Member.objects.filter(club_id=person.club_id).exclude(pk=person.pk)
        target.queryset = people
        # Rendered from (id, name) pairs read once when the page shows the select (the
        # widget asks twice: for its `required` and for its options), not from a Member
        # instance per person; the queryset still checks a posted choice.
        target.choices = cache(
            lambda: [("", target.empty_label), *people.values_list("pk", "name")]
        )

    def clean(self):
        data = super().clean() or {}
        if self.acting is not None and self.acting.pk == self.person.pk:
            # Merging one's own entry away would take the login one is using.
            self.add_error(
                None, _("Your own entry stays: merge the other entry into yours instead.")
            )
        return data

    def save(self) -> Member | None:
        try:
            return member_merge(source=self.person, target=self.cleaned_data["target"])
        except BooksError as exc:
            self.add_books_error(exc)
            return None


class LoginForm(BooksErrorMixin, forms.Form):
    """A login for a person: its user name. The password is set by the person through the
    invitation link the next page shows (a secretary never chooses one). Calls
    `login_create`."""

    username = forms.CharField(label=_("User name"), max_length=150)

    def __init__(self, *args, person: Member, **kwargs):
        super().__init__(*args, **kwargs)
        self.person = person
        self.fields["username"].initial = person.name.split()[0].lower() if person.name else ""

    def save(self):
        """The login created, or None (and the error on the form) when refused."""
        try:
            return login_create(person=self.person, username=self.cleaned_data["username"])
        except BooksError as exc:
            self.add_books_error(exc)
            return None


# --- a season's statutes -------------------------------------------------


class StatutesForm(BooksErrorMixin, forms.Form):
    """A season's statutes, figure by figure (the secretary's). Calls
    `season_statutes_update`; on a season with evenings the page asks first (`confirm`).
    The statutes' own checks (``Statutes.from_data``) refuse bad figures; their field names
    (``statutes.absence.marks``) map to the form's fields."""

    scoring = forms.ChoiceField(
        label=_("Points"),
        choices=[
            ("per_event", _("per Schock-Aus and per lost game")),
            ("by_rank", _("by the evening's rank")),
        ],
    )
    points_per_schock_aus = forms.IntegerField(label=_("Points per Schock-Aus"))
    points_per_game_lost = forms.IntegerField(label=_("Points per lost game"))
    rank_points = forms.CharField(
        label=_("Points by rank"),
        required=False,
        max_length=200,
        help_text=_("Points of the 1st, 2nd, ... place, separated by commas, e.g. 7,5,4,3,2,1"),
    )
    marks_per_game_lost = forms.IntegerField(label=_("Marks per lost game"))
    absence = forms.ChoiceField(
        label=_("Absence"),
        choices=[
            ("none", _("costs nothing")),
            ("fixed", _("a fixed number of Marks")),
            ("average_plus", _("the evening's average plus a surcharge")),
        ],
    )
    absence_marks = forms.IntegerField(label=_("Marks per absence"))
    absence_surcharge = forms.IntegerField(label=_("Surcharge in Marks"))
    games_per_present_member = forms.IntegerField(label=_("Games per present member"))
    mark_eras = forms.CharField(
        label=_("Value of the Mark by era"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=500,
        help_text=_("One era a line: from year, value, currency, e.g. 2002 0.50 EUR"),
    )
    runden_first = forms.BooleanField(label=_("The first Schock-Aus owes a Runde"), required=False)
    runden_last = forms.BooleanField(label=_("The last Schock-Aus owes a Runde"), required=False)
    runden_every = forms.IntegerField(
        label=_("Every n-th Schock-Aus owes a Runde"), help_text=_("0: none")
    )
    runden_shift = forms.BooleanField(
        label=_("When the last owes one already, the one before it owes it"), required=False
    )
    provisional_hours = forms.IntegerField(
        label=_("Hours an evening stays provisional"),
        required=False,
        help_text=_("After the evening's last game; members may object meanwhile"),
    )
    evening_weekday = forms.TypedChoiceField(
        label=_("Evening day"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[
            (0, _("Monday")),
            (1, _("Tuesday")),
            (2, _("Wednesday")),
            (3, _("Thursday")),
            (4, _("Friday")),
            (5, _("Saturday")),
            (6, _("Sunday")),
        ],
    )
    evening_time = forms.CharField(label=_("Evening begins at"), max_length=5, required=False)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    field_aliases = {
        "statutes.scoring.mode": "scoring",
        "statutes.scoring.points_per_schock_aus": "points_per_schock_aus",
        "statutes.scoring.points_per_game_lost": "points_per_game_lost",
        "statutes.scoring.rank_points": "rank_points",
        "statutes.marks_per_game_lost": "marks_per_game_lost",
        "statutes.absence.mode": "absence",
        "statutes.absence.marks": "absence_marks",
        "statutes.absence.surcharge": "absence_surcharge",
        "statutes.games_per_present_member": "games_per_present_member",
        "statutes.mark_eras": "mark_eras",
        "statutes.runden.every": "runden_every",
        "statutes.provisional_hours": "provisional_hours",
        "statutes.evening.weekday": "evening_weekday",
        "statutes.evening.time": "evening_time",
    }

    def __init__(self, *args, season: Season, **kwargs):
        statutes = season_statutes(season)
        initial = {
            "scoring": statutes.scoring,
            "points_per_schock_aus": statutes.points_per_schock_aus,
            "points_per_game_lost": statutes.points_per_game_lost,
            "rank_points": ",".join(str(p) for p in statutes.rank_points),
            "marks_per_game_lost": statutes.marks_per_game_lost,
            "absence": statutes.absence,
            "absence_marks": statutes.marks_per_absence,
            "absence_surcharge": statutes.absence_surcharge,
            "games_per_present_member": statutes.games_per_present_member,
            "mark_eras": "\n".join(
                f"{e.since_year} {e.value} {e.currency}" for e in statutes.mark_eras
            ),
            "runden_first": statutes.runden_first,
            "runden_last": statutes.runden_last,
            "runden_every": statutes.runden_every,
            "runden_shift": statutes.runden_shift,
            "provisional_hours": statutes.provisional_hours,
            "evening_weekday": statutes.evening_weekday,
            "evening_time": statutes.evening_time,
        }
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        self.season = season
        self.confirmation: BooksError | None = None

    def _numbers(self, name: str) -> list[int] | None:
        text = self.cleaned_data.get(name) or ""
        try:
            return [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            self.add_error(name, _("Please enter whole numbers separated by commas."))
            return None

    def _eras(self) -> list[dict[str, object]] | None:
        eras = []
        for line in (self.cleaned_data.get("mark_eras") or "").splitlines():
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 3 or not (parts[0].isascii() and parts[0].isdigit()):
                self.add_error("mark_eras", _("One era a line: from year, value, currency."))
                return None
            year, value, currency = parts
            eras.append(
                {
                    "since_year": int(year),
                    "value": value.replace(",", "."),
                    "currency": currency.upper(),
                }
            )
        return eras

    def statutes_data(self) -> dict[str, object] | None:
        """The statutes as data (``Statutes.to_data``'s shape), or None with errors."""
        data = self.cleaned_data
        rank_points, eras = self._numbers("rank_points"), self._eras()
        if rank_points is None or eras is None:
            return None
        return {
            "scoring": {
                "mode": data["scoring"],
                "points_per_schock_aus": data["points_per_schock_aus"],
                "points_per_game_lost": data["points_per_game_lost"],
                "rank_points": rank_points,
            },
            "marks_per_game_lost": data["marks_per_game_lost"],
            "absence": {
                "mode": data["absence"],
                "marks": data["absence_marks"],
                "surcharge": data["absence_surcharge"],
            },
            "games_per_present_member": data["games_per_present_member"],
            "mark_eras": eras,
            "runden": {
                "first": data["runden_first"],
                "last": data["runden_last"],
                "every": data["runden_every"],
                "shift": data["runden_shift"],
            },
            # Left out of the form: the season keeps its figure.
            **(
                {"provisional_hours": data["provisional_hours"]}
                if data.get("provisional_hours") is not None
                else {}
            ),
            "evening": {
                k: v
                for k, v in (
                    ("weekday", data.get("evening_weekday")),
                    ("time", data.get("evening_time")),
                )
                if v not in (None, "")
            },
        }

    def save(self) -> Season | None:
        """Store the statutes; None when refused (the error on the form) or when the
        change needs the secretary's confirmation first (`confirmation` set)."""
        statutes = self.statutes_data()
        if statutes is None:
            return None
        try:
            return season_statutes_update(
                season=self.season, statutes=statutes, confirm=self.cleaned_data["confirm"]
            )
        except BooksError as exc:
            if exc.code == "confirmation_required":
                self.confirmation = exc
            else:
                self.add_books_error(exc)
            return None
