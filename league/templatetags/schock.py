"""Template filters of the books: money in German style, Marks, signed points."""

from decimal import Decimal

from django import template

from league.club.money import format_money

register = template.Library()


@register.filter
def money(amount: Decimal | None, currency: str = "EUR") -> str:
    """{{ amount|money:season.currency }} -> "1.234,50 €"."""
    return format_money(amount, currency)


@register.filter
def signed(value: int | None) -> str:
    """Points with their sign: 3 -> "+3", -4 -> "−4", 0 -> "0"."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
