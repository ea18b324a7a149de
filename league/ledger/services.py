"""The kitty ledger (docs/rules.md section 5): charges derived from the records,
reversals, payments, member statements and the club's balances.

How the ledger stays trustworthy:
- A charge is derived from a record and carries its `source_key`: "game:<game id>" (1 Mark
  to the game's loser) or "absence:<evening id>:<member id>" (6 Marks to an absent club
  member). `ledger_sync_evening` compares what the records imply with the charges that
  stand, writes a reversal entry for every charge that no longer holds and a new charge for
  every one that is new. No entry is ever updated or deleted.
- A payment is a Payment row and a ledger entry of the same money (negative).
- **Decision** (DM and EUR): a balance is kept per season, in that season's currency. DM
  seasons and EUR seasons are never added together; totals over seasons are given per
  currency. A payment belongs to one season (by default the one containing its date).
- Marks are integers on charges; payments are money. The running balance is money, and its
  Mark equivalent is money / the season's Mark value (may be fractional after a partial
  payment, e.g. 1.5 Marks).
"""

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from games.evenings.models import Attendance, Evening, Game
from league.club.books import MARK_VALUE_CHANGED, STATUTES_CHANGED, BooksChange, books_changed
from league.club.errors import BooksError
from league.club.fields import date_refusal, parse_iso_date
from league.club.models import Club, Member, Season
from league.club.money import format_money, marks_to_money, round_money
from league.club.reference import creditor_reference
from league.club.statutes import Statutes, season_statutes
from league.ledger.line_reasons import LineReason, line_reason
from league.ledger.models import LedgerEntry, Payment

_REVERSAL = LedgerEntry.Kind.REVERSAL
CHARGE_KINDS = (LedgerEntry.Kind.GAME_LOST, LedgerEntry.Kind.ABSENCE)

# Reason codes stored in a reversal's `description` (shown translated, see `reversal_reason_label`).
REASON_GAME_DELETED = "game_deleted"
REASON_LOSER_CHANGED = "loser_changed"
REASON_ATTENDANCE_CHANGED = "attendance_changed"
REASON_SEASON_CHANGED = "season_changed"
REASON_EVENING_DELETED = "evening_deleted"
REASON_PAYMENT_CANCELLED = "payment_cancelled"
REASON_MARK_VALUE_CHANGED = "mark_value_changed"
# A season closed (league.closing): the reason of its carry-over lines and of the
# season's audit record; reopened: its carry-over lines are reversed.
REASON_SEASON_CLOSED = "season_closed"
REASON_SEASON_REOPENED = "season_reopened"
# The kinds that settle a balance rather than charge one: a payment, and the carry of a
# closed season's open balance into the next season (league.closing).
SETTLING_KINDS = (LedgerEntry.Kind.PAYMENT, LedgerEntry.Kind.CARRY_OUT)
# Marks of a charge changed: the season's statutes changed, or an
# absence costing the evening's average followed a game entered or deleted.
REASON_MARKS_CHANGED = "marks_changed"


def game_source_key(game_id: int) -> str:
    return f"game:{game_id}"


def absence_source_key(evening_id: int, member_id: int) -> str:
    return f"absence:{evening_id}:{member_id}"


@dataclass(frozen=True)
class Charge:
    """A charge the records imply: who, how many Marks, what kind, from which game."""

    member_id: int
    kind: str
    marks: int
    game_id: int | None
    description: str


def game_lost_charge(*, game_id: int, number: int, loser_id: int, statutes: Statutes) -> Charge:
    """The charge a lost game implies: the statutes' Marks per lost game to its loser."""
    marks = statutes.marks(games_lost=1)
    return Charge(loser_id, LedgerEntry.Kind.GAME_LOST, marks, game_id, str(number))


def absence_charge(
    *, member_id: int, statutes: Statutes, lost_by_members: int = 0, present_members: int = 0
) -> Charge | None:
    """The charge an evening absent implies for a club member: the statutes' Marks per
    absence (six in the club's statutes: five games' average plus one penalty Mark; or
    the average of the `lost_by_members` games its `present_members` present club members
    lost plus a surcharge, `Statutes.absence_marks`). None when an absence costs nothing."""
    marks = statutes.absence_marks(lost_by_members=lost_by_members, present_members=present_members)
    if marks == 0:
        return None
    return Charge(member_id, LedgerEntry.Kind.ABSENCE, marks, None, "")


