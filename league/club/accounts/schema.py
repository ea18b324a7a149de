"""OpenAPI documentation of the login API (league/club/accounts/api.py): summaries,
descriptions and examples, as drf-spectacular decorators the views wear."""

from drf_spectacular.utils import OpenApiResponse, extend_schema

from league.club.accounts.serializers import (
    IssuedTokenSerializer,
    LoginSerializer,
    PasswordChangeSerializer,
    TokenInfoSerializer,
)
from league.club.api_common import ErrorSerializer, api_example, error_responses

TOKEN = "0f3a9c1e5b7d2a4c6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d"
EXPIRY = "2026-12-09T20:15:00+01:00"

LOCKED_OUT_RESPONSE = OpenApiResponse(
    ErrorSerializer,
    description="`locked_out`: too many failed logins for this name from this address "
    "(5 by default); try again after the cool-off (15 minutes by default, `Retry-After` in "
    "seconds).",
    examples=[
        api_example(
            "Locked out",
            {
                "code": "locked_out",
                "message": "Zu viele fehlgeschlagene Anmeldungen. Zu deiner Sicherheit ist "
                "diese Anmeldung für 15 Minuten gesperrt. Bitte versuche es später noch einmal.",
                "field": None,
            },
            response_only=True,
            status_codes=["429"],
        )
    ],
)

TOKEN_POST = extend_schema(
    summary="Get an API token",
    description="Send username and password; the answer is a new token of the login and "
    "when it expires (SCHOCKCLUB_TOKEN_DAYS days, 30 by default). Send it as "
    "`Authorization: Token <token>` with every request. A login may hold several tokens "
    "(one per device); each is listed at GET /api/v1/auth/tokens/. Wrong credentials: 400 "
    "`authorization`; after 5 failures for one name from one address: 429 `locked_out`. "
    "An expired token is answered 401 `token_expired`, a revoked or unknown one 401 "
    "`invalid_token`.",
    request=LoginSerializer,
    responses={
        200: IssuedTokenSerializer,
        400: error_responses(400)[400],
        429: LOCKED_OUT_RESPONSE,
    },
    auth=[],
    examples=[
        api_example("Login", {"username": "bernd", "password": "geheim-123"}, request_only=True),
        api_example("Token", {"token": TOKEN, "expiry": EXPIRY}, response_only=True),
    ],
)

LOGOUT_POST = extend_schema(
    summary="Log out (this token)",
    description="Revokes the token the request was sent with; with a session (the pages' "
    "login), ends the session and revokes all of the login's tokens, as the page's logout "
    "does. 204, no body.",
    request=None,
    responses={204: None, **error_responses()},
)

LOGOUT_ALL_POST = extend_schema(
    summary="Log out everywhere",
    description="Revokes every token of the login (every device). 204, no body.",
    request=None,
    responses={204: None, **error_responses()},
)

TOKEN_INFO_EXAMPLE = {
    "id": TOKEN[:15],
    "created": "2026-11-09T20:15:00+01:00",
    "expiry": EXPIRY,
    "current": True,
}

TOKENS_GET = extend_schema(
    summary="My API tokens",
    description="The login's tokens that are still valid, newest first: public id (the "
    "token's first 15 characters), when issued, when it expires, and whether this request "
    "used it. The tokens themselves are stored only as hashes and never shown again.",
    responses={200: TokenInfoSerializer(many=True), **error_responses()},
    examples=[api_example("Tokens", [TOKEN_INFO_EXAMPLE], response_only=True)],
)

TOKEN_DELETE = extend_schema(
    summary="Revoke an API token",
    description="Revokes one of the login's tokens by its public id. Another login's token "
    "or an unknown id: 404 `token_not_found`. 204, no body.",
    responses={204: None, **error_responses()},
)

PASSWORD_POST = extend_schema(
    summary="Change my password",
    description="Checks the old password and Django's password rules for the new one "
    "(at least 8 characters, not common, not all digits, not like the login's name), sets "
    "it and revokes all of the login's API tokens (get a new one at POST "
    "/api/v1/auth/token/). Wrong old password: 400 `wrong_password`; a weak new one: 400 "
    "`invalid_password` naming the rule. 204, no body.",
    request=PasswordChangeSerializer,
    responses={204: None, **error_responses(400)},
    examples=[
        api_example(
            "Change",
            {"old_password": "geheim-123", "new_password": "Würfelbecher-1979"},
            request_only=True,
        ),
        api_example(
            "Too weak",
            {
                "code": "invalid_password",
                "message": "Dieses Passwort ist zu kurz. Es muss mindestens 8 Zeichen enthalten.",
                "field": "new_password",
            },
            response_only=True,
            status_codes=["400"],
        ),
    ],
)
