"""Money in one place (league.club.money): rounding to cents half up, Marks to money, German
formatting. Never float (STYLE.md 7)."""

from decimal import Decimal

import pytest

from league.club.money import format_money, marks_to_money, round_money


@pytest.mark.parametrize(
    ("amount", "rounded"),
    [
        (Decimal("0.005"), Decimal("0.01")),  # half up, not half even (which gives 0.00)
        (Decimal("0.015"), Decimal("0.02")),
        (Decimal("0.025"), Decimal("0.03")),  # half even would give 0.02
        (Decimal("-0.005"), Decimal("-0.01")),  # half away from zero for a refund too
        (Decimal("2.344999"), Decimal("2.34")),
        (Decimal("3"), Decimal("3.00")),
    ],
)
def test_money_is_rounded_to_cents_half_up(amount, rounded):
    result = round_money(amount)
    assert (result, result.as_tuple().exponent) == (rounded, -2)


def test_rounding_takes_no_float():
    # a float 0.125 would reach Decimal as 0.125 exactly, but 1.005 as 1.00499999...
    assert round_money(Decimal("1.005")) == Decimal("1.01")


def test_six_marks_at_fifty_cents_are_three_euro():
    assert marks_to_money(6, Decimal("0.50")) == Decimal("3.00")


def test_marks_in_dm_keep_their_value():
    assert marks_to_money(13, Decimal("1.00")) == Decimal("13.00")


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [
        (Decimal("1234.5"), "EUR", "1.234,50\u00a0€"),
        (Decimal("-0.5"), "EUR", "-0,50\u00a0€"),
        (Decimal("1234567.891"), "DM", "1.234.567,89\u00a0DM"),
        (None, "EUR", ""),
    ],
)
def test_money_is_shown_german_style(amount, currency, text):
    assert format_money(amount, currency) == text
