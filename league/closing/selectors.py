"""Reads of a season's close (docs/rules.md section 5; the Decisions are in
league/closing/services.py): each person's balance before the carry-over, the wizard's open
items, the season's figures and the fingerprint the auditors sign, the state of the
signatures and of the close, who may sign and who may see the balances, and the check that
the stored carry-overs agree with the ledger (a restore). Money is Decimal in the season's
currency; DM -> EUR converts at 1.95583 (`carry_amount`). Nothing here writes."""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening
from games.evenings.selectors import season_objection_time_evenings
from league.closing.models import SeasonSignOff
from league.club.models import Currency, Member, Season
from league.club.money import round_money
from league.club.statutes import season_statutes
from league.ledger.models import LedgerEntry
from league.runden.models import RundeGiven
from league.runden.selectors import (
    STATUS_OPEN,
    RundeStatus,
    runden_overview,
)
from league.standings.selectors import SeasonStandings, season_standings

DM_PER_EUR = Decimal("1.95583")
"""The fixed conversion rate of the Deutsche Mark to the euro (1 EUR = 1.95583 DM)."""

MAX_AUDITORS = 2
VALID, BROKEN = "valid", "broken"
FINGERPRINT_VERSION = 1

_CARRY_OUT_SIDE = Q(kind=LedgerEntry.Kind.CARRY_OUT) | Q(
    kind=LedgerEntry.Kind.REVERSAL, reverses__kind=LedgerEntry.Kind.CARRY_OUT
)
_CARRY_IN_SIDE = Q(kind=LedgerEntry.Kind.CARRY_IN) | Q(
    kind=LedgerEntry.Kind.REVERSAL, reverses__kind=LedgerEntry.Kind.CARRY_IN
)
_CARRY_KINDS = (LedgerEntry.Kind.CARRY_OUT, LedgerEntry.Kind.CARRY_IN)
_PAYMENT_SIDE = Q(kind=LedgerEntry.Kind.PAYMENT) | Q(
    kind=LedgerEntry.Kind.REVERSAL, reverses__kind=LedgerEntry.Kind.PAYMENT
)


def carry_amount(amount: Decimal, *, from_currency: str, to_currency: str) -> Decimal:
    """`amount` of `from_currency` in `to_currency`, Decimal, rounded half up to cents.

    DM -> EUR divides by 1.95583, EUR -> DM multiplies (the fixed euro rate); the same
    currency is only rounded. Example: Decimal("12.00") DM -> Decimal("6.14") EUR.
    """
    if from_currency == to_currency:
        return round_money(amount)
    if (from_currency, to_currency) == (Currency.DM, Currency.EUR):
        return round_money(amount / DM_PER_EUR)
    if (from_currency, to_currency) == (Currency.EUR, Currency.DM):
        return round_money(amount * DM_PER_EUR)
    raise ValueError(f"no rate from {from_currency} to {to_currency}")


@dataclass(frozen=True)
class MemberBalance:
    """A person's money in a season before any carry out of it, Decimal in the season's
    currency: `charged` (charges net of reversals), `paid` (payments net of reversals),
    `carried_in` (from the season before) and `balance` = charged - paid + carried_in
    (positive: owed to the kitty; negative: a credit)."""

    member: Member
    charged: Decimal
    paid: Decimal
    carried_in: Decimal

    @property
    def balance(self) -> Decimal:
        return self.charged - self.paid + self.carried_in


def season_member_balances(*, season: Season) -> list[MemberBalance]:
    """Every person with ledger lines in `season`, by name, with the money of
    `MemberBalance`; the season's own carry-out lines (and their reversals) are left out,
    so the figures are the same whether the season is closed or not. Two queries."""
    rows = (
        LedgerEntry.objects.filter(season=season)
        .exclude(_CARRY_OUT_SIDE)
        .values("member_id")
        .annotate(
            paid=Sum("amount", filter=_PAYMENT_SIDE),
            carried=Sum("amount", filter=_CARRY_IN_SIDE),
            charged=Sum("amount", filter=~_PAYMENT_SIDE & ~_CARRY_IN_SIDE),
        )
        .order_by()
    )
    figures = {r["member_id"]: r for r in rows}
    members = Member.objects.in_bulk(list(figures))
    zero = Decimal("0")
    result = [
        MemberBalance(
            member=members[member_id],
            charged=round_money(r["charged"] or zero),
            paid=round_money(-(r["paid"] or zero)),
            carried_in=round_money(r["carried"] or zero),
        )
        for member_id, r in figures.items()
    ]
    return sorted(result, key=lambda b: b.member.name)


