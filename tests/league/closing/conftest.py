"""Fixtures of the season-close tests: the sample evening's club with a login for an
auditor, and the season closed."""

from dataclasses import dataclass

import pytest

from league.club.models import Club, Member, Season
from league.club.services import member_login_set
from tests.factories import UserFactory
from tests.sample import enter_sample_evening_copied


@dataclass
class Books:
    club: Club
    season: Season
    evening: object
    people: dict[str, Member]
    secretary: Member
    auditor: Member
    second_auditor: Member


@pytest.fixture
def books(sample_evening, db) -> Books:
    """The sample evening of 2026 entered; Anna and Carla have logins (auditors), Bernd
    is the secretary."""
    evening, people = enter_sample_evening_copied(sample_evening)
    for name, username in (("Anna Becker", "anna"), ("Carla Vogt", "carla")):
        people[name].password_set_by_holder = True  # as through their invitation
        member_login_set(
            person=people[name],
            user=UserFactory(username=username),
            also_saved=["password_set_by_holder"],
        )
    secretary = people["Bernd Krause"]
    member_login_set(person=secretary, user=UserFactory(username="bernd"))
    return Books(
        club=evening.club,
        season=evening.season,
        evening=evening,
        people=people,
        secretary=secretary,
        auditor=people["Anna Becker"],
        second_auditor=people["Carla Vogt"],
    )