def charges_implied(
    *,
    evening_id: int,
    statutes: Statutes,
    games: Iterable[tuple[int, int, int]],
    roles: dict[int, str],
) -> dict[str, Charge]:
    """source_key -> the charge an evening's records imply (docs/rules.md section 5), from plain
    values: the evening's primary key, its season's statutes, its games as (game id,
    number, loser id) and its attendance as member id -> role (`Attendance.Role`). The
    one computation of the charges: `ledger_sync_evening` books what it answers, and a
    restore compares the charges of a backup with it (league.ledger.selectors)."""
    games = list(games)
    charges: dict[str, Charge] = {}
    for game_id, number, loser_id in games:
        if statutes.marks_per_game_lost:
            charges[game_source_key(game_id)] = game_lost_charge(
                game_id=game_id, number=number, loser_id=loser_id, statutes=statutes
            )
    present = sum(1 for role in roles.values() if role == Attendance.Role.MEMBER)
    lost_by_members = sum(1 for _, _, loser in games if roles.get(loser) == Attendance.Role.MEMBER)
    for member_id, role in roles.items():
        if role != Attendance.Role.ABSENT:
            continue
        charge = absence_charge(
            member_id=member_id,
            statutes=statutes,
            lost_by_members=lost_by_members,
            present_members=present,
        )
        if charge is not None:
            charges[absence_source_key(evening_id, member_id)] = charge
    return charges


def _charges_implied(evening: Evening) -> dict[str, Charge]:
    """source_key -> the charge the evening's records imply (docs/rules.md section 5)."""
    return charges_implied(
        evening_id=evening.pk,
        statutes=season_statutes(evening.season),
        games=evening.games.values_list("pk", "number", "loser_id"),
        roles=dict(evening.attendances.values_list("member_id", "role")),
    )


def _reversal(entry: LedgerEntry, *, reason: str, booked_on: datetime.date) -> LedgerEntry:
    return LedgerEntry(
        club_id=entry.club_id,
        season_id=entry.season_id,
        member_id=entry.member_id,
        kind=LedgerEntry.Kind.REVERSAL,
        marks=-entry.marks,
        amount=-entry.amount,
        currency=entry.currency,
        evening_id_ref=entry.evening_id_ref,
        game_id_ref=entry.game_id_ref,
        source_key=entry.source_key,
        description=reason,
        reverses=entry,
        booked_on=booked_on,
    )


def charge_entry(
    *,
    evening_id: int,
    club_id: int,
    season: Season,
    booked_on: datetime.date,
    key: str,
    charge: Charge,
) -> LedgerEntry:
    """An unsaved charge entry (also used by the club-book import, which writes in bulk)."""
    return LedgerEntry(
        club_id=club_id,
        season=season,
        member_id=charge.member_id,
        kind=charge.kind,
        marks=charge.marks,
        amount=marks_to_money(charge.marks, season.mark_value),
        currency=season.currency,
        evening_id_ref=evening_id,
        game_id_ref=charge.game_id,
        source_key=key,
        description=charge.description,
        booked_on=booked_on,
    )


def _open_charges(evening_id: int) -> list[LedgerEntry]:
    return list(
        LedgerEntry.objects.filter(
            evening_id_ref=evening_id, kind__in=CHARGE_KINDS, reversed_by__isnull=True
        ).order_by("id")
    )


