"""The club-book import and export: round trip, idempotence, bad files."""

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.models import Club, Member, Season
from league.clubbook.selectors import (
    club_book_export,
)
from league.clubbook.services import (
    club_book_import,
    club_book_parse,
)
from league.ledger.models import LedgerEntry
from league.ledger.services import ledger_sync_evening
from league.standings.selectors import season_standings
from tests.conftest import SAMPLES

pytestmark = pytest.mark.django_db

CLUB = "Schockclub Sample"
ATTENDANCE = (SAMPLES / "club-book-attendance.csv").read_bytes()
GAMES = (SAMPLES / "club-book-games.csv").read_bytes()
ANOTHER_EVENING = b"2026-10-16,Anna Becker,secretary\r\n2026-10-16,Bernd Krause,member\r\n"
ANOTHER_GAME = b"2026-10-16,1,Bernd Krause,\r\n"


def _evening_with(name: bytes) -> bytes:
    """The sample's attendance and an evening of 2026-10-16 at which `name` is a member."""
    return ATTENDANCE + b"2026-10-16,Anna Becker,secretary\r\n2026-10-16," + name + b",member\r\n"


def _import(attendance: bytes = ATTENDANCE, games: bytes = GAMES, **kwargs):
    return club_book_import(club_name=CLUB, attendance=attendance, games=games, **kwargs)


def _state() -> dict[str, int]:
    models = [Club, Member, Season, Evening, Attendance, Game, SchockAus, LedgerEntry]
    counts = {m.__name__: m.objects.count() for m in models}
    for m in (Evening, Attendance, Game, SchockAus):
        counts[f"history {m.__name__}"] = m.history.count()
    return counts


def test_import_then_export_gives_back_the_sample_files_byte_for_byte():
    _import()
    attendance, games = club_book_export(club=Club.objects.get(name=CLUB))
    assert attendance == ATTENDANCE
    assert games == GAMES


def test_a_second_import_of_the_same_files_changes_nothing():
    _import()
    before = _state()
    result = _import()
    assert result.ok and not result.changed
    assert result.skipped == 1
    assert _state() == before


def test_the_imported_sample_reconciles_with_its_expected_figures(sample_evening):
    result = _import()
    expected = sample_evening["expected"]
    (season,) = result.seasons
    assert (season.year, season.currency) == (2026, expected["currency"])
    assert season.marks_total == expected["marks_total"]
    assert season.money_total == Decimal(expected["money_total"])
    assert season.runden == len(expected["runden_owed"])


def test_the_imported_standings_share_places_as_expected(sample_evening):
    _import()
    standings = season_standings(season=Season.objects.get(club__name=CLUB, year=2026))
    got = [{"place": r.place, "member": r.member.name, "points": r.points} for r in standings.rows]
    assert got == sample_evening["expected"]["standings"]


def test_the_imported_ledger_is_what_the_sync_would_write():
    _import()
    evening = Evening.objects.get(club__name=CLUB)
    assert ledger_sync_evening(evening_id=evening.pk) == {"charged": 0, "reversed": 0}


