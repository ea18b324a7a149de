"""Book a bank statement: settle the lines that carry a person's RF reference, propose the
rest for the secretary's review, never book a bank line twice.

Every credit line (amount > 0) is, in this order:

- a duplicate: its key (``line_hash``) was booked before, or came earlier in the file, or
  (a line with a person's reference) a line of another file with the same booking day,
  amount and reference was booked (a bank writes one transfer differently in CAMT, MT940
  and CSV, so its key may differ); lines alike without a bank reference in one file are
  told apart by their order (``keys_numbered``);
- settled: its purpose holds one of our ISO 11649 references (league/club/reference.py)
  of a person of the club. The amount pays the person's open amounts in the line's
  currency oldest season first (a DM season is never paid by a EUR line), partial payments
  included; what is left over is a credit in the season the reference names (or the
  newest season in that currency). Each part is one payment through the ledger's payment
  service (``payment_record``, bank transfer, the bank line named in its note), which ends
  with the books-changed call;
- to review: a name-and-amount guess (``bank_lines_match``), booked only when the
  secretary confirms its key (``confirmed``) through ``bank_lines_book``;
- ignored otherwise (``reason``: "debit", "unknown", "currency", "amount_too_large" (10
  million or more), or the code of a refusal by the books, e.g. "season_closed").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from league.banking.bank_import import (
    MAX_AMOUNT,
    BankLine,
    Proposal,
    bank_lines_book,
    bank_lines_match,
)
from league.banking.models import BankStatementLine
from league.club.errors import BooksError
from league.club.models import Club, Member, Season
from league.club.money import round_money
from league.club.reference import ParsedReference, find_reference
from league.ledger.models import Payment
from league.ledger.services import payment_record


@dataclass(frozen=True)
class SettledPart:
    """One payment booked for a bank line: ``season`` and ``amount`` (Decimal, the
    season's currency)."""

    season: Season
    amount: Decimal
    payment: Payment


@dataclass(frozen=True)
class Settled:
    """A bank line booked for ``member``: its payments, oldest season first."""

    bank_line: BankLine
    member: Member
    parts: list[SettledPart]


@dataclass(frozen=True)
class Ignored:
    """A bank line not booked and not proposed, and why (a stable code)."""

    bank_line: BankLine
    reason: str


@dataclass
class StatementResult:
    """What an import did: ``settled`` lines (booked now), ``to_review`` (name-and-amount
    guesses waiting for the secretary), ``ignored`` and ``duplicates`` (booked before)."""

    settled: list[Settled] = field(default_factory=list)
    to_review: list[Proposal] = field(default_factory=list)
    ignored: list[Ignored] = field(default_factory=list)
    duplicates: list[BankLine] = field(default_factory=list)


def _open_seasons(member: Member, currency: str) -> list[tuple[Season, Decimal]]:
    """The person's open amounts (> 0) in the club's open seasons of ``currency``, oldest
    first. One query."""
    rows = (
        Season.objects.filter(
            club_id=member.club_id,
            currency=currency,
            closed_at__isnull=True,
            ledger_entries__member=member,
        )
        .annotate(open_amount=Sum("ledger_entries__amount"))
        .filter(open_amount__gt=0)
        .order_by("starts_on", "year")
    )
    return [(season, round_money(season.open_amount)) for season in rows]


def _credit_season(member: Member, currency: str, season_id: int) -> Season | None:
    seasons = Season.objects.filter(
        club_id=member.club_id, currency=currency, closed_at__isnull=True
    )
    return seasons.filter(pk=season_id).first() or seasons.order_by("-starts_on").first()


def _note(line: BankLine) -> str:
    head = f"Bank {line.booked_on:%d.%m.%Y}"
    if line.bank_ref:
        head += f" {line.bank_ref}"
    return f"{head}: {line.name} {line.reference}"[:200]


def settle_line(
    *, club: Club, line: BankLine, member: Member, season_id: int, user=None
) -> list[SettledPart]:
    """Book ``line`` (a credit in ``line.currency``) as payments of ``member``: open
    amounts oldest season first, the rest a credit in ``season_id`` (or the newest open
    season of the currency). One transaction; part 0 of the line is written first, so a
    line booked before or concurrently raises IntegrityError and nothing is kept.

    Raises BooksError: no_season (no open season in the line's currency), and what
    ``payment_record`` raises.
    """
    remaining = line.amount
    plan: list[tuple[Season, Decimal]] = []
    for season, owed in _open_seasons(member, line.currency):
        if remaining <= 0:
            break
        pay = min(owed, remaining)
        plan.append((season, pay))
        remaining -= pay
    if remaining > 0:
        credit = _credit_season(member, line.currency, season_id)
        if credit is None:
            raise BooksError("no_season", _("There is no open season in this currency."))
        merged = dict(plan)
        merged[credit] = merged.get(credit, Decimal(0)) + remaining
        plan = sorted(merged.items(), key=lambda item: (item[0].starts_on, item[0].year))
    parts = []
    with transaction.atomic():
        for number, (season, amount) in enumerate(plan):
            payment = payment_record(
                member=member,
                amount=amount,
                paid_on=line.booked_on,
                method=Payment.Method.TRANSFER,
                note=_note(line),
                season=season,
                created_by=user,
            )
            BankStatementLine.objects.create(
                club=club,
                line_hash=line.line_hash,
                part=number,
                booked_on=line.booked_on,
                name=line.name,
                reference=line.reference,
                amount=amount,
                payment=payment,
            )
            parts.append(SettledPart(season=season, amount=amount, payment=payment))
    return parts


def _booked_from_another_file(
    club: Club,
    lines: list[BankLine],
    referenced: list[tuple[BankLine, ParsedReference]],
    result: StatementResult,
) -> list[tuple[BankLine, ParsedReference]]:
    """The referenced lines that no bank line booked before stands for; the others go to
    `result.duplicates`. A bank writes one transfer differently in CAMT, MT940 and CSV (a
    reference in one, none in another), so its key may differ between two files of the
    same days; the same booking day, amount and RF reference is the same transfer, as
    often as the books hold it already. One query."""
    if not referenced:
        return referenced
    keys = {line.line_hash for line in lines}
    stored = (
        BankStatementLine.objects.filter(
            club=club, booked_on__in={line.booked_on for line, _found in referenced}
        )
        .exclude(line_hash__in=keys)
        .values("line_hash", "booked_on", "reference")
        .annotate(total=Sum("amount"))
    )
    held: Counter[tuple] = Counter()
    for row in stored:
        found = find_reference(row["reference"])
        if found is not None:
            held[(row["booked_on"], row["total"], found)] += 1
    left = []
    for line, found in referenced:
        same = (line.booked_on, line.amount, found)
        if held[same] > 0:
            held[same] -= 1
            result.duplicates.append(line)
        else:
            left.append((line, found))
    return left


def _sorted_out(
    club: Club, lines: list[BankLine], result: StatementResult
) -> tuple[list[BankLine], list[tuple[BankLine, ParsedReference]]]:
    """The new credit lines: (those without a structured reference, those with one and
    the reference found). Adds to `result` the duplicates (booked before, or twice in
    the file) and the debits and amounts too large to be a club's payment. One query."""
    booked = set(
        BankStatementLine.objects.filter(
            club=club, line_hash__in=[line.line_hash for line in lines]
        ).values_list("line_hash", flat=True)
    )
    seen: set[str] = set()
    guesses: list[BankLine] = []
    referenced: list[tuple[BankLine, ParsedReference]] = []
    for line in lines:
        if line.line_hash in booked or line.line_hash in seen:
            result.duplicates.append(line)
            continue
        seen.add(line.line_hash)
        if line.amount <= 0:
            result.ignored.append(Ignored(line, "debit"))
            continue
        if line.amount >= MAX_AMOUNT:
            result.ignored.append(Ignored(line, "amount_too_large"))
            continue
        found = find_reference(f"{line.reference} {line.bank_ref}")
        if found is None:
            guesses.append(line)
        else:
            referenced.append((line, found))
    return guesses, referenced


def _settle_referenced(
    club: Club,
    referenced: list[tuple[BankLine, ParsedReference]],
    result: StatementResult,
    user: Any,
) -> list[BankLine]:
    """Settle each line by its structured reference (`settle_line`), adding it to
    `result` as settled, duplicate or ignored (the BooksError's code). Returns the lines
    whose reference names no person of the club: they are guessed like lines without one."""
    people = Member.objects.filter(
        club=club, pk__in={found.member_id for _line, found in referenced}
    ).in_bulk()
    unknown: list[BankLine] = []
    for line, found in referenced:
        member = people.get(found.member_id)
        if member is None:
            unknown.append(line)
            continue
        try:
            parts = settle_line(
                club=club, line=line, member=member, season_id=found.season_id, user=user
            )
        except IntegrityError:
            result.duplicates.append(line)
            continue
        except BooksError as exc:
            result.ignored.append(Ignored(line, exc.code))
            continue
        result.settled.append(Settled(bank_line=line, member=member, parts=parts))
    return unknown


def _book_confirmed(
    club: Club,
    guesses: list[BankLine],
    proposals: list[Proposal],
    confirmed: set[str],
    result: StatementResult,
    user: Any,
) -> list[Proposal]:
    """Book the guessed lines whose keys are `confirmed` (`bank_lines_book`), adding each
    booked one to `result` as settled. Returns the proposals still to review."""
    bank_lines_book(club=club, lines=guesses, confirmed=confirmed, user=user)
    booked_now = set(
        BankStatementLine.objects.filter(
            club=club, line_hash__in=[p.bank_line.line_hash for p in proposals]
        ).values_list("line_hash", flat=True)
    )
    for proposal in proposals:
        if proposal.bank_line.line_hash in booked_now:
            payment = BankStatementLine.objects.get(
                club=club, line_hash=proposal.bank_line.line_hash, part=0
            ).payment
            result.settled.append(
                Settled(
                    bank_line=proposal.bank_line,
                    member=proposal.member,
                    parts=[SettledPart(proposal.season, payment.amount, payment)],
                )
            )
    return [p for p in proposals if p.bank_line.line_hash not in booked_now]


def bank_statement_import(
    *, club: Club, lines: list[BankLine], confirmed: set[str] | None = None, user=None
) -> StatementResult:
    """Import a statement's lines (see the module): settle the RF lines, book the
    confirmed guesses (keys in ``confirmed``), report the rest. Running it again with
    the same lines books nothing (every line is then a duplicate). Queries: a few per
    settled line, four for the guesses."""
    result = StatementResult()
    guesses, referenced = _sorted_out(club, lines, result)
    referenced = _booked_from_another_file(club, lines, referenced, result)
    guesses.extend(_settle_referenced(club, referenced, result, user))
    guesses.sort(key=lambda line: line.line)
    proposals = [p for p in bank_lines_match(club=club, lines=guesses) if not p.booked]
    if confirmed:
        proposals = _book_confirmed(club, guesses, proposals, set(confirmed), result, user)
    proposed = {p.bank_line.line_hash for p in proposals} | {
        s.bank_line.line_hash for s in result.settled
    }
    result.to_review = proposals
    for line in guesses:
        if line.line_hash not in proposed:
            reason = "currency" if line.currency != "EUR" else "unknown"
            result.ignored.append(Ignored(line, reason))
    return result