def club_carry_differences(*, club_id: int, limit: int = 1) -> list[str]:
    """Where the club's stored carry-overs disagree with its ledger, as German sentences
    naming the season or the source key (at most `limit`). Empty when they are what
    `season_close` and `season_reopen` write:

    - a closed season's lines add up to nothing for every person (each open balance left
      it by its carry-out line); an open season carries nothing out (a reopening reversed
      every carry-out);
    - every standing carry-out has its one standing carry-in with the same source key in a
      later season, of the same money converted by `carry_amount` (DM -> EUR at 1.95583),
      and every standing carry-in its carry-out.

    Reads only; two queries (used by a restore, league.backup)."""
    seasons = Season.objects.filter(club_id=club_id).in_bulk()
    lines = list(
        LedgerEntry.objects.filter(club_id=club_id)
        .order_by("pk")
        .values(
            "pk",
            "season_id",
            "member_id",
            "kind",
            "amount",
            "currency",
            "source_key",
            "reverses_id",
            "reverses__kind",
        )
    )
    found = _season_carry_differences(lines, seasons) + _carry_pair_differences(lines, seasons)
    return found[:limit]


def _season_carry_differences(
    lines: Sequence[Mapping[str, Any]], seasons: Mapping[int, Season]
) -> list[str]:
    """A closed season whose lines do not add up to nothing for a person, or an open
    season that carries a person's balance out."""
    zero = Decimal("0")
    totals: dict[tuple[int, int], Decimal] = defaultdict(lambda: zero)
    carried_out: dict[tuple[int, int], Decimal] = defaultdict(lambda: zero)
    for e in lines:
        person = (e["season_id"], e["member_id"])
        totals[person] += e["amount"]
        if LedgerEntry.Kind.CARRY_OUT in (e["kind"], e["reverses__kind"]):
            carried_out[person] += e["amount"]
    found: list[str] = []
    for (season_id, member_id), total in sorted(totals.items()):
        season = seasons[season_id]
        if season.closed_at is not None and total != 0:
            found.append(
                _("The closed season %(year)s does not add up to nothing for person %(member)s.")
                % {"year": season.year, "member": member_id}
            )
        elif season.closed_at is None and carried_out[(season_id, member_id)] != 0:
            found.append(
                _("The open season %(year)s carries a balance out for person %(member)s.")
                % {"year": season.year, "member": member_id}
            )
    return found


def _carry_pair_differences(
    lines: Sequence[Mapping[str, Any]], seasons: Mapping[int, Season]
) -> list[str]:
    """A standing carry-out without its one standing carry-in of the same person in a
    later season and of the same money converted (`carry_amount`), or the other way."""
    reversed_pks = {e["reverses_id"] for e in lines if e["reverses_id"] is not None}
    standing: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for e in lines:
        if e["kind"] in _CARRY_KINDS and e["pk"] not in reversed_pks:
            standing[e["source_key"]].append(e)
    found: list[str] = []
    for key, pair in standing.items():
        kinds = {e["kind"]: e for e in pair}
        out, into = kinds.get(LedgerEntry.Kind.CARRY_OUT), kinds.get(LedgerEntry.Kind.CARRY_IN)
        if (
            len(pair) != 2
            or out is None
            or into is None
            or out["member_id"] != into["member_id"]
            or seasons[into["season_id"]].year <= seasons[out["season_id"]].year
            or into["amount"]
            != carry_amount(
                -out["amount"], from_currency=out["currency"], to_currency=into["currency"]
            )
        ):
            found.append(_("The carry-over %(key)s does not match its other line.") % {"key": key})
    return found


@dataclass(frozen=True)
class IncompleteEvening:
    """An evening whose games entered differ from the games expected (five per present
    club member, the season's statutes)."""

    evening_id: int
    date: datetime.date
    games_entered: int
    games_expected: int