@transaction.atomic
def ledger_sync_evening(*, evening_id: int) -> dict[str, int]:
    """Bring the ledger in line with an evening's records (called by `books_changed` after
    every change of an evening, its attendance or its games).

    Charges implied: 1 Mark per game to its loser ("game:<id>"), 6 Marks per absent club
    member ("absence:<evening>:<member>"), in the evening's season and currency, booked on
    the evening's date. A standing charge that no longer holds (game deleted, loser
    corrected, attendance changed, evening moved to another season, the season's Mark
    value changed) gets a reversal entry
    booked today; a new charge is added for what is new. Returns {"charged": n,
    "reversed": n}. Never updates or deletes an entry.
    """
    evening = Evening.objects.select_related("season").get(pk=evening_id)
    wanted = _charges_implied(evening)
    today = timezone.localdate()
    reversals, kept = [], set()
    for entry in _open_charges(evening_id):
        charge = wanted.get(entry.source_key)
        same = (
            charge is not None
            and entry.source_key not in kept
            and charge.member_id == entry.member_id
            and charge.marks == entry.marks
            and entry.season_id == evening.season_id
            and entry.amount == marks_to_money(charge.marks, evening.season.mark_value)
        )
        if same:
            kept.add(entry.source_key)
            continue
        if charge is None:
            reason = (
                REASON_GAME_DELETED
                if entry.kind == LedgerEntry.Kind.GAME_LOST
                else REASON_ATTENDANCE_CHANGED
            )
        elif entry.season_id != evening.season_id:
            reason = REASON_SEASON_CHANGED
        elif charge.member_id == entry.member_id and charge.marks != entry.marks:
            reason = REASON_MARKS_CHANGED
        elif charge.member_id == entry.member_id:
            reason = REASON_MARK_VALUE_CHANGED
        elif entry.kind == LedgerEntry.Kind.GAME_LOST:
            reason = REASON_LOSER_CHANGED
        else:
            reason = REASON_ATTENDANCE_CHANGED
        reversals.append(_reversal(entry, reason=reason, booked_on=today))
    new = [
        charge_entry(
            evening_id=evening.pk,
            club_id=evening.club_id,
            season=evening.season,
            booked_on=evening.date,
            key=key,
            charge=charge,
        )
        for key, charge in wanted.items()
        if key not in kept
    ]
    bulk_create_with_history(reversals + new, LedgerEntry)
    return {"charged": len(new), "reversed": len(reversals)}


@transaction.atomic
def ledger_sync_evening_deleted(*, evening_id: int) -> int:
    """Reverse every standing charge of an evening that is being deleted (booked today,
    reason "evening_deleted"). Returns the number of reversals written."""
    today = timezone.localdate()
    reversals = [
        _reversal(entry, reason=REASON_EVENING_DELETED, booked_on=today)
        for entry in _open_charges(evening_id)
    ]
    bulk_create_with_history(reversals, LedgerEntry)
    return len(reversals)


# --- payments ---------------------------------------------------------------------------


def _payment_season(
    *, member: Member, amount: Decimal, method: str, paid_on: datetime.date, season: Season | None
) -> Season:
    """Check a payment's input; the season it belongs to (given, or the one of `paid_on`)."""
    if amount <= 0 or amount != round_money(amount):
        raise BooksError(
            "invalid_amount",
            _("The amount must be more than zero, with at most two decimal places."),
            field="amount",
        )
    if method not in Payment.Method.values:
        raise BooksError("invalid_method", _("Unknown way of payment."), field="method")
    if parse_iso_date(paid_on) is None:  # the admin's date field reads any year
        code, message = date_refusal(paid_on)
        raise BooksError(code, message, field="paid_on")
    if season is None:
        season = Season.objects.filter(
            club_id=member.club_id, starts_on__lte=paid_on, ends_on__gte=paid_on
        ).first()
        if season is None:
            raise BooksError(
                "no_season",
                _("There is no season for %(date)s. Create the season first.")
                % {"date": paid_on.strftime("%d.%m.%Y")},
                field="paid_on",
            )
    if season.club_id != member.club_id:
        raise BooksError(
            "person_of_other_club", _("This person belongs to another club."), field="member"
        )
    return season


