"""Season close with the Kassenprüfer sign-off.

The wizard's open items, closing a season, reopening it, the auditors' signatures and the
fingerprint they sign.

- **Closed** (`Season.closed_at` set): the season's books are locked. Every writer ends
  with `league.club.books.books_changed`, which refuses a closed season (`season_closed`,
  409), and the database refuses raising its `data_version` too (trigger
  `schock_season_closed`, league migration 0010). A change needs `season_reopen` first,
  with a reason kept in the season's audit history.
- **Carry-over**: on close each member's open balance of the season (money owed, or a
  credit) leaves it by a `carry_out` ledger line and opens the next season's statement by
  a `carry_in` line (source key ``carry:<season id>:<member id>`` on both); the next season
  is created when missing (`season_get_or_create`). Reopening reverses both lines (reason
  "season_reopened"), so close -> reopen -> close leaves one standing pair per member.
  **Decision** (DM -> EUR, 2001 -> 2002): a DM balance is converted at the fixed rate
  1.95583 DM = 1 EUR with Decimal, rounded half up to cents (`carry_amount`); the carry line
  keeps the DM amount in its text.
- **Auditors**: **Decision**: any active club member (not a guest) with a login who is not
  a secretary of the club may sign (the Kassenprüfer checks the secretary's books, so a
  secretary never signs). One or two auditors: a season holds at most two valid
  signatures, one per auditor. A signature is valid while the season's fingerprint equals
  the one signed (`signature_state`); an auditor whose signature broke may sign again.
  Two more refusals keep the auditor independent of the secretary:
  `auditor_password_not_own` (403) when the auditor's login has a password its holder did
  not set (`Member.password_set_by_holder`: only the invitation, a reset by e-mail or a
  change with the old password set it; a login of old whose password someone else may
  know signs after its holder set a new one), and `auditor_was_secretary` (403) for anyone
  who was a secretary at any time during the season. **Decision**: "during the season"
  is read from the person's audit history (django-simple-history records of
  `Member.is_secretary`): each record holds from its time until the next record's; the
  auditor is refused when a record with the flag on holds at any moment between the
  season's first day 00:00 and its last day 24:00 (Europe/Berlin). A role taken after the
  season ended does not count (the current secretary is refused anyway); a person without
  any history record is judged by the flag as it is.
- **Open items** block nothing by themselves: incomplete evenings, Runden not given and
  evenings whose objection time still runs must be confirmed (`confirm=True`; closing
  declares those evenings final), open balances are carried.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.evenings.selectors import season_open_objections
from games.evenings.services import evenings_finalise
from league.closing.models import SeasonSignOff
from league.closing.selectors import (
    MAX_AUDITORS,
    MemberBalance,
    carry_amount,
    may_sign_off,
    season_fingerprint,
    season_member_balances,
    season_open_items,
    season_sign_offs,
    was_secretary_during,
)
from league.club.books import books_changed
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.money import round_money
from league.club.services import season_get_or_create
from league.ledger.models import LedgerEntry
from league.ledger.selectors import (
    REASON_SEASON_CLOSED,
    REASON_SEASON_REOPENED,
)

REASON_MAX_LENGTH = 100
"""The audit history keeps a change reason of at most 100 characters (simple_history)."""

CLOSED_REASON = REASON_SEASON_CLOSED


def carry_source_key(season_id: int, member_id: int) -> str:
    """The source key of both lines of a carry-over: ``carry:<closed season>:<member>``."""
    return f"carry:{season_id}:{member_id}"


# --------------------------------------------------------------------------- reading


# --------------------------------------------------------------------------- writing


def _locked(season: Season) -> Season:
    return Season.objects.select_for_update().select_related("club").get(pk=season.pk)


def _next_season_open(season: Season, *, create: bool) -> Season | None:
    """The next season (created when `create` and missing); refused when it is closed."""
    if create:
        following: Season | None = season_get_or_create(club=season.club, year=season.year + 1)
    else:
        following = Season.objects.filter(club_id=season.club_id, year=season.year + 1).first()
    if following is not None and following.closed_at is not None:
        raise BooksError(
            "next_season_closed",
            _("The season %(year)s is closed: reopen it first.") % {"year": following.year},
            status=409,
        )
    return following


def _carry_booked_on(season: Season) -> datetime.date:
    """The day a carry out is booked: the season's last day, or its latest line if later
    (a payment for the season received in January), so it is the statement's last line."""
    latest = LedgerEntry.objects.filter(season=season).aggregate(d=Max("booked_on"))["d"]
    return max(season.ends_on, latest) if latest else season.ends_on


