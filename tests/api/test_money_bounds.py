"""Money the API takes and gives: a payment is bounded (more than zero,
at most PAYMENT_MAX), and balances and statements whose sums pass twelve digits are still
answered (no 500 from a serializer's max_digits)."""

from decimal import Decimal

import pytest

from league.ledger.services import payment_record

pytestmark = pytest.mark.django_db

HUGE = Decimal("99999999.99")  # the most a ledger column row holds (max_digits=10)


def _huge_payments(cast, count: int) -> None:
    for _ in range(count):
        payment_record(
            member=cast.member, amount=HUGE, paid_on=cast.evening.date, season=cast.season
        )


def test_a_statement_whose_sum_passes_twelve_digits_is_answered(api, cast):
    _huge_payments(cast, 101)  # 10,099,999,998.99 paid: thirteen digits
    response = api("secretary").get(
        f"/api/v1/members/{cast.member.pk}/statement/?season={cast.season.pk}"
    )
    assert response.status_code == 200
    assert Decimal(response.json()["seasons"][0]["paid"]) == HUGE * 101


def test_balances_whose_sum_passes_twelve_digits_are_answered(api, cast):
    _huge_payments(cast, 101)
    response = api("secretary").get("/api/v1/balances/")
    assert response.status_code == 200
