"""CSV cells a spreadsheet would run (league.club.spreadsheet): every export writes them as
text, the club-book import reads them back to the same name and refuses control characters."""

import csv
import datetime
import io

import pytest

from games.evenings.services import evening_create, game_record
from league.club.models import Member
from league.club.services import member_create, season_get_or_create
from league.club.spreadsheet import has_control_character, spreadsheet_cell, spreadsheet_text
from league.clubbook.selectors import (
    club_book_export,
)
from league.clubbook.services import (
    club_book_import,
)
from league.reports.csv_exports import chronicle_csv, dues_csv, standings_csv
from tests.factories import ClubFactory

FORMULAS = ['=HYPERLINK("http://x","klick")', "+49 cmd", "-2+3", "@SUM(A1)", "\tTab"]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_is_written_as_text(text):
    assert spreadsheet_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["-3", "-1,50", "12.5", 7, -3, "Anna Becker", ""])
def test_numbers_and_plain_names_stay_as_they_are(value):
    assert spreadsheet_cell(value) == value


@pytest.mark.parametrize("text", [*FORMULAS, "'quoted", "O'Brien", "'"])
def test_what_an_export_writes_reads_back_to_the_same_text(text):
    assert spreadsheet_text(str(spreadsheet_cell(text))) == text


@pytest.mark.parametrize("text", ["Anna\x00", "Anna\x07", "Anna\tBecker", "A\x1b[31m"])
def test_control_characters_are_found(text):
    assert has_control_character(text)


def test_a_name_with_umlauts_has_no_control_character():
    assert not has_control_character("Jürgen Öztürk-Maß")


@pytest.fixture
def club_with_formula_names(db):
    """An evening whose secretary, loser and Schock-Aus thrower are named like formulas."""
    club = ClubFactory(name="Formelclub")
    season = season_get_or_create(club=club, year=2026)
    link = member_create(club=club, name='=HYPERLINK("http://x","klick")', is_secretary=True)
    plus = member_create(club=club, name="+49 cmd")
    at = member_create(club=club, name="@SUM(A1)")
    evening = evening_create(
        club=club, date=datetime.date(2026, 3, 6), secretary=link, present_members=[link, plus, at]
    )
    game_record(evening=evening, loser=plus, schock_aus_throwers=[at])
    return club, season


def _cells(text: str, delimiter: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]


def test_the_club_book_export_writes_no_cell_a_spreadsheet_would_run(club_with_formula_names):
    club, _ = club_with_formula_names
    for data in club_book_export(club=club):
        cells = _cells(data.decode("utf-8"), ",")
        assert not [c for c in cells if c.startswith(("=", "+", "@"))]
        assert "'+49 cmd" in cells


@pytest.mark.parametrize("export", [standings_csv, dues_csv, chronicle_csv])
def test_the_season_csvs_write_no_cell_a_spreadsheet_would_run(club_with_formula_names, export):
    _, season = club_with_formula_names
    cells = _cells(export(season=season).lstrip("\ufeff"), ";")
    assert not [c for c in cells if c.startswith(("=", "+", "@"))]


def test_the_club_book_reads_its_own_export_back_to_the_same_names(club_with_formula_names):
    club, _ = club_with_formula_names
    attendance, games = club_book_export(club=club)
    result = club_book_import(club_name="Formelclub Kopie", attendance=attendance, games=games)
    assert result.ok, result.errors
    copied = set(
        Member.objects.filter(club__name="Formelclub Kopie").values_list("name", flat=True)
    )
    assert copied == set(Member.objects.filter(club=club).values_list("name", flat=True))


def test_the_club_book_refuses_a_control_character(db):
    attendance = (
        b"date,name,role\r\n2026-03-06,Bernd Krause,secretary\r\n2026-03-06,Anna\x07,member\r\n"
    )
    games = b"date,number,loser,schock_aus\r\n2026-03-06,1,Bernd Krause,\r\n"
    result = club_book_import(club_name="Steuerzeichen", attendance=attendance, games=games)
    assert [(e.line, e.code) for e in result.errors if e.code == "control_character"] == [
        (3, "control_character")
    ]
