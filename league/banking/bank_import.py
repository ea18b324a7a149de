"""Bank statement CSV import: read a German bank export, propose the
lines that pay a member's open amount, book the confirmed ones as payments through the
ledger's payment service, never the same bank line twice.

The file: semicolon separated, comma decimals (``1.234,50``), UTF-8 (with or without BOM)
or Windows-1252, at most ``MAX_BYTES``, preamble lines before the header allowed. Columns
by their usual names (first match wins): booking date ``Buchungstag`` / ``Buchungsdatum``;
value date ``Valuta`` / ``Valutadatum`` / ``Wertstellung`` (optional); name
``Auftraggeber/Empfänger`` / ``Name Zahlungsbeteiligter`` / ``Beguenstigter/
Zahlungspflichtiger`` / ``Zahlungspflichtige*r``; reference ``Verwendungszweck``; amount
``Betrag`` / ``Betrag (EUR)`` / ``Umsatz``. Hostile content is refused as a whole: a text
cell starting with ``= + - @`` (a spreadsheet formula), control characters, an unreadable
date or amount; a German message names the line.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import hashlib
import io
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from league.banking.models import BankStatementLine
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.club.money import round_money
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    member_balance,
)
from league.ledger.services import (
    payment_record,
)

#: The largest statement accepted (a year of a club account is far below).
MAX_BYTES = 2 * 1024 * 1024
MAX_LINES = 20_000
#: A bank line of this amount or more is never a payment to the kitty (and would not fit
#: the books' amount columns): it is ignored, never booked.
MAX_AMOUNT = Decimal("10000000")

COLUMNS = {
    "booked_on": ("buchungstag", "buchungsdatum"),
    "value_on": ("valuta", "valutadatum", "wertstellung"),
    "name": (
        "auftraggeber/empfänger",
        "name zahlungsbeteiligter",
        "beguenstigter/zahlungspflichtiger",
        "begünstigter/zahlungspflichtiger",
        "zahlungspflichtige*r",
        "auftraggeber / begünstigter",
    ),
    "reference": ("verwendungszweck",),
    "amount": ("betrag", "betrag (eur)", "umsatz", "betrag (€)"),
    "bank_ref": ("kundenreferenz (end-to-end)", "end-to-end-referenz"),
    "currency": ("waehrung", "währung"),
}
REQUIRED = ("booked_on", "name", "reference", "amount")
_AMOUNT = re.compile(r"^[+-]?\d{1,3}(\.\d{3})*(,\d{1,2})?$|^[+-]?\d+(,\d{1,2})?$")
_MEMBER_NUMBER = re.compile(r"\(Nr\. ?(\d{1,9})\)")


#: EndToEndId / bank reference values that name nothing.
NO_REFERENCE = {"", "NOTPROVIDED", "NONREF"}


def line_key(
    *, club: Club, booked_on: datetime.date, amount: Decimal, bank_ref: str, name: str, text: str
) -> str:
    """The line's key (sha256 hex, 64 characters): of the bank's reference, date and
    amount when the bank gives a reference, else of date, amount, name and purpose."""
    if bank_ref.upper() not in NO_REFERENCE:
        parts = [str(club.pk), "ref", bank_ref, booked_on.isoformat(), str(amount)]
    else:
        parts = [str(club.pk), "line", booked_on.isoformat(), str(amount), name, text]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


@dataclass(frozen=True)
class BankLine:
    """One line of the statement: dates, name, reference (the purpose), ``amount``
    (Decimal in ``currency``; credits positive), its file ``line`` number, ``line_hash``
    (see BankStatementLine) and the bank's own reference ``bank_ref`` (EndToEndId or the
    bank's; empty when the statement gives none)."""

    line: int
    booked_on: datetime.date
    value_on: datetime.date | None
    name: str
    reference: str
    amount: Decimal
    line_hash: str
    currency: str = "EUR"
    bank_ref: str = ""


@dataclass(frozen=True)
class Proposal:
    """A bank line that pays ``member``'s open ``amount`` in ``season``; ``booked`` says
    the line was booked before (it will not be booked again)."""

    bank_line: BankLine
    member: Member
    season: Season
    booked: bool


def _refuse(line: int, message: str) -> BooksError:
    return BooksError(
        "bad_bank_file",
        _("Line %(line)s: %(message)s") % {"line": line, "message": message},
        field="file",
    )


