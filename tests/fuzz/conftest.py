"""The fuzzers' data: the demo club (league/management/commands/demo.py: its members,
guests, logins, payments and simulated evenings of two seasons, and the second club),
entered once for the whole tests/fuzz package inside a transaction that is rolled back at
its end, so every other test still starts from an empty database.

It is the demo of tests/pages/demo, for the same day (tests/pages/demo/demo_rows.py): the
packages share the xdist group "demo", so on one worker the demo is built once and copied
into the other package's transaction by COPY (a second build took half a minute)."""

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.core.cache import caches
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection, transaction
from knox.models import AuthToken
from rest_framework.test import APIClient

from league.club.accounts.services import api_token_create
from league.club.models import Club, Member
from league.management.commands import demo
from tests.pages.demo.demo_rows import DEMO_TODAY, demo_entered


@dataclass(frozen=True)
class Demo:
    """The demo club, its secretary, a member and a guest (each with a login)."""

    club: Club
    secretary: Member
    member: Member
    guest: Member


@pytest.fixture(scope="package")
def demo_club(django_db_setup, django_db_blocker) -> Iterator[Demo]:
    """The demo club, rolled back after the last test of tests/fuzz."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            demo_entered(DEMO_TODAY)
            # The demo's foreign keys are checked here, once (PostgreSQL defers the checks
            # to the commit): left pending, every test's teardown (SET CONSTRAINTS ALL
            # IMMEDIATE in a savepoint rolled back after it) checked them all again.
            connection.check_constraints()
            club = Club.objects.get(name=demo.CLUB)
            yield Demo(
                club=club,
                secretary=Member.objects.get(club=club, name=demo.SECRETARY),
                member=Member.objects.get(club=club, name="Anna Becker"),
                guest=Member.objects.get(club=club, name="Gustav Meier"),
            )
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            for cache in caches.all():
                cache.clear()


@pytest.fixture
def wsgi_app() -> Iterator[object]:
    """Django's WSGI application for schemathesis to call in-process.

    The raw WSGI app closes the database connection at every request's start and end
    (close_old_connections); inside the test's transaction that would close it for good on
    PostgreSQL. Django's own test client detaches it in the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(scope="package")
def served_api_schema(demo_club, django_db_blocker) -> dict:
    """The OpenAPI document as the demo secretary is served it, fetched once for the
    package: drf-spectacular builds it anew at every request, in seconds."""
    with django_db_blocker.unblock():
        client = APIClient()
        client.force_authenticate(demo_club.secretary.user)
        response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


@pytest.fixture
def raw_api_schema(served_api_schema, db) -> dict:
    """The OpenAPI document as the demo secretary is served it: each test its own copy,
    since schemathesis changes the document it loads."""
    return copy.deepcopy(served_api_schema)


class _KeptToken:
    """The Authorization header of an API token of `user`, the same token while it lasts:
    the fuzzers revoke tokens (DELETE /api/v1/auth/tokens/{id}/, a logout, a password
    change), so each call first asks whether the token is still there (one query) and
    makes a new one only when it is gone (a new token per request was four queries of the
    six a fuzzed write sent)."""

    def __init__(self, user) -> None:
        self.user = user
        self.token: AuthToken | None = None
        self.key = ""

    def __call__(self) -> dict[str, str]:
        if self.token is None or not AuthToken.objects.filter(pk=self.token.pk).exists():
            self.token, self.key = api_token_create(user=self.user)
        return {"Authorization": f"Token {self.key}"}


@pytest.fixture
def secretary_headers(demo_club, db) -> Callable[[], dict[str, str]]:
    """A function giving the Authorization header of an API token of the demo secretary
    that is valid when asked (`_KeptToken`)."""
    return _KeptToken(demo_club.secretary.user)


@pytest.fixture
def secretary_read_headers(demo_club, db) -> Iterator[dict[str, str]]:
    """The Authorization header of one API token of the demo secretary, for a test that
    only reads (GET): a read revokes no token, so one serves all its requests (a fresh one
    per request cost a fifth of the reads' time). Checked after the test: the token is
    still there, so no request went without it."""
    token, key = api_token_create(user=demo_club.secretary.user)
    yield {"Authorization": f"Token {key}"}
    assert AuthToken.objects.filter(pk=token.pk).exists(), "a read revoked the secretary's token"


@pytest.fixture
def role_headers(demo_club, db) -> Callable[[str], dict[str, str]]:
    """role_headers("member") -> the Authorization header of an API token of the demo
    club's member ("secretary", "member" or "guest") that is valid when asked
    (`_KeptToken`)."""
    tokens: dict[str, _KeptToken] = {}

    def headers(role: str) -> dict[str, str]:
        if role not in tokens:
            tokens[role] = _KeptToken(getattr(demo_club, role).user)
        return tokens[role]()

    return headers
