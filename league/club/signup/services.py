"""Writes of a club's sign-up: the request (counted per e-mail address and per client
address, mailed as a signed link) and its confirmation (the club, its secretary's login
and password, the first season)."""

from __future__ import annotations

import dataclasses
import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from league.club.accounts.services import email_normalized, login_email_set, password_set
from league.club.errors import BooksError
from league.club.models import Club, ClubSignup, Member
from league.club.names import clean_name
from league.club.scoping import club_scope
from league.club.services import club_create, club_exists_error, login_create, season_create

#: The salt of the signed sign-up links: a link of another kind (a shared evening, a
#: password reset) is never read as one.
SIGNUP_SALT = "league.club.signup"
#: The window (hours) in which sign-up requests are counted per address.
SIGNUP_WINDOW = datetime.timedelta(hours=1)


@dataclasses.dataclass(frozen=True)
class SignupLink:
    """What a sign-up link carries: the request's row id, the club's name, the secretary's
    name and e-mail address (the login's user name)."""

    signup_id: int
    club_name: str
    secretary_name: str
    email: str


def _rate_limited() -> BooksError:
    return BooksError(
        "signup_rate_limited",
        _("Too many sign-ups from here. Please try again in an hour."),
        status=429,
    )


def club_signup_request(
    *, club_name: str, secretary_name: str, email: str, address: str | None
) -> str:
    """Record a club's sign-up and return the signed token of its confirmation link (the
    link holds for settings.SIGNUP_LINK_HOURS hours). Nothing of the club is made yet.

    At most settings.SIGNUP_MAX_PER_EMAIL requests per e-mail address and
    settings.SIGNUP_MAX_PER_ADDRESS per client address (`address`, None when unknown) in an
    hour. Raises BooksError `name_required` and the other name refusals, `club_exists`
    (409, the name taken ignoring case), `invalid_email`, `username_taken` (409, the
    address has a login already), `signup_rate_limited` (429)."""
    name = clean_name(club_name)
    secretary = clean_name(secretary_name)
    email = email_normalized(email)
    if Club.objects.filter(name__iexact=name).exists():
        raise club_exists_error(name)
    if User.objects.filter(username__iexact=email).exists():
        raise BooksError(
            "username_taken",
            _("This e-mail address has a login already."),
            field="email",
            status=409,
        )
    now = timezone.now()
    recent = ClubSignup.objects.filter(created_at__gte=now - SIGNUP_WINDOW)
    if recent.filter(email__iexact=email).count() >= settings.SIGNUP_MAX_PER_EMAIL:
        raise _rate_limited()
    if address and recent.filter(address=address).count() >= settings.SIGNUP_MAX_PER_ADDRESS:
        raise _rate_limited()
    signup = ClubSignup.objects.create(
        club_name=name, email=email, address=address or None, created_at=now
    )
    return signing.dumps(
        {"id": signup.pk, "club": name, "secretary": secretary, "email": email},
        salt=SIGNUP_SALT,
        compress=True,
    )


def signup_link_url(*, token: str) -> str:
    """The confirmation link of `token` at the site's address (settings.SITE_URL)."""
    path = reverse("club_signup_confirm", kwargs={"token": token})
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def signup_link_send(*, email: str, token: str) -> None:
    """Mail the confirmation link of `token` to `email` (German, plain text)."""
    send_mail(
        _("Your club at Schockclub"),
        _(
            "Hello,\n\nsomeone (hopefully you) signed a club up at Schockclub with this "
            "address. To confirm it and set your password, open this link within "
            "%(hours)s hours:\n\n%(url)s\n\nIf it was not you, nothing happens: ignore "
            "this e-mail.\n"
        )
        % {"hours": settings.SIGNUP_LINK_HOURS, "url": signup_link_url(token=token)},
        None,
        [email],
    )


def signup_link_read(*, token: str) -> SignupLink:
    """What the link of `token` carries.

    Raises BooksError `signup_link_expired` (older than settings.SIGNUP_LINK_HOURS hours)
    or `signup_link_invalid` (not one of ours, altered), both 404."""
    try:
        data = signing.loads(
            token, salt=SIGNUP_SALT, max_age=datetime.timedelta(hours=settings.SIGNUP_LINK_HOURS)
        )
    except signing.SignatureExpired as exc:
        raise BooksError(
            "signup_link_expired",
            _("This link has expired. Please sign the club up again."),
            status=404,
        ) from exc
    except signing.BadSignature as exc:
        raise BooksError("signup_link_invalid", _("This link is not valid."), status=404) from exc
    try:
        return SignupLink(
            signup_id=int(data["id"]),
            club_name=str(data["club"]),
            secretary_name=str(data["secretary"]),
            email=str(data["email"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BooksError("signup_link_invalid", _("This link is not valid."), status=404) from exc


@transaction.atomic
def club_signup_confirm(*, token: str, password: str) -> Member:
    """Confirm the sign-up of `token`: the club (`club_create`, the club's house rules),
    its secretary with a login named by the e-mail address and the password the secretary
    set here (`password_set` by the holder; the caller has run Django's validators), and
    the season of this year (`season_create`: the preset's flags, the statutes' Mark
    value). All or nothing. Returns the secretary.

    Raises BooksError `signup_link_invalid` / `signup_link_expired` (404), `club_exists`
    (409, the link used already or the name taken meanwhile), `username_taken` (409)."""
    link = signup_link_read(token=token)
    person = club_create(name=link.club_name, secretary_name=link.secretary_name)
    with club_scope(person.club_id):  # no login yet: the new club's scope
        user = login_create(person=person, username=link.email)
        login_email_set(user=user, email=link.email)
        password_set(user=user, password=password, by_holder=True)
        season_create(club=person.club, year=timezone.localdate().year)
        ClubSignup.objects.filter(pk=link.signup_id, confirmed_at__isnull=True).update(
            confirmed_at=timezone.now()
        )
        return Member.objects.select_related("club", "user").get(pk=person.pk)
