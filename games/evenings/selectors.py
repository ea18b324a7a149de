"""Reads of evenings (docs/rules.md sections 4.5 and 5): an evening's books, a season's evenings,
the people present, the season of a date, and the number and the Vorleger of the next game.

Everything here is computed from the records (attendance, games, Schock-Aus) in a fixed
number of queries, whatever the size of the evening.
"""

import datetime
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.evenings.models import Attendance, Evening, Game, SchockAus
from league.club.caching import books_cached, season_part_version
from league.club.errors import (
    BooksError,
)
from league.club.models import Club, Member, Season
from league.club.money import marks_to_money
from league.club.statutes import season_statutes


@dataclass(frozen=True)
class SchockAusLine:
    """One Schock-Aus of an evening: `ordinal` 1..n in throwing order, game number, thrower."""

    ordinal: int
    game: int
    thrower: Member
    schock_aus_id: int


@dataclass(frozen=True)
class RundeLine:
    """One Runde owed: the Schock-Aus `ordinal`, its thrower, reason first/fifth/last."""

    ordinal: int
    thrower: Member
    reason: str
    schock_aus_id: int


@dataclass
class PersonLine:
    """One person's figures for an evening. `marks` are integer Marks; `money` is in the
    season's currency (Decimal)."""

    member: Member
    role: str
    games_lost: int = 0
    schock_aus: int = 0
    marks: int = 0
    money: Decimal = Decimal("0.00")
    runden: int = 0

    @property
    def guest(self) -> bool:
        return self.role == Attendance.Role.GUEST

    @property
    def absent(self) -> bool:
        return self.role == Attendance.Role.ABSENT

    # Championship points of the evening under the season's statutes (seed 003: +1 per
    # Schock-Aus, -1 per lost game; or by the evening's rank); None for guests.
    points: int | None = None


@dataclass
class EveningBooks:
    """The books of one evening, as the sheet shows them."""

    evening: Evening
    games: list[Game]
    games_expected: int
    schock_aus: list[SchockAusLine]
    runden: list[RundeLine]
    people: list[PersonLine]
    marks_total: int
    money_total: Decimal
    currency: str
    warnings: list[str] = field(default_factory=list)

    @property
    def games_entered(self) -> int:
        return len(self.games)

    @property
    def present(self) -> list[Member]:
        """The people present (club members and guests), by name."""
        return [p.member for p in self.people if not p.absent]

    @property
    def last_game(self) -> Game | None:
        return self.games[-1] if self.games else None

    @property
    def names_by_role(self) -> dict[str, list[str]]:
        """The people's names per attendance role (member, guest, absent), by name."""
        return {
            role: [p.member.name for p in self.people if p.role == role]
            for role in Attendance.Role.values
        }

    @property
    def game_rows(self) -> list[dict[str, Any]]:
        """The games in number order, each with its Schock-Aus lines (ordinal, thrower):
        ``{"game": Game, "schock_aus": [SchockAusLine]}``."""
        by_game: dict[int, list[SchockAusLine]] = {}
        for line in self.schock_aus:
            by_game.setdefault(line.game, []).append(line)
        return [{"game": g, "schock_aus": by_game.get(g.number, [])} for g in self.games]


def evening_schock_aus_order(schock_aus: list[SchockAus]) -> list[SchockAus]:
    """The evening's Schock-Aus in throwing order: by game number, then position."""
    return sorted(schock_aus, key=lambda sa: (sa.game.number, sa.position))


def evening_books(*, evening: Evening) -> EveningBooks:
    """Compute an evening's books under its season's statutes (seed 003 in brackets):
    games expected (5 per present club member) and entered, Schock-Aus with ordinals,
    Runden owed with reasons, points, Marks and money per person (lost games; 6 Marks per
    absent club member), totals and warnings. Four queries; one when
    the books of the evening's season are unchanged since the last read (cached by the
    season's data version, the club's register version and the evening's version; not
    inside a transaction).
    """
    evening = Evening.objects.select_related("season", "secretary", "club").get(pk=evening.pk)
    return books_cached(
        "evening_books",
        evening.pk,
        evening.version,
        # The season's books and the club's register (the club's and the people's names).
        season_part_version(season=evening.season, club=evening.club),
        build=lambda: _evening_books(evening),
    )


