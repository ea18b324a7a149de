"""Pages of a login: log out, change the password, reset
a forgotten one by e-mail (Django's views with our German templates under
templates/registration/), and "Meine Anmeldungen": the login's API tokens, each revocable.

Logging out revokes every API token of the login; changing and resetting the password go
through `league.club.accounts.services.password_set` (API tokens revoked, other sessions
ended, the holder recorded as the one who set it); the password change keeps the session
of the person who made it.
"""

from typing import cast

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.club.accounts.lockout import (
    lockout_response,
    password_guard_failed,
    password_guard_locked,
    password_link_failed,
    password_link_locked,
)
from league.club.accounts.selectors import api_tokens_of
from league.club.accounts.services import (
    api_token_revoke,
    api_tokens_revoke,
    login_email_set,
    password_set,
)
from league.club.errors import BooksError


class LogoutView(auth_views.LogoutView):
    """POST /logout/: end the session and revoke the login's API tokens."""

    def post(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            api_tokens_revoke(user=request.user)
        return super().post(request, *args, **kwargs)


class PasswordChangeView(auth_views.PasswordChangeView):
    """/passwort/: the old password and the new one twice (Django's validators); the
    session stays, the login's API tokens and other sessions go (`password_set`).

    Throttled like the login: a wrong old password counts as a failed login of this login
    name from this address (django-axes), and while it is locked out the change is refused
    with the lockout page (429)."""

    success_url = reverse_lazy("password_change_done")

    def post(self, request, *args, **kwargs):
        username = request.user.get_username()
        if password_guard_locked(request, username=username):
            return lockout_response(request, None, {"username": username})
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if "old_password" in form.errors:
            password_guard_failed(self.request, username=form.user.get_username())
        return super().form_invalid(form)

    def form_valid(self, form):
        password_set(user=form.user, password=form.cleaned_data["new_password1"], by_holder=True)
        update_session_auth_hash(self.request, form.user)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetView(auth_views.PasswordResetView):
    """/passwort/vergessen/: an e-mail with a one-day link to every active login with that
    address (and, so as not to tell who has a login, the same answer for any address)."""

    success_url = reverse_lazy("password_reset_done")
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """/passwort/neu/<uid>/<token>/: the new password twice. The holder sets it
    (`password_set`): API tokens and other sessions go, a lockout after failed logins is
    lifted. A link that does not work counts against this address
    (`password_link_failed`); too many and every link is refused from here for a while."""

    success_url = reverse_lazy("password_reset_complete")

    def dispatch(self, *args, **kwargs):
        if password_link_locked(self.request):
            return lockout_response(self.request, None, None)
        response = super().dispatch(*args, **kwargs)
        # A good link answers with a redirect (its token moves into the session) or, then,
        # with the form (validlink); anything else is the page "this link does not work".
        if not self.validlink and not isinstance(response, HttpResponseRedirect):
            password_link_failed(self.request)
        return response

    def form_valid(self, form):
        password_set(user=form.user, password=form.cleaned_data["new_password1"], by_holder=True)
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())


@login_required
def my_logins(request: HttpRequest) -> HttpResponse:
    """/anmeldungen/ "Meine Anmeldungen": the login's API tokens (apps and scripts), when
    issued and until when they hold, each with a button to revoke it."""
    user = cast(User, request.user)  # login_required: not anonymous
    tokens = api_tokens_of(user=user)
    return render(request, "registration/my_logins.html", {"tokens": tokens, "email": user.email})


@login_required
@require_POST
def my_login_email(request: HttpRequest) -> HttpResponse:
    """POST /anmeldungen/email/: set or clear the login's e-mail address (for "Passwort
    vergessen" and the reminders); a bad address is a German message, nothing saved."""
    user = cast(User, request.user)  # login_required: not anonymous
    try:
        email = login_email_set(user=user, email=str(request.POST.get("email", ""))[:1000])
    except BooksError as exc:
        messages.error(request, exc.message)
    else:
        if email:
            messages.success(request, _("Your e-mail address was saved."))
        else:
            messages.success(request, _("Your e-mail address was removed."))
    return redirect("my_logins")


@login_required
@require_POST
def my_login_revoke(request: HttpRequest, key: str) -> HttpResponse:
    """POST /anmeldungen/<id>/widerrufen/: revoke one token ("alle": every token)."""
    user = cast(User, request.user)  # login_required: not anonymous
    if key == "alle":
        api_tokens_revoke(user=user)
        messages.success(request, _("All API logins were revoked."))
    else:
        try:
            api_token_revoke(user=user, key=key)
        except BooksError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The API login was revoked."))
    return redirect("my_logins")
