"""The sign-up page's forms: the club's request and the secretary's password."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from league.club.errors import BooksError
from league.club.forms import BooksErrorMixin
from league.club.models import Member
from league.club.names import NameFormField
from league.club.signup.services import SignupLink, club_signup_confirm, club_signup_request


class SignupForm(BooksErrorMixin, forms.Form):
    """A club's sign-up: its name, the secretary's name and e-mail address. Calls
    `club_signup_request`."""

    name = NameFormField(label=_("Club name"))
    secretary_name = NameFormField(label=_("Your name"))
    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)

    #: The service's refusal of the last `save`, if any.
    refusal: BooksError | None = None

    def save(self, *, address: str | None) -> str | None:
        """The signed token of the confirmation link; None (the refusal on the form) when
        refused."""
        try:
            return club_signup_request(
                club_name=self.cleaned_data["name"],
                secretary_name=self.cleaned_data["secretary_name"],
                email=self.cleaned_data["email"],
                address=address,
            )
        except BooksError as exc:
            self.refusal = exc
            self.add_books_error(exc)
            return None


class SignupConfirmForm(SetPasswordForm):
    """The secretary's password (Django's validators, against the login to be made);
    saving confirms the sign-up (`club_signup_confirm`)."""

    def __init__(self, link: SignupLink, *args, **kwargs) -> None:
        super().__init__(User(username=link.email, email=link.email), *args, **kwargs)
        self.link = link

    def confirm(self, *, token: str) -> Member | None:
        """The new club's secretary; None (the refusal on the form) when refused."""
        try:
            return club_signup_confirm(token=token, password=self.cleaned_data["new_password1"])
        except BooksError as exc:
            self.add_error(None, exc.message)
            return None
