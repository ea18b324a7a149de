"""The EPC GiroCode (SEPA credit transfer QR code, EPC069-12 version 002) of a member's
open amount, drawn by ``segno.helpers.make_epc_qr``.

A code exists only when the club has a bank account, the season is kept in EUR (a DM season
cannot be paid by SEPA) and the member owes money in it (the ledger's balance,
``league.ledger.selectors.member_balance``; nothing open or a credit: no code).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from league.banking.models import ClubBankAccount
from league.club.models import Member, Season
from league.club.reference import creditor_reference


@dataclass(frozen=True)
class GiroCode:
    """What a GiroCode carries: the club account's ``holder``, ``iban``, ``bic`` (may be
    empty), the ``amount`` in EUR (Decimal, > 0) and the ISO 11649 creditor ``reference``
    naming person and season, e.g. "RF71M12S3" (league/club/reference.py)."""

    holder: str
    iban: str
    bic: str
    amount: Decimal
    reference: str


def girocode_reference(*, member: Member, season: Season) -> str:
    """The transfer's structured reference: the RF creditor reference of ``member`` and
    ``season`` (ISO 11649, derived from their ids: the same on every reprint)."""
    return creditor_reference(member_id=member.pk, season_id=season.pk)


def girocode_of(
    *, account: ClubBankAccount | None, member: Member, season: Season, amount: Decimal
) -> GiroCode | None:
    """The GiroCode for ``amount`` (EUR, the member's balance in ``season``) to ``account``;
    None without an account, for a season not in EUR or of another club, or for an amount
    <= 0. No queries."""
    if account is None or season.currency != "EUR" or season.club_id != member.club_id:
        return None
    if amount <= 0:
        return None
    return GiroCode(
        holder=account.holder,
        iban=account.iban,
        bic=account.bic,
        amount=amount,
        reference=girocode_reference(member=member, season=season),
    )


# The EPC069-12 character set numbers (line 3 of the payload) and their codecs.
_EPC_CHARSETS = {
    "1": "utf-8",
    "2": "iso-8859-1",
    "3": "iso-8859-2",
    "4": "iso-8859-4",
    "5": "iso-8859-5",
    "6": "iso-8859-7",
    "7": "iso-8859-10",
    "8": "iso-8859-15",
}


def _epc_data(code: GiroCode) -> bytes:
    """The EPC069-12 (version 002) payload as segno encodes it into the QR code: BCD, 002,
    charset, SCT, BIC, holder, IBAN, "EUR<amount>", purpose (empty), the structured RF
    reference (line 10); the unstructured text is left off (EPC allows only one of the
    two). The one place both the text and the PNG are made from."""
    from segno import helpers

    # segno 1.6 names the function with a leading underscore; later versions drop it.
    make_data = getattr(helpers, "make_epc_qr_data", None) or helpers._make_epc_qr_data  # type: ignore[attr-defined]
    data = make_data(
        name=code.holder,
        iban=code.iban,
        amount=code.amount,
        reference=code.reference,
        bic=code.bic or None,
    )
    return data if isinstance(data, bytes) else str(data).encode("utf-8")


def epc_payload(code: GiroCode) -> str:
    """The EPC069-12 (version 002) text of the code (`_epc_data`), lines joined by "\n",
    decoded in the character set its third line names (segno picks the smallest that holds
    the holder's name: ISO 8859-1 for German names, UTF-8 beyond)."""
    data = _epc_data(code)
    charset = data.split(b"\n", 3)[2].decode("ascii", "replace")
    return data.decode(_EPC_CHARSETS.get(charset, "utf-8"))


def girocode_png(code: GiroCode, *, scale: int = 6) -> bytes:
    """The code as a PNG (black on white, quiet zone of 4 modules, ``scale`` px per module)
    of the payload of ``epc_payload(code)``: error level M, as EPC069-12 requires (segno's
    ``make_epc_qr`` does the same with the same data)."""
    import segno

    qr = segno.make_qr(_epc_data(code), error="m", boost_error=False)
    buf = io.BytesIO()
    qr.save(buf, kind="png", scale=scale, border=4)
    return buf.getvalue()