def test_every_imported_charge_is_the_one_the_ledger_gives_for_its_game_or_absence():
    """Each entry the import wrote (the lost games' ones are written set-based on
    PostgreSQL) has the fields of the ledger's own charge: member, kind, Marks, money,
    currency, description, source key, date, game and evening."""
    from league.club.money import marks_to_money
    from league.club.statutes import season_statutes
    from league.ledger.selectors import (
        absence_charge,
        absence_source_key,
        game_lost_charge,
        game_source_key,
    )

    _import(*_book_over_years([2026, 1985]))
    for evening in Evening.objects.select_related("season"):
        season, statutes = evening.season, season_statutes(evening.season)
        expected = {}
        for game in evening.games.all():
            charge = game_lost_charge(
                game_id=game.pk, number=game.number, loser_id=game.loser_id, statutes=statutes
            )
            expected[game_source_key(game.pk)] = charge
        roles = dict(evening.attendances.values_list("member_id", "role"))
        members = [m for m, role in roles.items() if role == "member"]
        lost = evening.games.filter(loser_id__in=members).count()
        for member_id, role in roles.items():
            if role == "absent":
                charge = absence_charge(
                    member_id=member_id,
                    statutes=statutes,
                    lost_by_members=lost,
                    present_members=len(members),
                )
                expected[absence_source_key(evening.pk, member_id)] = charge
        got = {
            e.source_key: e
            for e in LedgerEntry.objects.filter(evening_id_ref=evening.pk).order_by("pk")
        }
        assert set(got) == set(expected) and len(got) > 10
        for key, charge in expected.items():
            entry = got[key]
            assert (entry.member_id, entry.kind, entry.marks, entry.description) == (
                charge.member_id,
                charge.kind,
                charge.marks,
                charge.description,
            )
            assert (entry.game_id_ref, entry.evening_id_ref, entry.booked_on) == (
                charge.game_id,
                evening.pk,
                evening.date,
            )
            assert (entry.amount, entry.currency) == (
                marks_to_money(charge.marks, season.mark_value),
                season.currency,
            )
            assert (entry.club_id, entry.season_id) == (evening.club_id, season.pk)


def test_imported_games_are_opened_by_the_previous_loser(sample_evening):
    _import()
    got = {g.number: g.vorleger.name for g in Game.objects.select_related("vorleger")}
    assert got == {g["number"]: g["vorleger"] for g in sample_evening["evening"]["games"]}


def test_imported_rows_have_their_audit_trail_record():
    _import()
    records = Game.history.all()
    assert records.count() == 25
    assert {r.history_change_reason for r in records} == {"club book import"}


def test_a_dry_run_reports_the_totals_and_writes_nothing():
    before = _state()
    result = _import(dry_run=True)
    assert result.created["games"] == 25
    assert result.seasons[0].marks_total == 31
    assert _state() == before


def test_a_season_before_2002_is_created_in_dm():
    attendance = ATTENDANCE.replace(b"2026-10-09", b"1985-10-11")
    games = GAMES.replace(b"2026-10-09", b"1985-10-11")
    result = _import(attendance, games)
    assert (result.seasons[0].currency, result.seasons[0].money_total) == ("DM", Decimal("31.00"))


def test_members_and_guests_are_created_as_needed():
    _import()
    guests = set(Member.objects.filter(kind="guest").values_list("name", flat=True))
    assert guests == {"Gustav Meier"}
    assert Member.objects.filter(club__name=CLUB).count() == 7


def test_new_evenings_are_added_beside_the_existing_ones():
    _import()
    result = _import(ATTENDANCE + ANOTHER_EVENING, GAMES + ANOTHER_GAME)
    assert result.created["evenings"] == 1 and result.skipped == 1
    assert Evening.objects.filter(club__name=CLUB).count() == 2


def _replace_line(data: bytes, line: int, new: bytes) -> bytes:
    lines = data.split(b"\r\n")
    lines[line - 1] = new
    return b"\r\n".join(lines)


