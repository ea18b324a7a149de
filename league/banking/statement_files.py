"""Bank statements as banks write them: CAMT.053, MT940 and the German CSV exports.

``parse_statement`` tells the format by the file's content and returns its lines as
``BankLine`` (league/banking/bank_import.py), credits positive, debits negative:

- CAMT.053 (ISO 20022 ``BkToCstmrStmt``, versions 001.02 to 001.08), read with defusedxml:
  a DTD, an entity or an external reference is refused (``hostile_xml``), never resolved.
  One line per transaction (``NtryDtls/TxDtls``; an entry without details is one line),
  booked entries only (``Sts`` BOOK). The purpose is the structured creditor reference
  (``RmtInf/Strd/CdtrRefInf/Ref``) and the unstructured text (``RmtInf/Ustrd``).
- MT940 (SWIFT, the German ``:86:`` details with ``?20`` sub-fields and ``EREF+``/``SVWZ+``
  keys), read with the ``mt-940`` package.
- CSV: the formats of ``parse_bank_csv``, including the Sparkasse "CSV-CAMT V2" export
  (its ``Kundenreferenz (End-to-End)`` and ``Waehrung`` columns are read).

The bank's own reference (``bank_ref``) is the payer's EndToEndId (the same in all three
formats) unless it is "NOTPROVIDED", else the bank's AcctSvcrRef (CAMT) or the bank
reference of ``:61:`` (MT940); the line's key (``line_hash``) is made of it with date and
amount, or of date, amount, name and purpose where there is none.

At most ``MAX_BYTES`` per file and ``MAX_LINES`` lines; errors: BooksError
``file_too_large``, ``hostile_xml``, ``bad_bank_file`` (field "file", German message).
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from league.banking.bank_import import (
    MAX_AMOUNT,
    MAX_BYTES,
    MAX_LINES,
    NO_REFERENCE,
    BankLine,
    keys_numbered,
    line_key,
    parse_bank_csv,
)
from league.club.errors import BooksError
from league.club.models import Club

_CAMT_NAMESPACE = re.compile(r"^\{urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.0[2-8]\}Document$")
_MT940_START = re.compile(rb"(^|[\r\n]):20:")


def _bad(message: str) -> BooksError:
    return BooksError("bad_bank_file", message, field="file")


def clean_text(value: Any, maximum: int) -> str:
    """``value`` as one line of text: control characters dropped, whitespace collapsed,
    cut to ``maximum`` characters."""
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in str(value or ""))
    return " ".join(text.split())[:maximum]


def _line(
    *,
    club: Club,
    number: int,
    booked_on: datetime.date,
    value_on: datetime.date | None,
    name: str,
    text: str,
    amount: Decimal,
    currency: str,
    bank_ref: str,
) -> BankLine:
    name, text, bank_ref = clean_text(name, 200), clean_text(text, 400), clean_text(bank_ref, 64)
    return BankLine(
        line=number,
        booked_on=booked_on,
        value_on=value_on,
        name=name,
        reference=text,
        amount=amount,
        line_hash=line_key(
            club=club, booked_on=booked_on, amount=amount, bank_ref=bank_ref, name=name, text=text
        ),
        currency=clean_text(currency, 3).upper() or "EUR",
        bank_ref="" if bank_ref.upper() in NO_REFERENCE else bank_ref,
    )


def parse_statement(*, club: Club, data: bytes) -> list[BankLine]:
    """The lines of a CAMT.053, MT940 or CSV statement (told apart by content), in file
    order. Raises BooksError: file_too_large, hostile_xml, bad_bank_file."""
    if len(data) > MAX_BYTES:
        raise BooksError("file_too_large", _("The file is larger than 2 MB."), field="file")
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return keys_numbered(parse_camt053(club=club, data=data))
    if _MT940_START.search(data[:4096]) and b":61:" in data:
        return keys_numbered(parse_mt940(club=club, data=data))
    return parse_bank_csv(club=club, data=data)


# --- CAMT.053 ---------------------------------------------------------------------------


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _child(element: Any, *path: str) -> Any:
    """The first descendant along ``path`` of local names (namespaces ignored), or None."""
    for name in path:
        if element is None:
            return None
        element = next((c for c in element if _local(c.tag) == name), None)
    return element


def _children(element: Any, name: str) -> list[Any]:
    return [] if element is None else [c for c in element if _local(c.tag) == name]


def _text_of(element: Any, *path: str) -> str:
    found = _child(element, *path)
    return (found.text or "").strip() if found is not None else ""


def _camt_date(element: Any, number: int) -> datetime.date | None:
    raw = _text_of(element, "Dt") or _text_of(element, "DtTm")[:10]
    if not raw:
        return None
    try:
        return datetime.date.fromisoformat(raw[:10])
    except ValueError as exc:
        raise _bad(_("Entry %(line)s: unreadable date.") % {"line": number}) from exc


def _camt_amount(element: Any, number: int) -> tuple[Decimal, str]:
    try:
        amount = Decimal((element.text or "").strip())
    except InvalidOperation as exc:
        raise _bad(_("Entry %(line)s: unreadable amount.") % {"line": number}) from exc
    if (
        not amount.is_finite() or not 0 <= amount < MAX_AMOUNT or amount.as_tuple().exponent < -2  # type: ignore[operator]
    ):
        raise _bad(_("Entry %(line)s: unreadable amount.") % {"line": number})
    return amount, element.get("Ccy", "")


def parse_camt053(*, club: Club, data: bytes) -> list[BankLine]:
    """The lines of a CAMT.053 statement (see the module). Raises BooksError hostile_xml
    (a DTD, entity or external reference: refused before anything is expanded) or
    bad_bank_file (not XML, not camt.053.001.02-08, an unreadable amount or date)."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise BooksError(
            "hostile_xml",
            _("The XML file declares entities or a DTD; such files are not read."),
            field="file",
        ) from exc
    except (ParseError, ValueError) as exc:
        raise _bad(_("The file is not readable XML.")) from exc
    if not _CAMT_NAMESPACE.match(str(root.tag)):
        raise _bad(_("The XML file is not a CAMT.053 statement (camt.053.001.02 to .08)."))
    lines: list[BankLine] = []
    number = 0
    for statement in _children(_child(root, "BkToCstmrStmt"), "Stmt"):
        for entry in _children(statement, "Ntry"):
            number += 1
            if number > MAX_LINES:
                raise _bad(_("The file has more than %(n)s lines.") % {"n": MAX_LINES})
            lines.extend(_camt_entry(club=club, entry=entry, number=number))
    return lines