def _decode(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise BooksError("file_too_large", _("The file is larger than 2 MB."), field="file")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise BooksError(
        "bad_bank_file", _("The file is neither UTF-8 nor Windows-1252."), field="file"
    )


def _text(value: str, line: int) -> str:
    if any(unicodedata.category(c) == "Cc" for c in value):
        raise _refuse(line, _("control characters are not allowed."))
    text = " ".join(value.split())
    if text[:1] in ("=", "+", "-", "@"):
        raise _refuse(line, _("a cell must not start with = + - or @."))
    return text


def _date(value: str, line: int) -> datetime.date:
    for pattern in ("%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d"):
        try:
            return datetime.datetime.strptime(value.strip(), pattern).date()
        except ValueError:
            continue
    raise _refuse(line, _("unreadable date."))


def _amount(value: str, line: int) -> Decimal:
    raw = value.strip().replace(" ", "").removesuffix("€").removesuffix("EUR")
    if not _AMOUNT.match(raw):
        raise _refuse(line, _("unreadable amount."))
    try:
        return Decimal(raw.replace(".", "").replace(",", "."))
    except InvalidOperation as exc:  # pragma: no cover - the pattern admits none
        raise _refuse(line, _("unreadable amount.")) from exc


def _header(row: list[str]) -> dict[str, int] | None:
    names = [" ".join(c.split()).casefold().strip('"') for c in row]
    found: dict[str, int] = {}
    for key, options in COLUMNS.items():
        for option in options:
            if option in names:
                found[key] = names.index(option)
                break
    return found if all(k in found for k in REQUIRED) else None


def _line(club: Club, row: list[str], columns: dict[str, int], number: int) -> BankLine:
    """The `BankLine` of the CSV row `row` (file line `number`), its cells found by
    `columns` (a header's column indexes). Raises BooksError bad_bank_file for an
    unreadable or hostile cell."""
    booked_on = _date(row[columns["booked_on"]], number)
    value_on = (
        _date(row[columns["value_on"]], number)
        if "value_on" in columns and row[columns["value_on"]].strip()
        else None
    )
    name = _text(row[columns["name"]], number)
    reference = _text(row[columns["reference"]], number)
    amount = _amount(row[columns["amount"]], number)
    bank_ref = _text(row[columns["bank_ref"]], number) if "bank_ref" in columns else ""
    currency = _text(row[columns["currency"]], number) if "currency" in columns else ""
    key = "\x1f".join(
        [str(club.pk), booked_on.isoformat(), str(value_on), name, reference, str(amount)]
    )
    line_hash = (
        hashlib.sha256(key.encode()).hexdigest()
        if bank_ref.upper() in NO_REFERENCE
        else line_key(
            club=club,
            booked_on=booked_on,
            amount=amount,
            bank_ref=bank_ref[:64],
            name=name,
            text=reference,
        )
    )
    return BankLine(
        line=number,
        booked_on=booked_on,
        value_on=value_on,
        name=name[:200],
        reference=reference[:400],
        amount=amount,
        line_hash=line_hash,
        currency=(currency or "EUR").upper()[:3],
        bank_ref="" if bank_ref.upper() in NO_REFERENCE else bank_ref[:64],
    )


def parse_bank_csv(*, club: Club, data: bytes) -> list[BankLine]:
    """The statement's lines (credits and debits), in file order.

    Raises BooksError: file_too_large, bad_bank_file (no header with the columns above,
    a hostile or unreadable cell: nothing is read then).
    """
    text = _decode(data)
    reader = csv.reader(io.StringIO(text), delimiter=";")
    columns: dict[str, int] | None = None
    lines: list[BankLine] = []
    try:
        for number, row in enumerate(reader, start=1):
            if number > MAX_LINES:
                raise _refuse(number, _("too many lines."))
            if columns is None:
                columns = _header(row)
                continue
            if not any(cell.strip() for cell in row):
                continue
            if len(row) <= max(columns.values()):
                raise _refuse(number, _("too few columns."))
            lines.append(_line(club, row, columns, number))
    except csv.Error as exc:
        raise BooksError("bad_bank_file", _("The file is not a readable CSV file.")) from exc
    if columns is None:
        raise BooksError(
            "bad_bank_file",
            _("No header with Buchungstag, Auftraggeber/Empfänger, Verwendungszweck and Betrag."),
            field="file",
        )
    return keys_numbered(lines)


def keys_numbered(lines: list[BankLine]) -> list[BankLine]:
    """`lines` with the key of each repeat of a line without a bank reference numbered
    (its n-th repeat in the file gets the key of the key and n): two transfers alike in
    day, amount, name and purpose are two payments, not one line twice. The first keeps
    its key, so a statement read before reads the same; numbering again changes nothing."""
    seen: dict[str, int] = defaultdict(int)
    numbered = []
    for line in lines:
        if not line.bank_ref and line.line_hash in seen:
            repeat = seen[line.line_hash]
            seen[line.line_hash] += 1
            key = hashlib.sha256(f"{line.line_hash}\x1f#{repeat}".encode()).hexdigest()
            line = dataclasses.replace(line, line_hash=key)
        else:
            seen[line.line_hash] += 1
        numbered.append(line)
    return numbered


def bank_lines_match(*, club: Club, lines: list[BankLine]) -> list[Proposal]:
    """Proposals: each credit line whose reference names a club person (the member number
    "(Nr. 12)" of the GiroCode reference, or the name in the reference or as the payer)
    and whose amount is exactly that person's open amount in one of the club's EUR seasons
    (the season whose year the reference names first, else the newest). Debits and
    unmatched lines are left out. Four queries, whatever the number of lines."""
    open_amounts = _open_amounts(club)
    people = {m.pk: m for m in Member.objects.filter(club=club, pk__in=open_amounts)}
    booked = set(
        BankStatementLine.objects.filter(
            club=club, line_hash__in=[line.line_hash for line in lines]
        ).values_list("line_hash", flat=True)
    )
    proposals = []
    for line in lines:
        if line.amount <= 0 or line.currency != "EUR":
            continue
        member = _member_of(line, people)
        if member is None:
            continue
        candidates = [(s, a) for s, a in open_amounts[member.pk] if a == line.amount]
        named = [(s, a) for s, a in candidates if str(s.year) in line.reference]
        chosen = (named or candidates)[:1]
        if not chosen and line.line_hash in booked:
            continue
        if chosen:
            proposals.append(
                Proposal(
                    bank_line=line,
                    member=member,
                    season=chosen[0][0],
                    booked=line.line_hash in booked,
                )
            )
    return proposals


def _open_amounts(club: Club) -> dict[int, list[tuple[Season, Decimal]]]:
    """Member id -> [(season, open amount > 0)] over the club's EUR seasons, newest first."""
    seasons = {s.pk: s for s in Season.objects.filter(club=club, currency="EUR")}
    rows = (
        LedgerEntry.objects.filter(club=club, season_id__in=seasons)
        .values("member_id", "season_id")
        .annotate(total=Sum("amount"))
        .filter(total__gt=0)
    )
    out: dict[int, list[tuple[Season, Decimal]]] = defaultdict(list)
    for row in rows:
        out[row["member_id"]].append((seasons[row["season_id"]], round_money(row["total"])))
    for items in out.values():
        items.sort(key=lambda item: -item[0].year)
    return out


def _member_of(line: BankLine, people: dict[int, Member]) -> Member | None:
    number = _MEMBER_NUMBER.search(line.reference)
    if number and int(number.group(1)) in people:
        return people[int(number.group(1))]
    text = f"{line.reference} {line.name}".casefold()
    named = [m for m in people.values() if m.name.casefold() in text]
    return named[0] if len(named) == 1 else None


def bank_lines_book(
    *, club: Club, lines: list[BankLine], confirmed: set[str], user=None
) -> list[Payment]:
    """Book the confirmed lines (by ``line_hash``) that still match an open amount, each as
    a bank-transfer payment through ``payment_record`` and a BankStatementLine, all in one
    transaction. A line booked before (or by a concurrent confirmation: the unique hash)
    is skipped, never booked twice. Returns the payments made."""
    payments = []
    with transaction.atomic():
        for proposal in bank_lines_match(club=club, lines=lines):
            line = proposal.bank_line
            if proposal.booked or line.line_hash not in confirmed:
                continue
            if member_balance(member=proposal.member, season=proposal.season) < line.amount:
                continue  # paid meanwhile: a later match would leave a credit
            try:
                with transaction.atomic():
                    payment = payment_record(
                        member=proposal.member,
                        amount=line.amount,
                        paid_on=line.booked_on,
                        method=Payment.Method.TRANSFER,
                        note=line.reference[:200],
                        season=proposal.season,
                        created_by=user,
                    )
                    BankStatementLine.objects.create(
                        club=club,
                        line_hash=line.line_hash,
                        booked_on=line.booked_on,
                        name=line.name,
                        reference=line.reference,
                        amount=line.amount,
                        payment=payment,
                    )
            except IntegrityError:
                continue
            payments.append(payment)
    return payments