def season_incomplete_evenings(*, season: Season) -> list[IncompleteEvening]:
    """The season's evenings with fewer or more games than expected, oldest first. One
    query (games and present club members counted per evening)."""
    statutes = season_statutes(season)
    evenings = (
        Evening.objects.filter(season=season)
        .annotate(
            n_games=Count("games", distinct=True),
            n_members=Count(
                "attendances",
                filter=Q(attendances__role=Attendance.Role.MEMBER),
                distinct=True,
            ),
        )
        .order_by("date")
        .values_list("pk", "date", "n_games", "n_members")
    )
    result = []
    for pk, date, n_games, n_members in evenings:
        expected = statutes.games_expected(present_members=n_members)
        if n_games != expected:
            result.append(IncompleteEvening(pk, date, n_games, expected))
    return result


@dataclass(frozen=True)
class ObjectionTimeEvening:
    """An evening of the season whose objection time runs until `until` (aware datetime)
    with no objection open (games.evenings.selectors `season_objection_time_evenings`):
    its people may still object; closing the season declares it final."""

    evening_id: int
    date: datetime.date
    until: datetime.datetime


@dataclass
class OpenItems:
    """What the close wizard shows as still open: `incomplete_evenings`, `runden_open`
    (Runden owed and not given), `objection_time` (evenings whose objection time still
    runs, `ObjectionTimeEvening`: closing ends it) and `open_balances` (people whose
    balance is not zero; carried into the next season on close, so they never block)."""

    incomplete_evenings: list[IncompleteEvening]
    runden_open: list[RundeStatus]
    open_balances: list[MemberBalance]
    objection_time: list[ObjectionTimeEvening] = field(default_factory=list)

    @property
    def runden_by_evening(self) -> list[tuple[datetime.date, int, list[str]]]:
        """The Runden not given per evening, oldest first: (date, evening id, throwers'
        names in throwing order), for a short list on the page."""
        evenings: dict[int, tuple[datetime.date, int, list[str]]] = {}
        for r in self.runden_open:
            line = evenings.setdefault(r.evening_id, (r.date, r.evening_id, []))
            line[2].append(r.thrower.name)
        return sorted(evenings.values())

    @property
    def objection_time_ids(self) -> list[int]:
        """The ids of the evenings whose objection time still runs (`objection_time`)."""
        return [e.evening_id for e in self.objection_time]

    @property
    def needs_confirmation(self) -> bool:
        """Incomplete evenings, Runden not given or an objection time still running:
        closing must be confirmed."""
        return bool(self.incomplete_evenings or self.runden_open or self.objection_time)

    @property
    def open_balance_total(self) -> Decimal:
        """The open balances summed (owed minus credits), Decimal in the season's
        currency: what a person who may not see each balance reads instead."""
        return sum((b.balance for b in self.open_balances), Decimal("0"))


def season_open_items(*, season: Season, balances: list[MemberBalance] | None = None) -> OpenItems:
    """The wizard's list for `season`. About seven queries; two less
    when the season's `balances` (`season_member_balances`) are handed in."""
    if balances is None:
        balances = season_member_balances(season=season)
    return OpenItems(
        incomplete_evenings=season_incomplete_evenings(season=season),
        runden_open=runden_overview(club=season.club, season=season, status=STATUS_OPEN),
        open_balances=[b for b in balances if b.balance != 0],
        objection_time=[
            ObjectionTimeEvening(*line) for line in season_objection_time_evenings(season=season)
        ],
    )


def _cents(amount: Decimal) -> int:
    return int(round_money(amount) * 100)