@transaction.atomic
def payment_record(
    *,
    member: Member,
    amount: Decimal,
    paid_on: datetime.date,
    method: str = Payment.Method.CASH,
    note: str = "",
    season: Season | None = None,
    created_by: User | None = None,
) -> Payment:
    """Record money received from a member (docs/rules.md 5): a Payment row and its
    ledger entry (negative amount, 0 Marks), then the books-changed event of its season
    (the season report goes stale: its paid and open amounts change). Partial payments are
    normal; paying more than owed leaves a credit.

    `amount` is Decimal money in the season's currency (DM or EUR, cents: at most two
    decimal places); `season` defaults to the club's season containing `paid_on`.
    Returns the Payment.

    Raises BooksError: invalid_amount (not positive or more than 2 decimal places),
    invalid_method, invalid_date or date_out_of_range (`paid_on` outside 1900 to next
    year), no_season, person_of_other_club.
    """
    amount = Decimal(amount)
    season = _payment_season(
        member=member, amount=amount, method=method, paid_on=paid_on, season=season
    )
    payment = Payment.objects.create(
        club_id=member.club_id,
        season=season,
        member=member,
        amount=amount,
        currency=season.currency,
        paid_on=paid_on,
        method=method,
        note=note.strip(),
        created_by=created_by,
    )
    LedgerEntry.objects.create(
        club_id=member.club_id,
        season=season,
        member=member,
        kind=LedgerEntry.Kind.PAYMENT,
        marks=0,
        amount=-amount,
        currency=season.currency,
        payment=payment,
        source_key=f"payment:{payment.pk}",
        description=payment.note,
        booked_on=paid_on,
    )
    books_changed(season_id=season.pk, reason="payment")
    return payment


@transaction.atomic
def payment_cancel(*, payment: Payment) -> LedgerEntry:
    """Cancel a payment entered by mistake (docs/rules.md 5; corrected by reversal, never
    edited): a reversal entry (booked today, the same money with the opposite sign) takes
    its money back out of the kitty; the Payment row and its entry stay visible, the
    payment's audit trail gets a record with the reason "payment_cancelled", and the
    books-changed event of its season follows. Returns the reversal entry.

    Raises BooksError `payment_cancelled` (409) when it was cancelled already.
    """
    entry = LedgerEntry.objects.select_for_update().get(payment=payment)
    if LedgerEntry.objects.filter(reverses=entry).exists():
        raise BooksError("payment_cancelled", _("This payment was cancelled already."), status=409)
    reversal = _reversal(entry, reason=REASON_PAYMENT_CANCELLED, booked_on=timezone.localdate())
    reversal.save()
    # The audit trail records the cancellation (who and when) on the payment itself.
    payment._change_reason = REASON_PAYMENT_CANCELLED  # type: ignore[attr-defined]
    payment.save()
    books_changed(season_id=entry.season_id, reason=REASON_PAYMENT_CANCELLED)
    return reversal


# --- reading: statements and balances ------------------------------------------------------


def reversal_reason_label(code: str) -> str:
    """The German label of a reversal's reason code ("game deleted", "payment cancelled", ...),
    or the code itself when it is none of ours."""
    return {
        REASON_GAME_DELETED: _("game deleted"),
        REASON_LOSER_CHANGED: _("loser corrected"),
        REASON_ATTENDANCE_CHANGED: _("attendance changed"),
        REASON_SEASON_CHANGED: _("evening moved to another season"),
        REASON_EVENING_DELETED: _("evening deleted"),
        REASON_PAYMENT_CANCELLED: _("payment cancelled"),
        REASON_MARK_VALUE_CHANGED: _("value of the Mark changed"),
        REASON_SEASON_CLOSED: _("season closed"),
        REASON_SEASON_REOPENED: _("season reopened"),
        REASON_MARKS_CHANGED: _("Marks recomputed under the statutes"),
    }.get(code, code)


def carry_label(entry: LedgerEntry) -> str:
    """The German text of a carry-over line (league.closing). `description` holds the other
    season's year, and for a carry converted between currencies "<year>|<amount>|<currency>"
    (the amount before conversion, e.g. "2001|12.00|DM")."""
    year, _sep, rest = entry.description.partition("|")
    if entry.kind == LedgerEntry.Kind.CARRY_OUT:
        text = _("Balance carried to season %(year)s") % {"year": year}
    else:
        text = _("Balance carried from season %(year)s") % {"year": year}
    amount, _sep, currency = rest.partition("|")
    if amount and currency:
        text += " " + _("(%(amount)s converted at 1.95583 DM = 1 EUR)") % {
            "amount": format_money(Decimal(amount), currency)
        }
    return text