BAD_FILES = {
    "unknown role": (
        _replace_line(ATTENDANCE, 3, b"2026-10-09,Bernd Krause,chairman"),
        GAMES,
        "club-book-attendance.csv",
        3,
        "unknown_role",
    ),
    "game number twice": (
        ATTENDANCE,
        _replace_line(GAMES, 6, b"2026-10-09,3,Gustav Meier,"),
        "club-book-games.csv",
        6,
        "game_number_twice",
    ),
    "loser not present": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09,1,Frank Roth,"),
        "club-book-games.csv",
        2,
        "not_present",
    ),
    "thrower not present": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09,1,Dieter Hahn,Frank Roth"),
        "club-book-games.csv",
        2,
        "not_present",
    ),
    "unknown person": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09,1,Otto Unbekannt,"),
        "club-book-games.csv",
        2,
        "unknown_person",
    ),
    "date twice with different attendance": (
        ATTENDANCE + ANOTHER_EVENING + b"2026-10-09,Anna Becker,secretary\r\n",
        GAMES,
        "club-book-attendance.csv",
        11,
        "date_twice_different_attendance",
    ),
    "malformed date": (
        _replace_line(ATTENDANCE, 4, b"09.10.2026,Carla Vogt,member"),
        GAMES,
        "club-book-attendance.csv",
        4,
        "malformed_date",
    ),
    "impossible date": (
        ATTENDANCE,
        _replace_line(GAMES, 3, b"2026-02-30,2,Carla Vogt,"),
        "club-book-games.csv",
        3,
        "malformed_date",
    ),
    "empty file": (ATTENDANCE, b"", "club-book-games.csv", 1, "empty_file"),
    "wrong columns": (
        _replace_line(ATTENDANCE, 1, b"date,person,role"),
        GAMES,
        "club-book-attendance.csv",
        1,
        "wrong_columns",
    ),
    "wrong number of fields": (
        ATTENDANCE,
        _replace_line(GAMES, 5, b"2026-10-09,4,Gustav Meier"),
        "club-book-games.csv",
        5,
        "wrong_field_count",
    ),
    "non-UTF-8 bytes": (
        _replace_line(ATTENDANCE, 5, "2026-10-09,Dieter Hähn,member".encode("latin-1")),
        GAMES,
        "club-book-attendance.csv",
        5,
        "not_utf8",
    ),
    "no secretary": (
        _replace_line(ATTENDANCE, 3, b"2026-10-09,Bernd Krause,member"),
        GAMES,
        "club-book-attendance.csv",
        2,
        "no_secretary",
    ),
    "guest and member at once": (
        ATTENDANCE + b"2026-10-16,Gustav Meier,secretary\r\n",
        GAMES,
        "club-book-attendance.csv",
        9,
        "guest_and_member",
    ),
    "a NUL byte in a name": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09,1,Dieter\x00Hahn,"),
        "club-book-games.csv",
        2,
        "control_character",
    ),
    "a name over 100 characters": (
        ATTENDANCE
        + b"2026-10-16,Anna Becker,secretary\r\n2026-10-16,"
        + b"A" * 101
        + b",member\r\n",
        GAMES,
        "club-book-attendance.csv",
        10,
        "name_too_long",
    ),
    "a game number the column cannot hold": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09,3000000000,Dieter Hahn,"),
        "club-book-games.csv",
        2,
        "game_number_too_large",
    ),
    "a game number of 5000 digits": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09," + b"9" * 5000 + b",Dieter Hahn,"),
        "club-book-games.csv",
        2,
        "game_number_too_large",
    ),
    "a game number of 5000 leading zeros": (
        ATTENDANCE,
        _replace_line(GAMES, 3, b"2026-10-09," + b"0" * 5000 + b"1,Carla Vogt,"),
        "club-book-games.csv",
        3,
        "game_number_twice",
    ),
    "a game number 3e9": (
        ATTENDANCE,
        _replace_line(GAMES, 2, b"2026-10-09,3e9,Dieter Hahn,"),
        "club-book-games.csv",
        2,
        "invalid_game_number",
    ),
    "a superscript game number": (
        ATTENDANCE,
        _replace_line(GAMES, 2, "2026-10-09,²,Dieter Hahn,".encode()),
        "club-book-games.csv",
        2,
        "invalid_game_number",
    ),
    "an Arabic-Indic game number": (
        ATTENDANCE,
        _replace_line(GAMES, 2, "2026-10-09,١,Dieter Hahn,".encode()),
        "club-book-games.csv",
        2,
        "invalid_game_number",
    ),
    "an Arabic-Indic date": (
        _replace_line(ATTENDANCE, 4, "٢٠٢٦-10-09,Carla Vogt,member".encode()),
        GAMES,
        "club-book-attendance.csv",
        4,
        "malformed_date",
    ),
    **{
        f"the year {year} in the attendance": (
            ATTENDANCE.replace(b"2026-10-09", year + b"-10-09"),
            GAMES,
            "club-book-attendance.csv",
            2,
            "year_out_of_range",
        )
        for year in (b"1850", b"0001", b"2100", b"1899")
    },
    **{
        f"the year {year} in the games": (
            ATTENDANCE,
            _replace_line(GAMES, 2, year + b"-10-09,1,Dieter Hahn,"),
            "club-book-games.csv",
            2,
            "year_out_of_range",
        )
        for year in (b"1850", b"0001", b"2100")
    },
}


