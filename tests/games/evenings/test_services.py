"""The services of evenings and games refuse bad input with a BooksError and save nothing."""

import datetime

import pytest

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.services import (
    evening_create,
    evening_update,
    game_delete,
    game_record,
    game_update,
)
from league.club.errors import BooksError
from league.club.services import season_update
from tests.factories import ClubFactory, MemberFactory, SeasonFactory

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 10, 9)


@pytest.fixture
def club():
    club = ClubFactory(name="Heimclub")
    SeasonFactory(club=club, year=2026)
    for name in ("Anna Becker", "Bernd Krause", "Carla Vogt", "Frank Roth"):
        MemberFactory(club=club, name=name)
    MemberFactory(club=club, name="Gustav Meier", kind="guest")
    return club


def person(club, name):
    return club.members.get(name=name)


@pytest.fixture
def evening(club):
    return evening_create(
        club=club,
        date=DAY,
        secretary=person(club, "Bernd Krause"),
        present_members=[person(club, n) for n in ("Anna Becker", "Bernd Krause", "Carla Vogt")],
        guests=[person(club, "Gustav Meier")],
        absent_members=[person(club, "Frank Roth")],
    )


def refused_with(code):
    class Check:
        def __enter__(self):
            self.ctx = pytest.raises(BooksError)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            result = self.ctx.__exit__(*exc)
            assert self.info.value.code == code
            return result

    return Check()


def test_evening_without_a_season_is_refused(club):
    with refused_with("no_season"):
        evening_create(
            club=club,
            date=datetime.date(2027, 1, 8),
            secretary=person(club, "Bernd Krause"),
            present_members=[person(club, "Bernd Krause")],
        )
    assert Evening.objects.count() == 0


def test_second_evening_on_one_date_is_a_conflict(club, evening):
    with refused_with("evening_exists") as info:
        evening_create(
            club=club,
            date=DAY,
            secretary=person(club, "Bernd Krause"),
            present_members=[person(club, "Bernd Krause")],
        )
    assert info.value.status == 409


def test_person_of_another_club_is_refused_and_nothing_saved(club):
    outsider = MemberFactory(club=ClubFactory(name="Nachbarclub"), name="Olaf")
    with refused_with("person_of_other_club"):
        evening_create(
            club=club,
            date=DAY,
            secretary=person(club, "Bernd Krause"),
            present_members=[person(club, "Bernd Krause"), outsider],
        )
    assert Evening.objects.count() == 0 and Attendance.objects.count() == 0


def test_club_member_cannot_be_entered_as_guest(club):
    with refused_with("member_as_guest"):
        evening_create(
            club=club,
            date=DAY,
            secretary=person(club, "Bernd Krause"),
            present_members=[person(club, "Bernd Krause")],
            guests=[person(club, "Anna Becker")],
        )


def test_loser_who_was_absent_is_refused(evening):
    with refused_with("loser_not_present") as info:
        game_record(evening=evening, loser=person(evening.club, "Frank Roth"))
    assert info.value.field == "loser"
    assert Game.objects.count() == 0


def test_thrower_who_was_absent_is_refused_and_the_game_not_saved(evening):
    club = evening.club
    with refused_with("thrower_not_present"):
        game_record(
            evening=evening,
            loser=person(club, "Anna Becker"),
            schock_aus_throwers=[person(club, "Carla Vogt"), person(club, "Frank Roth")],
        )
    assert Game.objects.count() == 0 and SchockAus.objects.count() == 0


def test_duplicate_game_number_is_a_conflict(evening):
    anna = person(evening.club, "Anna Becker")
    game_record(evening=evening, loser=anna, number=1)
    with refused_with("duplicate_game_number") as info:
        game_record(evening=evening, loser=anna, number=1)
    assert info.value.status == 409


def test_games_are_numbered_one_after_another(evening):
    anna, carla = person(evening.club, "Anna Becker"), person(evening.club, "Carla Vogt")
    numbers = [game_record(evening=evening, loser=p).number for p in (anna, carla, anna)]
    assert numbers == [1, 2, 3]


def test_secretary_opens_the_first_game_and_the_loser_the_next(evening):
    anna = person(evening.club, "Anna Becker")
    first = game_record(evening=evening, loser=anna)
    second = game_record(evening=evening, loser=person(evening.club, "Carla Vogt"))
    assert first.vorleger.name == "Bernd Krause"
    assert second.vorleger == anna


def test_stale_game_version_is_refused(evening):
    anna, carla = person(evening.club, "Anna Becker"), person(evening.club, "Carla Vogt")
    game = game_record(evening=evening, loser=anna)
    game_update(game=game, loser=carla, expected_version=1)
    with refused_with("stale_version") as info:
        game_update(game=game, loser=anna, expected_version=1)
    assert info.value.status == 412
    assert Game.objects.get(pk=game.pk).loser == carla


def test_correcting_schock_aus_keeps_their_order(evening):
    club = evening.club
    anna, carla = person(club, "Anna Becker"), person(club, "Carla Vogt")
    game = game_record(evening=evening, loser=anna, schock_aus_throwers=[carla])
    game_update(game=game, loser=anna, schock_aus_throwers=[anna, carla], vorleger=game.vorleger)
    assert [sa.thrower for sa in game.schock_aus.order_by("position")] == [anna, carla]


def test_making_a_loser_absent_is_refused(evening):
    club = evening.club
    game_record(evening=evening, loser=person(club, "Anna Becker"))
    with refused_with("attendance_in_use"):
        evening_update(
            evening=evening,
            date=DAY,
            secretary=person(club, "Bernd Krause"),
            present_members=[person(club, "Bernd Krause"), person(club, "Carla Vogt")],
            absent_members=[person(club, "Anna Becker"), person(club, "Frank Roth")],
        )
    assert Attendance.objects.get(evening=evening, member__name="Anna Becker").role == "member"


def test_every_change_raises_the_evening_version(evening):
    before = Evening.objects.get(pk=evening.pk).version
    game = game_record(evening=evening, loser=person(evening.club, "Anna Becker"))
    game_delete(game=game)
    assert Evening.objects.get(pk=evening.pk).version == before + 2


def test_one_person_twice_in_a_single_format_games_schock_aus_is_refused(evening):
    carla = person(evening.club, "Carla Vogt")
    with refused_with("schock_aus_twice") as info:
        game_record(
            evening=evening,
            loser=person(evening.club, "Anna Becker"),
            schock_aus_throwers=[carla, carla],
        )
    assert info.value.field == "schock_aus"
    assert Game.objects.count() == 0


def test_a_halves_game_allows_one_schock_aus_per_half_and_final(club):
    season_update(season=club.seasons.get(year=2026), rule_preset="regelwerk2019")
    evening = evening_create(
        club=club,
        date=DAY,
        secretary=person(club, "Bernd Krause"),
        present_members=[person(club, n) for n in ("Anna Becker", "Bernd Krause")],
    )
    anna = person(club, "Anna Becker")
    game = game_record(
        evening=evening, loser=person(club, "Bernd Krause"), schock_aus_throwers=[anna, anna]
    )
    assert game.schock_aus.count() == 2
