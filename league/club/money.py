"""Money: Marks to DM/EUR, rounding in one place, German formatting (STYLE.md 7).

Source: RULES.md section 5 (1 Mark = 1.00 DM up to and including 2001, 0.50 EUR from 2002).
"""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
EURO_SINCE = 2002
CURRENCY_SYMBOLS = {"EUR": "€", "DM": "DM"}


def default_mark_value(year: int) -> tuple[Decimal, str]:
    """The Mark's value and currency for a season year: (Decimal("1.00"), "DM") up to and
    including 2001, (Decimal("0.50"), "EUR") from 2002."""
    if year < EURO_SINCE:
        return Decimal("1.00"), "DM"
    return Decimal("0.50"), "EUR"


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
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    symbol = CURRENCY_SYMBOLS.get(currency, currency)
    return f"{sign}{'.'.join(groups)},{cents}\u00a0{symbol}"
