"""The sign-up pages: /registrieren/ (the request) and /registrieren/<link>/ (the
secretary's confirmation). Both are 404 unless settings.SIGNUP_OPEN."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.club.accounts.backends import LOGIN_BACKEND
from league.club.errors import BooksError
from league.club.signup.forms import SignupConfirmForm, SignupForm
from league.club.signup.services import signup_link_read, signup_link_send


def signup_open(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """404 unless settings.SIGNUP_OPEN (read on each request: tests and the operator may
    turn it off without a new import)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not settings.SIGNUP_OPEN:
            raise Http404
        return view(request, *args, **kwargs)

    return wrapper


@signup_open
def club_signup(request: HttpRequest) -> HttpResponse:
    """The sign-up form; a good request mails the confirmation link and says so (429 when
    too many came from the address or the e-mail address)."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token = form.save(address=get_client_ip_address(request))
        if token is not None:
            signup_link_send(email=form.cleaned_data["email"], token=token)
            return render(request, "league/signup/sent.html", {"email": form.cleaned_data["email"]})
    status = 429 if form.refusal is not None and form.refusal.status == 429 else 200
    return render(request, "league/signup/form.html", {"form": form}, status=status)


@signup_open
def club_signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The confirmation link's page: the secretary sets the password; the club, its
    login and its first season are made, the secretary is logged in and sent home."""
    try:
        link = signup_link_read(token=token)
    except BooksError as exc:
        return render(request, "league/signup/invalid.html", {"message": exc.message}, status=404)
    form = SignupConfirmForm(link, request.POST or None)
    if request.method == "POST" and form.is_valid():
        person = form.confirm(token=token)
        if person is not None and person.user is not None:
            login(request, person.user, backend=LOGIN_BACKEND)
            messages.success(request, _("Welcome! Your club is ready; enter its first evening."))
            return redirect("home")
    return render(request, "league/signup/confirm.html", {"form": form, "link": link})
