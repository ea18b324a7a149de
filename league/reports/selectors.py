"""Reads of the season report and the club's records: the books read into plain dataclasses
(`season_report_data`, `club_records`, the dues and the chronicle of a season) for the PDF
(league/reports/pdf.py), the CSV exports and the pages. Nothing here writes.

Sources: docs/rules.md section 5 (points, places, Marks, Runden).
Money is Decimal in the season's currency; Marks are integers."""

from __future__ import annotations

import datetime
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, QuerySet
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.caching import KeptRead
from league.club.models import Club, Member, Season
from league.club.money import marks_to_money, round_money
from league.club.statutes import Statutes, season_statutes
from league.ledger.selectors import (
    club_balances,
)
from league.standings.selectors import SeasonStandings, season_standings

# Text whose only break opportunities are its spaces (letters, digits, dots, apostrophes).
_UNBROKEN = re.compile(r"[\w.' ]+")


@dataclass
class DuesRow:
    """A person's dues for the season: integer `marks`, `money` owed, `paid` (sum of
    Payment rows), `open` (owed minus paid, never below zero; Decimal, season currency)."""

    member: Member
    guest: bool
    marks: int
    money: Decimal
    paid: Decimal
    open: Decimal


@dataclass
class ChronicleLine:
    """One Schock-Aus of the season: evening `date`, `game` number, `thrower`, `ordinal`
    in the evening's throwing order, `runde` reason ("first", "fifth", "last" or None)
    and the date its Runde was given (or None)."""

    date: datetime.date
    game: int
    thrower: Member
    ordinal: int
    runde: str | None
    runde_given_on: datetime.date | None = None
    evening_total: int = 0

    @property
    def runde_text(self) -> str:
        """Why this Schock-Aus owes a Runde, in words ("" when it owes none)."""
        return runde_reason_text(self.runde, self.ordinal, self.evening_total)

    @property
    def entry(self) -> SafeString:
        """The line in the chronicle, "12 Anna Becker 3." (game, thrower, ordinal), as
        HTML that never breaks across two lines of the PDF. Words are joined by no-break
        spaces rather than set in a `white-space: nowrap` span of their own: the same
        lines, and WeasyPrint lays out some 300 inline boxes fewer. A
        name with any other break opportunity (a hyphen, a slash) keeps the span."""
        text = f"{self.game} {self.thrower.name} {self.ordinal}."
        if _UNBROKEN.fullmatch(text):
            return mark_safe(escape(text).replace(" ", "\xa0"))  # escaped
        return format_html('<span class="nowrap">{}</span>', text)


@dataclass
class ChronicleDay:
    """One evening of the compact chronicle: its `date`, how many Schock-Aus were thrown
    (`count`), who threw them (`throwers`: (name, count), most first, then by name) and
    the Runden they owe (`runden`: (name, ordinal, reason text), in throwing order;
    docs/rules.md 5)."""

    date: datetime.date
    count: int
    throwers: list[tuple[str, int]]
    runden: list[tuple[str, int, str]]


def chronicle_days(chronicle: list[ChronicleLine]) -> list[ChronicleDay]:
    """The chronicle evening by evening, compact: the Schock-Aus counted per thrower and
    the Runden owed (`ChronicleDay`), in date order. No query."""
    days: list[ChronicleDay] = []
    by_date: dict[datetime.date, list[ChronicleLine]] = defaultdict(list)
    for line in chronicle:
        by_date[line.date].append(line)
    for date in sorted(by_date):
        lines = by_date[date]
        counts = Counter(line.thrower.name for line in lines)
        days.append(
            ChronicleDay(
                date=date,
                count=len(lines),
                throwers=sorted(counts.items(), key=lambda item: (-item[1], item[0])),
                runden=[
                    (line.thrower.name, line.ordinal, line.runde_text)
                    for line in lines
                    if line.runde
                ],
            )
        )
    return days


@dataclass
class EveningLine:
    """One evening of the season: date, who came (members, guests, absent members),
    games played, Schock-Aus, Runden owed, Marks and money paid into the kitty."""

    evening: Evening
    date: datetime.date
    members_present: int
    guests: int
    absent: int
    games: int
    schock_aus: int
    runden: int
    marks: int
    money: Decimal


@dataclass
class PointsSeries:
    """Cumulative championship points of one ranked member after each evening of the
    season (one value per evening in `SeasonReport.evening_dates`)."""

    member: Member
    points: list[int]