def _book_carry(season: Season, balances: list[MemberBalance]) -> Season | None:
    """Book the carry-over of every open balance; returns the next season, or None when
    nothing was open."""
    open_ = [b for b in balances if b.balance != 0]
    if not open_:
        return None
    following = _next_season_open(season, create=True)
    assert following is not None
    booked_out = _carry_booked_on(season)
    lines = []
    for b in open_:
        key = carry_source_key(season.pk, b.member.pk)
        amount_in = carry_amount(
            b.balance, from_currency=season.currency, to_currency=following.currency
        )
        converted = following.currency != season.currency
        lines.append(
            LedgerEntry(
                club_id=season.club_id,
                season=season,
                member=b.member,
                kind=LedgerEntry.Kind.CARRY_OUT,
                marks=0,
                amount=-b.balance,
                currency=season.currency,
                source_key=key,
                description=str(following.year),
                booked_on=booked_out,
            )
        )
        lines.append(
            LedgerEntry(
                club_id=season.club_id,
                season=following,
                member=b.member,
                kind=LedgerEntry.Kind.CARRY_IN,
                marks=0,
                amount=amount_in,
                currency=following.currency,
                source_key=key,
                description=(
                    f"{season.year}|{round_money(b.balance)}|{season.currency}"
                    if converted
                    else str(season.year)
                ),
                booked_on=following.starts_on,
            )
        )
    for line in lines:
        line._change_reason = CLOSED_REASON  # type: ignore[attr-defined]
        line.save()
    return following


@transaction.atomic
def season_close(*, season: Season, by: Member, confirm: bool = False) -> Season:
    """Close `season`: carry every open balance into the next season
    (created when missing), then lock the books (`closed_at`, `closed_by`; audited in the
    season's history with the reason "season_closed"). Both seasons' `books_changed` run
    (reasons "season_closed" and "season_carry"), so caches, ETags and the report follow.

    Args:
        season: the season to close.
        by: the secretary who closes it (the interfaces check the role).
        confirm: close although evenings are incomplete, Runden not given or an
            evening's objection time still runs; such an evening is declared final
            (`finalised_at`, audited in its history with the reason "season_closed"):
            once the season is closed nobody may object to it any more.

    Returns the season, refreshed.

    Raises:
        BooksError: `season_already_closed` (409); `open_items` (409) when there are
            incomplete evenings, Runden not given or evenings in their objection time
            and `confirm` is false;
            `next_season_closed` (409) when a balance must be carried into a closed
            season; `objections_open` (409, whatever `confirm` says) while an objection
            to an evening of the season is not answered.
    """
    season = _locked(season)
    if season.closed_at is not None:
        raise BooksError("season_already_closed", _("The season is closed already."), status=409)
    open_objections = season_open_objections(season=season)
    if open_objections:
        raise BooksError(
            "objections_open",
            _("Objections to the evenings of %(dates)s are open: answer them first.")
            % {"dates": ", ".join(sorted({f"{o.evening.date:%d.%m.%Y}" for o in open_objections}))},
            status=409,
        )
    balances = season_member_balances(season=season)
    items = season_open_items(season=season, balances=balances)
    if not confirm and items.needs_confirmation:
        raise BooksError(
            "open_items",
            _(
                "Evenings are incomplete, Runden not given or an objection time still "
                "runs. Close the season anyway only if that is right (confirm)."
            ),
            field="confirm",
            status=409,
        )
    evenings_finalise(evening_ids=items.objection_time_ids, by=by, reason=CLOSED_REASON)
    following = _book_carry(season, balances)
    books_changed(season_id=season.pk, reason=CLOSED_REASON)
    if following is not None:
        books_changed(season_id=following.pk, reason="season_carry")
    season.refresh_from_db(fields=["data_version"])
    season.closed_at = timezone.now()
    season.closed_by = by
    season._change_reason = CLOSED_REASON  # type: ignore[attr-defined]
    season._history_user = by.user  # type: ignore[attr-defined]
    season.save(update_fields=["closed_at", "closed_by"])
    return season


