"""The kitty's money for the club's accountant: a DATEV "Buchungsstapel" (EXTF format 700,
category 21) of the payments received in euro, and the export for JVerein (members and
their bookings, `jverein_export`).

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
import zipfile
from decimal import Decimal

from django.utils import timezone

from league.club.models import Club, Member
from league.club.spreadsheet import spreadsheet_cell
from league.ledger.models import LedgerEntry, Payment

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


def _money_entries(*, club: Club, year: int) -> list[tuple[LedgerEntry, Payment]]:
    """The kitty's euro money of calendar `year`, by booking day: each payment's ledger line
    and each cancellation of a payment (its reversal line), with the payment. Reversals of
    charges (no money moved) and DM seasons are left out. One query."""
    entries = (
        LedgerEntry.objects.filter(club=club, currency="EUR", booked_on__year=year)
        .filter(kind__in=[LedgerEntry.Kind.PAYMENT, LedgerEntry.Kind.REVERSAL])
        .select_related("member", "season", "payment", "reverses__payment")
        .order_by("booked_on", "pk")
    )
    money = []
    for entry in entries:
        payment = entry.payment or (entry.reverses.payment if entry.reverses else None)
        if payment is not None:
            money.append((entry, payment))
    return money


def datev_buchungsstapel(*, club: Club, year: int) -> bytes:
    """The DATEV Buchungsstapel (bytes, cp1252, CRLF) of the club's euro payments booked in
    calendar ``year`` and their cancellations, by booking day: amount with comma decimals,
    "S" for money in (debit of the cash or bank account) and "H" for a cancellation (the
    same booking reversed, text "Storno Z<payment id>"), EUR, account 1000 (cash) or 1200
    (bank transfer), contra account 8200, document date DDMM, document field "Z<payment
    id>", text the person's name (at most 60 characters). One query."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(_header(club=club, year=year, now=timezone.localtime()))
    writer.writerow(COLUMNS)
    for entry, payment in _money_entries(club=club, year=year):
        account = ACCOUNT_BANK if payment.method == Payment.Method.TRANSFER else ACCOUNT_CASH
        cancelled = entry.payment_id is None
        text = f"Storno Z{payment.pk}" if cancelled else entry.member.name[:59]
        writer.writerow(
            [
                f"{abs(entry.amount):.2f}".replace(".", ","),
                "H" if cancelled else "S",
                "EUR",
                "",
                "",
                "",
                account,
                ACCOUNT_INCOME,
                "",
                entry.booked_on.strftime("%d%m"),
                f"Z{payment.pk}",
                "",
                "",
                spreadsheet_cell(text),
            ]
        )
    return out.getvalue().encode("cp1252", errors="replace")


# --- JVerein --------------------------------------------------------------------------

#: The columns of JVerein's member import ("Mitglieder importieren", the SPG-Verein CSV
#: format: every column of its sample with the mandatory fields, in its order).
JVEREIN_MEMBER_COLUMNS = [
    "Mitglieds_Nr",
    "Anrede",
    "Titel",
    "Nachname",
    "Vorname",
    "Straße",
    "Plz",
    "Ort",
    "Geburtsdatum",
    "Geschlecht",
    "BIC",
    "IBAN",
    "Bankleitzahl",
    "Kontonummer",
    "Mandat_Datum",
    "Zahlungsart",
    "Telefon_privat",
    "Telefon_dienstlich",
    "Email",
    "Eintritt",
    "Beitragsart_1",
    "Beitrag_1",
    "Austritt",
    "Kündigung",
    "Sterbetag",
]

#: The columns of JVerein's booking import ("Buchführung -> Buchungen -> Import"; its
#: variables of the area "Buchungen"). The booking kind is left out: JVerein's import
#: refuses lines whose `buchung_buchungsart_nummer` names no kind it has.
JVEREIN_BOOKING_COLUMNS = [
    "buchung_betrag",
    "buchung_datum",
    "buchung_kontonummer",
    "buchung_name",
    "buchung_zweck1",
]

#: What the books do not know, written so that JVerein's import takes the line (its
#: address fields may not be empty); the secretary corrects them in JVerein.
JVEREIN_UNKNOWN_STREET = "unbekannt"
JVEREIN_UNKNOWN_POSTCODE = "00000"


def _jverein_text(value: str) -> str:
    """A text cell of a JVerein file: JVerein's member import takes no quotation marks
    and no field separator inside a cell, so `"` becomes `'` and `;` a comma; then a cell
    a spreadsheet would run as a formula gets its leading `'` (league.club.spreadsheet)."""
    text = value.replace('"', "'").replace(";", ",")
    cell = spreadsheet_cell(text)
    return cell if isinstance(cell, str) else text