@pytest.mark.parametrize("case", list(BAD_FILES), ids=list(BAD_FILES))
def test_a_bad_file_reports_its_line_and_reason_and_changes_nothing(case):
    _import(
        ATTENDANCE.replace(b"2026-10-09", b"2026-10-02"),
        GAMES.replace(b"2026-10-09", b"2026-10-02"),
    )
    before = _state()
    attendance, games, file, line, code = BAD_FILES[case]
    result = _import(attendance, games)
    assert (file, line, code) in [(e.file, e.line, e.code) for e in result.errors]
    assert all(e.reason for e in result.errors)
    assert _state() == before


def test_a_bad_row_keeps_the_good_evenings_of_the_same_files_out():
    attendance = ATTENDANCE + ANOTHER_EVENING
    games = GAMES + ANOTHER_GAME + b"2026-10-16,1,Anna Becker,\r\n"
    result = _import(attendance, games)
    assert not result.ok
    assert Evening.objects.count() == 0


def test_every_bad_row_is_reported_not_only_the_first():
    games = _replace_line(GAMES, 2, b"2026-10-09,1,Frank Roth,")
    games = _replace_line(games, 4, b"2026-10-09,x,Dieter Hahn,")
    result = _import(ATTENDANCE, games)
    assert [e.line for e in result.errors] == [2, 4]


def test_an_evening_stored_with_other_games_is_a_bad_row():
    _import()
    before = _state()
    result = _import(ATTENDANCE, _replace_line(GAMES, 2, b"2026-10-09,1,Anna Becker,"))
    assert [(e.file, e.line) for e in result.errors] == [("club-book-games.csv", 2)]
    assert result.errors[0].code == "evening_exists_different_games"
    assert _state() == before


def test_an_evening_stored_with_other_attendance_is_a_bad_row():
    _import()
    changed = _replace_line(ATTENDANCE, 7, b"2026-10-09,Gustav Meier,guest")
    changed = _replace_line(changed, 8, b"2026-10-09,Frank Roth,member")
    result = _import(changed, GAMES)
    assert [(e.file, e.line) for e in result.errors] == [("club-book-attendance.csv", 2)]


def test_the_commands_import_and_export_the_sample(tmp_path):
    call_command(
        "import_club_book",
        str(SAMPLES / "club-book-attendance.csv"),
        str(SAMPLES / "club-book-games.csv"),
        "--club",
        CLUB,
    )
    call_command(
        "export_club_book", str(tmp_path / "a.csv"), str(tmp_path / "g.csv"), "--club", CLUB
    )
    assert (tmp_path / "a.csv").read_bytes() == ATTENDANCE
    assert (tmp_path / "g.csv").read_bytes() == GAMES


def test_the_import_command_fails_with_the_bad_rows(tmp_path, capsys):
    bad = tmp_path / "a.csv"
    bad.write_bytes(_replace_line(ATTENDANCE, 3, b"2026-10-09,Bernd Krause,chairman"))
    with pytest.raises(CommandError):
        call_command("import_club_book", str(bad), str(SAMPLES / "club-book-games.csv"))
    assert f"{bad}:3:" in capsys.readouterr().err


