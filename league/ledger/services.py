"""The kitty ledger's writes (docs/rules.md section 5): charges derived from the records,
reversals and payments. Statements and balances are read in league/ledger/selectors.py.

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
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from games.evenings.models import Evening
from league.club.books import MARK_VALUE_CHANGED, STATUTES_CHANGED, BooksChange, books_changed
from league.club.errors import BooksError
from league.club.fields import date_refusal, parse_iso_date
from league.club.models import Member, Season
from league.club.money import marks_to_money, round_money
from league.club.statutes import season_statutes
from league.ledger.models import LedgerEntry, Payment
from league.ledger.selectors import (
    CHARGE_KINDS,
    REASON_ATTENDANCE_CHANGED,
    REASON_EVENING_DELETED,
    REASON_GAME_DELETED,
    REASON_LOSER_CHANGED,
    REASON_MARK_VALUE_CHANGED,
    REASON_MARKS_CHANGED,
    REASON_PAYMENT_CANCELLED,
    REASON_SEASON_CHANGED,
    Charge,
    charges_implied,
)


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


def _reversal_reason(entry: LedgerEntry, charge: Charge | None, *, season_id: int) -> str:
    """Why a standing charge `entry` of an evening (now in season `season_id`) no longer
    holds, given the charge the evening implies under its key now (`charge`, None: none):
    one of the REASON_* texts its reversal carries."""
    if charge is None:
        if entry.kind == LedgerEntry.Kind.GAME_LOST:
            return REASON_GAME_DELETED
        return REASON_ATTENDANCE_CHANGED
    if entry.season_id != season_id:
        return REASON_SEASON_CHANGED
    if charge.member_id == entry.member_id and charge.marks != entry.marks:
        return REASON_MARKS_CHANGED
    if charge.member_id == entry.member_id:
        return REASON_MARK_VALUE_CHANGED
    if entry.kind == LedgerEntry.Kind.GAME_LOST:
        return REASON_LOSER_CHANGED
    return REASON_ATTENDANCE_CHANGED


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
        reason = _reversal_reason(entry, charge, season_id=evening.season_id)
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