def _camt_entry(*, club: Club, entry: Any, number: int) -> list[BankLine]:
    status = _text_of(entry, "Sts", "Cd") or _text_of(entry, "Sts")
    if status and status != "BOOK":
        return []
    amount_element = _child(entry, "Amt")
    if amount_element is None:
        raise _bad(_("Entry %(line)s: unreadable amount.") % {"line": number})
    amount, currency = _camt_amount(amount_element, number)
    credit = _text_of(entry, "CdtDbtInd") == "CRDT"
    booked_on = _camt_date(_child(entry, "BookgDt"), number)
    value_on = _camt_date(_child(entry, "ValDt"), number)
    if booked_on is None:
        booked_on = value_on
    if booked_on is None:
        raise _bad(_("Entry %(line)s: unreadable date.") % {"line": number})
    details = [t for d in _children(entry, "NtryDtls") for t in _children(d, "TxDtls")]
    entry_ref = _text_of(entry, "AcctSvcrRef")
    out = []
    for tx in details or [None]:
        tx_amount, tx_currency = amount, currency
        tx_amount_element = _child(tx, "Amt")
        if tx_amount_element is None:
            tx_amount_element = _child(tx, "AmtDtls", "TxAmt", "Amt")
        if len(details) > 1 and tx_amount_element is not None:
            tx_amount, tx_currency = _camt_amount(tx_amount_element, number)
        party = "Dbtr" if credit else "Cdtr"
        name = _text_of(tx, "RltdPties", party, "Pty", "Nm") or _text_of(
            tx, "RltdPties", party, "Nm"
        )
        remittance = _child(tx, "RmtInf")
        texts = [_text_of(s, "CdtrRefInf", "Ref") for s in _children(remittance, "Strd")] + [
            (u.text or "").strip() for u in _children(remittance, "Ustrd")
        ]
        if not any(texts):
            texts = [_text_of(entry, "AddtlNtryInf")]
        end_to_end = _text_of(tx, "Refs", "EndToEndId")
        bank_ref = (
            end_to_end
            if end_to_end.upper() not in NO_REFERENCE
            else _text_of(tx, "Refs", "AcctSvcrRef") or entry_ref
        )
        out.append(
            _line(
                club=club,
                number=number,
                booked_on=booked_on,
                value_on=value_on,
                name=name,
                text=" ".join(t for t in texts if t),
                amount=tx_amount if credit else -tx_amount,
                currency=tx_currency,
                bank_ref=bank_ref,
            )
        )
    return out


# --- MT940 ------------------------------------------------------------------------------


def parse_mt940(*, club: Club, data: bytes) -> list[BankLine]:
    """The lines of an MT940 statement (see the module), read by the ``mt-940`` package.
    Raises BooksError bad_bank_file (unreadable)."""
    import mt940

    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    try:
        transactions = mt940.parse(text)
    except Exception as exc:  # the package raises assorted errors on malformed input
        raise _bad(_("The file is not a readable MT940 statement.")) from exc
    lines = []
    for number, transaction in enumerate(transactions, start=1):
        if number > MAX_LINES:
            raise _bad(_("The file has more than %(n)s lines.") % {"n": MAX_LINES})
        item = transaction.data
        money = item.get("amount")
        value_on = item.get("date")
        booked_on = item.get("entry_date") or value_on
        if money is None or booked_on is None:
            raise _bad(_("Entry %(line)s: unreadable amount.") % {"line": number})
        end_to_end = str(item.get("end_to_end_reference") or "")
        bank_ref = (
            end_to_end
            if end_to_end.upper() not in NO_REFERENCE
            else str(item.get("bank_reference") or "")
        )
        lines.append(
            _line(
                club=club,
                number=number,
                booked_on=booked_on,
                value_on=value_on,
                name=item.get("applicant_name") or "",
                text=item.get("purpose") or item.get("transaction_details") or "",
                amount=Decimal(money.amount),
                currency=money.currency or "EUR",
                bank_ref=bank_ref,
            )
        )
    return lines
