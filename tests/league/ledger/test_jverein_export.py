"""The export for JVerein: a ZIP of the club's people (JVerein's member import columns)
and the kitty's euro bookings of a year (its booking import columns), ISO-8859-1, `;`,
no quotation marks, formula cells neutralised, the secretary only, linked from the club
administration beside the DATEV export."""

import datetime
import io
import zipfile
from decimal import Decimal

import pytest

from league.banking.exports import JVEREIN_BOOKING_COLUMNS, JVEREIN_MEMBER_COLUMNS
from league.club.services import member_update, season_get_or_create
from league.ledger.models import Payment
from league.ledger.services import payment_cancel, payment_record
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def books():
    club = ClubFactory(name="Exportclub")
    anna = MemberFactory(
        club=club, name="Anna Maria Becker", is_secretary=True, user=UserFactory(email="a@x.de")
    )
    hacker = MemberFactory(club=club, name='=HYPERLINK("x";1)', user=UserFactory())
    gustav = MemberFactory(club=club, name="Gustav", kind="guest")
    season_get_or_create(club=club, year=2026)
    payment_record(
        member=hacker,
        amount=Decimal("2.50"),
        paid_on=datetime.date(2026, 10, 10),
        method=Payment.Method.TRANSFER,
    )
    cash = payment_record(member=anna, amount=Decimal("4.00"), paid_on=datetime.date(2026, 10, 11))
    return {"club": club, "anna": anna, "hacker": hacker, "gustav": gustav, "cash": cash}


def files(client, books, query="?jahr=2026") -> dict[str, list[list[str]]]:
    client.force_login(books["anna"].user)
    response = client.get(f"/verein/export/jverein.zip{query}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    result = {}
    for name in archive.namelist():
        text = archive.read(name).decode("iso-8859-1")
        assert text.endswith("\r\n") and '"' not in text
        result[name] = [line.split(";") for line in text.split("\r\n")[:-1]]
    return result


def test_the_members_file_has_jvereins_columns_and_one_line_a_person(client, books):
    rows = files(client, books)["mitglieder.csv"]
    assert rows[0] == JVEREIN_MEMBER_COLUMNS
    assert all(len(row) == len(JVEREIN_MEMBER_COLUMNS) for row in rows)
    anna = dict(zip(rows[0], rows[1], strict=True))
    assert anna["Mitglieds_Nr"] == str(books["anna"].pk)
    assert (anna["Nachname"], anna["Vorname"]) == ("Becker", "Anna Maria")
    assert (anna["Straße"], anna["Plz"], anna["Ort"]) == ("unbekannt", "00000", "unbekannt")
    assert (anna["Email"], anna["Beitragsart_1"], anna["Beitrag_1"]) == (
        "a@x.de",
        "Mitglied",
        "0,00",
    )
    gustav = dict(zip(rows[0], rows[3], strict=True))
    assert (gustav["Nachname"], gustav["Beitragsart_1"]) == ("Gustav", "Gast")


def test_a_formula_name_is_neutralised_in_both_files(client, books):
    exported = files(client, books)
    hacker = dict(zip(exported["mitglieder.csv"][0], exported["mitglieder.csv"][2], strict=True))
    assert hacker["Nachname"] == hacker["Vorname"] == "'=HYPERLINK('x',1)"
    booking = exported["buchungen_2026.csv"][1]
    assert booking[3] == "'=HYPERLINK('x',1)"


def test_the_bookings_file_lists_payments_and_cancellations(client, books):
    payment_cancel(payment=books["cash"])
    rows = files(client, books)["buchungen_2026.csv"]
    assert rows[0] == JVEREIN_BOOKING_COLUMNS
    transfer, cash, storno = rows[1:]
    hacker = books["hacker"]
    assert transfer[:3] == ["2,50", "10.10.2026", "1200"]
    assert transfer[4].startswith(f"Mitglied {hacker.pk}, Saison 2026, Zahlung Z")
    assert cash[:4] == ["4,00", "11.10.2026", "1000", "Anna Maria Becker"]
    assert storno[0] == "-4,00"
    assert storno[4] == f"Storno Z{books['cash'].pk}"


def test_an_inactive_person_leaves_on_the_day_of_the_export(client, books):
    member_update(member=books["gustav"], active=False)
    rows = files(client, books)["mitglieder.csv"]
    gustav = dict(zip(rows[0], rows[3], strict=True))
    assert gustav["Austritt"] == datetime.date.today().strftime("%d.%m.%Y")


def test_another_year_has_no_bookings(client, books):
    assert files(client, books, "?jahr=2025")["buchungen_2025.csv"] == [JVEREIN_BOOKING_COLUMNS]


def test_a_bad_year_is_refused(client, books):
    client.force_login(books["anna"].user)
    assert client.get("/verein/export/jverein.zip?jahr=99999").status_code == 400


def test_only_the_secretary_exports(client, books):
    client.force_login(books["hacker"].user)
    assert client.get("/verein/export/jverein.zip").status_code == 403


def test_the_club_administration_links_both_exports(client, books):
    client.force_login(books["anna"].user)
    page = client.get("/verein/").content.decode()
    assert "/verein/export/datev.csv" in page
    assert "/verein/export/jverein.zip" in page
    assert "Export für JVerein" in page
