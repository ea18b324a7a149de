"""The merge form's select of the club's people (league/club/forms.py `PeopleSelect`)
writes the HTML Django's own select writes, option by option: the page looks and behaves
as before, for the browser, a screen reader and the tests (it is only faster)."""

import pytest
from django import forms

from league.club.forms import MergeForm, PeopleSelect
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db

CHOICES = [("", "---------"), (3, "Anna <Becker> & Co"), (7, "Bernd Krause"), (12, "Jürgen")]


def _pair(**field_kwargs):
    class Fast(forms.Form):
        target = forms.ChoiceField(
            choices=CHOICES, widget=PeopleSelect, help_text="Hilfe", **field_kwargs
        )

    class Django(forms.Form):
        target = forms.ChoiceField(choices=CHOICES, help_text="Hilfe", **field_kwargs)

    return Fast, Django


@pytest.mark.parametrize(
    "data",
    [None, {"target": "7"}, {"target": "99"}, {"target": ""}],
    ids=["unbound", "chosen", "unknown-choice", "nothing-chosen"],
)
@pytest.mark.parametrize("required", [True, False])
def test_the_people_select_writes_what_djangos_select_writes(data, required):
    fast, django = _pair(required=required)
    fast_form, django_form = fast(data, prefix="merge"), django(data, prefix="merge")
    if data is not None:  # errors add aria-invalid
        assert fast_form.is_valid() == django_form.is_valid()
    assert str(fast_form["target"]) == str(django_form["target"])


def test_the_merge_forms_select_lists_the_other_people_by_name():
    club = ClubFactory()
    anna = MemberFactory(club=club, name="Anna Becker")
    bernd = MemberFactory(club=club, name="Bernd <Krause>")
    MemberFactory(name="Anna Fremd")  # another club's
    html = str(MergeForm(person=anna, prefix="merge")["target"])
    assert f'<option value="{bernd.pk}">Bernd &lt;Krause&gt;</option>' in html
    assert "Anna Becker" not in html and "Anna Fremd" not in html
    assert '<option value="" selected>---------</option>' in html


def test_the_merge_form_still_refuses_a_person_of_another_club():
    club = ClubFactory()
    anna = MemberFactory(club=club, name="Anna Becker")
    stranger = MemberFactory(name="Anna Fremd")
    form = MergeForm(
        {"merge-target": stranger.pk, "merge-confirm": "on"}, person=anna, prefix="merge"
    )
    assert not form.is_valid()
    assert "target" in form.errors
    assert f'<option value="{stranger.pk}"' not in str(form["target"])
