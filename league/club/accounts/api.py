"""REST API of logins: get a token, log out, list and revoke the login's
tokens, change the password. Writes: league/club/accounts/services.py; OpenAPI prose:
league/club/accounts/schema.py.

- ``POST   auth/token/``         anyone: a new token of the login (429 when locked out)
- ``POST   auth/logout/``        revoke this token (a session: end it, revoke all tokens)
- ``POST   auth/logout-all/``    revoke every token of the login
- ``GET    auth/tokens/``        the login's valid tokens
- ``DELETE auth/tokens/{id}/``   revoke one of them
- ``POST   auth/password/``      change the password (revokes every token)

The club's logins, for its secretary only (what the page /verein/zugaenge/ does):

- ``GET    logins/``                    every active person: login, secretary, locked
- ``POST   logins/{member_id}/invite/``  a login by invitation (a new one, or a new link)
- ``POST   logins/{member_id}/lock/``    lock the login (not the last secretary's)
- ``POST   logins/{member_id}/unlock/``  unlock it, and lift a lockout after failed logins
"""

from django.contrib.auth import authenticate, logout, update_session_auth_hash
from django.contrib.auth.signals import user_logged_in
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import exceptions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from league.club.accounts import schema
from league.club.accounts.lockout import (
    LOCKED_OUT,
    lockout_message,
    password_guard_failed,
    password_guard_locked,
)
from league.club.accounts.selectors import api_tokens_of, logins_locked_out
from league.club.accounts.serializers import (
    ClubLoginSerializer,
    InvitationSerializer,
    InviteBodySerializer,
    IssuedTokenSerializer,
    LoginSerializer,
    PasswordChangeSerializer,
    TokenInfoSerializer,
)
from league.club.accounts.services import (
    api_token_create,
    api_token_logout,
    api_token_revoke,
    api_tokens_revoke,
    password_change,
)
from league.club.api_common import club_of, require_secretary
from league.club.errors import BooksError
from league.club.models import Member
from league.club.parsers import BoundedJSONParser
from league.club.services import login_create, login_invitation, login_lock


@extend_schema(tags=["Club and login"])
class TokenView(APIView):
    """POST /api/v1/auth/token/: exchange username and password for a new token."""

    writes_books = False  # logins, not the books: no 409 (league/club/api_schema.py)

    authentication_classes: list = []
    permission_classes = [AllowAny]
    # Form posts as DRF's token view took them, and JSON bounded like every other body.
    parser_classes = [FormParser, MultiPartParser, BoundedJSONParser]

    @schema.TOKEN_POST
    def post(self, request):
        data = LoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The plain HttpRequest, so that django-axes counts the failure and marks a lockout
        # on the request its middleware sees (DRF's Request would keep the mark to itself).
        http_request = request._request
        user = authenticate(http_request, **data.validated_data)
        if user is None:
            if getattr(http_request, "axes_locked_out", False):
                raise BooksError(LOCKED_OUT, lockout_message(), status=429)
            raise exceptions.ValidationError(
                _("Unable to log in with provided credentials."), code="authorization"
            )
        instance, token = api_token_create(user=user)
        user_logged_in.send(sender=user.__class__, request=http_request, user=user)
        return Response(IssuedTokenSerializer({"token": token, "expiry": instance.expiry}).data)


@extend_schema(tags=["Club and login"])
class LogoutView(APIView):
    """POST /api/v1/auth/logout/: revoke the token of this request."""

    writes_books = False  # logins, not the books: no 409 (league/club/api_schema.py)

    @schema.LOGOUT_POST
    def post(self, request):
        if isinstance(request.auth, AuthToken):
            api_token_logout(token=request.auth)
        else:  # a session: the same as the page's logout
            api_tokens_revoke(user=request.user)
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["Club and login"])
class LogoutAllView(APIView):
    """POST /api/v1/auth/logout-all/: revoke every token of the login."""

    writes_books = False  # logins, not the books: no 409 (league/club/api_schema.py)

    @schema.LOGOUT_ALL_POST
    def post(self, request):
        api_tokens_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["Club and login"])
class TokenListView(APIView):
    """GET /api/v1/auth/tokens/: the login's valid tokens."""

    @schema.TOKENS_GET
    def get(self, request):
        current = request.auth.pk if isinstance(request.auth, AuthToken) else None
        tokens = api_tokens_of(user=request.user)
        return Response(
            TokenInfoSerializer(tokens, many=True, context={"current_pk": current}).data
        )