@dataclass
class Record:
    """An all-time record of the club: `title`, the `value` (an integer count) and who
    holds it (`holders`: readable German strings, e.g. "Anna Becker (2026)")."""

    key: str
    title: str
    value: int
    holders: list[str]
    unit: str = ""

    @property
    def signed(self) -> bool:
        """Points carry their sign; counts do not."""
        return self.key.startswith("points")


@dataclass
class Champion:
    """A season's champion(s) for the roll of honour."""

    year: int
    names: list[str]
    points: int


@dataclass
class SeasonReport:
    """Everything the season report shows. Built by `season_report_data`."""

    season: Season
    club: Club
    generated_on: datetime.date
    standings: SeasonStandings
    dues: list[DuesRow]
    marks_total: int
    money_total: Decimal
    paid_total: Decimal
    open_total: Decimal
    chronicle: list[ChronicleLine]
    evenings: list[EveningLine]
    evening_dates: list[datetime.date]
    series: list[PointsSeries]
    schock_aus_by_person: list[tuple[Member, int]]
    records: list[Record]
    champions: list[Champion]
    first_year: int | None
    charts: dict[str, str] = field(default_factory=dict)
    # The chronicle evening by evening, compact (`chronicle_days`).
    chronicle_days: list[ChronicleDay] = field(default_factory=list)
    # Charts that could not be drawn (the report says so instead of failing).
    charts_failed: list[str] = field(default_factory=list)

    @property
    def closed(self) -> bool:
        """The season is closed (`Season.closed_at`): its table is the final one
        ("Abschlusstabelle"); while it runs it is the table so far ("Zwischenstand")."""
        return self.season.closed_at is not None

    @property
    def leaders(self) -> list[Member]:
        """The member(s) in first place (a shared first place names all)."""
        return [r.member for r in self.standings.rows if r.place == 1]


def runde_reason_text(reason: str | None, ordinal: int, total: int) -> str:
    """The reason a Schock-Aus owes a Runde in words (docs/rules.md 5): the first, every fifth,
    the last; when the last is itself a fifth, its round falls to the one before it."""
    from django.utils.translation import gettext as _

    if reason == "first":
        return _("first Schock-Aus of the evening")
    if reason == "fifth":
        return _("%(ordinal)s. Schock-Aus (every fifth)") % {"ordinal": ordinal}
    if reason == "last":
        if ordinal != total:
            return _("last round, carried over (the last Schock-Aus was a fifth)")
        return _("last Schock-Aus of the evening")
    return ""


def season_payments(*, season: Season) -> dict[int, Decimal]:
    """Money paid per member id in a season (Decimal, season currency), from the kitty
    ledger (`league.ledger.selectors.club_balances`: payments less cancelled ones)."""
    balances = club_balances(club=season.club, season=season)
    return {row.member.pk: round_money(row.paid) for row in balances.rows}


def season_dues(*, season: Season, standings: SeasonStandings | None = None) -> list[DuesRow]:
    """Marks, money, paid and open per person of a season: ranked members in name order,
    then guests. Paid amounts come from `season_payments`."""
    standings = standings or season_standings(season=season)
    paid = season_payments(season=season)
    rows = []
    people = sorted(standings.rows, key=lambda r: r.member.name) + standings.guests
    for row in people:
        got = paid.get(row.member.pk, Decimal("0.00"))
        rows.append(
            DuesRow(
                member=row.member,
                guest=row.guest,
                marks=row.marks,
                money=row.money,
                paid=got,
                open=max(row.money - got, Decimal("0.00")),
            )
        )
    return rows


def season_chronicle(*, season: Season) -> list[ChronicleLine]:
    """Every Schock-Aus of the season in throwing order, evening by evening, with its
    ordinal and the Runde it owes (docs/rules.md section 5). One query."""
    statutes = season_statutes(season)
    rows = list(
        SchockAus.objects.filter(game__evening__season=season)
        .select_related("thrower", "game__evening")
        # The day its Runde was given, in the same query (a reverse select_related of a
        # ClubOneToOneField link is not possible).
        .annotate(given_on=F("runde_given__given_on"))
        .order_by("game__evening__date", "game__number", "position")
    )
    by_evening: dict[int, list[SchockAus]] = defaultdict(list)
    given: dict[int, datetime.date | None] = {}
    for row in rows:
        by_evening[row.game.evening_id].append(row)
        given[row.pk] = row.given_on
    lines = []
    for items in by_evening.values():
        reasons = {r.ordinal: r.reason for r in statutes.runden([sa.thrower_id for sa in items])}
        for ordinal, sa in enumerate(items, start=1):
            given_on = given[sa.pk] if ordinal in reasons else None
            lines.append(
                ChronicleLine(
                    date=sa.game.evening.date,
                    game=sa.game.number,
                    thrower=sa.thrower,
                    ordinal=ordinal,
                    runde=reasons.get(ordinal),
                    runde_given_on=given_on,
                    evening_total=len(items),
                )
            )
    return lines