def _method_label(code: str) -> str:
    return str(dict(Payment.Method.choices).get(code, code))


def _entry_label(
    entry: LedgerEntry,
    game_numbers: dict[int, int],
    evening_dates: dict[int, datetime.date],
    payments: dict[int, Payment],
) -> str:
    """A German line text explaining the entry (where each Mark comes from)."""
    day = evening_dates.get(entry.evening_id_ref) if entry.evening_id_ref else None
    date_text = (day or entry.booked_on).strftime("%d.%m.%Y")
    if entry.kind == LedgerEntry.Kind.GAME_LOST:
        number = game_numbers.get(entry.game_id_ref or 0) or entry.description or "?"
        return _("Game %(number)s lost on %(date)s") % {"number": number, "date": date_text}
    if entry.kind == LedgerEntry.Kind.ABSENCE:
        return _("Absent on %(date)s") % {"date": date_text}
    if entry.kind == LedgerEntry.Kind.PAYMENT:
        payment = payments.get(entry.payment_id or 0)
        text = _("Payment (%(method)s)") % {
            "method": _method_label(payment.method) if payment else "?"
        }
        return f"{text}: {entry.description}" if entry.description else text
    if entry.kind in (LedgerEntry.Kind.CARRY_OUT, LedgerEntry.Kind.CARRY_IN):
        return carry_label(entry)
    original = entry.reverses
    what = _entry_label(original, game_numbers, evening_dates, payments) if original else ""
    return _("Reversal: %(what)s (%(reason)s)") % {
        "what": what,
        "reason": reversal_reason_label(entry.description),
    }


@dataclass
class StatementLine:
    """One ledger line of a statement. `marks` integer Marks (0 for payments); `amount`
    and `balance` Decimal money in the season's currency (charges positive, payments and
    reversals of charges negative); `balance_marks` = balance / Mark value (Decimal)."""

    entry_id: int
    booked_on: datetime.date
    kind: str
    label: str
    marks: int
    amount: Decimal
    balance: Decimal
    balance_marks: Decimal
    evening_id: int | None
    game_id: int | None
    reversed: bool
    payment_id: int | None = None
    #: The game's number and the evening's date the line comes from (None: neither).
    game_number: int | None = None
    evening_date: datetime.date | None = None
    #: What the line is made of, the statute that charges it and the arithmetic
    #: (league/ledger/line_reasons.py).
    reason: LineReason | None = None


@dataclass
class SeasonStatement:
    """A member's account for one season: its lines with running balance and the totals
    (Marks charged net of reversals, money charged, paid, still owed)."""

    season: Season
    lines: list[StatementLine] = field(default_factory=list)
    marks_charged: int = 0
    #: The RF creditor reference (ISO 11649) a transfer for this account carries, for a
    #: EUR season; empty for a DM season (no SEPA transfer).
    reference: str = ""
    charged: Decimal = Decimal("0.00")
    paid: Decimal = Decimal("0.00")

    @property
    def currency(self) -> str:
        return self.season.currency

    @property
    def balance(self) -> Decimal:
        """Money still owed (negative: credit)."""
        return self.charged - self.paid

    @property
    def balance_marks(self) -> Decimal:
        return _marks_of(self.balance, self.season.mark_value)


@dataclass
class MemberStatement:
    """A member's statement: one account per season (oldest first) and the balance per
    currency (DM and EUR are never added together). `balance_by_currency` covers the
    seasons shown, or every season of the person when the statement is one page of all
    seasons (`member_statement(seasons=...)`); `season_count` is the number of seasons
    with lines in that case (for the pages), else the number of accounts shown."""

    member: Member
    seasons: list[SeasonStatement]
    balance_by_currency: dict[str, Decimal] = field(default_factory=dict)
    season_count: int = 0


def _marks_of(money: Decimal, mark_value: Decimal) -> Decimal:
    return (money / mark_value).quantize(Decimal("0.01"))


def _is_payment_side(entry: LedgerEntry) -> bool:
    if entry.kind in SETTLING_KINDS:
        return True
    return entry.kind == LedgerEntry.Kind.REVERSAL and bool(
        entry.reverses and entry.reverses.kind in SETTLING_KINDS
    )