def test_the_dry_run_command_writes_nothing():
    call_command(
        "import_club_book",
        str(SAMPLES / "club-book-attendance.csv"),
        str(SAMPLES / "club-book-games.csv"),
        "--club",
        CLUB,
        "--dry-run",
    )
    assert Evening.objects.count() == 0


def test_an_evening_of_the_import_can_be_corrected_like_any_other():
    from games.evenings.services import game_update

    _import()
    game = Game.objects.get(number=1)
    game_update(game=game, loser=Member.objects.get(name="Anna Becker"))
    assert LedgerEntry.objects.filter(kind="reversal", game_id_ref=game.pk).count() == 1
    assert datetime.date(2026, 10, 9) == game.evening.date


def test_a_book_over_two_seasons_reports_each_in_its_currency():
    attendance = ATTENDANCE + ATTENDANCE.split(b"\r\n", 1)[1].replace(b"2026-10-09", b"2001-12-28")
    games = GAMES + GAMES.split(b"\r\n", 1)[1].replace(b"2026-10-09", b"2001-12-28")
    result = _import(attendance, games)
    got = [(s.year, s.currency, s.money_total) for s in result.seasons]
    assert got == [(2001, "DM", Decimal("31.00")), (2026, "EUR", Decimal("15.50"))]


def test_the_import_command_records_the_user_in_the_audit_trail():
    from tests.factories import UserFactory

    user = UserFactory(username="kassenwart")
    call_command(
        "import_club_book",
        str(SAMPLES / "club-book-attendance.csv"),
        str(SAMPLES / "club-book-games.csv"),
        "--club",
        CLUB,
        "--user",
        "kassenwart",
    )
    assert set(Game.history.values_list("history_user", flat=True)) == {user.pk}


def test_a_bad_row_reason_is_german():
    attendance = ATTENDANCE.replace(b"2026-10-09", b"1850-10-09")
    (first, *_rest) = _import(attendance, GAMES).errors
    assert first.reason.startswith("Das Jahr 1850 liegt außerhalb von 1900 bis ")


def test_the_years_from_1900_to_next_year_are_read():
    next_year = str(timezone.localdate().year + 1).encode()
    for year in (b"1900", next_year):
        evenings, errors = club_book_parse(
            attendance=ATTENDANCE.replace(b"2026", year), games=GAMES.replace(b"2026", year)
        )
        assert errors == [] and [d.year for d in evenings] == [int(year)]


def test_the_year_after_next_is_refused():
    year = str(timezone.localdate().year + 2).encode()
    _evenings, errors = club_book_parse(attendance=ATTENDANCE.replace(b"2026", year), games=GAMES)
    assert {e.code for e in errors if e.file == "club-book-attendance.csv"} == {"year_out_of_range"}


def test_a_name_of_exactly_100_characters_is_read():
    name = b"B" * 100
    attendance = (
        ATTENDANCE + b"2026-10-16,Anna Becker,secretary\r\n2026-10-16," + name + b",member\r\n"
    )
    evenings, errors = club_book_parse(attendance=attendance, games=GAMES)
    assert errors == []
    assert name.decode() in evenings[datetime.date(2026, 10, 16)].roles


def test_the_largest_game_number_the_column_holds_is_read():
    games = _replace_line(GAMES, 2, b"2026-10-09,2147483647,Dieter Hahn,")
    evenings, errors = club_book_parse(attendance=ATTENDANCE, games=games)
    assert errors == []
    assert 2147483647 in [g.number for g in evenings[datetime.date(2026, 10, 9)].games]


