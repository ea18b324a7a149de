"""The cast of the page tests (STYLE.md 13): a club with a secretary, a member and a
guest, its 2026 season, and an outsider: the secretary of another club."""

import datetime

import pytest

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
