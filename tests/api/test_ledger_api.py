"""The kitty through the API: payments, statements and balances go
through league.ledger.services exactly as the pages do; money is a decimal string."""

import datetime
from decimal import Decimal

import pytest

from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    member_balance,
)
from league.ledger.services import (
    payment_record,
)

pytestmark = pytest.mark.django_db


def _pay(api, cast, amount="15.50", **extra):
    body = {"member": cast.member.pk, "amount": amount, "paid_on": "2026-10-16", **extra}
    return api("secretary").post("/api/v1/payments/", body, format="json")


def _statement(api, cast, role="secretary", person=None):
    person = person or cast.member
    return api(role).get(f"/api/v1/members/{person.pk}/statement/?season={cast.season.pk}")


def _row(balances: dict, person) -> dict:
    return next(r for r in balances["rows"] if r["member"]["id"] == person.pk)


def test_secretary_records_a_payment_with_its_amount_as_a_two_place_string(api, cast):
    response = _pay(api, cast, method="transfer", note="Oktober")
    assert response.status_code == 201
    body = response.json()
    assert (body["amount"], body["currency"], body["method"]) == ("15.50", "EUR", "transfer")


def test_recorded_payment_is_in_the_ledger_with_the_exact_amount(api, cast):
    payment_id = _pay(api, cast).json()["id"]
    entry = LedgerEntry.objects.get(payment_id=payment_id)
    assert entry.amount == Decimal("-15.50")


def test_payment_lowers_the_statement_balance_by_exactly_its_amount(api, cast):
    before = Decimal(_statement(api, cast).json()["seasons"][0]["balance"])
    _pay(api, cast)
    season = _statement(api, cast).json()["seasons"][0]
    assert Decimal(season["balance"]) == before - Decimal("15.50")
    assert season["lines"][-1]["amount"] == "-15.50"
    assert season["paid"] == "15.50"


def test_statement_balance_is_the_ledgers_balance(api, cast):
    _pay(api, cast, amount="0.20")
    season = _statement(api, cast).json()["seasons"][0]
    assert Decimal(season["balance"]) == member_balance(member=cast.member, season=cast.season)
    assert season["lines"][-1]["balance"] == season["balance"]


def test_statement_gives_the_balance_in_marks_as_well(api, cast):
    season = _statement(api, cast).json()["seasons"][0]
    marks = Decimal(season["balance"]) / Decimal(season["mark_value"])
    assert Decimal(season["balance_marks"]) == marks


def test_payment_shows_in_the_balances_as_paid_and_in_the_kitty(api, cast):
    _pay(api, cast)
    balances = api("secretary").get(f"/api/v1/balances/?season={cast.season.pk}").json()
    assert _row(balances, cast.member)["paid"] == "15.50"
    assert {"currency": "EUR", "amount": "15.50"} in balances["kitty"]


def test_cancelled_payment_is_reversed_in_statement_and_balances(api, cast):
    before = _statement(api, cast).json()["seasons"][0]["balance"]
    payment_id = _pay(api, cast).json()["id"]
    response = api("secretary").post(f"/api/v1/payments/{payment_id}/cancel/", format="json")
    assert response.json()["cancelled"] is True
    season = _statement(api, cast).json()["seasons"][0]
    assert season["balance"] == before
    assert season["lines"][-1]["kind"] == "reversal"
    balances = api("secretary").get("/api/v1/balances/").json()
    assert _row(balances, cast.member)["paid"] == "0.00"


def test_cancelling_twice_is_a_conflict(api, cast):
    payment_id = _pay(api, cast).json()["id"]
    api("secretary").post(f"/api/v1/payments/{payment_id}/cancel/")
    response = api("secretary").post(f"/api/v1/payments/{payment_id}/cancel/")
    assert response.status_code == 409
    assert response.json()["code"] == "payment_cancelled"


def test_amount_as_a_json_number_is_refused(api, cast):
    response = _pay(api, cast, amount=15.5)
    assert response.status_code == 400
    assert response.json()["code"] == "amount_not_string"


def test_amount_with_three_decimal_places_is_refused(api, cast):
    response = _pay(api, cast, amount="1.005")
    assert response.status_code == 400
    assert response.json()["field"] == "amount"


def test_zero_amount_is_refused_by_the_service(api, cast):
    response = _pay(api, cast, amount="0.00")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_amount")


def test_payment_without_a_season_for_its_date_is_refused(api, cast):
    response = _pay(api, cast, paid_on="1990-01-01")
    assert (response.status_code, response.json()["code"]) == (400, "no_season")


