"""The one-page evening sheet of the sample evening shows its expected figures
(tests/samples/evening-2026-10-09.json)."""

import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext

from league.club.money import format_money, marks_to_money
from league.reports.pdf import (
    build_evening_sheet_pdf,
)
from tests.league.reports.conftest import pdf_pages

pytestmark = pytest.mark.django_db


def de(msgid: str) -> str:
    with translation.override("de"):
        return gettext(msgid)


@pytest.fixture
def sheet(sample_season) -> list[str]:
    return [
        p.replace("\xa0", " ") for p in pdf_pages(build_evening_sheet_pdf(evening=sample_season))
    ]


def test_sheet_is_one_page(sheet):
    assert len(sheet) == 1


def test_sheet_names_the_evening_in_german(sheet):
    assert "Freitag, 9. Oktober 2026" in sheet[0]


def test_sheet_shows_the_evenings_total_marks_and_money(sample_evening, sheet):
    expected = sample_evening["expected"]
    money = format_money(Decimal(expected["money_total"]), expected["currency"]).replace(
        "\xa0", " "
    )
    assert money == "15,50 €"
    assert (
        f"{de('Total')} {expected['games_entered']} 5 3 {expected['marks_total']} {money}"
        in sheet[0]
    )


def test_sheet_shows_every_persons_marks_and_money(sample_evening, sample_season, sheet):
    mark_value = sample_season.season.mark_value
    for name, person in sample_evening["expected"]["per_person"].items():
        money = format_money(marks_to_money(person["marks"], mark_value)).replace("\xa0", " ")
        line = next(line for line in sheet[0].splitlines() if line.startswith(name))
        assert line.endswith(f"{person['marks']} {money}"), line


def test_sheet_shows_each_members_points(sample_evening, sheet):
    for name, person in sample_evening["expected"]["per_person"].items():
        if person.get("guest"):
            continue
        line = next(line for line in sheet[0].splitlines() if line.startswith(name))
        points = str(person["points"]).replace("-", "\u2212")
        assert f" {points} " in f" {line} ", line


def test_sheet_lists_the_schock_aus_with_their_ordinals(sample_evening, sheet):
    for item in sample_evening["expected"]["schock_aus"]:
        assert re.search(rf"{item['ordinal']}\. {item['game']} {item['thrower']}", sheet[0])


def test_sheet_lists_the_runden_owed_with_their_throwers(sample_evening, sheet):
    text = sheet[0]
    owed = text[text.index(de("Runden owed")) :]
    for runde in sample_evening["expected"]["runden_owed"]:
        assert runde["thrower"] in owed
    assert de("first Schock-Aus of the evening") in owed


def test_sheet_lists_every_game_with_its_loser(sample_evening, sheet):
    for game in sample_evening["evening"]["games"]:
        assert f"{game['number']}. {game['loser']}" in sheet[0]


def test_sheet_of_a_long_evening_stays_on_one_page(db):
    import datetime

    from games.evenings.services import evening_create, game_record
    from league.club.services import member_create, season_get_or_create
    from tests.factories import ClubFactory

    club = ClubFactory(name="Lange Nacht")
    season_get_or_create(club=club, year=2026)
    people = [member_create(club=club, name=f"Mitglied {i}") for i in range(8)]
    guest = member_create(club=club, name="Gast Gustav", kind="guest")
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 3, 6),
        secretary=people[0],
        present_members=people,
        guests=[guest],
    )
    table = [*people, guest]
    for number in range(1, 41):
        throwers = [table[number % 9]] if number % 3 == 0 else []
        game_record(evening=evening, loser=table[number % 9], schock_aus_throwers=throwers)
    assert len(pdf_pages(build_evening_sheet_pdf(evening=evening))) == 1


def test_the_warnings_of_an_incomplete_evening_stand_under_hinweise(db):
    """ "Notes" is "Notizen" on the evening form but "Hinweise" above the sheet's warnings
    (one msgid, two contexts)."""
    import datetime

    from games.evenings.services import evening_create, game_record
    from league.club.services import member_create, season_get_or_create
    from tests.factories import ClubFactory

    club = ClubFactory(name="Kurzer Abend")
    season_get_or_create(club=club, year=2026)
    people = [member_create(club=club, name=f"Mitglied {i}") for i in range(3)]
    evening = evening_create(
        club=club, date=datetime.date(2026, 3, 6), secretary=people[0], present_members=people
    )
    game_record(evening=evening, loser=people[1], schock_aus_throwers=[])
    text = pdf_pages(build_evening_sheet_pdf(evening=evening))[0]
    assert "Hinweise" in text and "Notizen" not in text
