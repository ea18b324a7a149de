"""`Authorization: Token <token>` for the API, by django-rest-knox's hashed tokens, with
stable codes for the two refusals:

- 401 `token_expired`: the token was issued more than SCHOCKCLUB_TOKEN_DAYS days ago (or
  its expiry has passed); get a new one at POST /api/v1/auth/token/.
- 401 `invalid_token`: unknown, revoked (logout, password change) or malformed.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from hmac import compare_digest
from typing import Any

from django.db import connections, router
from django.db.models.query import get_related_populators
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import exceptions


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


@dataclass(frozen=True)
class _CompiledTokenRead:
    """The token query's SQL and what turns its rows into objects, as Django's ORM built
    them for one database connection."""

    sql: str
    converters: dict[int, Any]
    apply_converters: Any
    init_list: list[str]
    token_columns: slice
    populators: list[Any]


_compiled_reads: dict[str, _CompiledTokenRead] = {}


def _compile_token_read(alias: str) -> _CompiledTokenRead:
    queryset = (
        AuthToken.objects.using(alias)
        .filter(token_key="")
        .select_related("user", "user__member", "user__member__club")
    )
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()  # also lays out compiler.select and klass_info
    if list(params) != [""]:
        raise RuntimeError(f"the token query has other parameters: {params!r}")
    select, klass_info = compiler.select, compiler.klass_info
    columns = klass_info["select_fields"]
    return _CompiledTokenRead(
        sql=sql,
        converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
        apply_converters=compiler.apply_converters,
        init_list=[f[0].target.attname for f in select[columns[0] : columns[-1] + 1]],
        token_columns=slice(columns[0], columns[-1] + 1),
        # Django 5.2's signature (the type stubs describe a later one)
        populators=get_related_populators(klass_info, select, alias),  # type: ignore[call-arg]
    )


def tokens_by_key(token_key: str) -> list[AuthToken]:
    """The tokens whose `token_key` (the token's first characters) is `token_key`, each
    with its login, the login's person (`user.member`, None without) and the person's
    club read along: one query, as
    `AuthToken.objects.filter(token_key=...).select_related("user", "user__member",
    "user__member__club")` reads them (league.club.access.member_for_user reads the person
    and club from the user then).

    The ORM builds that query's SQL anew for each request, which cost more CPU than the
    whole bare request (bench/bench_api_profile.py); here Django builds it once per
    database, and each request runs the same SQL with its key and makes the objects with
    Django's own row converters and related-object populators."""
    alias = router.db_for_read(AuthToken)
    read = _compiled_reads.get(alias)
    if read is None:
        read = _compiled_reads.setdefault(alias, _compile_token_read(alias))
    with connections[alias].cursor() as cursor:
        cursor.execute(read.sql, [token_key])
        rows: Any = cursor.fetchall()
    if read.converters:
        rows = read.apply_converters(rows, read.converters)
    tokens = []
    for row in rows:
        token = AuthToken.from_db(alias, read.init_list, row[read.token_columns])
        for populator in read.populators:
            populator.populate(row, token)
        tokens.append(token)
    return tokens


class ExpiringTokenScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI schema: `Authorization: Token <token>`, named `tokenAuth`
    as with DRF's token before, so the schema's security stays the same."""

    target_class = ExpiringTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