def _evening_books(evening: Evening) -> EveningBooks:
    statutes = season_statutes(evening.season)
    attendances = list(evening.attendances.select_related("member").order_by("member__name"))
    games = list(evening.games.select_related("loser", "vorleger").order_by("number"))
    game_by_id = {g.pk: g for g in games}
    schock_aus = list(SchockAus.objects.filter(game__evening=evening).select_related("thrower"))
    for sa in schock_aus:
        sa.game = game_by_id[sa.game_id]
    ordered = evening_schock_aus_order(schock_aus)
    sa_lines = [
        SchockAusLine(i, sa.game.number, sa.thrower, sa.pk) for i, sa in enumerate(ordered, 1)
    ]
    runden = [
        RundeLine(r.ordinal, r.thrower, r.reason, ordered[r.ordinal - 1].pk)
        for r in statutes.runden([sa.thrower for sa in ordered])
    ]
    lost = Counter(g.loser_id for g in games)
    thrown = Counter(sa.thrower_id for sa in ordered)
    runden_count = Counter(r.thrower.pk for r in runden)
    season = evening.season
    present_members = [a.member_id for a in attendances if a.role == Attendance.Role.MEMBER]
    points = statutes.evening_points(
        present_members=present_members, games_lost=lost, schock_aus=thrown
    )
    absence = statutes.absence_marks(
        lost_by_members=sum(lost[m] for m in present_members),
        present_members=len(present_members),
    )
    people = []
    for a in attendances:
        line = PersonLine(member=a.member, role=a.role)
        if a.role != Attendance.Role.GUEST:
            line.points = points.get(a.member_id, 0)
        if a.role == Attendance.Role.ABSENT:
            line.marks = absence
        else:
            line.games_lost = lost[a.member_id]
            line.schock_aus = thrown[a.member_id]
            line.marks = statutes.marks(games_lost=line.games_lost)
            line.runden = runden_count[a.member_id]
        line.money = marks_to_money(line.marks, season.mark_value)
        people.append(line)
    games_expected = statutes.games_expected(present_members=len(present_members))
    marks_total = sum(p.marks for p in people)
    books = EveningBooks(
        evening=evening,
        games=games,
        games_expected=games_expected,
        schock_aus=sa_lines,
        runden=runden,
        people=people,
        marks_total=marks_total,
        money_total=marks_to_money(marks_total, season.mark_value),
        currency=season.currency,
    )
    books.warnings = _warnings(books)
    return books


def _warnings(books: EveningBooks) -> list[str]:
    warnings = []
    entered, expected = books.games_entered, books.games_expected
    if entered < expected:
        warnings.append(
            ngettext(
                "%(missing)s of %(expected)s games is missing.",
                "%(missing)s of %(expected)s games are missing.",
                expected - entered,
            )
            % {"missing": expected - entered, "expected": expected}
        )
    elif entered > expected:
        warnings.append(
            _(
                "%(entered)s games entered, but only %(expected)s are played (five per present "
                "club member)."
            )
            % {"entered": entered, "expected": expected}
        )
    numbers = [g.number for g in books.games]
    gaps = sorted(set(range(1, max(numbers, default=0) + 1)) - set(numbers))
    if gaps:
        warnings.append(
            _("Game numbers missing: %(numbers)s.") % {"numbers": ", ".join(map(str, gaps))}
        )
    by_number = {g.number: g for g in books.games}
    for game in books.games:
        previous = by_number.get(game.number - 1)
        if previous and game.vorleger_id and game.vorleger_id != previous.loser_id:
            warnings.append(
                _(
                    "Game %(number)s: Vorleger %(vorleger)s, but game %(previous)s was lost by "
                    "%(loser)s."
                )
                % {
                    "number": game.number,
                    "vorleger": game.vorleger,
                    "previous": previous.number,
                    "loser": previous.loser,
                }
            )
    return warnings


