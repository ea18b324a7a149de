"""The club-book import and export through the API: the sample
files of tests/samples go in through POST club-book/import/ (multipart) and come
back out byte for byte through the export; a bad file changes nothing."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.accounts.services import api_token_create
from league.club.models import Club, Member, Season
from league.club.services import member_create, member_login_set
from league.clubbook.selectors import (
    club_book_export,
)
from league.ledger.models import LedgerEntry
from tests.api.conftest import ROLES, client_for
from tests.conftest import SAMPLES
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ATTENDANCE = (SAMPLES / "club-book-attendance.csv").read_bytes()
GAMES = (SAMPLES / "club-book-games.csv").read_bytes()
HEADER_A = b"date,name,role\r\n"
HEADER_G = b"date,number,loser,schock_aus\r\n"


@pytest.fixture
def sample_club(db):
    """A club without evenings whose secretary (a name of the sample) has a login."""
    club = Club.objects.create(name="Schockclub Sample")
    secretary = member_create(club=club, name="Bernd Krause", is_secretary=True)
    member_login_set(person=secretary, user=UserFactory(username="bernd-sample"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=secretary.user)[1]}")
    return club, client


def _files(attendance: bytes = ATTENDANCE, games: bytes = GAMES, **extra) -> dict:
    return {
        "attendance": SimpleUploadedFile("club-book-attendance.csv", attendance, "text/csv"),
        "games": SimpleUploadedFile("club-book-games.csv", games, "text/csv"),
        **extra,
    }


def _import(client, **kwargs):
    return client.post("/api/v1/club-book/import/", _files(**kwargs), format="multipart")


def _state() -> dict[str, int]:
    models = [Club, Member, Season, Evening, Attendance, Game, SchockAus, LedgerEntry]
    return {m.__name__: m.objects.count() for m in models}


def test_dry_run_answers_what_would_be_created_and_writes_nothing(sample_club):
    _club, client = sample_club
    before = _state()
    response = _import(client, dry_run="true")
    assert response.status_code == 200
    body = response.json()
    assert body["dry_run"] is True and body["changed"] is True
    assert body["created"]["evenings"] == 1
    assert _state() == before


def test_import_creates_what_the_dry_run_announced(sample_club):
    _club, client = sample_club
    announced = _import(client, dry_run="true").json()
    done = _import(client).json()
    assert done["dry_run"] is False
    assert done["created"] == announced["created"]
    assert Game.objects.filter(evening__club=_club).count() == done["created"]["games"]


def test_import_answers_the_season_totals_of_the_sample(sample_club, sample_evening):
    _club, client = sample_club
    (season,) = _import(client).json()["seasons"]
    expected = sample_evening["expected"]
    assert (season["year"], season["currency"]) == (2026, expected["currency"])
    assert season["marks_total"] == expected["marks_total"]
    assert Decimal(season["money_total"]) == Decimal(expected["money_total"])
    assert season["runden"] == len(expected["runden_owed"])


def test_second_import_of_the_same_files_changes_nothing(sample_club):
    _club, client = sample_club
    _import(client)
    before = _state()
    body = _import(client).json()
    assert (body["changed"], body["skipped"]) == (False, 1)
    assert _state() == before


@pytest.mark.parametrize(
    "which,sample", [("attendance", ATTENDANCE), ("games", GAMES)], ids=["attendance", "games"]
)
def test_export_gives_back_the_sample_files_byte_for_byte(sample_club, which, sample):
    _club, client = sample_club
    _import(client)
    response = client.get(f"/api/v1/club-book/export/{which}.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.content == sample


def test_export_is_what_the_page_download_gives(sample_club):
    club, client = sample_club
    _import(client)
    attendance, games = club_book_export(club=club)
    got = [client.get(f"/api/v1/club-book/export/{w}.csv").content for w in ("attendance", "games")]
    assert got == [attendance, games]


def test_bad_row_is_answered_with_its_file_line_and_reason(sample_club):
    _club, client = sample_club
    bad = ATTENDANCE + b"2026-10-09,Hanna Neu,chef\r\n"
    response = _import(client, attendance=bad)
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"]) == ("bad_rows", None)
    (error,) = body["errors"]
    assert error["file"] == "club-book-attendance.csv"
    assert error["line"] == bad.count(b"\n")
    assert error["code"] and error["reason"]


def test_bad_row_imports_nothing(sample_club):
    _club, client = sample_club
    before = _state()
    _import(client, games=GAMES + b"2026-10-09,99,Niemand Bekannt,\r\n")
    assert _state() == before


def test_import_needs_both_files(sample_club):
    _club, client = sample_club
    response = client.post(
        "/api/v1/club-book/import/",
        {"attendance": SimpleUploadedFile("a.csv", ATTENDANCE)},
        format="multipart",
    )
    assert (response.status_code, response.json()["field"]) == (400, "games")


def test_import_refuses_a_json_body(sample_club):
    _club, client = sample_club
    response = client.post("/api/v1/club-book/import/", {"dry_run": True}, format="json")
    assert response.status_code == 415


def test_import_of_binary_garbage_is_a_bad_file_not_a_crash(sample_club):
    _club, client = sample_club
    response = _import(client, attendance=b"\xff\xfe\x00garbage", games=b"\x00")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_rows"


SMALL_A = HEADER_A + b"2026-10-23,Bernd Krause,secretary\r\n2026-10-23,Anna Becker,member\r\n"
SMALL_G = HEADER_G + b"2026-10-23,1,Anna Becker,\r\n"
IMPORT_STATUS = {"member": 403, "secretary": 200, "outsider": 200, "nobody": 403}


@pytest.mark.parametrize("role", ROLES)
def test_import_is_for_the_secretary_of_the_own_club_only(cast, role):
    client = client_for(cast, role)
    response = client.post(
        "/api/v1/club-book/import/",
        _files(SMALL_A, SMALL_G, dry_run="true"),
        format="multipart",
    )
    want = 401 if role == "anonymous" else IMPORT_STATUS[role]
    assert response.status_code == want, response.content
    if want >= 400:
        assert set(response.json()) >= {"code", "message", "field"}


def test_outsiders_import_goes_into_his_own_club(cast):
    client = client_for(cast, "outsider")
    client.post("/api/v1/club-book/import/", _files(SMALL_A, SMALL_G), format="multipart")
    assert Evening.objects.filter(club=cast.other_club, date="2026-10-23").exists()
    assert not Evening.objects.filter(club=cast.club, date="2026-10-23").exists()


def test_bad_rows_message_is_in_german(sample_club):
    _club, client = sample_club
    response = _import(client, attendance=ATTENDANCE + b"2026-10-09,Hanna Neu,chef\r\n")
    assert response.json()["message"] != "The files have bad rows; nothing was imported."
    assert "nichts" in response.json()["message"]


def test_a_file_over_the_upload_limit_is_refused_and_nothing_imported(sample_club, monkeypatch):
    monkeypatch.setattr("league.clubbook.serializers.MAX_UPLOAD_BYTES", len(SMALL_A) - 1)
    _club, client = sample_club
    response = _import(client, attendance=SMALL_A, games=SMALL_G)
    assert (response.status_code, response.json()["code"]) == (400, "file_too_large")
    assert not Evening.objects.exists()


HOSTILE_ROWS = {
    "nul": (SMALL_A.replace(b"Anna Becker", b"Anna\x00Becker"), SMALL_G, "control_character"),
    "long name": (
        SMALL_A.replace(b"Anna Becker", b"A" * 101),
        SMALL_G.replace(b"Anna Becker", b"A" * 101),
        "name_too_long",
    ),
    "game number 3000000000": (
        SMALL_A,
        SMALL_G.replace(b",1,", b",3000000000,"),
        "game_number_too_large",
    ),
    "year 1850": (SMALL_A.replace(b"2026", b"1850"), SMALL_G, "year_out_of_range"),
    "year 0001": (SMALL_A, SMALL_G.replace(b"2026", b"0001"), "year_out_of_range"),
    "year 2100": (
        SMALL_A.replace(b"2026", b"2100"),
        SMALL_G.replace(b"2026", b"2100"),
        "year_out_of_range",
    ),
}


@pytest.fixture
def secretary_api(db):
    """An API client of a club's secretary, authenticated without a token (this test is
    about the import, not the login)."""
    club = Club.objects.create(name="Schockclub Sample")
    secretary = member_create(club=club, name="Bernd Krause", is_secretary=True)
    member_login_set(person=secretary, user=UserFactory(username="bernd-sample"))
    client = APIClient()
    client.force_authenticate(secretary.user)
    return client


@pytest.mark.parametrize("case", list(HOSTILE_ROWS), ids=list(HOSTILE_ROWS))
def test_a_hostile_row_is_a_bad_row_and_imports_nothing(secretary_api, case):
    client = secretary_api
    attendance, games, code = HOSTILE_ROWS[case]
    before = _state()
    response = _import(client, attendance=attendance, games=games)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_rows"
    assert code in [e["code"] for e in body["errors"]]
    assert all(e["file"] and e["line"] >= 1 and e["reason"] for e in body["errors"])
    assert _state() == before


def test_a_row_the_database_refuses_is_answered_with_its_code_in_german(sample_club, monkeypatch):
    """A refusal by the database's triggers during the set-based writes (COPY on
    PostgreSQL) answers the trigger's stable code and a German reason, never the
    database's own message, and imports nothing."""
    from league.clubbook import services

    _club, client = sample_club
    other = Member.objects.create(club=Club.objects.create(name="Andere Runde"), name="Otto")
    create_members = services._create_members

    def with_an_outsider(batch):
        created = create_members(batch)
        batch.members["Anna Becker"] = other
        return created

    monkeypatch.setattr(services, "_create_members", with_an_outsider)
    before = _state()
    response = client.post(
        "/api/v1/club-book/import/", _files(), format="multipart", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_rows"
    [row] = body["errors"]
    assert row["code"] == "person_of_other_club"
    assert row["reason"] == (
        "Von der Datenbank abgelehnt: Diese Person gehört zu einem anderen Verein."
    )
    assert _state() == before
