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

from django.db.models import (
    Count,
    Exists,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.evenings.models import Attendance, Evening, Game, Objection, PlannedEvening, SchockAus
from league.club.access import ClubRequest
from league.club.caching import KeptRead
from league.club.errors import (
    BooksError,
)
from league.club.models import Club, Member, Season
from league.club.money import marks_to_money
from league.club.statutes import (
    CLUB_STATUTES,
    PROVISIONAL_HOURS_BOUNDS,
    Statutes,
    club_statutes,
    season_statutes,
)


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


#: An evening's books: its season's books and the club's register (the club's and the
#: people's names); the call adds the evening's id and version.
EVENING_BOOKS = KeptRead("evening_books", depends=("season_part",))


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
    return EVENING_BOOKS.cached(
        evening.pk,
        evening.version,
        season=evening.season,
        club=evening.club,
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


#: `evening_list` kept by the club's books (the call adds the season's id): the evenings
#: page and the standings page share it.
EVENING_LIST = KeptRead("evening_list", depends=("books",))


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


# --- provisional evenings and objections -----------------------------------------------


@dataclass(frozen=True)
class ProvisionalState:
    """Whether an evening's charges still stand "vorläufig" (provisional).

    `until` is the end of its objection time (aware datetime): its last game's entry (the
    evening's creation when it has none) plus the season statutes' `provisional_hours`.
    `open_objections` counts the objections not yet answered; `finalised_at` is set when
    the secretary declared it final early. It is `provisional` until it is finalised, or
    until `until` has passed with no objection open."""

    provisional: bool
    until: datetime.datetime
    open_objections: int
    finalised_at: datetime.datetime | None

    @property
    def key(self) -> tuple[bool, int]:
        """What a page keyed by this state depends on (its ETag part)."""
        return (self.provisional, self.open_objections)


def _provisional(
    *,
    hours: int,
    reference: datetime.datetime,
    open_objections: int,
    finalised_at: datetime.datetime | None,
    now: datetime.datetime,
) -> ProvisionalState:
    until = reference + datetime.timedelta(hours=hours)
    provisional = finalised_at is None and (now < until or open_objections > 0)
    return ProvisionalState(provisional, until, open_objections, finalised_at)


SEASON_PROVISIONAL_HOURS = KeptRead("season_provisional_hours", depends=("books",))


def _season_provisional_hours(club: Club) -> dict[int, int]:
    """Each season's `provisional_hours` (its statutes), kept by the club's books version
    (a change of the statutes moves it). One query when computed."""
    return SEASON_PROVISIONAL_HOURS.cached(
        club=club,
        build=lambda: {
            season.pk: season_statutes(season).provisional_hours
            for season in Season.objects.filter(club=club)
        },
    )


def _open_count() -> Count:
    return Count("objections", filter=Q(objections__status=Objection.Status.OPEN), distinct=True)


def evening_provisional_state(
    *, evening: Evening, now: datetime.datetime | None = None
) -> ProvisionalState:
    """The provisional state of `evening` at `now` (default: the current time). One query
    (the last game's entry and the open objections); the season is the evening's, read
    with it when the caller selected it."""
    figures = Evening.objects.filter(pk=evening.pk).aggregate(
        last_game=Max("games__created_at"), open=_open_count()
    )
    return _provisional(
        hours=season_statutes(evening.season).provisional_hours,
        reference=figures["last_game"] or evening.created_at,
        open_objections=figures["open"] or 0,
        finalised_at=evening.finalised_at,
        now=now or timezone.now(),
    )


#: An evening's provisional state at the current time: the club's books (the call adds
#: the evening's id), until its objection time ends.
EVENING_PROVISIONAL = KeptRead("evening_provisional", depends=("books",))


def club_evening_provisional_state(
    *, club: Club, evening_id: int, now: datetime.datetime | None = None
) -> ProvisionalState | None:
    """The provisional state of the club's evening `evening_id` at `now` (default: the
    current time), or None when the club has no such evening. One query when computed;
    at the current time it is kept by the club's books version (a game, an objection, an
    answer or an early finalising moves it) until its objection time ends
    (`KeptRead.cached_until`). The seasons' objection hours are kept by the books version."""
    if now is not None:
        return _evening_provisional_state(club, evening_id, now)

    def build() -> tuple[ProvisionalState | None, datetime.datetime | None]:
        state = _evening_provisional_state(club, evening_id, timezone.now())
        return state, _ends_by_time(state)

    return EVENING_PROVISIONAL.cached_until(evening_id, club=club, build=build)


def _ends_by_time(state: ProvisionalState | None) -> datetime.datetime | None:
    """When `state` changes by the clock alone: the end of the objection time of a
    provisional evening with no objection open; None when only a change of the books can
    change it."""
    if state is None or not state.provisional or state.open_objections:
        return None
    return state.until


def _evening_provisional_state(
    club: Club, evening_id: int, now: datetime.datetime
) -> ProvisionalState | None:
    row = (
        Evening.objects.filter(pk=evening_id, club=club)
        .annotate(last_game=Max("games__created_at"), open=_open_count())
        .values_list("season_id", "created_at", "last_game", "open", "finalised_at")
        .first()
    )
    if row is None:
        return None
    season_id, created_at, last_game, open_count, finalised_at = row
    return _provisional(
        hours=_season_provisional_hours(club).get(season_id, CLUB_STATUTES.provisional_hours),
        reference=last_game or created_at,
        open_objections=open_count,
        finalised_at=finalised_at,
        now=now,
    )


#: The club's provisional evenings at the current time: its books, until the first
#: objection time ends.
PROVISIONAL_EVENINGS = KeptRead("provisional_evenings", depends=("books",))


def club_provisional_evening_ids(
    *, club: Club, now: datetime.datetime | None = None
) -> frozenset[int]:
    """The ids of the club's evenings that are provisional at `now` (default: the current
    time), for the "vorläufig" mark of statement lines. One query when computed (the
    seasons' objection hours are kept by the books version); only evenings entered or
    played within the longest objection time the statutes allow, or with an objection
    open, are looked at (the games' entry time is indexed). At the current time the ids
    are kept by the club's books version until the first of their objection times ends
    (`KeptRead.cached_until`)."""
    if now is not None:
        return _provisional_evening_ids(club, now)[0]
    return PROVISIONAL_EVENINGS.cached_until(
        club=club, build=lambda: _provisional_evening_ids(club, timezone.now())
    )


def club_provisional_evenings_key(*, club: Club) -> tuple[int, ...]:
    """The club's provisional evenings' ids, sorted (`club_provisional_evening_ids` at the
    current time): a key part of every kept page and answer that shows them, since they
    move with the clock and with objections, not only with the books (a statement's
    "vorläufig" lines, the season close's objection time)."""
    return tuple(sorted(club_provisional_evening_ids(club=club)))


def provisional_evenings_key(request: ClubRequest, *args: Any, **kwargs: Any) -> tuple[int, ...]:
    """`club_provisional_evenings_key` of the request's club, read once per request (left
    on it as `provisional_evenings`): the ETag part (`books_page`'s extra, which passes the
    view's arguments) and the kept fragment's key of a page."""
    if not hasattr(request, "provisional_evenings"):
        request.provisional_evenings = club_provisional_evenings_key(club=request.club)
    return request.provisional_evenings


def _provisional_evening_ids(
    club: Club, now: datetime.datetime
) -> tuple[frozenset[int], datetime.datetime | None]:
    """The provisional evenings' ids at `now` and when that set changes by the clock
    alone (`_ends_by_time` of the first to end; None: only by a change of the books)."""
    states = _recent_states(club, now)
    ends = [end for state in states.values() if (end := _ends_by_time(state)) is not None]
    ids = frozenset(pk for pk, state in states.items() if state.provisional)
    return ids, min(ends, default=None)


def _recent_states(club: Club, now: datetime.datetime) -> dict[int, ProvisionalState]:
    """The state at `now` of each of the club's evenings not finalised that may be
    provisional: entered or played within the longest objection time the statutes allow,
    or with an objection open. One query (the seasons' hours are a kept read)."""
    recent = now - datetime.timedelta(hours=PROVISIONAL_HOURS_BOUNDS[1])
    played = Game.objects.filter(evening__club=club, created_at__gte=recent)
    objected = Objection.objects.filter(evening__club=club, status=Objection.Status.OPEN)
    rows = list(
        Evening.objects.filter(club=club, finalised_at__isnull=True)
        .filter(
            Q(created_at__gte=recent)
            | Q(pk__in=played.values("evening_id"))
            | Q(pk__in=objected.values("evening_id"))
        )
        .annotate(last_game=Max("games__created_at"), open=_open_count())
        .values_list("pk", "season_id", "created_at", "last_game", "open")
    )
    if not rows:
        return {}
    hours = _season_provisional_hours(club)
    return {
        pk: _provisional(
            hours=hours.get(season_id, CLUB_STATUTES.provisional_hours),
            reference=last_game or created_at,
            open_objections=open_count,
            finalised_at=None,
            now=now,
        )
        for pk, season_id, created_at, last_game, open_count in rows
    }


def evening_objections(*, evening: Evening) -> list[Objection]:
    """The evening's objections, oldest first, with who raised and who answered them.
    One query."""
    return list(
        Objection.objects.filter(evening=evening).select_related("raised_by", "answered_by")
    )


def season_open_objections(*, season: Season) -> list[Objection]:
    """The season's objections not yet answered, oldest first (with their evening). One
    query."""
    return list(
        Objection.objects.filter(evening__season=season, status=Objection.Status.OPEN)
        .select_related("evening")
        .order_by("evening__date", "created_at", "pk")
    )


def season_objection_time_evenings(
    *, season: Season, now: datetime.datetime | None = None
) -> list[tuple[int, datetime.date, datetime.datetime]]:
    """The season's evenings whose objection time still runs at `now` (default: the
    current time) with no objection open (those with one are `season_open_objections`):
    provisional and not finalised, as (evening id, date, `until`: when the time ends), by
    date. Closing the season cuts that time short (league.closing.services.season_close).
    Two queries, however many evenings and seasons (the seasons' hours are a kept read)."""
    states = _recent_states(season.club, now or timezone.now())
    running = {
        pk: state.until
        for pk, state in states.items()
        if state.provisional and not state.open_objections
    }
    if not running:
        return []
    rows = (
        Evening.objects.filter(season=season, pk__in=running)
        .order_by("date", "pk")
        .values_list("pk", "date")
    )
    return [(pk, date, running[pk]) for pk, date in rows]


# --- planned evenings (the calendar) ----------------------------------------------------

#: How far ahead the statutes' evenings are planned, in weeks.
PLANNED_WEEKS = 12
#: How far back the calendar lists the evenings played, in days.
CALENDAR_PAST_DAYS = 366


@dataclass(frozen=True)
class PlannedEveningLine:
    """A planned evening: `date`, `starts` (aware datetime, Europe/Berlin), `cancelled`;
    `regular_date` the statutes' date it stands for (None: added by the secretary),
    `plan_id` the secretary's change (`PlannedEvening`), if any. `uid` names it for a
    calendar app across moves and cancellation."""

    uid: str
    date: datetime.date
    starts: datetime.datetime
    cancelled: bool
    regular_date: datetime.date | None
    plan_id: int | None


@dataclass(frozen=True)
class PlayedEveningLine:
    """An evening played (recorded): its id, date, `starts` (aware, the statutes' time of
    its season) and the number of games entered."""

    uid: str
    evening_id: int
    date: datetime.date
    starts: datetime.datetime
    games: int


def _clock(statutes: Statutes) -> datetime.time:
    hours, minutes = statutes.evening_time.split(":")
    return datetime.time(int(hours), int(minutes))


def _at(day: datetime.date, clock: datetime.time) -> datetime.datetime:
    return datetime.datetime.combine(day, clock, tzinfo=timezone.get_default_timezone())


def _statutes_on(club: Club, seasons: list[Season], day: datetime.date) -> Statutes:
    for season in seasons:
        if season.starts_on <= day <= season.ends_on:
            return season_statutes(season)
    return club_statutes(club)


def club_planned_evenings(
    *, club: Club, today: datetime.date | None = None, weeks: int = PLANNED_WEEKS
) -> list[PlannedEveningLine]:
    """The club's evenings planned from `today` (default: the club's day) for `weeks`
    weeks, by date: one on the statutes' `evening_weekday` each week at `evening_time`
    (the statutes of the season that holds the date, else the club's), as the secretary
    moved or cancelled them, and the evenings the secretary added. A date with an evening
    recorded already is no longer planned. Cancelled ones are listed (a calendar app
    needs to hear of it). Three queries."""
    today = today or timezone.localdate()
    end = today + datetime.timedelta(weeks=weeks)
    seasons = list(Season.objects.filter(club=club, ends_on__gte=today, starts_on__lte=end))
    recorded = set(
        Evening.objects.filter(club=club, date__gte=today).values_list("date", flat=True)
    )
    rows = list(
        PlannedEvening.objects.filter(club=club).filter(
            Q(date__gte=today) | Q(regular_date__gte=today)
        )
    )
    # A statutes' date the secretary moved or cancelled is listed where it went (its
    # row's date, in the window, whatever its statutes' date), under its statutes' date's
    # uid (a calendar app keeps it as the same event); an added one under its own.
    changed = {row.regular_date for row in rows if row.regular_date is not None}
    lines: list[PlannedEveningLine] = []
    day = today
    while day < end:
        statutes = _statutes_on(club, seasons, day)
        if day.weekday() == statutes.evening_weekday and day not in changed:
            if day not in recorded:
                uid = f"schockclub-{club.pk}-planned-{day.isoformat()}"
                lines.append(
                    PlannedEveningLine(uid, day, _at(day, _clock(statutes)), False, day, None)
                )
        day += datetime.timedelta(days=1)
    for row in rows:
        if not today <= row.date < end or (row.date in recorded and not row.cancelled):
            continue
        clock = row.starts_at or _clock(_statutes_on(club, seasons, row.date))
        if row.regular_date is not None:
            uid = f"schockclub-{club.pk}-planned-{row.regular_date.isoformat()}"
        else:
            uid = f"schockclub-{club.pk}-added-{row.pk}"
        lines.append(
            PlannedEveningLine(
                uid, row.date, _at(row.date, clock), row.cancelled, row.regular_date, row.pk
            )
        )
    return sorted(lines, key=lambda line: (line.date, line.uid))


def club_played_evenings(
    *, club: Club, today: datetime.date | None = None, days: int = CALENDAR_PAST_DAYS
) -> list[PlayedEveningLine]:
    """The club's evenings recorded from `days` days before `today` (default: the club's
    day) on, oldest first, at the statutes' time of their season. One query (the seasons
    with them)."""
    today = today or timezone.localdate()
    evenings = (
        Evening.objects.filter(club=club, date__gte=today - datetime.timedelta(days=days))
        .select_related("season")
        .annotate(n_games=Count("games"))
        .order_by("date")
    )
    return [
        PlayedEveningLine(
            f"schockclub-{club.pk}-evening-{evening.pk}",
            evening.pk,
            evening.date,
            _at(evening.date, _clock(season_statutes(evening.season))),
            evening.n_games,
        )
        for evening in evenings
    ]
