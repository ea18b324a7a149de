"""`Authorization: Token <token>` for the API, by django-rest-knox's hashed tokens, with
stable codes for the two refusals:

- 401 `token_expired`: the token was issued more than SCHOCKCLUB_TOKEN_DAYS days ago (or
  its expiry has passed); get a new one at POST /api/v1/auth/token/.
- 401 `invalid_token`: unknown, revoked (logout, password change) or malformed.
"""

from __future__ import annotations

import binascii
from hmac import compare_digest

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import exceptions

from league.club.compiled_read import CompiledRead


class ExpiringTokenAuthentication(TokenAuthentication):
    """knox's token authentication; an expired token is kept (until its login gets a new
    token) so that it is answered `token_expired` every time, not deleted on first sight as
    knox does and then `invalid_token`."""

    def authenticate_credentials(self, token: bytes):
        invalid = exceptions.AuthenticationFailed(
            _("Invalid token. Log in again to get a new one."), code="invalid_token"
        )
        try:
            text = token.decode("utf-8")
            digest = hash_token(text)
        except (UnicodeDecodeError, TypeError, binascii.Error):
            raise invalid from None
        for auth_token in tokens_by_key(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                raise exceptions.AuthenticationFailed(
                    _("The token has expired. Log in again to get a new one."),
                    code="token_expired",
                )
            # This query read the person and club now (member_for_user trusts them only
            # when so marked: a user object kept across requests carries stale ones).
            auth_token.user.club_read_with_login = True
            return self.validate_user(auth_token)
        raise invalid


_token_read = CompiledRead(
    AuthToken,
    lambda alias: (
        AuthToken.objects.using(alias)
        .filter(token_key="")
        .select_related("user", "user__member", "user__member__club")
    ),
    placeholder="",
)


def tokens_by_key(token_key: str) -> list[AuthToken]:
    """The tokens whose `token_key` (the token's first characters) is `token_key`, each
    with its login, the login's person (`user.member`, None without) and the person's
    club read along: one query, as
    `AuthToken.objects.filter(token_key=...).select_related("user", "user__member",
    "user__member__club")` reads them (league.club.access.member_for_user reads the person
    and club from the user then), its SQL built once per database
    (league/club/compiled_read.py)."""
    return _token_read.read(token_key)


class ExpiringTokenScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI schema: `Authorization: Token <token>`, named `tokenAuth`
    as with DRF's token before, so the schema's security stays the same."""

    target_class = ExpiringTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
