"""REST API of logins (issue 13 item 3): get a token, log out, list and revoke the login's
tokens, change the password. Writes: league/club/accounts/services.py; OpenAPI prose:
league/club/accounts/schema.py.

- ``POST   auth/token/``         anyone: a new token of the login (429 when locked out)
- ``POST   auth/logout/``        revoke this token (a session: end it, revoke all tokens)
- ``POST   auth/logout-all/``    revoke every token of the login
- ``GET    auth/tokens/``        the login's valid tokens
- ``DELETE auth/tokens/{id}/``   revoke one of them
- ``POST   auth/password/``      change the password (revokes every token)
"""

from django.contrib.auth import authenticate, logout, update_session_auth_hash
from django.contrib.auth.signals import user_logged_in
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
from league.club.accounts.selectors import api_tokens_of
from league.club.accounts.serializers import (
    IssuedTokenSerializer,
    LoginSerializer,
    PasswordChangeSerializer,
    TokenInfoSerializer,
)
from league.club.accounts.services import (
    api_token_create,
    api_token_revoke,
    api_tokens_revoke,
    password_change,
)
from league.club.errors import BooksError
from league.club.parsers import BoundedJSONParser


@extend_schema(tags=["Club and login"])
class TokenView(APIView):
    """POST /api/v1/auth/token/: exchange username and password for a new token."""

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

    @schema.LOGOUT_POST
    def post(self, request):
        if isinstance(request.auth, AuthToken):
            request.auth.delete()
        else:  # a session: the same as the page's logout
            api_tokens_revoke(user=request.user)
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["Club and login"])
class LogoutAllView(APIView):
    """POST /api/v1/auth/logout-all/: revoke every token of the login."""

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

    @schema.TOKEN_DELETE
    def delete(self, request, id: str):
        api_token_revoke(user=request.user, key=id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["Club and login"])
class PasswordChangeView(APIView):
    """POST /api/v1/auth/password/: change the password; every token is revoked."""

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