def _season_evenings(
    season: Season, chronicle: list[ChronicleLine]
) -> tuple[list[EveningLine], list[datetime.date], dict[int, Counter[int]]]:
    """Evening lines and the per-evening points delta per member id. Three queries."""
    statutes = season_statutes(season)
    evenings = list(Evening.objects.filter(season=season).order_by("date"))
    roles: dict[int, Counter[str]] = defaultdict(Counter)
    present: dict[int, list[int]] = defaultdict(list)
    for evening_id, role, member_id in Attendance.objects.filter(
        evening__season=season
    ).values_list("evening_id", "role", "member_id"):
        roles[evening_id][role] += 1
        if role == Attendance.Role.MEMBER:
            present[evening_id].append(member_id)
    lost = list(Game.objects.filter(evening__season=season).values_list("evening_id", "loser_id"))
    games = Counter(e for e, _ in lost)
    lost_at: dict[int, Counter[int]] = defaultdict(Counter)
    for evening_id, loser_id in lost:
        lost_at[evening_id][loser_id] += 1
    by_date = {e.date: e.pk for e in evenings}
    sa_count: Counter[int] = Counter()
    runden_count: Counter[int] = Counter()
    thrown_at: dict[int, Counter[int]] = defaultdict(Counter)
    for line in chronicle:
        evening_id = by_date[line.date]
        sa_count[evening_id] += 1
        runden_count[evening_id] += line.runde is not None
        thrown_at[evening_id][line.thrower.pk] += 1
    # The points each evening adds under the season's statutes (per event or by rank).
    delta: dict[int, Counter[int]] = defaultdict(Counter)
    for e in evenings:
        scored = statutes.evening_points(
            present_members=present[e.pk], games_lost=lost_at[e.pk], schock_aus=thrown_at[e.pk]
        )
        delta[e.pk].update({m: p for m, p in scored.items() if p})
    lines = []
    for e in evenings:
        absent = roles[e.pk][Attendance.Role.ABSENT]
        marks = statutes.marks(
            games_lost=games[e.pk],
            evenings_absent=absent,
            lost_by_members=sum(lost_at[e.pk][m] for m in present[e.pk]),
            present_members=len(present[e.pk]),
        )
        lines.append(
            EveningLine(
                evening=e,
                date=e.date,
                members_present=roles[e.pk][Attendance.Role.MEMBER],
                guests=roles[e.pk][Attendance.Role.GUEST],
                absent=roles[e.pk][Attendance.Role.ABSENT],
                games=games[e.pk],
                schock_aus=sa_count[e.pk],
                runden=runden_count[e.pk],
                marks=marks,
                money=marks_to_money(marks, season.mark_value),
            )
        )
    return lines, [e.date for e in evenings], delta


def season_report_data(*, season: Season, today: datetime.date | None = None) -> SeasonReport:
    """Read everything the season report shows: standings (docs/rules.md 5, shared places),
    dues with paid/open, the Schock-Aus chronicle, the evenings, the points over the
    season per ranked member, and the club's all-time records up to this season.
    About twenty queries, whatever the size of the season.
    """
    season = Season.objects.select_related("club").get(pk=season.pk)
    standings = season_standings(season=season)
    dues = season_dues(season=season, standings=standings)
    chronicle = season_chronicle(season=season)
    evenings, dates, delta = _season_evenings(season, chronicle)
    series = []
    for row in standings.rows:
        total, points = 0, []
        for line in evenings:
            total += delta[line.evening.pk][row.member.pk]
            points.append(total)
        series.append(PointsSeries(member=row.member, points=points))
    thrown = Counter(line.thrower.pk for line in chronicle)
    people = [r.member for r in standings.rows] + [g.member for g in standings.guests]
    by_person = sorted(
        ((m, thrown[m.pk]) for m in people), key=lambda item: (-item[1], item[0].name)
    )
    records, champions, first_year = club_records_cached(club=season.club, up_to_year=season.year)
    return SeasonReport(
        season=season,
        club=season.club,
        generated_on=today or timezone.localdate(),
        standings=standings,
        dues=dues,
        marks_total=standings.marks_total,
        money_total=standings.money_total,
        paid_total=round_money(sum((d.paid for d in dues), Decimal("0"))),
        open_total=round_money(sum((d.open for d in dues), Decimal("0"))),
        chronicle=chronicle,
        chronicle_days=chronicle_days(chronicle),
        evenings=evenings,
        evening_dates=dates,
        series=series,
        schock_aus_by_person=by_person,
        records=records,
        champions=champions,
        first_year=first_year,
    )


