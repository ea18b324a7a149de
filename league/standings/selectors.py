"""Reads of the championship (docs/rules.md section 5): a season's standings and a person's
dues in a season. A fixed number of queries, whatever the number of evenings or games.
"""

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, QuerySet

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.models import Club, Member, Season
from league.club.money import marks_to_money
from league.club.statutes import Statutes, season_statutes
from league.runden.selectors import club_runden, season_runden


@dataclass
class StandingRow:
    """One person's season. `marks` integer Marks; `money` Decimal in the season's currency.
    `place` is None for guests (not ranked)."""

    member: Member
    place: int | None = None
    evenings_attended: int = 0
    evenings_absent: int = 0
    games_played: int = 0
    games_lost: int = 0
    schock_aus: int = 0
    runden: int = 0
    marks: int = 0
    money: Decimal = Decimal("0.00")
    # Championship points under the season's statutes (seed 003: +1 per Schock-Aus, -1
    # per lost game; or by an evening's rank), set by `season_standings`.
    points: int = 0
    # The evenings (ids) the person was absent from (what each absence cost follows them).
    absent_at: list[int] = field(default_factory=list)

    @property
    def guest(self) -> bool:
        return self.member.kind == Member.Kind.GUEST


@dataclass
class SeasonStandings:
    """The ranked club members (`rows`), the guests (unranked) and the season's totals."""

    season: Season
    rows: list[StandingRow]
    guests: list[StandingRow]
    evenings: int
    games: int
    schock_aus: int
    runden: int
    marks_total: int
    money_total: Decimal
    currency: str

    @property
    def everyone(self) -> list[StandingRow]:
        return self.rows + self.guests


def rank_rows(rows: list[StandingRow]) -> list[StandingRow]:
    """Order by points (high first), then more Schock-Aus, then name; equal points share a
    place: 1, 2, 2, 4 (docs/rules.md section 5, Decision)."""
    rows.sort(key=lambda r: (-r.points, -r.schock_aus, r.member.name))
    place, previous = 0, None
    for index, row in enumerate(rows, start=1):
        if row.points != previous:
            place, previous = index, row.points
        row.place = place
    return rows


def season_standings(*, season: Season) -> SeasonStandings:
    """The championship table of a season with every figure of the books: per person
    evenings attended and absent, games played and lost, Schock-Aus, points, Runden owed,
    Marks and money; guests listed apart (not ranked); the totals. Points, absences and
    Runden follow the season's statutes (``season_statutes``): by an evening's rank, or
    an absence costing the evening's average, count evening by evening. Six queries
    (seven then).
    """
    return seasons_standings(seasons=[season])[0]


def seasons_standings(*, seasons: Sequence[Season]) -> list[SeasonStandings]:
    """`season_standings` of each of `seasons` (seasons of one club), in their order, read
    together: the same six queries (seven when a season counts evening by evening, eight
    for several seasons: their statutes for the Runden) whatever the number of seasons.
    The all-time standings build the parts of the seasons not kept in one batch
    (league/standings/all_time.py). Each season follows its own statutes."""
    if not seasons:
        return []
    ids = [s.pk for s in seasons]
    games = Game.objects.filter(evening__season__in=ids)
    games_of = _count_per_season(games, "evening__season_id", "evening_id")
    attendance = _attendance_rows(ids, games_of)
    lost = _count_per_season(games, "evening__season_id", "loser_id")
    thrown = _count_per_season(
        SchockAus.objects.filter(game__evening__season__in=ids),
        "game__evening__season_id",
        "thrower_id",
    )
    runden = _runden_per_season(seasons)
    statutes_of = {s.pk: season_statutes(s) for s in seasons}
    per_evening = [
        pk for pk, st in statutes_of.items() if st.by_rank or st.absence_depends_on_evening
    ]
    lost_at = _lost_per_evening(per_evening) if per_evening else defaultdict(Counter)
    return [
        _standings(
            season,
            statutes_of[season.pk],
            attendance.get(season.pk, ({}, {})),
            games_of[season.pk],
            lost[season.pk],
            thrown[season.pk],
            runden[season.pk],
            lost_at,
        )
        for season in seasons
    ]


