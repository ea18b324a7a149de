"""Money in by reference: the RF creditor reference of a person's GiroCode, its transfer
details in the API, and bank statements (CAMT.053, MT940, Sparkasse CSV-CAMT) that settle
the open amounts it names, oldest season first, each bank line once."""

import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games.evenings.services import evening_create, game_record
from league.banking.models import BankStatementLine
from league.banking.services import club_bank_account_set
from league.club.reference import creditor_reference, find_reference, parse_reference
from league.club.services import season_get_or_create
from league.ledger.models import Payment
from league.ledger.selectors import (
    member_balance,
)
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "bank_files"
IBAN = "DE89370400440532013000"


def _evening(club, secretary, day, people, losers):
    evening = evening_create(club=club, date=day, secretary=secretary, present_members=people)
    for loser in losers:
        game_record(evening=evening, loser=loser)


@pytest.fixture
def books():
    """A demo-like club: Anna (secretary), Bernd Krause owes 2.50 EUR in 2026 (5 lost
    games at 0.50 EUR), a bank account."""
    club = ClubFactory(name="Referenzclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    bernd = MemberFactory(club=club, name="Bernd Krause", user=UserFactory())
    season = season_get_or_create(club=club, year=2026)
    _evening(club, anna, datetime.date(2026, 10, 9), [anna, bernd], [bernd] * 5)
    club_bank_account_set(club=club, holder="Referenzclub Kasse", iban=IBAN)
    return {"club": club, "anna": anna, "bernd": bernd, "season": season}


def _client(member) -> APIClient:
    client = APIClient()
    client.force_authenticate(member.user)
    return client


def _payment_details(books) -> dict:
    response = _client(books["bernd"]).get(f"/api/v1/members/{books['bernd'].pk}/payment/")
    assert response.status_code == 200, response.content
    return response.json()


def _file(name: str, reference: str, amount: Decimal) -> bytes:
    text = (FILES / name).read_text(encoding="utf-8")
    text = (
        text.replace("{reference}", reference)
        .replace("{amount}", f"{amount:.2f}")
        .replace("{mt_amount}", f"{amount:.2f}".replace(".", ","))
        .replace("{csv_amount}", f"{amount:.2f}".replace(".", ","))
    )
    return text.encode("utf-8")


def _post(books, data: bytes, name: str = "statement", **extra):
    from django.core.files.uploadedfile import SimpleUploadedFile

    body = {"file": SimpleUploadedFile(name, data), **extra}
    return _client(books["anna"]).post("/api/v1/bank-statements/", body, format="multipart")


def test_a_reference_is_rf_with_check_digits_and_names_person_and_season():
    reference = creditor_reference(member_id=12, season_id=3)
    assert reference.startswith("RF") and reference.endswith("M12S3")
    parsed = parse_reference(reference)
    assert (parsed.member_id, parsed.season_id) == (12, 3)
    wrong_digit = reference[:2] + f"{(int(reference[2:4]) + 1) % 100:02d}" + reference[4:]
    assert parse_reference(wrong_digit) is None


def test_a_reference_is_found_in_wrapped_purpose_text():
    reference = creditor_reference(member_id=7, season_id=41)
    spaced = f"Kasse {reference[:6]} {reference[6:]} Danke"
    found = find_reference(spaced)
    assert (found.member_id, found.season_id) == (7, 41)


def test_the_payment_details_carry_the_open_amount_and_a_valid_rf_reference(books):
    details = _payment_details(books)
    assert (details["iban"], details["holder"], details["amount"], details["currency"]) == (
        IBAN,
        "Referenzclub Kasse",
        "2.50",
        "EUR",
    )
    lines = details["epc_payload"].split("\n")
    assert lines[:4] == ["BCD", "002", "2", "SCT"]
    assert lines[6] == IBAN and Decimal(lines[7].removeprefix("EUR")) == Decimal("2.50")
    parsed = parse_reference(lines[9])
    assert (parsed.member_id, parsed.season_id) == (books["bernd"].pk, books["season"].pk)
    assert lines[9] == details["reference"]


def test_the_reference_is_the_same_on_every_reprint(books):
    assert _payment_details(books)["reference"] == _payment_details(books)["reference"]


def test_another_member_may_not_read_a_persons_payment_details(books):
    carl = MemberFactory(club=books["club"], name="Carl", user=UserFactory())
    response = _client(carl).get(f"/api/v1/members/{books['bernd'].pk}/payment/")
    assert response.status_code == 403
    assert response.json()["code"] == "not_own_statement"


def test_nothing_open_answers_404_no_girocode(books):
    response = _client(books["anna"]).get(f"/api/v1/members/{books['anna'].pk}/payment/")
    assert (response.status_code, response.json()["code"]) == (404, "no_girocode")


@pytest.mark.parametrize("name", ["camt053_v08.xml", "camt053_v02.xml"])
def test_a_camt_statement_with_the_reference_settles_the_open_amount(books, name):
    reference = _payment_details(books)["reference"]
    response = _post(books, _file(name, reference, Decimal("2.50")))
    assert response.status_code == 200, response.content
    body = response.json()
    assert member_balance(member=books["bernd"], season=books["season"]) == 0
    assert [s["member"] for s in body["settled"]] == [books["bernd"].pk]
    payment = Payment.objects.get(member=books["bernd"])
    assert payment.method == Payment.Method.TRANSFER and "E2E-SCHOCK-0001" in payment.note


def test_the_debit_of_a_camt_statement_is_ignored(books):
    reference = _payment_details(books)["reference"]
    body = _post(books, _file("camt053_v08.xml", reference, Decimal("2.50"))).json()
    assert [(i["bank_line"]["name"], i["reason"]) for i in body["ignored"]] == [
        ("Stadtwerke", "debit")
    ]


def test_posting_the_same_statement_again_books_nothing(books):
    data = _file("camt053_v08.xml", _payment_details(books)["reference"], Decimal("2.50"))
    _post(books, data)
    again = _post(books, data).json()
    assert again["settled"] == [] and len(again["duplicates"]) == 1
    assert Payment.objects.filter(member=books["bernd"]).count() == 1


@pytest.mark.parametrize("name", ["mt940.sta", "csv_camt_v2.csv"])
def test_mt940_and_csv_camt_with_the_same_line_settle_the_same(books, name):
    reference = _payment_details(books)["reference"]
    body = _post(books, _file(name, reference, Decimal("2.50"))).json()
    assert [(s["member"], s["parts"][0]["amount"]) for s in body["settled"]] == [
        (books["bernd"].pk, "2.50")
    ]
    assert member_balance(member=books["bernd"], season=books["season"]) == 0
    assert [i["reason"] for i in body["ignored"]] == ["debit"]


def test_the_same_transfer_in_another_format_is_a_duplicate(books):
    reference = _payment_details(books)["reference"]
    _post(books, _file("camt053_v08.xml", reference, Decimal("2.50")))
    body = _post(books, _file("mt940.sta", reference, Decimal("2.50"))).json()
    assert body["settled"] == [] and len(body["duplicates"]) == 1
    assert Payment.objects.filter(member=books["bernd"]).count() == 1


def test_a_partial_payment_leaves_the_rest_open(books):
    reference = _payment_details(books)["reference"]
    _post(books, _file("camt053_v08.xml", reference, Decimal("1.00")))
    assert member_balance(member=books["bernd"], season=books["season"]) == Decimal("1.50")


def test_a_payment_for_two_seasons_settles_the_older_first(books):
    older = season_get_or_create(club=books["club"], year=2025)
    anna, bernd = books["anna"], books["bernd"]
    _evening(books["club"], anna, datetime.date(2025, 10, 10), [anna, bernd], [bernd] * 4)
    assert member_balance(member=bernd, season=older) == Decimal("2.00")
    details = _payment_details(books)
    assert details["amount"] == "4.50"
    _post(books, _file("camt053_v08.xml", details["reference"], Decimal("3.00")))
    assert member_balance(member=bernd, season=older) == 0
    assert member_balance(member=bernd, season=books["season"]) == Decimal("1.50")
    parts = BankStatementLine.objects.order_by("part").values_list("part", "amount")
    assert list(parts) == [(0, Decimal("2.00")), (1, Decimal("1.00"))]


def test_a_dm_season_is_never_paid_by_a_eur_line(books):
    dm = season_get_or_create(club=books["club"], year=1999)
    anna, bernd = books["anna"], books["bernd"]
    _evening(books["club"], anna, datetime.date(1999, 10, 8), [anna, bernd], [bernd] * 2)
    before = member_balance(member=bernd, season=dm)
    reference = _payment_details(books)["reference"]
    _post(books, _file("camt053_v08.xml", reference, Decimal("2.50")))
    assert before > 0 and member_balance(member=bernd, season=dm) == before
    assert member_balance(member=bernd, season=books["season"]) == 0


def test_a_name_and_amount_guess_waits_for_review_and_is_booked_when_confirmed(books):
    data = _file("camt053_v02.xml", "Schockclub Bernd Krause", Decimal("2.50"))
    body = _post(books, data).json()
    assert body["settled"] == []
    assert [r["member"] for r in body["to_review"]] == [books["bernd"].pk]
    assert member_balance(member=books["bernd"], season=books["season"]) == Decimal("2.50")
    key = body["to_review"][0]["bank_line"]["key"]
    confirmed = _post(books, data, confirm=[key]).json()
    assert [s["member"] for s in confirmed["settled"]] == [books["bernd"].pk]
    assert member_balance(member=books["bernd"], season=books["season"]) == 0


@pytest.mark.parametrize("name", ["billion_laughs.xml", "external_entity.xml"])
def test_hostile_xml_is_refused_with_a_stable_code(books, name):
    response = _post(books, (FILES / name).read_bytes())
    assert (response.status_code, response.json()["code"]) == (400, "hostile_xml")
    assert not Payment.objects.exists()


def test_a_file_above_the_size_bound_is_refused(books):
    response = _post(books, b"x" * (2 * 1024 * 1024 + 1))
    assert (response.status_code, response.json()["code"]) == (400, "file_too_large")


def test_only_the_secretary_imports_a_statement(books):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = _client(books["bernd"]).post(
        "/api/v1/bank-statements/",
        {"file": SimpleUploadedFile("s.xml", b"<x/>")},
        format="multipart",
    )
    assert (response.status_code, response.json()["code"]) == (403, "secretary_required")


def test_the_import_page_books_a_camt_line_with_the_reference_at_once(client, books):
    from django.core.files.uploadedfile import SimpleUploadedFile

    reference = _payment_details(books)["reference"]
    data = _file("camt053_v08.xml", reference, Decimal("2.50"))
    client.force_login(books["anna"].user)
    page = client.post("/verein/bankimport/", {"file": SimpleUploadedFile("auszug.xml", data)})
    assert page.status_code == 200
    assert member_balance(member=books["bernd"], season=books["season"]) == 0


def test_a_file_above_the_line_bound_is_refused_and_nothing_booked(books, monkeypatch):
    from league.banking import statement_files

    monkeypatch.setattr(statement_files, "MAX_LINES", 1)  # the fixture has two entries
    reference = _payment_details(books)["reference"]
    response = _post(books, _file("camt053_v08.xml", reference, Decimal("2.50")))
    assert (response.status_code, response.json()["code"]) == (400, "bad_bank_file")
    assert not Payment.objects.exists()


def test_an_amount_beyond_the_books_is_refused_and_nothing_booked(books):
    reference = _payment_details(books)["reference"]
    data = _file("camt053_v08.xml", reference, Decimal("2.50")).replace(
        b">2.50<", b">99999999999999999999999999999.00<"
    )
    response = _post(books, data)
    assert (response.status_code, response.json()["code"]) == (400, "bad_bank_file")
    assert not Payment.objects.exists()


def test_the_statement_of_a_eur_season_carries_the_rf_reference(books):
    bernd = books["bernd"]
    response = _client(bernd).get(f"/api/v1/members/{bernd.pk}/statement/")
    (account,) = response.json()["seasons"]
    expected = creditor_reference(member_id=bernd.pk, season_id=books["season"].pk)
    assert account["reference"] == expected


def _without_end_to_end(data: bytes) -> bytes:
    """The file as a bank writes a private transfer: no end-to-end reference."""
    return data.replace(b"E2E-SCHOCK-0001", b"NOTPROVIDED")


def test_two_transfers_alike_without_a_bank_reference_are_both_booked(books):
    reference = _payment_details(books)["reference"]
    data = _without_end_to_end(_file("csv_camt_v2.csv", reference, Decimal("1.00")))
    header, line, *rest = data.split(b"\n")
    twice = b"\n".join([header, line, line, *rest])  # paid 1.00 twice on one day
    body = _post(books, twice).json()
    assert len(body["settled"]) == 2 and body["duplicates"] == []
    assert member_balance(member=books["bernd"], season=books["season"]) == Decimal("0.50")
    again = _post(books, twice).json()
    assert again["settled"] == [] and len(again["duplicates"]) == 2
    assert Payment.objects.filter(member=books["bernd"]).count() == 2


def test_a_transfer_without_end_to_end_reference_in_two_formats_is_booked_once(books):
    reference = _payment_details(books)["reference"]
    camt = _without_end_to_end(_file("camt053_v08.xml", reference, Decimal("2.50")))
    csv_camt = _without_end_to_end(_file("csv_camt_v2.csv", reference, Decimal("2.50")))
    assert len(_post(books, camt).json()["settled"]) == 1
    body = _post(books, csv_camt).json()
    assert body["settled"] == [] and len(body["duplicates"]) == 1
    assert Payment.objects.filter(member=books["bernd"]).count() == 1