MAX_HOLDERS = 4


def _top(counts: Mapping[Any, int], label: Callable[[Any], str]) -> tuple[int, list[str]]:
    """The highest count and the labels of everyone who reached it (ties all hold it; past
    MAX_HOLDERS the rest is summed up as "and N more")."""
    from django.utils.translation import gettext as _

    if not counts:
        return 0, []
    best = max(counts.values())
    if best <= 0:
        return 0, []
    holders = sorted(label(key) for key, n in counts.items() if n == best)
    if len(holders) > MAX_HOLDERS:
        rest = len(holders) - MAX_HOLDERS
        holders = holders[:MAX_HOLDERS] + [_("and %(n)s more") % {"n": rest}]
    return best, holders


def _longest_runs(
    present: list[tuple[int, datetime.date, int]], with_mark: set[tuple[int, int | None]]
) -> dict[int, tuple[int, datetime.date, datetime.date]]:
    """Per member id: the longest run of evenings attended in a row *without* a mark in
    `with_mark` (member_id, evening_id), with the run's first and last date."""
    best: dict[int, tuple[int, datetime.date, datetime.date]] = {}
    current: dict[int, tuple[int, datetime.date | None]] = {}
    for member_id, date, evening_id in present:
        if (member_id, evening_id) in with_mark:
            current[member_id] = (0, None)
            continue
        n, start = current.get(member_id, (0, None))
        n, start = n + 1, start or date
        current[member_id] = (n, start)
        if n > best.get(member_id, (0, None, None))[0]:
            best[member_id] = (n, start, date)
    return best


def _counts(queryset: QuerySet[Any], *fields: str) -> dict[Any, int]:
    """Rows per value of `fields`, counted in the database: {value: n} for one field,
    {(value, value, ...): n} for several. One query."""
    rows = queryset.values(*fields).annotate(n=Count("id")).values_list(*fields, "n")
    if len(fields) == 1:
        return dict(rows)
    return {tuple(row[:-1]): row[-1] for row in rows}


@dataclass
class _RecordBooks:
    """What the all-time records are counted from (club members only): each season's
    year and statutes; Schock-Aus per
    (member, season), per (member, evening date) and per evening date; games lost per
    (member, evening date) and per (member, season); the attendance lists in date order
    as (member_id, date, evening_id, season_id, role)."""

    seasons: dict[int, int]
    statutes: dict[int, Statutes]
    names: dict[int, str]
    per_season: dict[tuple[int, int], int]
    per_person_evening: dict[tuple[int, datetime.date], int]
    per_evening: dict[datetime.date, int]
    lost_evening: dict[tuple[int, datetime.date], int]
    lost_season: dict[tuple[int, int], int]
    attendance: list[tuple[int, datetime.date, int, int, str]]

    def label(self, member_id: int, when: int | datetime.date) -> str:
        """ "Anna Becker (2026)" for a season id, "Anna Becker (09.10.2026)" for a date."""
        if isinstance(when, datetime.date):
            return f"{self.names[member_id]} ({_de(when)})"
        return f"{self.names[member_id]} ({self.seasons[when]})"


def _de(d: datetime.date) -> str:
    return d.strftime("%d.%m.%Y")