def test_a_row_the_database_refuses_while_writing_is_a_bad_row_and_nothing_is_saved(
    monkeypatch,
):
    """The set-based writes (COPY on PostgreSQL) still end in the database's checks: a
    person of another club slipped into the rows is refused there, reported, all undone."""
    from league.clubbook import services

    other = Member.objects.create(club=Club.objects.create(name="Andere Runde"), name="Otto")
    before = _state()
    create_members = services._create_members

    def with_an_outsider(batch):
        created = create_members(batch)
        batch.members["Anna Becker"] = other
        return created

    monkeypatch.setattr(services, "_create_members", with_an_outsider)
    with translation.override("de"):
        result = _import()
    # The trigger's code, and its German reason instead of the database's own text.
    assert [e.code for e in result.errors] == ["person_of_other_club"]
    assert result.errors[0].reason == (
        "Von der Datenbank abgelehnt: Diese Person gehört zu einem anderen Verein."
    )
    assert result.created == {}
    assert _state() == before


def test_a_refusal_the_database_gives_no_code_for_is_database_refused_in_german():
    """A constraint the books do not name (here a unique violation of another table)
    still gives a stable code and a German reason, not the database's message."""
    from django.db import IntegrityError

    from league.clubbook.services import database_refusal

    exc = IntegrityError('duplicate key value violates unique constraint "some_other_key"')
    with translation.override("de"):
        row = database_refusal(exc, "club-book-attendance.csv")
    assert row.code == "database_refused"
    assert row.reason.startswith("Von der Datenbank abgelehnt: ")
    assert "duplicate key" not in row.reason and "some_other_key" not in row.reason


def test_the_control_character_search_finds_exactly_unicodes_control_characters():
    """The import's precompiled search refuses the same characters as
    the unicodedata check it replaced: every code point compared."""
    import re
    import sys
    import unicodedata

    from league.club.spreadsheet import has_control_character
    from league.clubbook.services import CONTROL_CHARACTER

    for point in range(sys.maxunicode + 1):
        char = chr(point)
        expected = unicodedata.category(char) == "Cc"
        assert bool(CONTROL_CHARACTER.search(char)) is expected, hex(point)
        if point < 0x3000:  # the old check itself, on the scripts names are written in
            assert has_control_character(char) is expected, hex(point)
    assert isinstance(CONTROL_CHARACTER, re.Pattern)


@pytest.mark.parametrize("char", ["\x85", "\x9f", "\x7f", "\t", "\r"])
def test_a_name_with_a_control_character_is_a_bad_row(char):
    """C1 controls (NEL U+0085, U+009F), DEL and a quoted tab or CR in a name are refused
    like the NUL byte: the line is reported, nothing is imported."""
    line = f'2026-10-09,1,"Dieter{char}Hahn",'.encode()
    result = _import(games=_replace_line(GAMES, 2, line))
    assert [(e.file, e.line, e.code) for e in result.errors] == [
        ("club-book-games.csv", 2, "control_character")
    ]


@pytest.mark.parametrize("name", ["x" * 101, "", "   ", "Club\x00"])
def test_the_import_command_refuses_a_club_name_the_column_cannot_hold(name):
    """A --club name over 100 characters was a database error on PostgreSQL."""
    with pytest.raises(CommandError, match="--club"):
        call_command(
            "import_club_book",
            str(SAMPLES / "club-book-attendance.csv"),
            str(SAMPLES / "club-book-games.csv"),
            "--club",
            name,
        )
    assert not Club.objects.exists()


def _book_over_years(years: list[int]) -> tuple[bytes, bytes]:
    """The sample evening once in each of `years` (same day and month)."""
    attendance, games = ATTENDANCE, GAMES
    for year in years[1:]:
        day = b"%d-10-09" % year
        attendance += ATTENDANCE.split(b"\r\n", 1)[1].replace(b"2026-10-09", day)
        games += GAMES.split(b"\r\n", 1)[1].replace(b"2026-10-09", day)
    return attendance, games