def _count_of(queryset: QuerySet[Any], field: str = "evening_id") -> Coalesce:
    """A correlated subquery: the rows of `queryset` whose `field` is the outer evening."""
    counted = (
        queryset.filter(**{field: OuterRef("pk")})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def evening_list(*, season: Season) -> list[dict[str, Any]]:
    """The season's evenings, newest first, with counts: games, Schock-Aus, present people.
    One query (a counting subquery per figure instead of a join of games and attendance)."""
    evenings = Evening.objects.filter(season=season).annotate(
        n_games=_count_of(Game.objects.all()),
        n_present=_count_of(Attendance.objects.exclude(role=Attendance.Role.ABSENT)),
        n_schock_aus=_count_of(SchockAus.objects.all(), "game__evening_id"),
    )
    return [
        {"evening": e, "games": e.n_games, "present": e.n_present, "schock_aus": e.n_schock_aus}
        for e in evenings.order_by("-date")
    ]


def present_people(*, evening: Evening) -> list[Member]:
    """The people present at an evening (club members and guests), by name. One query."""
    return [
        a.member
        for a in evening.attendances.exclude(role=Attendance.Role.ABSENT)
        .select_related("member")
        .order_by("member__name")
    ]


def next_game_number(*, evening: Evening) -> int:
    """The number the evening's next game gets: one above its highest, 1 for the first.
    The one place that counts it (entry page, round entry, services)."""
    last = evening.games.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def club_seasons_played(*, club: Club) -> list[Season]:
    """The club's seasons with at least one game entered, newest first (one query): where
    a page of figures opens when the newest season is still empty.

    An EXISTS per season, not a join of every game with DISTINCT: at 48 seasons (47,700
    games) the join took about half a second on PostgreSQL, the EXISTS stops at a season's
    first game."""
    has_games = Game.objects.filter(evening__season=OuterRef("pk"))
    return list(Season.objects.filter(Exists(has_games), club=club).order_by("-year"))


# --- entering an evening: who took a number, tonight's evening, the evening's target ------


def game_number_holder(*, evening: Evening, number: int) -> dict[str, object] | None:
    """The game of `evening` that has `number`, as plain JSON values for a phone whose
    queued game wanted the number: ``{"id", "number", "loser" (id), "loser_name",
    "schock_aus_names" (throwing order), "entered_by" (the name of the person, or the
    login, that recorded it; "" when unknown), "entered_at" (ISO 8601)}``; None when no
    game has it. Three queries."""
    game = evening.games.filter(number=number).select_related("loser").first()
    if game is None:
        return None
    throwers = list(game.schock_aus.order_by("position").values_list("thrower__name", flat=True))
    first = (
        game.history.filter(history_type="+")
        .select_related("history_user__member")
        .order_by("history_date")
        .first()
    )
    user = first.history_user if first is not None else None
    entered_by = ""
    if user is not None:
        member = getattr(user, "member", None)
        entered_by = member.name if member is not None else user.get_username()
    return {
        "id": game.pk,
        "number": game.number,
        "loser": game.loser_id,
        "loser_name": game.loser.name,
        "schock_aus_names": throwers,
        "entered_by": entered_by,
        "entered_at": game.created_at.isoformat(),
    }


#: Until this hour of the next morning (Europe/Berlin) an evening is still "tonight's":
#: a club night runs past midnight.
TONIGHT_UNTIL_HOUR = 6


def club_evening_tonight(*, club: Club | int, now: datetime.datetime) -> Evening | None:
    """The club's evening of tonight at the aware time `now`: the evening dated on the
    club's day (Europe/Berlin), or before `TONIGHT_UNTIL_HOUR` in the morning the one
    dated the day before; None when there is none. One query."""
    local = timezone.localtime(now)
    days = [local.date()]
    if local.hour < TONIGHT_UNTIL_HOUR:
        days.append(local.date() - datetime.timedelta(days=1))
    club_id = club if isinstance(club, int) else club.pk
    return Evening.objects.filter(club_id=club_id, date__in=days).order_by("-date").first()


def evening_on_date(*, club: Club, date: datetime.date) -> Evening | None:
    """The club's evening on `date`, or None (a club has one evening a day). One query."""
    return Evening.objects.filter(club=club, date=date).first()


def evening_target_reached(*, evening: Evening) -> tuple[bool, int]:
    """Whether the evening has its target count of games ("Abendsoll", docs/rules.md 5:
    games per present club member under the season's statutes) entered already, and that
    count. Two queries (the present members and the games counted; a third when the
    evening's season is not loaded)."""
    members = evening.attendances.filter(role=Attendance.Role.MEMBER).count()
    target = season_statutes(evening.season).games_expected(present_members=members)
    return evening.games.count() >= target, target


def season_for_date(*, club: Club, date: datetime.date) -> Season:
    """The club's season whose dates contain `date`.

    Raises BooksError `no_season` when there is none.
    """
    season = Season.objects.filter(club=club, starts_on__lte=date, ends_on__gte=date).first()
    if season is None:
        raise BooksError(
            "no_season",
            _("There is no season for %(date)s. Create the season first.")
            % {"date": date.strftime("%d.%m.%Y")},
            field="date",
        )
    return season


def next_vorleger(*, evening: Evening, number: int) -> Member:
    """The Vorleger of game `number` (docs/rules.md 4.5): the secretary opens game 1, the loser
    of the previous game opens the next (the secretary when that game is missing)."""
    if number > 1:
        previous = evening.games.filter(number=number - 1).select_related("loser").first()
        if previous is not None:
            return previous.loser
    return evening.secretary