def season_figures(
    *, season: Season, balances: list[MemberBalance] | None = None
) -> dict[str, Any]:
    """The figures an auditor signs, as plain JSON values (money in integer cents, people
    by id, so a rename does not break a signature):

    - ``season``: id, year, currency, Mark value;
    - ``standings``: per person (club members and guests, by id) place, evenings attended
      and absent, games played and lost, Schock-Aus, points, Runden owed, Marks, money;
    - ``totals``: evenings, games, Schock-Aus, Runden owed, Marks, money, and the ledger's
      charged, paid, carried in and balance;
    - ``balances``: per person charged, paid, carried in and balance (`MemberBalance`:
      without the season's own carry out, which close and reopen book and reverse);
    - ``runden_given``: per person the Runden given of the season's Schock-Aus.

    `balances`: the season's `season_member_balances` when read already (else read here).
    """
    standings = season_standings(season=season)
    if balances is None:
        balances = season_member_balances(season=season)
    given = (
        RundeGiven.objects.filter(schock_aus__game__evening__season=season)
        .values("schock_aus__thrower_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {
        "version": FINGERPRINT_VERSION,
        "season": {
            "id": season.pk,
            "year": season.year,
            "currency": season.currency,
            "mark_value_cents": _cents(season.mark_value),
        },
        "standings": _standings_figures(standings),
        "totals": {
            "evenings": standings.evenings,
            "games": standings.games,
            "schock_aus": standings.schock_aus,
            "runden": standings.runden,
            "marks": standings.marks_total,
            "money_cents": _cents(standings.money_total),
            **_balance_totals(balances),
        },
        "balances": sorted(
            [
                b.member.pk,
                _cents(b.charged),
                _cents(b.paid),
                _cents(b.carried_in),
                _cents(b.balance),
            ]
            for b in balances
        ),
        "runden_given": sorted([g["schock_aus__thrower_id"], g["n"]] for g in given),
    }


def _standings_figures(standings: SeasonStandings) -> list[list[int | None]]:
    """Per person (by id) of the season's standings: place, evenings attended and absent,
    games played and lost, Schock-Aus, points, Runden owed, Marks and money in cents."""
    return sorted(
        [
            r.member.pk,
            r.place,
            r.evenings_attended,
            r.evenings_absent,
            r.games_played,
            r.games_lost,
            r.schock_aus,
            r.points,
            r.runden,
            r.marks,
            _cents(r.money),
        ]
        for r in standings.everyone
    )


def _balance_totals(balances: list[MemberBalance]) -> dict[str, int]:
    """The ledger's sums of the season's balances in cents: charged, paid, carried in,
    balance."""
    return {
        "charged_cents": sum(_cents(b.charged) for b in balances),
        "paid_cents": sum(_cents(b.paid) for b in balances),
        "carried_in_cents": sum(_cents(b.carried_in) for b in balances),
        "balance_cents": sum(_cents(b.balance) for b in balances),
    }


def season_fingerprint(*, season: Season, balances: list[MemberBalance] | None = None) -> str:
    """The sha256 hex digest (64 characters) of `season_figures`, serialized as canonical
    JSON (sorted keys, no spaces). Equal figures give the same digest on any database."""
    figures = season_figures(season=season, balances=balances)
    text = json.dumps(figures, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def signature_state(*, sign_off: SeasonSignOff, fingerprint: str | None = None) -> str:
    """ "valid" while the season's figures are those signed (`fingerprint` of now equals
    the one signed), else "broken" (the books changed after the audit). Pass the current
    `fingerprint` to check several signatures of one season with one computation."""
    if fingerprint is None:
        fingerprint = season_fingerprint(season=sign_off.season)
    return VALID if sign_off.fingerprint == fingerprint else BROKEN


@dataclass
class SignOffLine:
    """A signature and its state ("valid" or "broken")."""

    sign_off: SeasonSignOff
    state: str

    @property
    def valid(self) -> bool:
        return self.state == VALID


@dataclass(frozen=True)
class CloseEvent:
    """A close or reopen of a season from its audit history: when (aware), who (the
    login's username, or "" for a command), `closed` (True: closed, False: reopened) and
    the reason (a reopen's own words; "season_closed" for a close)."""

    when: datetime.datetime
    who: str
    closed: bool
    reason: str


def season_close_events(*, season: Season) -> list[CloseEvent]:
    """Every close and reopen of `season`, oldest first, read from the season's history
    records (django-simple-history): a record whose `closed_at` went from empty to set or
    back. One query."""
    records = season.history.select_related("history_user").order_by("history_date", "history_id")
    events, was_closed = [], False
    for record in records:
        closed = record.closed_at is not None
        if closed != was_closed:
            user = record.history_user
            events.append(
                CloseEvent(
                    when=record.history_date,
                    who=user.get_username() if user else "",
                    closed=closed,
                    reason=record.history_change_reason or "",
                )
            )
        was_closed = closed
    return events


@dataclass
class CloseState:
    """Everything the close wizard shows: whether and when the season was closed and by
    whom, the open items, the current fingerprint and every signature with its state."""

    season: Season
    open_items: OpenItems
    fingerprint: str
    sign_offs: list[SignOffLine] = field(default_factory=list)
    events: list[CloseEvent] = field(default_factory=list)

    @property
    def closed(self) -> bool:
        return self.season.closed_at is not None

    @property
    def valid_sign_offs(self) -> list[SignOffLine]:
        return [line for line in self.sign_offs if line.valid]


def season_sign_offs(*, season: Season, fingerprint: str | None = None) -> list[SignOffLine]:
    """The season's signatures, oldest first, each with its state (`signature_state`)."""
    if fingerprint is None:
        fingerprint = season_fingerprint(season=season)
    sign_offs = SeasonSignOff.objects.filter(season=season).select_related("auditor", "season")
    return [SignOffLine(s, signature_state(sign_off=s, fingerprint=fingerprint)) for s in sign_offs]


def season_sign_off_state(*, season: Season) -> tuple[int, ...]:
    """What names `season`'s signatures beside its data version (part of the
    key and ETag of a kept close state). A signature moves no `data_version` (it is no
    change of the books), is never changed or deleted, and is only ever added to a closed
    season (`season_sign_off` locks the season and refuses an open one), while close and
    reopen move the version: so an open season's signatures are those of its version and
    need no query, `()`. A closed season's are named by (number, highest id), one query.
    `season` must carry its `closed_at` as read with the version."""
    if season.closed_at is None:
        return ()
    row = SeasonSignOff.objects.filter(season_id=season.pk).aggregate(n=Count("id"), last=Max("id"))
    return int(row["n"] or 0), int(row["last"] or 0)


def season_close_state(*, season: Season) -> CloseState:
    """The close wizard's state of `season` (page and API)."""
    season = Season.objects.select_related("club", "closed_by").get(pk=season.pk)
    # The balances are read once for the fingerprint and the open items.
    balances = season_member_balances(season=season)
    fingerprint = season_fingerprint(season=season, balances=balances)
    return CloseState(
        season=season,
        open_items=season_open_items(season=season, balances=balances),
        fingerprint=fingerprint,
        sign_offs=season_sign_offs(season=season, fingerprint=fingerprint),
        events=season_close_events(season=season),
    )


def may_see_balances(member: Member | None, *, closed: bool, signed_by: Iterable[int] = ()) -> bool:
    """Whether `member` reads every person's balance on a season's close page and in its
    close API (otherwise the open balances' count and their total only: members and
    guests see their own money on their statement, README "Who sees which money").

    **Decision**: the secretary always (the books are theirs). A Kassenprüfer
    (`may_sign_off`) of a *closed* season, because the signature covers every balance
    (`season_figures`) and one signs only what one has checked: while fewer than
    `MAX_AUDITORS` auditors hold a valid signature (`signed_by`: their ids), or when the
    member is one of them. Once two have signed, the other members see the totals again;
    an open season shows them to no one else (it is audited after it is closed). A guest
    never signs, so never sees another person's balance."""
    if member is None:
        return False
    if member.is_secretary:
        return True
    if not closed or not may_sign_off(member):
        return False
    signers = set(signed_by)
    return member.pk in signers or len(signers) < MAX_AUDITORS


def may_sign_off(member: Member | None) -> bool:
    """Whether `member` may sign as Kassenprüfer: an active club member (not a guest) with
    a login, not a secretary (see the module's Decision)."""
    return bool(
        member is not None
        and member.user_id is not None
        and member.active
        and member.kind == Member.Kind.MEMBER
        and not member.is_secretary
    )


def was_secretary_during(*, member: Member, season: Season) -> bool:
    """Whether `member` was a secretary of the club at any moment of `season`'s dates
    (its first day 00:00 to its last day 24:00, the club's time zone), read from the
    person's audit history (see the module's Decision). One query."""
    zone = timezone.get_default_timezone()
    starts = datetime.datetime.combine(season.starts_on, datetime.time.min, tzinfo=zone)
    ends = datetime.datetime.combine(
        season.ends_on + datetime.timedelta(days=1), datetime.time.min, tzinfo=zone
    )
    records = list(
        member.history.order_by("history_date", "history_id").values_list(
            "history_date", "is_secretary"
        )
    )
    if not records:
        return member.is_secretary
    for (since, is_secretary), following in zip(records, [*records[1:], None], strict=True):
        until = following[0] if following is not None else None
        if is_secretary and since < ends and (until is None or until > starts):
            return True
    return False
