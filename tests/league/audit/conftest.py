"""The cast of the audit-trail tests (STYLE.md 13): a club with its 2026 season, a
secretary with a login, two members, a guest and an absent member, the time frozen at an
evening of the club, and a way to act as a logged-in user without a request."""

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import RequestFactory
from rest_framework.test import APIClient
from simple_history.models import HistoricalRecords

from league.club.accounts.services import api_token_create
from league.club.models import Club, Member, Season
from league.club.services import member_create, member_login_set, season_create
from tests.factories import UserFactory

BERLIN = ZoneInfo("Europe/Berlin")
WHEN = datetime.datetime(2026, 10, 9, 22, 41, tzinfo=BERLIN)
DAY = WHEN.date()


@dataclass
class Cast:
    club: Club
    season: Season
    secretary: Member
    anna: Member
    carla: Member
    guest: Member
    frank: Member


@pytest.fixture
def frozen() -> Iterator[time_machine.Traveller]:
    """The clock stands at WHEN (2026-10-09 22:41 in Berlin); `frozen.move_to(...)` moves it."""
    with time_machine.travel(WHEN, tick=False) as traveller:
        yield traveller


@pytest.fixture
def cast(db, frozen) -> Cast:
    club = Club.objects.create(name="Heimclub")
    season = season_create(club=club, year=2026)
    secretary = member_create(club=club, name="Bernd Krause", is_secretary=True)
    member_login_set(person=secretary, user=UserFactory(username="bernd"))
    return Cast(
        club=club,
        season=season,
        secretary=secretary,
        anna=member_create(club=club, name="Anna Becker"),
        carla=member_create(club=club, name="Carla Vogt"),
        guest=member_create(club=club, name="Gustav Meier", kind="guest"),
        frank=member_create(club=club, name="Frank Roth"),
    )


@contextmanager
def acting_as(user) -> Iterator[None]:
    """Write as `user` would through a page: what HistoryRequestMiddleware does (it hands
    the request, and so its user, to simple_history for the length of the request)."""
    request = RequestFactory().get("/")
    request.user = user
    HistoricalRecords.context.request = request
    try:
        yield
    finally:
        del HistoricalRecords.context.request


@pytest.fixture
def page(client, cast):
    """A browser logged in as the secretary."""
    client.force_login(cast.secretary.user)
    return client


@pytest.fixture
def api(cast) -> APIClient:
    """An API client of the secretary, logged in by token (not seen by any middleware)."""
    client = APIClient()
    _row, token = api_token_create(user=cast.secretary.user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client
