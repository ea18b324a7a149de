"""Writes of a login's API tokens and password.

Tokens are django-rest-knox's `AuthToken` rows: only a SHA-512 digest of the token is
stored, beside its first 15 characters (`token_key`, the token's public id). A token
expires `SCHOCKCLUB_TOKEN_DAYS` days (settings.REST_KNOX["TOKEN_TTL"], 30 by default) after
it was issued. Logging out (page or API) and changing or resetting the password revoke the
tokens.
"""

from __future__ import annotations

from collections.abc import Callable

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.models import AuthToken
from knox.settings import knox_settings

from league.club.books import register_changed_of_login
from league.club.errors import BooksError
from league.club.models import Member
from league.club.scoping import across_clubs, club_scope, clubless_scope


def api_token_create(*, user: User) -> tuple[AuthToken, str]:
    """Issue a new API token for `user`: (its row, the token string, shown only now).

    The login's tokens that have expired are removed first (until then an expired token is
    answered 401 `token_expired`, not `invalid_token`)."""
    with transaction.atomic():
        AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
        issued: tuple[AuthToken, str] = AuthToken.objects.create(
            user=user, expiry=knox_settings.TOKEN_TTL
        )
        return issued


#: What the layers above keep for a login on a device (league.banking: the browsers'
#: push subscriptions) and forget when the login's access ends; called with `user=`.
LoginEndedReceiver = Callable[..., object]
_login_ended_receivers: list[LoginEndedReceiver] = []


def login_ended_connect(receiver: LoginEndedReceiver) -> None:
    """Call `receiver(user=...)` whenever a login's access ends: a logout (page or API),
    "logout everywhere", a password set by any path, the login locked. The register sits
    below the books and cannot import them; league/apps.py connects at start-up."""
    if receiver not in _login_ended_receivers:
        _login_ended_receivers.append(receiver)


def _login_ended(user: User) -> None:
    for receiver in _login_ended_receivers:
        receiver(user=user)


def api_tokens_revoke(*, user: User) -> int:
    """Revoke every API token of `user` (logout everywhere, a password change or reset, the
    login locked); how many there were. The login's access has ended: the connected
    receivers forget what devices keep for it (`login_ended_connect`)."""
    with transaction.atomic():
        deleted: int = AuthToken.objects.filter(user=user).delete()[0]
        _login_ended(user)
    return deleted


def api_token_logout(*, token: AuthToken) -> None:
    """Revoke `token`, the one an API request logged out with (the login's other tokens
    stay). The login's access on that device has ended: the connected receivers forget
    what devices keep for it (`login_ended_connect`), as at every logout."""
    with transaction.atomic():
        user = token.user
        token.delete()
        _login_ended(user)


def api_token_revoke(*, user: User, key: str) -> None:
    """Revoke the token of `user` whose public id (`token_key`) is `key`.

    Raises BooksError `token_not_found` (404) when `user` has no such token: another
    login's token does not exist for them."""
    deleted, _per_model = AuthToken.objects.filter(user=user, token_key=key).delete()
    if not deleted:
        raise BooksError("token_not_found", _("No such login."), status=404)


def password_set(*, user: User, password: str | None, by_holder: bool) -> None:
    """Set the password of `user`'s login, the one path every flow takes (the invitation,
    a reset by e-mail, a change with the old password, the admin), in one transaction:

    - the login's API tokens are revoked (django-rest-knox rows deleted);
    - its sessions end: Django keeps a hash of the password in every session and drops a
      session whose hash no longer matches on its next request; the caller keeps the
      session of the person who set it with `update_session_auth_hash`;
    - the person's `password_set_by_holder` records `by_holder` (True only for the
      invitation, the reset and the change, which the holder does; the admin sets False),
      with the reason "password_set" in the person's audit trail;
    - a password the holder set also lifts a lockout after failed logins (django-axes).

    `password` None makes the password unusable (the admin's "no password"). The password
    is not checked here: the forms and `password_change` run Django's validators first."""
    with transaction.atomic():
        if password is None:
            user.set_unusable_password()
        else:
            user.set_password(password)
        user.save(update_fields=["password"])
        # The login's own person, whichever scope is open (a reset link's: none); the
        # rest runs in the scope of its club.
        with across_clubs():
            person = Member.objects.select_for_update().filter(user=user).first()
        with club_scope(person.club_id) if person is not None else clubless_scope():
            api_tokens_revoke(user=user)
            if person is not None:
                person.password_set_by_holder = by_holder and password is not None
                person._change_reason = "password_set"  # type: ignore[attr-defined]
                person.save(update_fields=["password_set_by_holder"])
            if by_holder:
                login_lockout_lift(user=user)
            # The logins page shows whether a login waits for its invitation: the register.
            register_changed_of_login(user=user)


def password_change(*, user: User, old_password: str, new_password: str) -> None:
    """Change the password of `user` (the API's password change; the page uses Django's
    PasswordChangeForm and then `password_set`): the holder sets it, so `password_set`
    with `by_holder` (API tokens revoked, other sessions ended).

    Raises BooksError `wrong_password` (field old_password) when the old password is wrong,
    `invalid_password` (field new_password, Django's validators' German messages) when the
    new one is too short, too common, all digits or too like the login's name."""
    if not user.check_password(old_password):
        raise BooksError(
            "wrong_password",
            _("Your old password was entered incorrectly. Please enter it again."),
            field="old_password",
        )
    try:
        password_validation.validate_password(new_password, user)
    except ValidationError as exc:
        raise BooksError("invalid_password", " ".join(exc.messages), field="new_password") from exc
    password_set(user=user, password=new_password, by_holder=True)


def login_lockout_lift(*, user: User) -> int:
    """Lift the lockout after failed logins of `user`'s login name, from every address
    (django-axes' attempts deleted); how many attempt rows there were. Called when the
    holder sets a password and when a secretary unlocks the login."""
    removed: int = AxesProxyHandler.reset_attempts(username=user.get_username())
    return removed


EMAIL_MAX_LENGTH = 254


def login_email_set(*, user: User, email: str) -> str:
    """Set (or, with an empty string, clear) the e-mail address of `user`'s login: where
    "Passwort vergessen" sends its link and the monthly reminder of an open amount goes
    (league.banking.reminders). Returns the address as stored (trimmed, its domain in
    lower case, as Django's `BaseUserManager.normalize_email`).

    Raises BooksError `invalid_email` (field email) for anything that is not one address of
    at most 254 characters (Django's EmailValidator: no name part, no list, no control
    characters)."""
    email = email.strip()
    if email:
        email = email_normalized(email)
    user.email = email
    user.save(update_fields=["email"])
    return email


def email_normalized(email: str) -> str:
    """One e-mail address as a login stores it: trimmed, its domain in lower case (Django's
    `BaseUserManager.normalize_email`).

    Raises BooksError `invalid_email` (field email) for an empty string and anything that
    is not one address of at most 254 characters (Django's EmailValidator: no name part, no
    list, no control characters)."""
    email = email.strip()
    invalid = BooksError("invalid_email", _("Enter a valid e-mail address."), field="email")
    if not email or len(email) > EMAIL_MAX_LENGTH:
        raise invalid
    if any(ord(c) < 32 or ord(c) == 127 for c in email):
        raise invalid
    try:
        validate_email(email)
    except ValidationError:
        raise invalid from None
    return User.objects.normalize_email(email)
