"""The secretary's form for a new wall link."""

from django import forms
from django.utils.translation import gettext_lazy as _


class WallScreenForm(forms.Form):
    """The name of a new wall screen's link (1 to 60 characters)."""

    name = forms.CharField(
        label=_("Name of the screen"),
        max_length=60,
        help_text=_("e.g. TV in the club's pub"),
    )