def member_statement_seasons(*, member: Member) -> list[Season]:
    """The seasons in which a person has ledger lines, newest first (one query): the
    pages of the statement's "all seasons"."""
    return list(
        Season.objects.filter(
            pk__in=LedgerEntry.objects.filter(member=member).values("season_id")
        ).order_by("-year")
    )


def _balances_by_currency(member: Member) -> dict[str, Decimal]:
    """Every season's balance of a person, summed per currency (one aggregate query)."""
    rows = (
        LedgerEntry.objects.filter(member=member)
        .values("season__currency")
        .annotate(total=Sum("amount"))
        .order_by("season__currency")
    )
    return {r["season__currency"]: round_money(r["total"] or Decimal("0")) for r in rows}


def member_statement(
    *,
    member: Member,
    season: Season | None = None,
    seasons: list[Season] | None = None,
) -> MemberStatement:
    """A member's statement: every ledger line, season by season, with a running
    balance in money and Marks, explaining every Mark (game and evening it comes from) and
    every correction (reversal with its reason).

    `season` limits it to one season; `seasons` to those seasons (one page of "all
    seasons": then `balance_by_currency` still sums every season);
    neither: every season. Four queries (five with `seasons`), whatever the number of
    lines: games, evenings and payments are read by joins on the person's lines, not by
    lists of ids."""
    lines = LedgerEntry.objects.filter(member=member)
    if season is not None:
        lines = lines.filter(season=season)
    elif seasons is not None:
        lines = lines.filter(season__in=[s.pk for s in seasons])
    entries = list(
        lines.select_related("season", "reverses")
        .annotate(is_reversed=Exists(LedgerEntry.objects.filter(reverses=OuterRef("pk"))))
        .order_by("season__year", "booked_on", "id")
    )
    game_numbers: dict[int, int] = {}
    evening_dates: dict[int, datetime.date] = {}
    if any(e.game_id_ref for e in entries):
        game_numbers = dict(
            Game.objects.filter(pk__in=lines.values("game_id_ref")).values_list("pk", "number")
        )
    if any(e.evening_id_ref for e in entries):
        evening_dates = dict(
            Evening.objects.filter(pk__in=lines.values("evening_id_ref")).values_list("pk", "date")
        )
    # A payment line, or the reversal of one: the person's own payments of these seasons.
    payments: dict[int, Payment] = {}
    if any(e.payment_id or (e.reverses and e.reverses.payment_id) for e in entries):
        own = Payment.objects.filter(member=member)
        if season is not None:
            own = own.filter(season=season)
        elif seasons is not None:
            own = own.filter(season__in=[s.pk for s in seasons])
        payments = {p.pk: p for p in own}
    accounts: dict[int, SeasonStatement] = {}
    balance: dict[int, Decimal] = defaultdict(lambda: Decimal("0.00"))
    for e in entries:
        account = accounts.get(e.season_id)
        if account is None:
            account = accounts[e.season_id] = SeasonStatement(
                season=e.season,
                reference=creditor_reference(member_id=member.pk, season_id=e.season_id)
                if e.season.currency == "EUR"
                else "",
            )
        balance[e.season_id] += e.amount
        if _is_payment_side(e):
            account.paid -= e.amount
        else:
            account.charged += e.amount
            account.marks_charged += e.marks
        account.lines.append(
            StatementLine(
                entry_id=e.pk,
                booked_on=e.booked_on,
                kind=e.kind,
                label=_entry_label(e, game_numbers, evening_dates, payments),
                marks=e.marks,
                amount=e.amount,
                balance=balance[e.season_id],
                balance_marks=_marks_of(balance[e.season_id], e.season.mark_value),
                evening_id=e.evening_id_ref,
                game_id=e.game_id_ref,
                reversed=e.is_reversed,
                payment_id=e.payment_id,
                game_number=game_numbers.get(e.game_id_ref or 0),
                evening_date=evening_dates.get(e.evening_id_ref or 0),
                reason=line_reason(
                    kind=e.kind,
                    marks=e.marks,
                    amount=e.amount,
                    mark_value=e.season.mark_value,
                    currency=e.season.currency,
                    statutes=season_statutes(e.season),
                    evening_date=evening_dates.get(e.evening_id_ref or 0),
                    game_number=game_numbers.get(e.game_id_ref or 0),
                    reason=reversal_reason_label(e.description) if e.kind == _REVERSAL else "",
                ),
            )
        )
    shown = list(accounts.values())
    if seasons is not None and season is None:
        totals = _balances_by_currency(member)
        count = len(seasons)
    else:
        sums: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
        for account in shown:
            sums[account.currency] += account.balance
        totals, count = dict(sums), len(shown)
    return MemberStatement(
        member=member, seasons=shown, balance_by_currency=totals, season_count=count
    )