def _standings(
    season: Season,
    statutes: Statutes,
    attendance: tuple[dict[int, StandingRow], dict[int, list[int]]],
    games_per_evening: Counter[int],
    lost: Counter[int],
    thrown: Counter[int],
    runden: list[dict[str, Any]],
    lost_at: dict[int, Counter[int]],
) -> SeasonStandings:
    """One season's table from the figures read for it (`seasons_standings`)."""
    rows, present = attendance
    runden_count = Counter(r["thrower_id"] for r in runden)
    absence = {
        evening_id: statutes.absence_marks(
            lost_by_members=sum(lost_at[evening_id][m] for m in members),
            present_members=len(members),
        )
        for evening_id, members in present.items()
    }
    for member_id, row in rows.items():
        row.games_lost = lost[member_id]
        row.schock_aus = thrown[member_id]
        row.runden = runden_count[member_id]
        row.marks = statutes.marks(games_lost=row.games_lost) + sum(
            absence[e] for e in row.absent_at
        )
        row.money = marks_to_money(row.marks, season.mark_value)
        if not statutes.by_rank:
            row.points = statutes.points(schock_aus=row.schock_aus, games_lost=row.games_lost)
    if statutes.by_rank:
        for evening_id, members in present.items():
            scored = statutes.evening_points(
                present_members=members, games_lost=lost_at[evening_id], schock_aus={}
            )
            for member_id, points in scored.items():
                rows[member_id].points += points
    ranked = rank_rows([r for r in rows.values() if not r.guest])
    guests = sorted((r for r in rows.values() if r.guest), key=lambda r: r.member.name)
    marks_total = sum(r.marks for r in rows.values())
    return SeasonStandings(
        season=season,
        rows=ranked,
        guests=guests,
        evenings=len(present),
        games=sum(games_per_evening.values()),
        schock_aus=sum(thrown.values()),
        runden=len(runden),
        marks_total=marks_total,
        money_total=marks_to_money(marks_total, season.mark_value),
        currency=season.currency,
    )


def _count_per(queryset: QuerySet[Any], field: str) -> Counter[int]:
    """Rows of `queryset` per value of `field`, counted in the database. One query."""
    return Counter(dict(queryset.values(field).annotate(n=Count("id")).values_list(field, "n")))


def _count_per_season(
    queryset: QuerySet[Any], season_field: str, field: str
) -> dict[int, Counter[int]]:
    """Rows of `queryset` per season (id in `season_field`) and value of `field`, counted
    in the database. One query."""
    counts: dict[int, Counter[int]] = defaultdict(Counter)
    rows = queryset.values(season_field, field).annotate(n=Count("id"))
    for season_id, value, n in rows.values_list(season_field, field, "n"):
        counts[season_id][value] = n
    return counts


def _runden_per_season(seasons: Sequence[Season]) -> dict[int, list[dict[str, Any]]]:
    """The Runden owed (`season_runden`'s rows) per season id: one query for one season,
    two for several (over the club, each evening under its season's statutes)."""
    if len(seasons) == 1:
        return defaultdict(list, {seasons[0].pk: season_runden(season=seasons[0])})
    wanted = {s.pk for s in seasons}
    per_season: dict[int, list[dict[str, Any]]] = defaultdict(list[Any])
    # The club by its id (a filter needs only the key): no query for the club itself.
    for row in club_runden(club=Club(pk=seasons[0].club_id)):
        if row["season_id"] in wanted:
            per_season[row.pop("season_id")].append(row)
    return per_season


def _lost_per_evening(season_ids: list[int]) -> dict[int, Counter[int]]:
    """Games lost per evening (id) and loser (member id) in these seasons. One query."""
    lost: dict[int, Counter[int]] = defaultdict(Counter[int])
    rows = Game.objects.filter(evening__season__in=season_ids).values("evening_id", "loser_id")
    for evening_id, loser_id, n in rows.annotate(n=Count("id")).values_list(
        "evening_id", "loser_id", "n"
    ):
        lost[evening_id][loser_id] = n
    return lost


