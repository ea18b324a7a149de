"""The DATEV Buchungsstapel of the kitty's euro payments: EXTF header, cp1252, CRLF, one
line a payment, formula cells neutralised, the secretary only."""

import datetime
from decimal import Decimal

import pytest

from league.club.services import season_get_or_create
from league.ledger.models import Payment
from league.ledger.services import payment_record
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def books():
    club = ClubFactory(name="Exportclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    hacker = MemberFactory(club=club, name="=HYPERLINK(1)", user=UserFactory())
    season_get_or_create(club=club, year=2026)
    payment_record(
        member=hacker,
        amount=Decimal("2.50"),
        paid_on=datetime.date(2026, 10, 10),
        method=Payment.Method.TRANSFER,
    )
    return {"club": club, "anna": anna, "hacker": hacker}


def _lines(client, books) -> list[str]:
    client.force_login(books["anna"].user)
    response = client.get("/verein/export/datev.csv?jahr=2026")
    assert response.status_code == 200
    text = response.content.decode("cp1252")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    return text.split("\r\n")


def test_the_file_starts_with_datevs_extf_header_and_column_names(client, books):
    header, columns = _lines(client, books)[:2]
    assert header.startswith("EXTF;700;21;Buchungsstapel;13;")
    assert len(header.split(";")) == 31
    assert columns.startswith("Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz")


def test_a_transfer_is_booked_on_the_bank_account_with_its_name_neutralised(client, books):
    payment = Payment.objects.get()
    row = _lines(client, books)[2].split(";")
    assert row == [
        "2,50",
        "S",
        "EUR",
        "",
        "",
        "",
        "1200",
        "8200",
        "",
        "1010",
        f"Z{payment.pk}",
        "",
        "",
        "'=HYPERLINK(1)",
    ]


def test_a_member_may_not_download_the_datev_file(client, books):
    client.force_login(books["hacker"].user)
    assert client.get("/verein/export/datev.csv").status_code == 403


def test_a_bad_year_is_refused(client, books):
    client.force_login(books["anna"].user)
    assert client.get("/verein/export/datev.csv?jahr=20x6").status_code == 400


def test_a_cancelled_payment_is_booked_back_with_an_h_line(client, books):
    from league.ledger.services import payment_cancel

    payment = Payment.objects.get()
    wrong = payment_record(
        member=books["anna"],
        amount=Decimal("50.00"),
        paid_on=datetime.date(2026, 10, 11),
        method=Payment.Method.CASH,
    )
    payment_cancel(payment=wrong)
    rows = [line.split(";") for line in _lines(client, books)[2:] if line]
    booked = [(r[0], r[1], r[6], r[10], r[13]) for r in rows]
    cancelled_on = rows[-1][9]
    assert booked == [
        ("2,50", "S", "1200", f"Z{payment.pk}", "'=HYPERLINK(1)"),
        ("50,00", "S", "1000", f"Z{wrong.pk}", "Anna"),
        ("50,00", "H", "1000", f"Z{wrong.pk}", f"Storno Z{wrong.pk}"),
    ]
    assert len(cancelled_on) == 4  # DDMM of the cancellation's booking day
    # what DATEV adds up: the money that stayed in the kitty
    net = sum(Decimal(r[0].replace(",", ".")) * (1 if r[1] == "S" else -1) for r in rows)
    assert net == Decimal("2.50")