def test_the_totals_of_many_seasons_are_read_with_the_queries_of_one(monkeypatch):
    """The totals of every season an import touched are read together:
    as many queries for four seasons as for two, and each season's figures are the
    sample's."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.clubbook import services

    counted = []
    read_totals = services._season_totals

    def counting(batch):
        with CaptureQueriesContext(connection) as queries:
            totals = read_totals(batch)
        counted.append(len(queries.captured_queries))
        return totals

    monkeypatch.setattr(services, "_season_totals", counting)
    one = _import(dry_run=True)
    two = _import(*_book_over_years([2026, 2025]), dry_run=True)
    many = _import(*_book_over_years([2026, 2023, 2024, 2025]), dry_run=True)
    assert one.ok and two.ok and many.ok
    assert [s.year for s in many.seasons] == [2023, 2024, 2025, 2026]
    assert {(s.marks_total, s.games, s.evenings) for s in many.seasons} == {
        (one.seasons[0].marks_total, 25, 1)
    }
    assert counted[1] == counted[2] > 0


def test_a_name_a_spreadsheet_would_read_as_a_formula_comes_back_as_written():
    """The export writes `'-Anna Becker` (a spreadsheet would read -Anna... as a formula);
    the import reads it, with blanks around it too, as the name -Anna Becker, and the
    export gives the same files back."""
    attendance = ATTENDANCE.replace(b"Anna Becker", b"'-Anna Becker")
    games = GAMES.replace(b"Anna Becker", b"'-Anna Becker")
    blanks = games.replace(b",'-Anna Becker,", b",  '-Anna Becker ,", 1)
    assert blanks != games
    assert _import(attendance, blanks).ok
    assert Member.objects.filter(name="-Anna Becker").exists()
    assert not Member.objects.filter(name__contains="'").exists()
    assert club_book_export(club=Club.objects.get(name=CLUB)) == (attendance, games)


def test_every_schock_aus_thrower_in_the_export_is_guarded_and_comes_back_as_named():
    """The throwers of a game share one cell, joined by `;`, which German Excel splits
    into cells: each name that a spreadsheet would run (`=1+1`, `@SUM(1)`, also when it is
    not the first) is written with a leading `'`, and the import reads the names back."""
    attendance = ATTENDANCE.replace(b"Carla Vogt", b"'=1+1").replace(b"Erik Lange", b"'@SUM(1)")
    games = GAMES.replace(b"Carla Vogt", b"'=1+1").replace(b"Erik Lange", b"'@SUM(1)")
    games += (
        b"2026-10-09,26,Anna Becker,'=1+1;'@SUM(1)\r\n"
        b"2026-10-09,27,Anna Becker,Bernd Krause;'=1+1\r\n"
    )
    assert _import(attendance, games).ok
    club = Club.objects.get(name=CLUB)
    _exported_attendance, exported_games = club_book_export(club=club)
    lines = exported_games.decode().splitlines()
    assert "2026-10-09,26,Anna Becker,'=1+1;'@SUM(1)" in lines
    assert "2026-10-09,27,Anna Becker,Bernd Krause;'=1+1" in lines
    for line in lines:
        for cell in line.split(",")[-1].split(";"):
            assert not cell.startswith(("=", "+", "@")), line
    game = Game.objects.get(evening__club=club, number=26)
    assert [s.thrower.name for s in SchockAus.objects.filter(game=game).order_by("position")] == [
        "=1+1",
        "@SUM(1)",
    ]
    # The exported book, imported again as a new club, names the same people.
    again = club_book_import(
        club_name="Schockclub Kopie", attendance=_exported_attendance, games=exported_games
    )
    assert again.ok, again
    copy = Game.objects.get(evening__club__name="Schockclub Kopie", number=26)
    assert [s.thrower.name for s in SchockAus.objects.filter(game=copy).order_by("position")] == [
        "=1+1",
        "@SUM(1)",
    ]
    assert club_book_export(club=Club.objects.get(name="Schockclub Kopie"))[1] == exported_games
