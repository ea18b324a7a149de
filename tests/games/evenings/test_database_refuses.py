"""The database itself refuses what must never happen, even when a code
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


# Many rows in one statement (bulk_create; the club-book import's COPY is one statement per
# table too): on PostgreSQL the INSERT checks run once per statement over all its rows
# (games migration 0008), on SQLite per row. One bad row among good ones refuses the whole
# statement with the same code, and none of its rows is written.


def _games(evening, losers):
    return [
        Game(club=evening.club, evening=evening, number=n, loser=loser)
        for n, loser in enumerate(losers, 1)
    ]


def test_database_refuses_one_absent_loser_among_many_games_of_one_statement(evening):
    anna, frank = member(evening, "Anna Becker"), member(evening, "Frank Roth")
    losers = [anna, evening.secretary] * 20 + [frank] + [anna] * 5
    with transaction.atomic(), refused("loser_not_present"):
        Game.objects.bulk_create(_games(evening, losers))
    assert not Game.objects.filter(evening=evening).exists()


def test_database_refuses_one_absent_vorleger_among_many_games_of_one_statement(evening):
    anna, frank = member(evening, "Anna Becker"), member(evening, "Frank Roth")
    games = _games(evening, [anna] * 30)
    for game in games:
        game.vorleger = evening.secretary
    games[17].vorleger = frank
    with transaction.atomic(), refused("vorleger_not_present"):
        Game.objects.bulk_create(games)
    assert not Game.objects.filter(evening=evening).exists()


def test_database_takes_many_good_games_of_one_statement(evening):
    anna = member(evening, "Anna Becker")
    Game.objects.bulk_create(_games(evening, [anna, evening.secretary] * 25))
    assert Game.objects.filter(evening=evening).count() == 50


def test_database_refuses_one_absent_thrower_among_many_schock_aus_of_one_statement(evening):
    anna, frank = member(evening, "Anna Becker"), member(evening, "Frank Roth")
    games = Game.objects.bulk_create(_games(evening, [anna] * 10))
    throws = [
        SchockAus(club=evening.club, game=g, thrower=evening.secretary, position=1) for g in games
    ]
    throws.append(SchockAus(club=evening.club, game=games[4], thrower=frank, position=2))
    with transaction.atomic(), refused("thrower_not_present"):
        SchockAus.objects.bulk_create(throws)
    assert not SchockAus.objects.filter(game__evening=evening).exists()


def test_database_refuses_one_person_of_another_club_among_many_attendances(evening):
    later = Evening.objects.create(
        club=evening.club,
        season=evening.season,
        date=datetime.date(2026, 10, 16),
        secretary=evening.secretary,
    )
    people = [MemberFactory(club=evening.club, name=f"Gast {n}") for n in range(8)]
    people.insert(3, MemberFactory(club=ClubFactory(name="Nachbarclub"), name="Olaf Outsider"))
    rows = [Attendance(club=later.club, evening=later, member=p, role="member") for p in people]
    with transaction.atomic(), refused("person_of_other_club"):
        Attendance.objects.bulk_create(rows)
    assert not Attendance.objects.filter(evening=later).exists()


def test_database_refuses_one_evening_outside_its_season_among_many(evening):
    dates = [datetime.date(2026, 11, d) for d in (6, 13, 20, 27)] + [datetime.date(2027, 1, 8)]
    rows = [
        Evening(club=evening.club, season=evening.season, date=d, secretary=evening.secretary)
        for d in dates
    ]
    with transaction.atomic(), refused("evening_outside_season"):
        Evening.objects.bulk_create(rows)
    assert Evening.objects.filter(club=evening.club).count() == 1


def test_database_refuses_one_secretary_of_another_club_among_many_evenings(evening):
    outsider = MemberFactory(club=ClubFactory(name="Nachbarclub"), name="Olaf Outsider")
    rows = [
        Evening(
            club=evening.club,
            season=evening.season,
            date=datetime.date(2026, 11, d),
            secretary=outsider if d == 13 else evening.secretary,
        )
        for d in (6, 13, 20)
    ]
    with transaction.atomic(), refused("person_of_other_club"):
        Evening.objects.bulk_create(rows)
    assert Evening.objects.filter(club=evening.club).count() == 1


# UPDATE keeps its row triggers (games migration 0002) on both databases.


def test_database_refuses_changing_a_loser_to_an_absent_person(evening):
    anna, frank = member(evening, "Anna Becker"), member(evening, "Frank Roth")
    Game.objects.bulk_create(_games(evening, [anna] * 3))
    with transaction.atomic(), refused("loser_not_present"):
        Game.objects.filter(evening=evening, number=2).update(loser=frank)


def test_database_refuses_changing_a_thrower_to_an_absent_person(evening):
    anna, frank = member(evening, "Anna Becker"), member(evening, "Frank Roth")
    game = Game.objects.create(evening=evening, number=1, loser=anna)
    SchockAus.objects.create(game=game, thrower=evening.secretary, position=1)
    with transaction.atomic(), refused("thrower_not_present"):
        SchockAus.objects.filter(game=game).update(thrower=frank)


def test_database_refuses_moving_an_evening_out_of_its_season(evening):
    with transaction.atomic(), refused("evening_outside_season"):
        Evening.objects.filter(pk=evening.pk).update(date=datetime.date(2027, 1, 8))
