"""Numbers and money in every API input are ASCII digits, bounded:
"1E2", "1_000", digits of other scripts and whitespace tricks are a 400 with a stable
code (`invalid_number`, `invalid_amount`; `invalid` for a query filter), nothing saved; an
integral JSON number is still a whole number. A Runde note over 200 characters or with a
NUL byte is a 400 too, and a payment is bounded by PAYMENT_MAX."""

from decimal import Decimal

import pytest

from league.club.models import Season
from league.ledger.models import Payment
from league.runden.models import RundeGiven
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

NOT_WHOLE_NUMBERS = ["1E2", "1_000", "١٢", "１２", "²", " 12", "12 ", "12\n", "1.0", "0x10", ""]
NOT_MONEY = [
    "1E2",
    "1_000",
    "١٢",
    "１٢.00",
    " 15.00",
    "15.00 ",
    "15.5.0",
    "NaN",
    "Infinity",
    "1,005",
]


def _pay(cast, **body):
    body = {"member": cast.member.pk, "amount": "15.50", "paid_on": "2026-10-16", **body}
    return client_for(cast, "secretary").post("/api/v1/payments/", body, format="json")


@pytest.mark.parametrize("amount", NOT_MONEY)
def test_a_payment_amount_not_in_digits_is_invalid_amount(cast, amount):
    response = _pay(cast, amount=amount)
    assert (response.status_code, response.json()["code"]) == (400, "invalid_amount")
    assert response.json()["field"] == "amount"
    assert not Payment.objects.exists()


@pytest.mark.parametrize("member", NOT_WHOLE_NUMBERS)
def test_a_member_id_not_in_digits_is_invalid_number(cast, member):
    response = _pay(cast, member=member)
    assert (response.status_code, response.json()["code"]) == (400, "invalid_number")
    assert not Payment.objects.exists()


def test_the_invalid_number_message_is_german(cast):
    assert "Ziffern" in _pay(cast, member="1E2").json()["message"]


def test_an_integral_json_number_and_a_digit_string_are_whole_numbers(cast):
    assert _pay(cast, member=float(cast.member.pk)).status_code == 201
    assert _pay(cast, member=str(cast.member.pk)).status_code == 201


def test_a_german_decimal_comma_is_money(cast):
    response = _pay(cast, amount="15,50")
    assert response.status_code == 201
    assert Payment.objects.get().amount == Decimal("15.50")


@pytest.mark.parametrize(
    "amount,status,code", [("10000.00", 201, None), ("10000.01", 400, "max_value")]
)
def test_a_payment_is_at_most_ten_thousand(cast, amount, status, code):
    response = _pay(cast, amount=amount)
    assert response.status_code == status
    if code:
        assert response.json()["code"] == code
        assert not Payment.objects.exists()


def test_a_payment_of_one_cent_is_taken(cast):
    assert _pay(cast, amount="0.01").status_code == 201


@pytest.mark.parametrize("year", ["٢٠٢٧", "2_027", "2.027E3", " 2027"])
def test_a_season_year_not_in_digits_is_invalid_number(cast, year):
    response = client_for(cast, "secretary").post("/api/v1/seasons/", {"year": year}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_number")
    assert not Season.objects.filter(club=cast.club, year=2027).exists()


@pytest.mark.parametrize("dice", [["٣", 2, 1], ["1E0", 2, 1], [10**30, 2, 1]])
def test_dice_not_in_digits_or_out_of_bounds_are_refused(cast, dice):
    response = client_for(cast, "member").post(
        "/api/v1/rules/evaluate/", {"dice": dice, "attempts": 1}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] in ("invalid_number", "max_value")


@pytest.mark.parametrize("number", ["1_0", "١", "1E1"])
def test_a_game_number_not_in_digits_is_invalid_number(cast, number):
    body = {"evening": cast.evening.pk, "number": number, "loser": cast.member.pk}
    response = client_for(cast, "secretary").post("/api/v1/games/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_number")


@pytest.mark.parametrize("query", ["season=١", "season=1_0", "member=1E2", "season=%C2%B2"])
def test_a_runden_query_not_in_digits_is_refused(cast, query):
    response = client_for(cast, "member").get(f"/api/v1/runden/?{query}")
    assert response.status_code == 400
    assert response.json()["code"] in ("invalid_number", "invalid")


@pytest.mark.parametrize("query", ["year=١٢", "year=1_0", "year_min=2E3", "year_max=%C2%B2"])
def test_a_filter_number_not_in_digits_is_a_400(cast, query):
    response = client_for(cast, "member").get(f"/api/v1/seasons/?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def _schock_aus(cast):
    return cast.games[1].schock_aus.get()


@pytest.mark.parametrize(
    "note,code",
    [("x" * 201, "max_length"), ("Bier\x00", "null_characters_not_allowed")],
    ids=["over 200 characters", "NUL byte"],
)
def test_a_hostile_runde_note_is_a_400_and_nothing_is_saved(cast, note, code):
    response = client_for(cast, "secretary").post(
        f"/api/v1/runden/{_schock_aus(cast).pk}/given/",
        {"given_on": "2026-10-16", "note": note},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert not RundeGiven.objects.exists()
