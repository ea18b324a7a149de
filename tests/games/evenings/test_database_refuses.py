"""The database itself refuses what must never happen (issue 2 item 4), even when a code
path bypasses the services: constraints and the triggers of games migration 0002."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from games.evenings.models import Attendance, Evening, Game, SchockAus
from tests.factories import ClubFactory, MemberFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    club = ClubFactory(name="Heimclub")
    season = SeasonFactory(club=club, year=2026)
    secretary = MemberFactory(club=club, name="Bernd Krause", is_secretary=True)
    evening = Evening.objects.create(
        club=club, season=season, date=datetime.date(2026, 10, 9), secretary=secretary
    )
    Attendance.objects.create(evening=evening, member=secretary, role="member")
    anna = MemberFactory(club=club, name="Anna Becker")
    Attendance.objects.create(evening=evening, member=anna, role="member")
    frank = MemberFactory(club=club, name="Frank Roth")
    Attendance.objects.create(evening=evening, member=frank, role="absent")
    return evening


def refused(code: str):
    return pytest.raises(IntegrityError, match=code)


def member(evening, name):
    return evening.club.members.get(name=name)


def test_database_refuses_two_games_with_one_number(evening):
    anna = member(evening, "Anna Becker")
    Game.objects.create(evening=evening, number=1, loser=anna)
    with transaction.atomic(), refused("game_unique_number|UNIQUE"):
        Game.objects.create(evening=evening, number=1, loser=anna)


def test_database_refuses_a_loser_who_was_absent(evening):
    with transaction.atomic(), refused("loser_not_present"):
        Game.objects.create(evening=evening, number=1, loser=member(evening, "Frank Roth"))


def test_database_refuses_a_loser_without_attendance(evening):
    stranger = MemberFactory(club=evening.club, name="Zoe Zander")
    with transaction.atomic(), refused("loser_not_present"):
        Game.objects.create(evening=evening, number=1, loser=stranger)


def test_database_refuses_a_schock_aus_thrower_who_was_absent(evening):
    game = Game.objects.create(evening=evening, number=1, loser=member(evening, "Anna Becker"))
    with transaction.atomic(), refused("thrower_not_present"):
        SchockAus.objects.create(game=game, thrower=member(evening, "Frank Roth"), position=1)


def test_database_refuses_a_vorleger_who_was_absent(evening):
    with transaction.atomic(), refused("vorleger_not_present"):
        Game.objects.create(
            evening=evening,
            number=1,
            loser=member(evening, "Anna Becker"),
            vorleger=member(evening, "Frank Roth"),
        )


def test_database_refuses_an_evening_outside_its_season(evening):
    with transaction.atomic(), refused("evening_outside_season"):
        Evening.objects.create(
            club=evening.club,
            season=evening.season,
            date=datetime.date(2027, 1, 8),
            secretary=evening.secretary,
        )


def test_database_refuses_moving_a_season_away_from_its_evenings(evening):
    season = evening.season
    season.starts_on = datetime.date(2026, 11, 1)
    with transaction.atomic(), refused("evening_outside_season"):
        season.save()


def test_database_refuses_an_evening_in_another_clubs_season(evening):
    other = SeasonFactory(club=ClubFactory(name="Nachbarclub"), year=2026)
    with transaction.atomic(), refused("evening_outside_season"):
        Evening.objects.create(
            club=evening.club,
            season=other,
            date=datetime.date(2026, 10, 16),
            secretary=evening.secretary,
        )


def test_database_refuses_a_person_of_another_club_at_an_evening(evening):
    outsider = MemberFactory(club=ClubFactory(name="Nachbarclub"), name="Olaf Outsider")
    with transaction.atomic(), refused("person_of_other_club"):
        Attendance.objects.create(evening=evening, member=outsider, role="member")


def test_database_refuses_making_a_loser_absent_afterwards(evening):
    anna = member(evening, "Anna Becker")
    Game.objects.create(evening=evening, number=1, loser=anna)
    attendance = Attendance.objects.get(evening=evening, member=anna)
    attendance.role = "absent"
    with transaction.atomic(), refused("attendance_in_use"):
        attendance.save()


def test_database_refuses_deleting_the_attendance_of_a_thrower(evening):
    anna = member(evening, "Anna Becker")
    game = Game.objects.create(evening=evening, number=1, loser=evening.secretary)
    SchockAus.objects.create(game=game, thrower=anna, position=1)
    with transaction.atomic(), refused("attendance_in_use"):
        Attendance.objects.get(evening=evening, member=anna).delete()


def test_database_lets_an_unused_attendance_change(evening):
    anna = member(evening, "Anna Becker")
    attendance = Attendance.objects.get(evening=evening, member=anna)
    attendance.role = "absent"
    attendance.save()
    assert Attendance.objects.get(pk=attendance.pk).role == "absent"
