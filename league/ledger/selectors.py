"""Reads of the kitty for the pages: a person's statement summarised per season ("long lists
paginated or summarised per season: the statement defaults to the current
season with the others one request away"; docs/rules.md section 5).

Money is Decimal in each season's own currency (DM up to 2001, EUR from 2002): a summary
row never adds DM and EUR together, and totals over seasons are per currency.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Case, CharField, Count, F, Q, Sum, When
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening, Game
from league.club.caching import books_cached_many, season_part_version
from league.club.models import Club, Member, Season
from league.club.money import format_money, marks_to_money, round_money
from league.club.statutes import season_statutes
from league.ledger.models import LedgerEntry, Payment
from league.ledger.services import (
    CHARGE_KINDS,
    SETTLING_KINDS,
    BalanceRow,
    Charge,
    ClubBalances,
    charges_implied,
    club_balances_of,
)

__all__ = [
    "SeasonSummary",
    "club_balances_kept",
    "club_ledger_differences",
    "member_balance_by_currency",
    "member_season_summaries",
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

        def money(*names: str, kinds=kinds) -> Decimal:
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


def member_season_summaries(*, member: Member, seasons: Sequence[Season]) -> list[SeasonSummary]:
    """The person's account per season, newest first: one `SeasonSummary`
    for each of `seasons` (the club's, each with its `data_version`) in which the person
    has ledger lines.

    Each season's row is kept under that season's `data_version` (`books_cached_many`): a
    change to one season rebuilds one row, and the rows missing from the cache are read in
    one aggregate query together, so the cost of a read does not grow with the history."""
    ordered = sorted(seasons, key=lambda s: -s.year)
    parts = [("member_season_summary", member.pk, season_part_version(season=s)) for s in ordered]
    found = books_cached_many(
        parts,
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


def club_balances_kept(*, club: Club, season: Season | None = None) -> ClubBalances:
    """`league.ledger.services.club_balances` (who owes what, the kitty per currency; the
    same figures and order) read from per-season parts kept under each season's
    `data_version` (`books_cached_many`): after a change to one season only its part is
    summed again, so the Kasse page's first read after a change does not grow with the
    history. `season` limits the rows and season totals to one season; the kitty and owed
    totals are over every season, per currency (DM and EUR never added together).

    Queries: the seasons and the people (two), plus one aggregate for the seasons whose
    part is not kept."""
    seasons = list(Season.objects.filter(club=club))
    parts = books_cached_many(
        [("club_balance_part", season_part_version(season=s)) for s in seasons],
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
      (`league.ledger.services.charges_implied`): the same person, Marks, season and money
      (`marks_to_money` of the season's Mark value), and every implied charge stands;
    - every reversal takes back exactly the Marks and money of the line it names, for the
      same person and season; only reversals name a line;
    - every payment has its one ledger line of the same money with the opposite sign, the
      same person, season and currency, and every payment line has its payment;
    - every line is in its season's currency.

    Carry-overs of closed seasons are checked by `league.closing.services`. Reads only;
    seven queries whatever the club's size (used by a restore, league.backup)."""
    seasons = Season.objects.filter(club_id=club_id).in_bulk()
    found: list[str] = []
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
    by_pk = {e["pk"]: e for e in entries}
    paid_by = {e["payment_id"]: e for e in entries if e["payment_id"] is not None}
    for pk, payment in payments.items():
        if pk not in paid_by:
            found.append(
                _("Payment %(pk)s of %(amount)s has no ledger line.")
                % {"pk": pk, "amount": format_money(payment["amount"], payment["currency"])}
            )
    reversed_pks = set()
    for entry in entries:
        found += _entry_differences(entry, by_pk, payments, seasons)
        if entry["reverses_id"] is not None:
            reversed_pks.add(entry["reverses_id"])
        if len(found) >= limit:
            return found[:limit]
    open_charges: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for entry in entries:
        if entry["kind"] in CHARGE_KINDS and entry["pk"] not in reversed_pks:
            open_charges[entry["source_key"]].append(entry)
    for key, season, charge in _charges_of_evenings(club_id, seasons):
        standing = open_charges.pop(key, [])
        amount = marks_to_money(charge.marks, season.mark_value)
        if not standing:
            found.append(
                _(
                    "The charge %(key)s of %(amount)s that the games and attendance imply is "
                    "missing."
                )
                % {"key": key, "amount": format_money(amount, season.currency)}
            )
            continue
        entry, *more = standing
        if (entry["member_id"], entry["marks"], entry["season_id"], entry["amount"]) != (
            charge.member_id,
            charge.marks,
            season.pk,
            amount,
        ):
            found.append(
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
            )
        open_charges[key] = more
        if len(found) >= limit:
            return found[:limit]
    for standing in open_charges.values():
        for entry in standing:
            found.append(
                _("Ledger line %(pk)s (%(key)s) charges what no game or attendance implies.")
                % {"pk": entry["pk"], "key": entry["source_key"]}
            )
    return found[:limit]


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
