"""Reads of the kitty (docs/rules.md section 5): a person's statement, line by line with its
running balance and summarised per season ("long lists paginated or summarised per season:
the statement defaults to the current season with the others one request away"), the
club's balances, what a person owes, the charges the records imply (`charges_implied`,
which the writers in league/ledger/services.py book) with their source keys and the reason
codes and labels of the lines, and the check that a club's ledger is what its records
imply (a restore). Nothing here writes.

Money is Decimal in each season's own currency (DM up to 2001, EUR from 2002): a summary
row never adds DM and EUR together, and totals over seasons are per currency.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Case, CharField, Count, Exists, F, OuterRef, Q, QuerySet, Sum, When
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening, Game
from league.club.caching import KeptRead
from league.club.models import Club, Member, Season
from league.club.money import format_money, marks_to_money, round_money
from league.club.reference import creditor_reference
from league.club.statutes import Statutes, season_statutes
from league.ledger.line_reasons import LineReason, line_reason
from league.ledger.models import LedgerEntry, Payment

__all__ = [
    "BalancePart",
    "BalanceRow",
    "CHARGE_KINDS",
    "Charge",
    "ClubBalances",
    "MemberStatement",
    "REASON_ATTENDANCE_CHANGED",
    "REASON_EVENING_DELETED",
    "REASON_GAME_DELETED",
    "REASON_LOSER_CHANGED",
    "REASON_MARKS_CHANGED",
    "REASON_MARK_VALUE_CHANGED",
    "REASON_PAYMENT_CANCELLED",
    "REASON_SEASON_CHANGED",
    "REASON_SEASON_CLOSED",
    "REASON_SEASON_REOPENED",
    "SETTLING_KINDS",
    "SeasonBalance",
    "SeasonStatement",
    "SeasonSummary",
    "StatementLine",
    "absence_charge",
    "absence_source_key",
    "carry_label",
    "charges_implied",
    "club_balances",
    "club_balances_kept",
    "club_balances_of",
    "club_ledger_differences",
    "game_lost_charge",
    "game_source_key",
    "member_balance",
    "member_balance_by_currency",
    "member_open_by_currency",
    "member_season_summaries",
    "member_statement",
    "member_statement_seasons",
    "reversal_reason_label",
]

_ZERO = Decimal("0.00")
_KIND = LedgerEntry.Kind


@dataclass(frozen=True)
class SeasonSummary:
    """A person's account in one season as one row of the statement's "all seasons".

    Decimal money in the season's `currency` ("DM" or "EUR"), each figure net of its
    reversals (a reversal counts with the kind of the line it takes back):
    - `carried_in`: balance carried from the season before (season close, league.closing;
      negative for a credit carried in),
    - `charged`: Marks charged for games lost and absences, in money (`marks_charged`
      integer Marks),
    - `paid`: payments received (positive),
    - `carried_out`: balance carried to the next season at its close (negative for a credit
      carried on),
    - `balance`: what stood at the season's end, `carried_in + charged - paid -
      carried_out` = the sum of the season's lines (negative: credit).
    `lines` is the number of ledger lines of the season (reversals included)."""

    season_id: int
    year: int
    currency: str
    carried_in: Decimal
    charged: Decimal
    paid: Decimal
    carried_out: Decimal
    marks_charged: int
    lines: int

    @property
    def balance(self) -> Decimal:
        return self.carried_in + self.charged - self.paid - self.carried_out


def _summaries_of(member_id: int, seasons: Sequence[Season]) -> list[SeasonSummary | None]:
    """The summary of each of `seasons` for the person (None for a season without lines),
    in one aggregate query whatever the number of seasons."""
    # The kind a line counts as: its own, or for a reversal the kind of the line it reverses.
    counted_as = Case(
        When(kind=_KIND.REVERSAL, then=F("reverses__kind")),
        default=F("kind"),
        output_field=CharField(),
    )
    rows = (
        LedgerEntry.objects.filter(member_id=member_id, season__in=[s.pk for s in seasons])
        .annotate(counted_as=counted_as)
        .values("season_id", "counted_as")
        .annotate(amount=Sum("amount"), marks=Sum("marks"), lines=Count("id"))
        .order_by()
    )
    sums: dict[int, dict[str, tuple[Decimal, int, int]]] = defaultdict(dict)
    for row in rows:
        sums[row["season_id"]][row["counted_as"]] = (
            row["amount"] or _ZERO,
            row["marks"] or 0,
            row["lines"],
        )
    summaries: list[SeasonSummary | None] = []
    for season in seasons:
        kinds = sums.get(season.pk)
        if not kinds:
            summaries.append(None)
            continue

        def money(*names: str, kinds: Mapping[str, Any] = kinds) -> Decimal:
            return round_money(sum((kinds[n][0] for n in names if n in kinds), _ZERO))

        summaries.append(
            SeasonSummary(
                season_id=season.pk,
                year=season.year,
                currency=season.currency,
                carried_in=money(_KIND.CARRY_IN),
                charged=money(_KIND.GAME_LOST, _KIND.ABSENCE),
                # Payments and carries out are negative lines: shown as positive figures.
                paid=-money(_KIND.PAYMENT),
                carried_out=-money(_KIND.CARRY_OUT),
                marks_charged=sum(
                    kinds[n][1] for n in (_KIND.GAME_LOST, _KIND.ABSENCE) if n in kinds
                ),
                lines=sum(count for _amount, _marks, count in kinds.values()),
            )
        )
    return summaries


#: A person's row of one season: that season's books alone (the call adds the person's id).
MEMBER_SEASON_SUMMARY = KeptRead("member_season_summary", depends=("season_books",))


def member_season_summaries(*, member: Member, seasons: Sequence[Season]) -> list[SeasonSummary]:
    """The person's account per season, newest first: one `SeasonSummary`
    for each of `seasons` (the club's, each with its `data_version`) in which the person
    has ledger lines.

    Each season's row is kept under that season's `data_version` (`KeptRead.cached_many`): a
    change to one season rebuilds one row, and the rows missing from the cache are read in
    one aggregate query together, so the cost of a read does not grow with the history."""
    ordered = sorted(seasons, key=lambda s: -s.year)
    found = MEMBER_SEASON_SUMMARY.cached_many(
        ordered,
        member.pk,
        build=lambda missing: _summaries_of(member.pk, [ordered[i] for i in missing]),
    )
    return [row for row in found if row is not None]


def member_balance_by_currency(summaries: Sequence[SeasonSummary]) -> dict[str, Decimal]:
    """What the person owes over the seasons of `summaries`, per currency ("DM", "EUR";
    never added together), negative for a credit: the sum of the seasons' balances (the
    statement's `balance_by_currency` and `member_open_by_currency`, without a query)."""
    totals: dict[str, Decimal] = defaultdict(lambda: _ZERO)
    for row in summaries:
        totals[row.currency] += row.balance
    return dict(sorted(totals.items()))


# A season's part of the club's balances: per person (member id, Marks charged, money
# charged, money paid), Decimal money in the season's currency, paid positive.
BalancePart = tuple[tuple[int, int, Decimal, Decimal], ...]


def _balance_parts(seasons: Sequence[Season]) -> list[BalancePart]:
    """Each season's per-person sums of charges and payments (the payment side: payments
    and carries out, and their reversals), in one aggregate query whatever the number of
    seasons."""
    payment_side = Q(kind__in=SETTLING_KINDS) | Q(
        kind=_KIND.REVERSAL, reverses__kind__in=SETTLING_KINDS
    )
    rows = (
        LedgerEntry.objects.filter(season__in=[s.pk for s in seasons])
        .values("season_id", "member_id")
        .annotate(
            marks=Sum("marks", filter=~payment_side),
            charged=Sum("amount", filter=~payment_side),
            paid=Sum("amount", filter=payment_side),
        )
        .order_by("season_id", "member_id")
    )
    parts: dict[int, list[tuple[int, int, Decimal, Decimal]]] = defaultdict(list)
    for row in rows:
        parts[row["season_id"]].append(
            (
                row["member_id"],
                row["marks"] or 0,
                round_money(row["charged"] or _ZERO),
                round_money(-(row["paid"] or _ZERO)),
            )
        )
    return [tuple(parts.get(s.pk, ())) for s in seasons]


#: A season's part of the club's balances: that season's books alone (ids and figures).
CLUB_BALANCE_PART = KeptRead("club_balance_part", depends=("season_books",))


def club_balances_kept(*, club: Club, season: Season | None = None) -> ClubBalances:
    """`league.ledger.selectors.club_balances` (who owes what, the kitty per currency; the
    same figures and order) read from per-season parts kept under each season's
    `data_version` (`KeptRead.cached_many`): after a change to one season only its part is
    summed again, so the Kasse page's first read after a change does not grow with the
    history. `season` limits the rows and season totals to one season; the kitty and owed
    totals are over every season, per currency (DM and EUR never added together).

    Queries: the seasons and the people (two), plus one aggregate for the seasons whose
    part is not kept."""
    seasons = list(Season.objects.filter(club=club))
    parts = CLUB_BALANCE_PART.cached_many(
        seasons,
        build=lambda missing: _balance_parts([seasons[i] for i in missing]),
    )
    shown = [(s, part) for s, part in zip(seasons, parts, strict=True) if part]
    people = Member.objects.in_bulk({row[0] for _s, part in shown for row in part})
    rows = (
        BalanceRow(
            member=people[member_id], season=s, marks_charged=marks, charged=charged, paid=paid
        )
        for s, part in shown
        for member_id, marks, charged, paid in part
    )
    return club_balances_of(rows, season=season)


# --- the ledger checked against the records ---------------------------------------------------


def club_ledger_differences(*, club_id: int, limit: int = 1) -> list[str]:
    """Where the club's stored ledger disagrees with what its records imply, as German
    sentences naming the line (at most `limit`, the first ones in a fixed order: payments,
    then ledger lines by number, then the charges the evenings imply by date). Empty when
    the ledger is what the books' own services would have written (docs/rules.md section 5):

    - every open charge (game lost, absence; not reversed) is exactly one charge the
      evenings' games and attendance imply under their season's statutes
      (`league.ledger.selectors.charges_implied`): the same person, Marks, season and money
      (`marks_to_money` of the season's Mark value), and every implied charge stands;
    - every reversal takes back exactly the Marks and money of the line it names, for the
      same person and season; only reversals name a line;
    - every payment has its one ledger line of the same money with the opposite sign, the
      same person, season and currency, and every payment line has its payment;
    - every line is in its season's currency.

    Carry-overs of closed seasons are checked by
    `league.closing.selectors.club_carry_differences`. Reads only;
    seven queries whatever the club's size (used by a restore, league.backup)."""
    seasons = Season.objects.filter(club_id=club_id).in_bulk()
    payments, entries = _ledger_rows(club_id)
    by_pk = {e["pk"]: e for e in entries}
    paid_by = {e["payment_id"] for e in entries if e["payment_id"] is not None}
    found = [
        _("Payment %(pk)s of %(amount)s has no ledger line.")
        % {"pk": pk, "amount": format_money(payment["amount"], payment["currency"])}
        for pk, payment in payments.items()
        if pk not in paid_by
    ]
    for entry in entries:
        found += _entry_differences(entry, by_pk, payments, seasons)
        if len(found) >= limit:
            return found[:limit]
    reversed_pks = {e["reverses_id"] for e in entries if e["reverses_id"] is not None}
    open_charges: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for entry in entries:
        if entry["kind"] in CHARGE_KINDS and entry["pk"] not in reversed_pks:
            open_charges[entry["source_key"]].append(entry)
    for key, season, charge in _charges_of_evenings(club_id, seasons):
        standing = open_charges.pop(key, [])
        found += _implied_charge_difference(key, season, charge, standing[:1])
        open_charges[key] = standing[1:]
        if len(found) >= limit:
            return found[:limit]
    for standing in open_charges.values():
        for entry in standing:
            found.append(
                _("Ledger line %(pk)s (%(key)s) charges what no game or attendance implies.")
                % {"pk": entry["pk"], "key": entry["source_key"]}
            )
    return found[:limit]


def _ledger_rows(
    club_id: int,
) -> tuple[dict[int, Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The club's payments by number and its ledger lines in their order, as values."""
    payments: dict[int, Mapping[str, Any]] = {
        p["pk"]: p
        for p in Payment.objects.filter(club_id=club_id)
        .order_by("pk")
        .values("pk", "season_id", "member_id", "amount", "currency")
    }
    entries: list[Mapping[str, Any]] = list(
        LedgerEntry.objects.filter(club_id=club_id)
        .order_by("pk")
        .values(
            "pk",
            "season_id",
            "member_id",
            "kind",
            "marks",
            "amount",
            "currency",
            "source_key",
            "reverses_id",
            "payment_id",
        )
    )
    return payments, entries


def _implied_charge_difference(
    key: str, season: Season, charge: Charge, standing: list[Mapping[str, Any]]
) -> list[str]:
    """Where the open charge line of `key` (the first of `standing`; none: missing)
    differs from the `charge` the evening implies under `season`'s Mark value."""
    amount = marks_to_money(charge.marks, season.mark_value)
    if not standing:
        return [
            _("The charge %(key)s of %(amount)s that the games and attendance imply is missing.")
            % {"key": key, "amount": format_money(amount, season.currency)}
        ]
    entry = standing[0]
    if (entry["member_id"], entry["marks"], entry["season_id"], entry["amount"]) == (
        charge.member_id,
        charge.marks,
        season.pk,
        amount,
    ):
        return []
    return [
        _(
            "Ledger line %(pk)s (%(key)s) books %(marks)s Marks, %(amount)s; the games "
            "and attendance imply %(implied_marks)s Marks, %(implied)s."
        )
        % {
            "pk": entry["pk"],
            "key": key,
            "marks": entry["marks"],
            "amount": format_money(entry["amount"], entry["currency"]),
            "implied_marks": charge.marks,
            "implied": format_money(amount, season.currency),
        }
    ]


def _entry_differences(
    entry: Mapping[str, Any],
    by_pk: dict[int, Mapping[str, Any]],
    payments: dict[int, Mapping[str, Any]],
    seasons: dict[int, Season],
) -> list[str]:
    """What is wrong with one ledger line on its own: its currency, the line it reverses,
    its payment (see `club_ledger_differences`)."""
    pk, season = entry["pk"], seasons.get(entry["season_id"])
    if season is None or entry["currency"] != season.currency:
        return [_("Ledger line %(pk)s is not in its season's currency.") % {"pk": pk}]
    is_reversal = entry["kind"] == LedgerEntry.Kind.REVERSAL
    if is_reversal != (entry["reverses_id"] is not None):
        return [_("Ledger line %(pk)s: only a reversal names a line it takes back.") % {"pk": pk}]
    if is_reversal:
        taken = by_pk.get(entry["reverses_id"])
        if taken is None or (
            entry["marks"],
            entry["amount"],
            entry["member_id"],
            entry["season_id"],
        ) != (-taken["marks"], -taken["amount"], taken["member_id"], taken["season_id"]):
            return [
                _("Reversal %(pk)s does not take back what line %(taken)s booked.")
                % {"pk": pk, "taken": entry["reverses_id"]}
            ]
    is_payment = entry["kind"] == LedgerEntry.Kind.PAYMENT
    if is_payment != (entry["payment_id"] is not None):
        return [_("Ledger line %(pk)s: a payment line needs its payment.") % {"pk": pk}]
    if is_payment:
        payment = payments.get(entry["payment_id"])
        if payment is None or (
            entry["amount"],
            entry["marks"],
            entry["member_id"],
            entry["season_id"],
            entry["currency"],
        ) != (
            -payment["amount"],
            0,
            payment["member_id"],
            payment["season_id"],
            payment["currency"],
        ):
            return [
                _("Payment %(payment)s does not match its ledger line %(pk)s.")
                % {"payment": entry["payment_id"], "pk": pk}
            ]
    return []


def _charges_of_evenings(
    club_id: int, seasons: dict[int, Season]
) -> list[tuple[str, Season, Charge]]:
    """(source key, season, charge) of every charge the club's evenings imply, evenings by
    date: `charges_implied` of each evening's games and attendance. Three queries."""
    games: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    rows = Game.objects.filter(evening__club_id=club_id).order_by("evening_id", "number")
    for evening_id, game_id, number, loser_id in rows.values_list(
        "evening_id", "pk", "number", "loser_id"
    ):
        games[evening_id].append((game_id, number, loser_id))
    roles: dict[int, dict[int, str]] = defaultdict(dict)
    attendance = Attendance.objects.filter(evening__club_id=club_id)
    for evening_id, member_id, role in attendance.values_list("evening_id", "member_id", "role"):
        roles[evening_id][member_id] = role
    statutes = {pk: season_statutes(season) for pk, season in seasons.items()}
    evenings = Evening.objects.filter(club_id=club_id).order_by("date", "pk")
    return [
        (key, seasons[season_id], charge)
        for evening_id, season_id in evenings.values_list("pk", "season_id")
        for key, charge in charges_implied(
            evening_id=evening_id,
            statutes=statutes[season_id],
            games=games[evening_id],
            roles=roles[evening_id],
        ).items()
    ]


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
    own = Payment.objects.filter(member=member)
    if season is not None:
        lines, own = lines.filter(season=season), own.filter(season=season)
    elif seasons is not None:
        ids = [s.pk for s in seasons]
        lines, own = lines.filter(season__in=ids), own.filter(season__in=ids)
    entries = list(
        lines.select_related("season", "reverses")
        .annotate(is_reversed=Exists(LedgerEntry.objects.filter(reverses=OuterRef("pk"))))
        .order_by("season__year", "booked_on", "id")
    )
    label = _entry_labeller(entries, lines, own)
    accounts: dict[int, SeasonStatement] = {}
    for e in entries:
        account = accounts.get(e.season_id)
        if account is None:
            account = accounts[e.season_id] = SeasonStatement(
                season=e.season,
                reference=creditor_reference(member_id=member.pk, season_id=e.season_id)
                if e.season.currency == "EUR"
                else "",
            )
        text, number, day = label(e)
        _statement_add(account, e, text, reversed=e.is_reversed, game_number=number, day=day)
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


def _entry_labeller(
    entries: Sequence[LedgerEntry],
    lines: QuerySet[LedgerEntry],
    own: QuerySet[Payment],
) -> Callable[[LedgerEntry], tuple[str, int | None, datetime.date | None]]:
    """The line texts of a statement's `entries`, each with the number of the game and
    the date of the evening it comes from (None: neither): reads the game numbers,
    evening dates and the person's payments (`own`) its `lines` name, each only when a
    line needs it (one query each, by a join on the lines, never by lists of ids)."""
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
        payments = {p.pk: p for p in own}
    return lambda e: (
        _entry_label(e, game_numbers, evening_dates, payments),
        game_numbers.get(e.game_id_ref or 0),
        evening_dates.get(e.evening_id_ref or 0),
    )


def _statement_add(
    account: SeasonStatement,
    e: LedgerEntry,
    label: str,
    *,
    reversed: bool,
    game_number: int | None = None,
    day: datetime.date | None = None,
) -> None:
    """Add the ledger line `e` (`reversed`: a later line reverses it) to its season's
    `account`: its sums and its line with the running balance (money, and Marks at the
    season's Mark value), and what it is made of (`line_reason`; `game_number` and `day`:
    the game and the evening's date it comes from)."""
    balance = (account.lines[-1].balance if account.lines else Decimal("0.00")) + e.amount
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
            label=label,
            marks=e.marks,
            amount=e.amount,
            balance=balance,
            balance_marks=_marks_of(balance, e.season.mark_value),
            evening_id=e.evening_id_ref,
            game_id=e.game_id_ref,
            reversed=reversed,
            payment_id=e.payment_id,
            game_number=game_number,
            evening_date=day,
            reason=line_reason(
                kind=e.kind,
                marks=e.marks,
                amount=e.amount,
                mark_value=e.season.mark_value,
                currency=e.season.currency,
                statutes=season_statutes(e.season),
                evening_date=day,
                game_number=game_number,
                reason=reversal_reason_label(e.description)
                if e.kind == LedgerEntry.Kind.REVERSAL
                else "",
            ),
        )
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


def member_open_by_currency(*, member: Member) -> dict[str, Decimal]:
    """What a person owes over every season, per currency (the home page):
    charged minus paid, Decimal money keyed "DM" / "EUR" (never added together), negative
    for a credit; one aggregate query. The statement's `balance_by_currency` of all
    seasons, without reading its lines."""
    return _balances_by_currency(member)


CHARGE_KINDS = (LedgerEntry.Kind.GAME_LOST, LedgerEntry.Kind.ABSENCE)