def _record_books(club: Club, up_to_year: int) -> _RecordBooks:
    """The counts of `_RecordBooks` for the club's seasons up to `up_to_year`. Six
    queries: the Schock-Aus and the lost games are each counted once per (person,
    evening), and the counts per season, per date and of club members only are summed up
    from those here (each table of 48 seasons read once, not two and three times)."""
    season_rows = list(
        Season.objects.filter(club=club, year__lte=up_to_year).only("year", "statutes")
    )
    seasons = {s.pk: s.year for s in season_rows}
    season_ids = list(seasons)
    people = list(Member.objects.filter(club=club).values_list("pk", "name", "kind"))
    names = {pk: name for pk, name, _kind in people}
    members = {pk for pk, _name, kind in people if kind == Member.Kind.MEMBER}
    evenings: dict[int, tuple[datetime.date, int]] = {
        pk: (date, season_id)
        for pk, date, season_id in Evening.objects.filter(season__in=season_ids).values_list(
            "pk", "date", "season_id"
        )
    }
    thrown = _counts(
        SchockAus.objects.filter(game__evening__season__in=season_ids),
        "thrower_id",
        "game__evening_id",
    )
    lost = _counts(Game.objects.filter(evening__season__in=season_ids), "loser_id", "evening_id")
    per_season: Counter[tuple[int, int]] = Counter()
    per_person_evening: Counter[tuple[int, datetime.date]] = Counter()
    per_evening: Counter[datetime.date] = Counter()
    for (thrower, evening), n in thrown.items():
        date, season_id = evenings[evening]
        per_evening[date] += n  # guests' Schock-Aus count at the table too
        if thrower in members:
            per_season[(thrower, season_id)] += n
            per_person_evening[(thrower, date)] += n
    lost_evening: Counter[tuple[int, datetime.date]] = Counter()
    lost_season: Counter[tuple[int, int]] = Counter()
    for (loser, evening), n in lost.items():
        if loser in members:
            date, season_id = evenings[evening]
            lost_evening[(loser, date)] += n
            lost_season[(loser, season_id)] += n
    return _RecordBooks(
        seasons=seasons,
        statutes={s.pk: season_statutes(s) for s in season_rows},
        names=names,
        per_season=dict(per_season),
        per_person_evening=dict(per_person_evening),
        per_evening=dict(per_evening),
        lost_evening=dict(lost_evening),
        lost_season=dict(lost_season),
        attendance=list(
            Attendance.objects.filter(
                evening__season__in=season_ids, member__kind=Member.Kind.MEMBER
            )
            .exclude(role=Attendance.Role.GUEST)
            .order_by("evening__date")
            .values_list("member_id", "evening__date", "evening_id", "evening__season_id", "role")
        ),
    )


def _season_points(books: _RecordBooks) -> Counter[tuple[int, int]]:
    """Season points per (member, season) of every club member on the books that season
    (absent ones too: docs/rules.md 5 ranks them with what they scored, often 0)."""
    points: Counter[tuple[int, int]] = Counter()
    present: dict[tuple[int, datetime.date], list[int]] = defaultdict(list)
    for m, day, _e, season_id, role in books.attendance:
        points[(m, season_id)] += 0
        if role == Attendance.Role.MEMBER:
            present[(season_id, day)].append(m)
    # Evening by evening under each season's statutes (per event or by rank).
    for (season_id, day), members in present.items():
        scored = books.statutes[season_id].evening_points(
            present_members=members,
            games_lost={m: books.lost_evening.get((m, day), 0) for m in members},
            schock_aus={m: books.per_person_evening.get((m, day), 0) for m in members},
        )
        for m, p in scored.items():
            points[(m, season_id)] += p
    return points


def _count_records(books: _RecordBooks) -> list[Record]:
    """The records that are the highest of a count: Schock-Aus in a season, by one person
    in an evening, at the table in an evening; games lost in an evening."""
    from django.utils.translation import gettext as _

    def person(key: tuple[int, Any]) -> str:
        return books.label(*key)

    wanted: list[tuple[str, str, Mapping[Any, int], Callable[[Any], str]]] = [
        ("schock_aus_season", _("Most Schock-Aus in a season"), books.per_season, person),
        (
            "schock_aus_evening",
            _("Most Schock-Aus by one person in an evening"),
            books.per_person_evening,
            person,
        ),
        (
            "schock_aus_table",
            _("Most Schock-Aus at the table in an evening"),
            books.per_evening,
            _de,
        ),
        ("lost_evening", _("Most games lost in an evening"), books.lost_evening, person),
    ]
    records = []
    for key, title, counts, label in wanted:
        value, holders = _top(counts, label)
        if value:
            records.append(Record(key, title, value, holders))
    return records


def _points_record(books: _RecordBooks, points: Counter[tuple[int, int]]) -> list[Record]:
    """The best points in a season. Points are mostly negative (every game has a loser,
    few have a Schock-Aus), so the best season is shown whatever its sign."""
    from django.utils.translation import gettext as _

    if not points:
        return []
    best = max(points.values())
    holders = sorted(books.label(m, s) for (m, s), p in points.items() if p == best)
    if len(holders) > MAX_HOLDERS:
        extra = len(holders) - MAX_HOLDERS
        holders = holders[:MAX_HOLDERS] + [_("and %(n)s more") % {"n": extra}]
    return [Record("points_season", _("Best points in a season"), best, holders)]


