"""The API's cast (STYLE.md 13): a club with its secretary, a member with a login, a member
without one, a guest and an absent member; an outsider (the secretary of another club); a
login without a club; anonymous. One evening of each club with two games."""

import datetime
from dataclasses import dataclass, field

import pytest
from rest_framework.test import APIClient

from games.evenings.models import Evening, Game
from games.evenings.services import evening_create, game_record
from league.club.accounts.services import api_token_create
from league.club.models import Club, Member, Season
from league.club.services import member_create, member_login_set, season_create
from tests.copied import copied
from tests.factories import UserFactory

DATE = datetime.date(2026, 10, 9)
ROLES = ["anonymous", "nobody", "member", "secretary", "outsider"]


@dataclass
class Cast:
    club: Club
    season: Season
    secretary: Member
    member: Member
    carla: Member
    guest: Member
    absent: Member
    evening: Evening
    games: list[Game]
    other_club: Club
    other_season: Season
    other_secretary: Member
    other_evening: Evening
    other_game: Game
    users: dict = field(default_factory=dict)


def _login(member: Member | None, username: str):
    user = UserFactory(username=username)
    if member is not None:
        member.password_set_by_holder = True  # the cast chose their own passwords
        member_login_set(person=member, user=user, also_saved=["password_set_by_holder"])
    return user


@pytest.fixture
def cast(db) -> Cast:
    """The cast, built through the services once per process (tests/copied.py)."""
    return copied("api cast", _build_cast)


def _build_cast() -> Cast:
    club = Club.objects.create(name="Heimclub")
    season = season_create(club=club, year=2026)
    secretary = member_create(club=club, name="Bernd Krause", is_secretary=True)
    member = member_create(club=club, name="Anna Becker")
    carla = member_create(club=club, name="Carla Vogt")
    guest = member_create(club=club, name="Gustav Meier", kind="guest")
    absent = member_create(club=club, name="Frank Roth")
    evening = evening_create(
        club=club,
        date=DATE,
        secretary=secretary,
        present_members=[secretary, member, carla],
        guests=[guest],
        absent_members=[absent],
    )
    games = [
        game_record(evening=evening, loser=carla),
        game_record(evening=evening, loser=member, schock_aus_throwers=[secretary]),
    ]
    other_club = Club.objects.create(name="Fremdclub")
    other_season = season_create(club=other_club, year=2026)
    other_secretary = member_create(club=other_club, name="Otto Fremd", is_secretary=True)
    olga = member_create(club=other_club, name="Olga Fremd")
    other_evening = evening_create(
        club=other_club,
        date=DATE,
        secretary=other_secretary,
        present_members=[other_secretary, olga],
    )
    other_game = game_record(evening=other_evening, loser=olga)
    users = {
        "secretary": _login(secretary, "bernd"),
        "member": _login(member, "anna"),
        "outsider": _login(other_secretary, "otto"),
        "nobody": _login(None, "niemand"),
    }
    evening.refresh_from_db()
    for game in games:
        game.refresh_from_db()
    return Cast(
        club=club,
        season=season,
        secretary=secretary,
        member=member,
        carla=carla,
        guest=guest,
        absent=absent,
        evening=evening,
        games=games,
        other_club=other_club,
        other_season=other_season,
        other_secretary=other_secretary,
        other_evening=other_evening,
        other_game=other_game,
        users=users,
    )


def client_for(cast: Cast, role: str) -> APIClient:
    """An API client logged in by token as `role` (one of ROLES)."""
    client = APIClient()
    if role != "anonymous":
        _row, token = api_token_create(user=cast.users[role])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.fixture
def api(cast):
    """api("secretary") -> an APIClient logged in as that role."""
    return lambda role: client_for(cast, role)
