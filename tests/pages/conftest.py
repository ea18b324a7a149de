"""The cast of the page tests (STYLE.md 13): a club with a secretary, a member and a
guest, its 2026 season, and an outsider: the secretary of another club."""

import datetime
import io
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from games.evenings.services import evening_create, game_record
from league.club.models import Member
from league.club.services import season_get_or_create
from tests.factories import ClubFactory, MemberFactory, UserFactory


@pytest.fixture
def club():
    return ClubFactory(name="Schockclub Eintracht")


@pytest.fixture
def season(club):
    return season_get_or_create(club=club, year=2026)


@pytest.fixture
def secretary(club):
    return MemberFactory(
        club=club, name="Bernd Krause", is_secretary=True, user=UserFactory(username="bernd")
    )


@pytest.fixture
def member(club):
    return MemberFactory(club=club, name="Anna Becker", user=UserFactory(username="anna"))


@pytest.fixture
def other_member(club):
    return MemberFactory(club=club, name="Frank Roth")


@pytest.fixture
def guest(club):
    return MemberFactory(club=club, name="Gustav Meier", kind=Member.Kind.GUEST)


@pytest.fixture
def outsider():
    """The secretary of another club."""
    other = ClubFactory(name="Würfelfreunde Nord")
    season_get_or_create(club=other, year=2026)
    return MemberFactory(
        club=other, name="Olga Außen", is_secretary=True, user=UserFactory(username="olga")
    )


@pytest.fixture
def evening(season, secretary, member, other_member, guest):
    """An evening of 2026-03-06: secretary and member present, Frank Roth absent, a guest,
    and two games."""
    evening = evening_create(
        club=season.club,
        date=datetime.date(2026, 3, 6),
        secretary=secretary,
        present_members=[secretary, member],
        guests=[guest],
        absent_members=[other_member],
    )
    game_record(evening=evening, loser=member, schock_aus_throwers=[secretary])
    game_record(evening=evening, loser=guest)
    return evening


@pytest.fixture
def secretary_client(client, secretary):
    client.force_login(secretary.user)
    return client


@pytest.fixture
def member_client(client, member):
    client.force_login(member.user)
    return client


DEMO_TODAY = datetime.date(2026, 3, 20)
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="module")
def demo_output(django_db_setup, django_db_blocker) -> Iterator[str]:
    """What `manage.py demo` (run for DEMO_TODAY) printed on its first run into the empty
    database. The demo takes half a minute to build: it is built once per module that asks
    for it, inside a transaction rolled back after the module's last test; each test's own
    writes are rolled back after it, as always."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            out = io.StringIO()
            # The hasher every test logs in with (tests/conftest.py).
            with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
                call_command("demo", today=DEMO_TODAY, stdout=out)
            yield out.getvalue()
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            for cache in caches.all():
                cache.clear()
