"""Money: Marks to DM/EUR, rounding in one place, German formatting (STYLE.md 7).

What a Mark is worth in which era is a statute: league.club.statutes.Statutes.mark_value.
"""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
CURRENCY_SYMBOLS = {"EUR": "€", "DM": "DM"}


def round_money(amount: Decimal) -> Decimal:
    """Round to cents, half up: the one rounding rule of the books."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def marks_to_money(marks: int, mark_value: Decimal) -> Decimal:
    """Money for an integer number of Marks at the season's `mark_value`, in its currency."""
    return round_money(Decimal(marks) * mark_value)


def format_money(amount: Decimal | None, currency: str = "EUR") -> str:
    """German style: Decimal("1234.5"), "EUR" -> "1.234,50 €"; "DM" -> "1.234,50 DM"."""
    if amount is None:
        return ""
    value = round_money(amount)
    sign = "-" if value < 0 else ""
    whole, _, cents = f"{abs(value):.2f}".partition(".")
    groups: list[str] = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    symbol = CURRENCY_SYMBOLS.get(currency, currency)
    return f"{sign}{'.'.join(groups)},{cents}\u00a0{symbol}"
