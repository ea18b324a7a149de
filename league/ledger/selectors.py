"""Reads of the kitty for the pages: a person's statement summarised per season (issue 15:
"long lists paginated or summarised per season: the statement defaults to the current
season with the others one request away"; RULES.md section 5).

Money is Decimal in each season's own currency (DM up to 2001, EUR from 2002): a summary
row never adds DM and EUR together, and totals over seasons are per currency.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Case, CharField, Count, F, Q, Sum, When

from league.club.caching import books_cached_many, season_part_version
from league.club.models import Club, Member, Season
from league.club.money import round_money
from league.ledger.models import LedgerEntry
from league.ledger.services import SETTLING_KINDS, BalanceRow, ClubBalances, club_balances_of

__all__ = [
    "SeasonSummary",
    "club_balances_kept",
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
    """The person's account per season (issue 15 item 4), newest first: one `SeasonSummary`
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