@dataclass
class BalanceRow:
    """A member's account in one season: Marks charged (net), money charged, paid, owed."""

    member: Member
    season: Season
    marks_charged: int
    charged: Decimal
    paid: Decimal

    @property
    def balance(self) -> Decimal:
        return self.charged - self.paid

    @property
    def currency(self) -> str:
        return self.season.currency


@dataclass
class SeasonBalance:
    """A season's kitty: charged, received, still owed by members (positive balances) and
    credit held for members (negative balances), in the season's currency."""

    season: Season
    charged: Decimal = Decimal("0.00")
    paid: Decimal = Decimal("0.00")
    owed: Decimal = Decimal("0.00")
    credit: Decimal = Decimal("0.00")

    @property
    def currency(self) -> str:
        return self.season.currency


@dataclass
class ClubBalances:
    """The secretary's overview: `rows` per member and season, `seasons` per
    season, `kitty` = money received per currency (the kitty's balance; the app keeps no
    expenses), `owed` = money still owed per currency."""

    rows: list[BalanceRow]
    seasons: list[SeasonBalance]
    kitty: dict[str, Decimal]
    owed: dict[str, Decimal]

    @property
    def owing(self) -> list[BalanceRow]:
        """Rows of members who still owe money: newest season first, then largest debt
        (amounts of different currencies are never compared)."""
        return sorted(
            (r for r in self.rows if r.balance > 0),
            key=lambda r: (-r.season.year, -r.balance, r.member.name),
        )


def club_balances(*, club: Club, season: Season | None = None) -> ClubBalances:
    """Who owes what and the kitty's balance, per season (one aggregate query plus the
    members and seasons). `season` limits rows and season totals to one season; the kitty
    totals are always over all seasons, per currency."""
    payment_side = Q(kind__in=SETTLING_KINDS) | Q(
        kind=LedgerEntry.Kind.REVERSAL, reverses__kind__in=SETTLING_KINDS
    )
    base = LedgerEntry.objects.filter(club=club)
    aggregated = list(
        base.values("member_id", "season_id").annotate(
            marks=Sum("marks", filter=~payment_side),
            charged=Sum("amount", filter=~payment_side),
            paid=Sum("amount", filter=payment_side),
        )
    )
    seasons = Season.objects.in_bulk({a["season_id"] for a in aggregated})
    members = Member.objects.in_bulk({a["member_id"] for a in aggregated})
    rows = (
        BalanceRow(
            member=members[a["member_id"]],
            season=seasons[a["season_id"]],
            marks_charged=a["marks"] or 0,
            charged=round_money(a["charged"] or Decimal("0")),
            paid=round_money(-(a["paid"] or Decimal("0"))),
        )
        for a in aggregated
    )
    return club_balances_of(rows, season=season)