def _run_records(books: _RecordBooks) -> list[Record]:
    """The longest runs of evenings attended in a row without a lost game, and with a
    Schock-Aus."""
    from django.utils.translation import gettext as _

    present = [
        (m, d, e) for m, d, e, _s, role in books.attendance if role == Attendance.Role.MEMBER
    ]
    evening_ids = {d: e for _m, d, e, _s, _r in books.attendance}
    with_loss = {(m, evening_ids.get(d)) for (m, d) in books.lost_evening}
    with_sa = {(m, evening_ids.get(d)) for (m, d) in books.per_person_evening}
    # A run of evenings *with* a Schock-Aus: mark the evenings without one.
    attended: set[tuple[int, int | None]] = {(m, e) for m, _d, e in present}
    records = []
    for key, title, marks in (
        ("run_no_loss", _("Longest run of evenings without a lost game"), with_loss),
        ("run_schock_aus", _("Longest run of evenings with a Schock-Aus"), attended - with_sa),
    ):
        runs = _longest_runs(present, marks)
        counts = {m: n for m, (n, _s, _e) in runs.items()}
        value, holders = _top(counts, _run_label(books.names, runs))
        if value:
            records.append(Record(key, title, value, holders, _("evenings")))
    return records


def _run_label(
    names: dict[int, str], runs: dict[int, tuple[int, datetime.date, datetime.date]]
) -> Callable[[int], str]:
    """Labels a member's run: "Anna Becker (09.10.2026 – 16.10.2026)"."""

    def label(member_id: int) -> str:
        _n, first, last = runs[member_id]
        return f"{names[member_id]} ({_de(first)} – {_de(last)})"

    return label


def _champions(books: _RecordBooks, points: Counter[tuple[int, int]]) -> list[Champion]:
    """The roll of honour: every season's leader(s), newest season first."""
    by_season: dict[int, dict[int, int]] = defaultdict(dict)
    for (m, s), p in points.items():
        by_season[s][m] = p
    champions = []
    for season_id, table in by_season.items():
        best = max(table.values())
        leaders = [m for m, p in table.items() if p == best]
        # docs/rules.md 5: equal points share the place; listed by more Schock-Aus, then name.
        leaders.sort(key=lambda m: (-books.per_season.get((m, season_id), 0), books.names[m]))
        champions.append(
            Champion(books.seasons[season_id], [books.names[m] for m in leaders], best)
        )
    champions.sort(key=lambda c: c.year, reverse=True)
    return champions


def club_records(*, club: Club, up_to_year: int) -> tuple[list[Record], list[Champion], int | None]:
    """The club's all-time records over its seasons up to and including `up_to_year`
    (club members only; guests are not ranked, docs/rules.md 5), the roll of honour (the
    champion of every season) and the year of the first season. Six queries.

    Records: most Schock-Aus in a season, by one person in an evening, by the whole table
    in an evening, most games lost in an evening, best points in a season, longest run of
    evenings without a lost game, longest run of evenings with a Schock-Aus.
    """
    books = _record_books(club, up_to_year)
    points = _season_points(books)
    records = _count_records(books) + _points_record(books, points) + _run_records(books)
    first_year = min(books.seasons.values()) if books.seasons else None
    return records, _champions(books, points), first_year


#: The club's all-time records up to a year: the club and its books (the call adds the
#: year), read by the club's id (`club` may have been read before the last change).
CLUB_RECORDS = KeptRead("club-records", depends=("club", "books"))


def club_records_cached(
    *, club: Club, up_to_year: int
) -> tuple[list[Record], list[Champion], int | None]:
    """`club_records`, kept in the books cache while the club's books version stays the
    same (`league.club.caching.club_books_version`: any change of any season's books or of
    the register, a rename included). The all-time records read every season up to
    `up_to_year`: the one part of the report whose cost grows with the history. One query
    (the club's versions) when cached; computed and not stored inside a transaction."""
    return CLUB_RECORDS.cached(
        up_to_year,
        # Asked by id: `club` may have been read before the last change.
        club=club.pk,
        build=lambda: club_records(club=club, up_to_year=up_to_year),
    )
