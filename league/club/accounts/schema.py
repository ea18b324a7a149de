"""OpenAPI documentation of the login API (league/club/accounts/api.py): summaries,
descriptions and examples, as drf-spectacular decorators the views wear."""

from drf_spectacular.utils import OpenApiResponse, extend_schema

from league.club.accounts.serializers import (
    ClubLoginSerializer,
    InvitationSerializer,
    InviteBodySerializer,
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
    "/api/v1/auth/token/) and its other sessions. Wrong old password: 400 "
    "`wrong_password`, counted like a failed login: after 5 for this login from this "
    "address, 429 `locked_out` for the cool-off (15 minutes). A weak new one: 400 "
    "`invalid_password` naming the rule. 204, no body.",
    request=PasswordChangeSerializer,
    responses={204: None, **error_responses(400), 429: LOCKED_OUT_RESPONSE},
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

LOGIN_ROW = {
    "member": 7,
    "name": "Anna Becker",
    "is_secretary": False,
    "username": "anna",
    "locked": False,
    "locked_out": False,
    "invitation_open": True,
    "password_set_by_holder": False,
}

LAST_SECRETARY = api_example(
    "Last secretary",
    {
        "code": "last_secretary",
        "message": "Bernd Krause ist der einzige Buchführer des Clubs mit Zugang.",
        "field": None,
    },
    response_only=True,
    status_codes=["409"],
)

LOGINS_GET = extend_schema(
    summary="The club's logins",
    description="The club's secretary only (403 `secretary_required` for anyone else): "
    "every active person of the club with their login, as the page /verein/zugaenge/ "
    "shows them: user name (null: no login yet), secretary, `locked` (by a secretary), "
    "`locked_out` (after too many failed logins, django-axes), `invitation_open` (no "
    "password yet), `password_set_by_holder` (the person set the password themself).",
    responses={200: ClubLoginSerializer(many=True), **error_responses(403)},
    examples=[api_example("Logins", [LOGIN_ROW], response_only=True)],
)

LOGIN_INVITE_POST = extend_schema(
    summary="Invite a person to their login",
    description="The club's secretary only. A person without a login gets one with "
    "`username` (400 `username_required`, `invalid_username`; 409 `username_taken`); a "
    "login without a password gets a new link (the older one keeps working until a "
    "password is set). The answer holds the one-time `invitation` link, shown only now: "
    "the person opens it and sets their own password (logins are given by invitation "
    "only; nobody else chooses or learns a password). A login whose password is set is "
    "refused with 409 `login_has_password`: the person resets a forgotten one with "
    '"Passwort vergessen". Recorded in the person\'s audit trail. 201.',
    request=InviteBodySerializer,
    responses={201: InvitationSerializer, **error_responses(400, 403, 409)},
    examples=[
        api_example("New login", {"username": "anna"}, request_only=True),
        api_example(
            "Invitation",
            {**LOGIN_ROW, "invitation": "https://schock.example.org/einladung/Nw/cz1a-9f3e/"},
            response_only=True,
            status_codes=["201"],
        ),
        api_example(
            "Has a password",
            {
                "code": "login_has_password",
                "message": "Anna Becker hat schon ein Passwort; eine Einladung würde es "
                "ersetzen. Ein vergessenes Passwort setzt die Person selbst mit „Passwort "
                "vergessen?“ auf der Anmeldeseite zurück.",
                "field": None,
            },
            response_only=True,
            status_codes=["409"],
        ),
    ],
)

LOGIN_LOCK_POST = extend_schema(
    summary="Lock a login",
    description="The club's secretary only. The person can no longer log in and the "
    "login's API tokens are revoked; the person and the books stay. The login of the "
    "club's last active secretary is never locked: 409 `last_secretary` (counted under a "
    "lock on the club, so two secretaries locking each other at once leave one); nor is "
    "the asking login's own: 409 `own_login`. A person "
    "without a login: 400 `no_login`. Recorded in the person's audit trail. The answer is "
    "the login as it is now.",
    request=None,
    responses={200: ClubLoginSerializer, **error_responses(400, 403, 409)},
    examples=[LAST_SECRETARY],
)

LOGIN_UNLOCK_POST = extend_schema(
    summary="Unlock a login",
    description="The club's secretary only. The person can log in again: a lock by a "
    "secretary is lifted, and so is a lockout after too many failed logins (django-axes, "
    "from every address). A person without a login: 400 `no_login`. Recorded in the "
    "person's audit trail. The answer is the login as it is now.",
    request=None,
    responses={200: ClubLoginSerializer, **error_responses(400, 403)},
)