def club_balances_of(rows: Iterable[BalanceRow], *, season: Season | None) -> ClubBalances:
    """The club's balances from its balance rows (one per member and season, charged and
    paid in that season's currency, Decimal cents): the kitty (paid) and what is owed per
    currency over every row, DM and EUR never added together; the rows and the per-season
    totals of `season` only, or of every season when it is None; rows newest season first,
    then by name. The one summation of `club_balances` and of its kept twin
    (`league.ledger.selectors.club_balances_kept`)."""
    shown: list[BalanceRow] = []
    per_season: dict[int, SeasonBalance] = {}
    kitty: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
    owed: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
    for row in rows:
        s = row.season
        kitty[s.currency] += row.paid
        if row.balance > 0:
            owed[s.currency] += row.balance
        if season is not None and s.pk != season.pk:
            continue
        shown.append(row)
        sb = per_season.setdefault(s.pk, SeasonBalance(season=s))
        sb.charged += row.charged
        sb.paid += row.paid
        if row.balance > 0:
            sb.owed += row.balance
        else:
            sb.credit -= row.balance
    shown.sort(key=lambda r: (-r.season.year, r.member.name))
    return ClubBalances(
        rows=shown,
        seasons=sorted(per_season.values(), key=lambda b: -b.season.year),
        kitty=dict(kitty),
        owed=dict(owed),
    )


def member_balance(*, member: Member, season: Season) -> Decimal:
    """The money a member owes in a season (sum of the ledger; negative: credit)."""
    total = LedgerEntry.objects.filter(member=member, season=season).aggregate(s=Sum("amount"))["s"]
    return round_money(total or Decimal("0"))


def ledger_sync_season(*, season_id: int) -> dict[str, int]:
    """Bring the charges of every evening of a season in line with its records and its
    current Mark value (docs/rules.md 5), e.g. after the Mark value changed: each charge booked
    at another amount is reversed (reason "mark_value_changed", booked today) and booked
    again at `marks * mark_value` (Decimal money in the season's currency, DM or EUR).
    Nothing is edited in place. Returns the summed {"charged": n, "reversed": n}."""
    totals = {"charged": 0, "reversed": 0}
    evening_ids = Evening.objects.filter(season_id=season_id).order_by("date")
    for evening_id in evening_ids.values_list("pk", flat=True):
        done = ledger_sync_evening(evening_id=evening_id)
        totals = {key: totals[key] + done[key] for key in totals}
    return totals


def ledger_on_books_changed(change: BooksChange) -> None:
    """Receiver of the books-changed event (league.club.books, connected in
    `LeagueConfig.ready`), in the writer's transaction: bring the charges of the evening
    that changed in line with its records; reverse every open charge of an evening that is
    being deleted; re-book the whole season when its Mark value or its statutes changed
    (`MARK_VALUE_CHANGED`, `STATUTES_CHANGED`). Payments and Runden need nothing here
    (their rows are the ledger's own or no money)."""
    if change.reason in (MARK_VALUE_CHANGED, STATUTES_CHANGED):
        ledger_sync_season(season_id=change.season_id)
    if change.evening_id is None:
        return
    if change.evening_deleted:
        ledger_sync_evening_deleted(evening_id=change.evening_id)
    else:
        ledger_sync_evening(evening_id=change.evening_id)


@transaction.atomic
def ledger_member_merge(
    *, source: Member, target: Member, reason: str
) -> set[tuple[int, int | None]]:
    """The ledger's part of merging a person entered twice (league.club.services.member_merge):
    `source`'s payments and ledger entries become `target`'s, amounts,
    Marks and dates unchanged (the money was always this one person's), each with an audit
    record carrying `reason`. The charges of the evenings the merge touched are brought in
    line afterwards by the books-changed event (an absence's charge is keyed by the person,
    so it is reversed and booked again under `target`). Returns (season id, None) for every
    season whose lines moved."""
    payments = list(Payment.objects.filter(member=source))
    for payment in payments:
        payment.member = target
    bulk_update_with_history(payments, Payment, ["member"], default_change_reason=reason)
    entries = list(LedgerEntry.objects.filter(member=source))
    for entry in entries:
        entry.member = target
    bulk_update_with_history(entries, LedgerEntry, ["member"], default_change_reason=reason)
    return {(entry.season_id, None) for entry in entries} | {(p.season_id, None) for p in payments}


def member_open_by_currency(*, member: Member) -> dict[str, Decimal]:
    """What a person owes over every season, per currency (the home page):
    charged minus paid, Decimal money keyed "DM" / "EUR" (never added together), negative
    for a credit; one aggregate query. The statement's `balance_by_currency` of all
    seasons, without reading its lines."""
    return _balances_by_currency(member)