@extend_schema(tags=["Club and login"])
class TokenDetailView(APIView):
    """DELETE /api/v1/auth/tokens/{id}/: revoke one of the login's tokens."""

    writes_books = False  # logins, not the books: no 409 (league/club/api_schema.py)

    @schema.TOKEN_DELETE
    def delete(self, request, id: str):
        api_token_revoke(user=request.user, key=id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["Club and login"])
class PasswordChangeView(APIView):
    """POST /api/v1/auth/password/: change the password; every token is revoked."""

    writes_books = False  # logins, not the books: no 409 (league/club/api_schema.py)

    @schema.PASSWORD_POST
    def post(self, request):
        data = PasswordChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Throttled like the login: the plain HttpRequest, whose lockout mark axes'
        # middleware turns into the 429 answer.
        http_request, username = request._request, request.user.get_username()
        if password_guard_locked(http_request, username=username):
            raise BooksError(LOCKED_OUT, lockout_message(), status=429)
        try:
            password_change(user=request.user, **data.validated_data)
        except BooksError as exc:
            if exc.code == "wrong_password":
                password_guard_failed(http_request, username=username)
            raise
        if not isinstance(request.auth, AuthToken):  # a session stays logged in
            update_session_auth_hash(request._request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------- the club's logins


def _login_row(person: Member, locked_out: set[str]) -> dict:
    user = person.user
    return {
        "member": person.pk,
        "name": person.name,
        "is_secretary": person.is_secretary,
        "username": user.username if user else None,
        "locked": bool(user and not user.is_active),
        "locked_out": bool(user and user.username in locked_out),
        "invitation_open": bool(user and not user.has_usable_password()),
        "password_set_by_holder": bool(user and person.password_set_by_holder),
    }


def _person(request, member_id: int) -> Member:
    """The club's person `member_id` for its secretary (403 `secretary_required` for
    anyone else, 404 for a person of another club)."""
    require_secretary(request)
    return get_object_or_404(
        Member.objects.select_related("user"), pk=member_id, club=club_of(request)
    )


def _login_row_of(person: Member) -> dict:
    person = Member.objects.select_related("user").get(pk=person.pk)
    names = [person.user.username] if person.user else []
    return _login_row(person, logins_locked_out(usernames=names))


@extend_schema(tags=["Club and login"])
class ClubLoginListView(APIView):
    """GET /api/v1/logins/: the club's active people and their logins (secretary only)."""

    @schema.LOGINS_GET
    def get(self, request):
        require_secretary(request)
        people = list(
            Member.objects.filter(club=club_of(request), active=True)
            .select_related("user")
            .order_by("name")
        )
        locked_out = logins_locked_out(usernames=[p.user.username for p in people if p.user])
        rows = [_login_row(person, locked_out) for person in people]
        return Response(ClubLoginSerializer(rows, many=True).data)


@extend_schema(tags=["Club and login"])
class ClubLoginInviteView(APIView):
    """POST /api/v1/logins/{member_id}/invite/: a login by invitation (secretary only)."""

    @schema.LOGIN_INVITE_POST
    def post(self, request, member_id: int):
        person = _person(request, member_id)
        body = InviteBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if person.user_id is None:
            username = body.validated_data.get("username") or ""
            login_create(person=person, username=username)
        uidb64, token = login_invitation(person=person)
        path = reverse("login_invitation_accept", kwargs={"uidb64": uidb64, "token": token})
        row = {**_login_row_of(person), "invitation": request.build_absolute_uri(path)}
        return Response(InvitationSerializer(row).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["Club and login"])
class ClubLoginLockView(APIView):
    """POST /api/v1/logins/{member_id}/lock/: lock the person's login (secretary only)."""

    locked = True

    @schema.LOGIN_LOCK_POST
    def post(self, request, member_id: int):
        person = _person(request, member_id)
        login_lock(person=person, locked=self.locked, by=request.user)
        return Response(ClubLoginSerializer(_login_row_of(person)).data)


@extend_schema(tags=["Club and login"])
class ClubLoginUnlockView(ClubLoginLockView):
    """POST /api/v1/logins/{member_id}/unlock/: unlock the person's login and lift a
    lockout after failed logins (secretary only)."""

    locked = False

    @schema.LOGIN_UNLOCK_POST
    def post(self, request, member_id: int):
        return super().post(request, member_id)