def _reopen_reason(reason: str | None) -> str:
    """The reason of a reopening, white space folded. Raises BooksError
    `reason_required` (400) when empty, `reason_too_long` (400) past 100 characters."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise BooksError(
            "reason_required", _("Please give the reason for reopening."), field="reason"
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise BooksError(
            "reason_too_long",
            _("The reason may have at most %(max)s characters.") % {"max": REASON_MAX_LENGTH},
            field="reason",
        )
    return reason


def _reverse_carry(carried: list[LedgerEntry]) -> None:
    """Reverse each carry line in `carried`, booked today (reason "season_reopened")."""
    today = timezone.localdate()
    for entry in carried:
        reversal = LedgerEntry(
            club_id=entry.club_id,
            season_id=entry.season_id,
            member_id=entry.member_id,
            kind=LedgerEntry.Kind.REVERSAL,
            marks=0,
            amount=-entry.amount,
            currency=entry.currency,
            source_key=entry.source_key,
            description=REASON_SEASON_REOPENED,
            reverses=entry,
            booked_on=today,
        )
        reversal._change_reason = REASON_SEASON_REOPENED  # type: ignore[attr-defined]
        reversal.save()


@transaction.atomic
def season_reopen(*, season: Season, by: Member, reason: str) -> Season:
    """Reopen a closed season so its books can change again: `closed_at` is cleared (the
    season's history records it with `reason` as its change reason, and who did it), and
    the carry-over booked on close is reversed in both seasons (reason "season_reopened",
    booked today). Signatures stay; a later change of the figures breaks them.

    Args:
        season: a closed season.
        by: the secretary who reopens it (the interfaces check the role).
        reason: why, 1 to 100 characters (white space folded).

    Raises:
        BooksError: `reason_required` (400), `reason_too_long` (400), `season_not_closed`
            (409), `next_season_closed` (409) when the carry must be reversed in a closed
            season.
    """
    reason = _reopen_reason(reason)
    season = _locked(season)
    if season.closed_at is None:
        raise BooksError("season_not_closed", _("The season is not closed."), status=409)
    carried = list(
        LedgerEntry.objects.filter(
            source_key__startswith=f"carry:{season.pk}:",
            kind__in=(LedgerEntry.Kind.CARRY_OUT, LedgerEntry.Kind.CARRY_IN),
            reversed_by__isnull=True,
        ).order_by("id")
    )
    following_ids = {e.season_id for e in carried if e.season_id != season.pk}
    if following_ids:
        _next_season_open(season, create=False)
    season.closed_at = None
    season.closed_by = None
    season._change_reason = reason  # type: ignore[attr-defined]
    season._history_user = by.user  # type: ignore[attr-defined]
    season.save(update_fields=["closed_at", "closed_by"])
    _reverse_carry(carried)
    books_changed(season_id=season.pk, reason="season_reopened")
    for season_id in sorted(following_ids):
        books_changed(season_id=season_id, reason="season_carry")
    season.refresh_from_db(fields=["data_version"])
    return season


def _auditor_check(season: Season, auditor: Member) -> Member:
    """The auditor as stored (its flags, not as handed in), refused when its password was
    not set by its holder (`auditor_password_not_own`, 403) or when it was a secretary
    during `season` (`auditor_was_secretary`, 403)."""
    auditor = Member.objects.get(pk=auditor.pk)
    if not auditor.password_set_by_holder:
        raise BooksError(
            "auditor_password_not_own",
            _(
                'Your password was not set by yourself. Set a new password ("Change '
                'password", or "Forgot your password?" on the login page), then sign.'
            ),
            status=403,
        )
    if was_secretary_during(member=auditor, season=season):
        raise BooksError(
            "auditor_was_secretary",
            _(
                "You were a secretary during this season; the auditor checks the "
                "secretaries' books and cannot be one of them."
            ),
            status=403,
        )
    return auditor


@transaction.atomic
def season_sign_off(*, season: Season, auditor: Member) -> SeasonSignOff:
    """Record `auditor`'s signature on a closed season: now, the fingerprint of its
    figures (`season_fingerprint`) and its data version. Not a change of the books (no
    `books_changed`): the season stays closed and its data version stays.

    Raises:
        BooksError: `season_not_closed` (409); `auditor_not_allowed` (403, see
            `may_sign_off`; a person of another club too); `already_signed` (409) when
            the auditor's signature on the season is valid; `auditors_complete` (409)
            when two other auditors have signed validly.
    """
    season = _locked(season)
    if season.closed_at is None:
        raise BooksError(
            "season_not_closed",
            _("Only a closed season can be signed off."),
            status=409,
        )
    if auditor.club_id != season.club_id or not may_sign_off(auditor):
        raise BooksError(
            "auditor_not_allowed",
            _("Only a club member with a login who is not the secretary signs as auditor."),
            status=403,
        )
    auditor = _auditor_check(season, auditor)
    fingerprint = season_fingerprint(season=season)
    valid = [
        line for line in season_sign_offs(season=season, fingerprint=fingerprint) if line.valid
    ]
    if any(line.sign_off.auditor_id == auditor.pk for line in valid):
        raise BooksError("already_signed", _("You have signed this season already."), status=409)
    if len({line.sign_off.auditor_id for line in valid}) >= MAX_AUDITORS:
        raise BooksError(
            "auditors_complete",
            _("Two auditors have signed this season already."),
            status=409,
        )
    return SeasonSignOff.objects.create(
        club_id=season.club_id,
        season=season,
        auditor=auditor,
        signed_at=timezone.now(),
        fingerprint=fingerprint,
        data_version=season.data_version,
    )
