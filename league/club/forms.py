"""The secretary's form for a new season (issue 2 item 6): without one, no evening of its
dates can be entered."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.club.errors import BooksError
from league.club.models import RULE_PRESET_CHOICES, Club, Season
from league.club.services import season_create


class BooksErrorMixin:
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
            self._errors.setdefault(name, self.error_class()).append(exc.message)
        else:
            self.add_error(None, exc.message)


class SeasonForm(BooksErrorMixin, forms.Form):
    """Year, and optionally other first/last days and another rule set than the club's.
    Calls `season_create` (Mark value and currency follow from the year, RULES.md 5)."""

    year = forms.IntegerField(label=_("Year"), min_value=1979, max_value=2999)
    starts_on = forms.DateField(
        label=_("First day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: 1 January."),
    )
    ends_on = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: 31 December."),
    )
    rule_preset = forms.ChoiceField(label=_("Rule set"), choices=RULE_PRESET_CHOICES)

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["year"].initial = timezone.localdate().year
        self.fields["rule_preset"].initial = club.rule_preset

    def clean(self):
        data = super().clean()
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
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
            )
        except BooksError as exc:
            self.add_books_error(exc)
            return None
