"""Bank statement CSV import: parsing, matching, booking once."""

import datetime
from decimal import Decimal

import pytest
from django.utils import translation

from games.evenings.services import evening_create, game_record
from league.banking.bank_import import bank_lines_book, bank_lines_match, parse_bank_csv
from league.banking.models import BankStatementLine
from league.club.errors import BooksError
from league.club.services import member_login_set, season_get_or_create
from league.ledger.models import Payment
from league.ledger.selectors import (
    member_balance,
)
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

HEADER = "Buchungstag;Valuta;Auftraggeber/Empfänger;Verwendungszweck;Betrag\n"


@pytest.fixture
def books():
    club = ClubFactory(name="Bankclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    bernd = MemberFactory(club=club, name="Bernd Krause")
    carl = MemberFactory(club=club, name="Carl")
    season = season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=anna,
        present_members=[anna, bernd, carl],
    )
    for loser in [bernd] * 5 + [carl] * 2:  # Bernd owes 2.50 EUR, Carl 1.00 EUR
        game_record(evening=evening, loser=loser)
    return {"club": club, "anna": anna, "bernd": bernd, "carl": carl, "season": season}


def _statement(books) -> bytes:
    bernd = books["bernd"]
    return (
        "Umsätze Girokonto;;;;\n"
        + HEADER
        + f"10.10.2026;10.10.2026;Bernd Krause;Kasse Bernd Krause 2026 (Nr. {bernd.pk});2,50\n"
        + "11.10.2026;11.10.2026;C. Mustermann;Schockclub Carl;1,00\n"
        + "12.10.2026;12.10.2026;Stadtwerke;Strom;-45,00\n"
        + "13.10.2026;13.10.2026;Unbekannt;Spende;1.000,00\n"
    ).encode("cp1252")


def test_cp1252_file_with_preamble_is_read(books):
    lines = parse_bank_csv(club=books["club"], data=_statement(books))
    assert [(x.line, x.amount) for x in lines] == [
        (3, Decimal("2.50")),
        (4, Decimal("1.00")),
        (5, Decimal("-45.00")),
        (6, Decimal("1000.00")),
    ]
    assert lines[1].name == "C. Mustermann"


def test_lines_paying_an_open_amount_are_proposed(books):
    lines = parse_bank_csv(club=books["club"], data=_statement(books))
    proposals = bank_lines_match(club=books["club"], lines=lines)
    assert [(p.member.name, p.season.year, p.bank_line.amount) for p in proposals] == [
        ("Bernd Krause", 2026, Decimal("2.50")),
        ("Carl", 2026, Decimal("1.00")),
    ]


def test_a_wrong_amount_is_not_proposed(books):
    data = (HEADER + "10.10.2026;10.10.2026;Bernd Krause;Bernd Krause;2,00\n").encode()
    lines = parse_bank_csv(club=books["club"], data=data)
    assert bank_lines_match(club=books["club"], lines=lines) == []


def test_confirmed_lines_are_booked_once_even_when_uploaded_twice(books):
    lines = parse_bank_csv(club=books["club"], data=_statement(books))
    hashes = {p.bank_line.line_hash for p in bank_lines_match(club=books["club"], lines=lines)}
    payments = bank_lines_book(club=books["club"], lines=lines, confirmed=hashes)
    assert len(payments) == 2
    assert payments[0].method == Payment.Method.TRANSFER
    assert member_balance(member=books["bernd"], season=books["season"]) == Decimal("0.00")
    again = parse_bank_csv(club=books["club"], data=_statement(books))
    assert bank_lines_book(club=books["club"], lines=again, confirmed=hashes) == []
    assert Payment.objects.count() == 2
    assert BankStatementLine.objects.count() == 2


def test_only_confirmed_lines_are_booked(books):
    lines = parse_bank_csv(club=books["club"], data=_statement(books))
    proposals = bank_lines_match(club=books["club"], lines=lines)
    carl_only = {p.bank_line.line_hash for p in proposals if p.member.name == "Carl"}
    payments = bank_lines_book(club=books["club"], lines=lines, confirmed=carl_only)
    assert [p.member.name for p in payments] == ["Carl"]
    assert member_balance(member=books["bernd"], season=books["season"]) == Decimal("2.50")


@pytest.mark.parametrize(
    "row",
    [
        '10.10.2026;;=HYPERLINK("x");Bernd;2,50',
        "10.10.2026;;Bernd;@SUM(1);2,50",
        "10.10.2026;;Bernd\x07;Kasse;2,50",
        "31.02.2026;;Bernd;Kasse;2,50",
        "10.10.2026;;Bernd;Kasse;2.5e3",
        "10.10.2026;;Bernd;Kasse;1,234",
    ],
)
def test_hostile_or_unreadable_cells_refuse_the_file(books, row):
    with translation.override("de"), pytest.raises(BooksError) as refused:
        parse_bank_csv(club=books["club"], data=(HEADER + row + "\n").encode())
    assert refused.value.code == "bad_bank_file"
    assert "Zeile 2" in refused.value.message


def test_a_file_without_the_columns_is_refused(books):
    with pytest.raises(BooksError) as refused:
        parse_bank_csv(club=books["club"], data=b"Datum;Text;Wert\n01.01.2026;x;1,00\n")
    assert refused.value.code == "bad_bank_file"


def test_a_too_large_file_is_refused(books):
    with pytest.raises(BooksError) as refused:
        parse_bank_csv(club=books["club"], data=HEADER.encode() + b"x" * (2 * 1024 * 1024))
    assert refused.value.code == "file_too_large"


def test_utf8_with_bom_and_other_column_names(books):
    data = (
        "\ufeffBuchungsdatum;Wertstellung;Name Zahlungsbeteiligter;Verwendungszweck;Betrag (EUR)\n"
        "10.10.26;10.10.26;Carl;Kasse Carl;1,00\n"
    ).encode()
    lines = parse_bank_csv(club=books["club"], data=data)
    assert lines[0].booked_on == datetime.date(2026, 10, 10)
    assert [p.member.name for p in bank_lines_match(club=books["club"], lines=lines)] == ["Carl"]


def test_secretary_uploads_and_confirms_on_the_page(client, books):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(books["anna"].user)
    upload = SimpleUploadedFile("umsaetze.csv", _statement(books), content_type="text/csv")
    page = client.post("/verein/bankimport/", {"file": upload})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Bernd Krause" in html and "Stadtwerke" not in html
    hashes = [p.bank_line.line_hash for p in page.context["proposals"]]
    done = client.post("/verein/bankimport/", {"action": "confirm", "line": hashes})
    assert done.status_code == 302
    assert Payment.objects.count() == 2


def test_a_member_cannot_open_the_bank_import(client, books):
    user = UserFactory()
    member_login_set(person=books["carl"], user=user)
    client.force_login(user)
    assert client.get("/verein/bankimport/").status_code == 403