def _attendance_rows(
    season_ids: list[int], games_of: dict[int, Counter[int]]
) -> dict[int, tuple[dict[int, StandingRow], dict[int, list[int]]]]:
    """Per season (id): a row per person on its attendance lists with evenings attended
    and absent (`absent_at`) and games played (every game of an evening attended; games
    per season and evening in `games_of`), and
    the club members present per evening with an attendance list (id -> member ids;
    guests not). Two queries."""
    attendance = Attendance.objects.filter(evening__season__in=season_ids).values_list(
        "evening__season_id", "member_id", "role", "evening_id"
    )
    people: dict[int, dict[int, list[tuple[str, int]]]] = defaultdict(lambda: defaultdict(list))
    member_ids = set()
    for season_id, member_id, role, evening_id in attendance:
        people[season_id][member_id].append((role, evening_id))
        member_ids.add(member_id)
    members = Member.objects.in_bulk(list(member_ids))
    result = {}
    for season_id, season_people in people.items():
        rows: dict[int, StandingRow] = {}
        present: dict[int, list[int]] = {}
        for member_id, items in season_people.items():
            row = rows[member_id] = StandingRow(member=members[member_id])
            for role, evening_id in items:
                present.setdefault(evening_id, [])
                if role == Attendance.Role.ABSENT:
                    row.evenings_absent += 1
                    row.absent_at.append(evening_id)
                else:
                    row.evenings_attended += 1
                    row.games_played += games_of[season_id].get(evening_id, 0)
                    if role == Attendance.Role.MEMBER:
                        present[evening_id].append(member_id)
        result[season_id] = (rows, present)
    return result


@dataclass
class DuesLine:
    """One evening of a person's dues: role, games lost, Schock-Aus, Runden, Marks, money."""

    evening: Evening
    role: str
    games_lost: int
    schock_aus: int
    runden: int
    marks: int
    money: Decimal


@dataclass
class MemberDues:
    """A person's dues in a season, evening by evening, the totals, and the Runden the
    person owes (rows of league.runden.selectors.season_runden)."""

    member: Member
    season: Season
    lines: list[DuesLine]
    runden: list[dict[str, Any]]

    @property
    def marks_total(self) -> int:
        return sum(line.marks for line in self.lines)

    @property
    def money_total(self) -> Decimal:
        return marks_to_money(self.marks_total, self.season.mark_value)


def member_dues(*, member: Member, season: Season) -> MemberDues:
    """A person's Marks evening by evening in a season (lost games; an absence as a club
    member as the season's statutes charge it, seed 003: 6 Marks), with Schock-Aus and
    Runden owed. Four queries (five when an absence costs the evening's average)."""
    statutes = season_statutes(season)
    attendances = list(
        Attendance.objects.filter(member=member, evening__season=season)
        .select_related("evening")
        .order_by("evening__date")
    )
    lost = Counter(
        Game.objects.filter(evening__season=season, loser=member).values_list(
            "evening_id", flat=True
        )
    )
    thrown = Counter(
        SchockAus.objects.filter(game__evening__season=season, thrower=member).values_list(
            "game__evening_id", flat=True
        )
    )
    owed = [r for r in season_runden(season=season) if r["thrower_id"] == member.pk]
    runden = Counter(r["evening_id"] for r in owed)
    lost_by_members, present = _evening_sizes(statutes, attendances)
    lines = []
    for a in attendances:
        if a.role == Attendance.Role.ABSENT:
            marks = statutes.absence_marks(
                lost_by_members=lost_by_members[a.evening_id],
                present_members=present[a.evening_id],
            )
        else:
            marks = statutes.marks(games_lost=lost[a.evening_id])
        lines.append(
            DuesLine(
                evening=a.evening,
                role=a.role,
                games_lost=lost[a.evening_id],
                schock_aus=thrown[a.evening_id],
                runden=runden[a.evening_id],
                marks=marks,
                money=marks_to_money(marks, season.mark_value),
            )
        )
    return MemberDues(member=member, season=season, lines=lines, runden=owed)


def _evening_sizes(
    statutes: Statutes, attendances: list[Attendance]
) -> tuple[Counter[int], Counter[int]]:
    """Games lost by the present club members, and their number, of the evenings a person
    was absent from (evening id -> n), when an absence costs the evening's average (else
    nothing is read). Two queries or none."""
    absent = [a.evening_id for a in attendances if a.role == Attendance.Role.ABSENT]
    if not statutes.absence_depends_on_evening or not absent:
        return Counter(), Counter()
    by_members = Game.objects.filter(evening_id__in=absent, loser__kind=Member.Kind.MEMBER)
    present = _count_per(
        Attendance.objects.filter(evening_id__in=absent, role=Attendance.Role.MEMBER), "evening_id"
    )
    return _count_per(by_members, "evening_id"), present
