"""The kitty's money for the club's accountant: a DATEV "Buchungsstapel" (EXTF format 700,
category 21) of the payments received in euro.

The file is what DATEV's import reads: Windows-1252, ``;`` separated, CRLF line ends, a
header line (``"EXTF";700;21;"Buchungsstapel";13;...``), the column names, then one line a
payment. Text cells are written by ``league.club.spreadsheet.spreadsheet_cell`` (a name
starting with ``=``, ``+``, ``-`` or ``@`` gets a leading ``'``) and characters outside
Windows-1252 become ``?``. DM seasons are left out (DATEV books euro only); Runden carry
no money in the books and are not in the file.
"""

from __future__ import annotations

import csv
import datetime
import io

from django.utils import timezone

from league.club.models import Club
from league.club.spreadsheet import spreadsheet_cell
from league.ledger.models import Payment

#: Accounts of the DATEV SKR 03 chart: cash, bank, and the kitty's income.
ACCOUNT_CASH = "1000"
ACCOUNT_BANK = "1200"
ACCOUNT_INCOME = "8200"

COLUMNS = [
    "Umsatz (ohne Soll/Haben-Kz)",
    "Soll/Haben-Kennzeichen",
    "WKZ Umsatz",
    "Kurs",
    "Basis-Umsatz",
    "WKZ Basis-Umsatz",
    "Konto",
    "Gegenkonto (ohne BU-Schlüssel)",
    "BU-Schlüssel",
    "Belegdatum",
    "Belegfeld 1",
    "Belegfeld 2",
    "Skonto",
    "Buchungstext",
]


def _header(*, club: Club, year: int, now: datetime.datetime) -> list[object]:
    """The EXTF header line: format, category, creation time, fiscal year (calendar
    year), account length 4, the period, the batch's name, booking type 1 (financial
    bookings), currency EUR; the remaining fields of the 31 are empty."""
    fields: list[object] = [
        "EXTF",
        700,
        21,
        "Buchungsstapel",
        13,
        now.strftime("%Y%m%d%H%M%S") + f"{now.microsecond // 1000:03d}",
        "",
        "SC",
        "",
        "",
        "",
        "",
        f"{year}0101",
        4,
        f"{year}0101",
        f"{year}1231",
        spreadsheet_cell(club.name[:30]),
        "",
        1,
        0,
        0,
        "EUR",
    ]
    return fields + [""] * (31 - len(fields))


def datev_buchungsstapel(*, club: Club, year: int) -> bytes:
    """The DATEV Buchungsstapel (bytes, cp1252, CRLF) of the club's euro payments paid in
    calendar ``year``, oldest first: amount with comma decimals, "S" (debit of the cash or
    bank account), EUR, account 1000 (cash) or 1200 (bank transfer), contra account 8200,
    document date DDMM, document field "Z<payment id>", text the person's name (at most
    60 characters). One query."""
    payments = (
        Payment.objects.filter(club=club, currency="EUR", paid_on__year=year)
        .select_related("member")
        .order_by("paid_on", "pk")
    )
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(_header(club=club, year=year, now=timezone.localtime()))
    writer.writerow(COLUMNS)
    for payment in payments:
        account = ACCOUNT_BANK if payment.method == Payment.Method.TRANSFER else ACCOUNT_CASH
        writer.writerow(
            [
                f"{payment.amount:.2f}".replace(".", ","),
                "S",
                "EUR",
                "",
                "",
                "",
                account,
                ACCOUNT_INCOME,
                "",
                payment.paid_on.strftime("%d%m"),
                f"Z{payment.pk}",
                "",
                "",
                spreadsheet_cell(payment.member.name[:59]),
            ]
        )
    return out.getvalue().encode("cp1252", errors="replace")