def test_payment_for_a_person_of_another_club_is_refused(api, cast):
    body = {"member": cast.other_secretary.pk, "amount": "1.00", "paid_on": "2026-10-16"}
    response = api("secretary").post("/api/v1/payments/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "unknown_person")


def test_payment_into_another_clubs_season_is_refused(api, cast):
    response = _pay(api, cast, season=cast.other_season.pk)
    assert (response.status_code, response.json()["code"]) == (400, "unknown_season")


def test_member_lists_only_own_payments(api, cast):
    day = datetime.date(2026, 10, 16)
    own = payment_record(member=cast.member, amount=Decimal("2.00"), paid_on=day)
    payment_record(member=cast.carla, amount=Decimal("3.00"), paid_on=day)
    ids = [row["id"] for row in api("member").get("/api/v1/payments/").json()["results"]]
    assert ids == [own.pk]


def test_secretary_lists_every_payment_of_the_club(api, cast):
    day = datetime.date(2026, 10, 16)
    for person in (cast.member, cast.carla):
        payment_record(member=person, amount=Decimal("2.00"), paid_on=day)
    payment_record(member=cast.other_secretary, amount=Decimal("2.00"), paid_on=day)
    body = api("secretary").get("/api/v1/payments/").json()
    assert body["count"] == Payment.objects.filter(club=cast.club).count() == 2


def test_payments_filter_by_member(api, cast):
    day = datetime.date(2026, 10, 16)
    payment_record(member=cast.member, amount=Decimal("2.00"), paid_on=day)
    carla = payment_record(member=cast.carla, amount=Decimal("3.00"), paid_on=day)
    rows = api("secretary").get(f"/api/v1/payments/?member={cast.carla.pk}").json()["results"]
    assert [r["id"] for r in rows] == [carla.pk]


def test_payments_filter_by_season(api, cast):
    payment_record(member=cast.member, amount=Decimal("2.00"), paid_on=datetime.date(2026, 5, 1))
    body = api("secretary").get(f"/api/v1/payments/?season={cast.season.pk + 999}").json()
    assert body["count"] == 0


def test_payments_order_by_amount(api, cast):
    day = datetime.date(2026, 10, 16)
    for amount in ("3.00", "1.00", "2.00"):
        payment_record(member=cast.member, amount=Decimal(amount), paid_on=day)
    rows = api("secretary").get("/api/v1/payments/?ordering=amount").json()["results"]
    assert [r["amount"] for r in rows] == ["1.00", "2.00", "3.00"]


def test_payments_are_paginated(api, cast):
    day = datetime.date(2026, 10, 16)
    for _ in range(3):
        payment_record(member=cast.member, amount=Decimal("1.00"), paid_on=day)
    body = api("secretary").get("/api/v1/payments/?page_size=2").json()
    assert (body["count"], len(body["results"])) == (3, 2)


def test_statement_for_an_unknown_season_is_404(api, cast):
    url = f"/api/v1/members/{cast.member.pk}/statement/?season={cast.other_season.pk}"
    response = api("secretary").get(url)
    assert (response.status_code, response.json()["code"]) == (404, "unknown_season")


def test_statement_with_a_malformed_season_is_400(api, cast):
    response = api("secretary").get(f"/api/v1/members/{cast.member.pk}/statement/?season=x")
    assert response.status_code == 400


def test_member_reading_another_members_statement_is_refused_as_for_dues(api, cast):
    response = _statement(api, cast, role="member", person=cast.carla)
    assert (response.status_code, response.json()["code"]) == (403, "own_dues_only")


def test_statement_explains_the_absence_charge(api, cast):
    season = _statement(api, cast, person=cast.absent).json()["seasons"][0]
    assert [line["kind"] for line in season["lines"]] == ["absence"]
    assert season["marks_charged"] == season["lines"][0]["marks"]


def test_balances_list_who_owes(api, cast):
    balances = api("secretary").get("/api/v1/balances/").json()
    owing = {r["member"]["id"] for r in balances["owing"]}
    expected = {e.member_id for e in LedgerEntry.objects.filter(club=cast.club) if e.amount > 0}
    assert owing == expected


def test_balances_owed_per_currency_is_the_sum_of_the_debts(api, cast):
    balances = api("secretary").get("/api/v1/balances/").json()
    debts = sum(Decimal(r["balance"]) for r in balances["owing"])
    assert balances["owed"] == [{"currency": "EUR", "amount": str(debts)}]


def test_refusal_of_a_number_amount_speaks_german(api, cast):
    message = _pay(api, cast, amount=15.5).json()["message"]
    assert "Betrag" in message
