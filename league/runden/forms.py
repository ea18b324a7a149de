"""The Runden page's form: marking a Runde as given."""

from django import forms
from django.utils.translation import gettext_lazy as _

from league.club.fields import DateFormField
from league.runden.models import RundeGiven

NOTE_MAX = RundeGiven._meta.get_field("note").max_length or 200


class RundeGivenForm(forms.Form):
    """The day the Runde was given (empty: today) and a note of at most 200 characters
    (the column's max_length). Django's CharField refuses a NUL byte ("Null characters
    are not allowed."), which PostgreSQL cannot store; both refusals are German on the page."""

    given_on = DateFormField(label=_("Given on"), required=False)
    note = forms.CharField(label=_("Note"), max_length=NOTE_MAX, required=False)