def _name_parts(name: str) -> tuple[str, str]:
    """(Nachname, Vorname) of a name kept in one field: the last word is the family
    name, the words before it the first names; a name of one word fills both."""
    words = name.split()
    if len(words) < 2:
        return name, name
    return words[-1], " ".join(words[:-1])


def _jverein_csv(columns: list[str], rows: list[list[str]]) -> bytes:
    """`;` separated, no quoting, CRLF, ISO-8859-1 (what JVerein's member import reads;
    its booking import lets the encoding be chosen): a character outside it becomes ?."""
    lines = [";".join(columns)] + [";".join(row) for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode("iso-8859-1", errors="replace")


def jverein_members_csv(*, club: Club) -> bytes:
    """The club's people as JVerein's member import reads them (`JVEREIN_MEMBER_COLUMNS`),
    by id: Mitglieds_Nr the person's id, Nachname and Vorname split from the name
    (`_name_parts`), Straße "unbekannt", Plz "00000", Ort "unbekannt" (the books keep no
    address), Geschlecht "o" (no answer), Zahlungsart "u" (transfer), Email the login's
    address, Beitragsart_1 "Mitglied" or "Gast", Beitrag_1 "0,00" (the club charges per
    evening, not a fee), Austritt the day of the export for an inactive person (the books
    keep no leaving date); everything else empty. One query."""
    people = Member.objects.filter(club=club).select_related("user").order_by("pk")
    today = timezone.localdate().strftime("%d.%m.%Y")
    rows = []
    for person in people:
        family, first = _name_parts(person.name)
        email = person.user.email if person.user is not None else ""
        values = {
            "Mitglieds_Nr": str(person.pk),
            "Nachname": _jverein_text(family),
            "Vorname": _jverein_text(first),
            "Straße": JVEREIN_UNKNOWN_STREET,
            "Plz": JVEREIN_UNKNOWN_POSTCODE,
            "Ort": JVEREIN_UNKNOWN_STREET,
            "Geschlecht": "o",
            "Zahlungsart": "u",
            "Email": _jverein_text(email),
            "Beitragsart_1": "Gast" if person.is_guest else "Mitglied",
            "Beitrag_1": "0,00",
            "Austritt": "" if person.active else today,
        }
        rows.append([values.get(column, "") for column in JVEREIN_MEMBER_COLUMNS])
    return _jverein_csv(JVEREIN_MEMBER_COLUMNS, rows)


def jverein_bookings_csv(*, club: Club, year: int) -> bytes:
    """The kitty's euro payments of calendar `year` and their cancellations as JVerein's
    booking import reads them (`JVEREIN_BOOKING_COLUMNS`), by booking day: the amount
    with comma decimals (money in positive, a cancellation negative), the day
    DD.MM.YYYY, the account 1000 (cash) or 1200 (bank transfer: create JVerein accounts
    with these numbers, as in the DATEV export), the person's name and the purpose
    "Mitglied <id>, Saison <year>, Zahlung Z<payment id>" (a cancellation "Storno Z<id>").
    DM seasons are left out; charges (lost games, absences) are receivables, not
    bookings. One query."""
    rows = []
    for entry, payment in _money_entries(club=club, year=year):
        account = ACCOUNT_BANK if payment.method == Payment.Method.TRANSFER else ACCOUNT_CASH
        amount: Decimal = -entry.amount
        purpose = (
            f"Mitglied {entry.member_id}, Saison {entry.season.year}, Zahlung Z{payment.pk}"
            if entry.payment_id
            else f"Storno Z{payment.pk}"
        )
        rows.append(
            [
                f"{amount:.2f}".replace(".", ","),
                entry.booked_on.strftime("%d.%m.%Y"),
                account,
                _jverein_text(entry.member.name),
                purpose,
            ]
        )
    return _jverein_csv(JVEREIN_BOOKING_COLUMNS, rows)


def jverein_export(*, club: Club, year: int) -> bytes:
    """The export for JVerein: a ZIP (bytes) holding `mitglieder.csv`
    (`jverein_members_csv`) and `buchungen_<year>.csv` (`jverein_bookings_csv`). Two
    queries."""
    out = io.BytesIO()
    stamp = timezone.localtime().timetuple()[:6]
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in (
            ("mitglieder.csv", jverein_members_csv(club=club)),
            (f"buchungen_{year}.csv", jverein_bookings_csv(club=club, year=year)),
        ):
            archive.writestr(zipfile.ZipInfo(name, date_time=stamp), data)
    return out.getvalue()
