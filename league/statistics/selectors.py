"""Statistics and records of a club, read in a constant number of queries.

``club_statistics(*, club, season=None)`` reads the books of one season (or of every season
of the club when ``season`` is None) with eleven queries, whatever the number of
seasons, evenings and games, and computes everything in one pass over those rows:

- per person: games taken part in, losses, loss rate, Schock-Aus, Schock-Aus expected
  (``luck`` = thrown - expected), Runden owed (docs/rules.md 5, ``Statutes.runden``) and given,
  evenings present and absent;
- streaks per person: the longest run of games without a loss, of evenings with a
  Schock-Aus, of the club's evenings present;
- records: most Schock-Aus in an evening, most losses in an evening, best season (the most
  championship points of a club member in one season, ``Statutes.evening_points``), fastest game
  (fewest rounds, games entered round by round only);
- head to head: who lost right after whom, from the Vorleger chain (the loser of a game
  opens the next one as its Vorleger, docs/rules.md 4);
- attendance by evening: present members, guests, absent members, games, Schock-Aus and
  the evening's secretary (the books have no host of an evening).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Count

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.rounds.models import Round, RoundThrow
from games.rules.odds import turn_schock_aus_probability
from games.rules.ruleset import RuleSet
from league.club.caching import KeptRead
from league.club.models import Club, Member, Season
from league.club.statutes import Statutes, season_rules, season_statutes
from league.runden.models import RundeGiven

#: How many head-to-head pairs the statistics list (the most frequent first).
HEAD_TO_HEAD_LIMIT = 10


def _decimal(value: Fraction, places: str = "0.01") -> Decimal:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(places), rounding=ROUND_HALF_UP)


@dataclass
class PersonStatistics:
    """One person's figures over the scope (a season or all seasons).

    Counts are integers; ``expected_schock_aus`` is an exact Fraction, or None when the
    club never entered a game round by round (then no turn count is known at all; see
    ``club_statistics``). ``evenings_absent`` counts only as a club member.
    """

    member_id: int
    name: str
    guest: bool
    games: int = 0
    losses: int = 0
    schock_aus: int = 0
    expected_schock_aus: Fraction | None = Fraction(0)
    runden_owed: int = 0
    runden_given: int = 0
    evenings_present: int = 0
    evenings_absent: int = 0
    longest_without_loss: int = 0
    longest_schock_aus_evenings: int = 0
    longest_present: int = 0

    @property
    def loss_rate(self) -> Decimal | None:
        """Losses per game taken part in, in percent (two places); None without games."""
        if not self.games:
            return None
        return _decimal(Fraction(self.losses * 100, self.games))

    @property
    def expected(self) -> Decimal | None:
        """Schock-Aus expected, two places (None: unknown)."""
        if self.expected_schock_aus is None:
            return None
        return _decimal(self.expected_schock_aus)

    @property
    def luck(self) -> Decimal | None:
        """Schock-Aus thrown minus expected, two places: above 0 is luck (None: unknown)."""
        if self.expected_schock_aus is None:
            return None
        return _decimal(self.schock_aus - self.expected_schock_aus)

    @property
    def attendance_rate(self) -> Decimal | None:
        """Evenings present of the evenings the person was listed at, in percent."""
        listed = self.evenings_present + self.evenings_absent
        if not listed:
            return None
        return _decimal(Fraction(self.evenings_present * 100, listed))


@dataclass(frozen=True)
class EveningRecord:
    """A person's count on one evening (most Schock-Aus, most losses)."""

    name: str
    date: date
    count: int


@dataclass(frozen=True)
class SeasonRecord:
    """The most championship points of a club member in one season."""

    name: str
    year: int
    points: int


@dataclass(frozen=True)
class GameRecord:
    """A game entered round by round and its number of rounds (the fastest game)."""

    date: date
    number: int
    rounds: int
    loser: str


@dataclass(frozen=True)
class StreakRecord:
    """The longest streak of a kind and whose it is."""

    name: str
    length: int


@dataclass(frozen=True)
class Records:
    """The records of the scope; each None when nothing counts for it. Ties: the earlier
    evening (season, game) wins, then the name."""

    most_schock_aus_evening: EveningRecord | None
    most_losses_evening: EveningRecord | None
    best_season: SeasonRecord | None
    fastest_game: GameRecord | None
    longest_without_loss: StreakRecord | None
    longest_schock_aus_evenings: StreakRecord | None
    longest_present: StreakRecord | None


@dataclass(frozen=True)
class HeadToHead:
    """``loser`` lost the game right after ``after`` lost the one before (``after`` was the
    Vorleger of ``loser``'s lost game), ``count`` times."""

    after: str
    loser: str
    count: int


@dataclass(frozen=True)
class EveningAttendance:
    """One evening: who came, how much was played."""

    evening_id: int
    date: date
    secretary: str
    members_present: int
    guests: int
    members_absent: int
    games: int
    schock_aus: int


@dataclass
class Statistics:
    """Everything ``club_statistics`` computes for one scope. ``season`` None: all-time."""

    club: Club
    season: Season | None
    seasons: int
    evenings: int
    games: int
    games_with_rounds: int
    schock_aus: int
    people: list[PersonStatistics]
    records: Records
    head_to_head: list[HeadToHead]
    attendance: list[EveningAttendance] = field(default_factory=list)


def _longest(flags: Iterable[bool]) -> int:
    best = run = 0
    for flag in flags:
        if flag:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


def _turn_expectations(
    throws: Sequence[Mapping[str, Any]], rules_of_game: dict[int, RuleSet]
) -> dict[tuple[int, int], Fraction]:
    """Exact Schock-Aus expected per (game, player) from entered turns: each turn's
    probability under its game's rules, its cap (3 for the round's Vorleger at position 1,
    the Vorleger's attempts for the others) and whether the Muss-Regel applied (as the
    games.rounds statistics count them)."""
    out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    cap = 3
    for t in throws:
        rules = rules_of_game[t["round__game_id"]]
        if t["position"] == 1:
            cap = t["attempts"]
            this_cap = rules.max_attempts
        else:
            this_cap = cap
        out[(t["round__game_id"], t["player_id"])] += turn_schock_aus_probability(
            rules, muss_regel=t["muss_regel"], max_attempts=this_cap
        )
    return out


def club_statistics(*, club: Club, season: Season | None = None) -> Statistics:
    """Statistics and records of ``club``'s ``season`` (None: all seasons).

    Who took part in a game: for a game entered round by round, whoever threw in it; for a
    game entered short, every person present at its evening (members and guests).

    **Decision (luck)**: the Schock-Aus a person is expected to throw in a game they took part
    in is the exact probability of a Schock-Aus per turn (``games.rules.odds
    .turn_schock_aus_probability`` under the season's rules, the plain strategy) summed over
    the person's turns in that game. For games entered round by round the turns are known:
    each entered turn counts with its own cap and Muss-Regel. For games entered short they
    are not, so the person's turns are taken as the mean turns per person and game over all
    the club's games entered round by round (every season), each with the full cap and no
    Muss-Regel. A club that never entered a game round by round has no expectation for
    short games: ``expected_schock_aus`` is then None for people with short games.

    Streaks run in the order of evenings (date) and games (number): games without a loss
    over the games a person took part in; evenings with a Schock-Aus over the evenings the
    person was present; evenings present over all the scope's evenings of the club (an
    evening the person was not listed at, or absent, ends the run). Runden owed follow the
    statutes (docs/rules.md 5) per evening; given counts the Runden recorded as given.

    **Per-season aggregates**: every figure is computed per season first
    (``SeasonPart``: counts, the run lengths of each streak at its start, its end and its
    longest, each record's best rows, the head-to-head counts) and kept in the cache under
    the season's ``data_version`` and stored rules and statutes; the scope's figures are
    those parts combined (``_combine``). An all-time read therefore reads one small part
    per season, and a change to one season recomputes only that season's part; the mean
    turns per game (the luck decision above) is kept per state of all seasons' versions.

    People: everyone with an attendance in the scope, by name. Eleven queries when nothing
    is cached (inside a transaction nothing is: league/club/caching.py), constant; four
    when every part is cached.
    """
    all_seasons = list(Season.objects.filter(club=club).order_by("year"))  # 1
    scope = [s for s in all_seasons if season is None or s.pk == season.pk]
    members = {
        pk: (name, kind)
        for pk, name, kind in Member.objects.filter(club=club).values_list("id", "name", "kind")
    }  # 2
    parts = STATISTICS_PART.cached_many(
        scope,
        club=club,
        build=lambda missing: _season_parts([scope[i] for i in missing], members),
    )  # 3-9 for the seasons whose part is not cached
    turns, pairs = STATISTICS_MEAN_TURNS.cached(club=club, build=lambda: _club_turns(club))  # 10-11
    return _combine(
        club=club,
        season=season,
        seasons=scope,
        parts=parts,
        mean_turns=Fraction(turns, pairs) if pairs else None,
        members=members,
    )


#: What a season's part depends on: its books (``data_version``), the club's register
#: (the names it shows; "season_part") and the rules and statutes it stores.
STATISTICS_PART = KeptRead("statistics_part", depends=("season_part", "rules", "statutes"))
#: The mean turns per game of the luck decision, over every season: the club's books.
STATISTICS_MEAN_TURNS = KeptRead("statistics_mean_turns", depends=("books",))


def _club_turns(club: Club) -> tuple[int, int]:
    """(turns entered, distinct (game, player) pairs) over every game of the club entered
    round by round: the mean turns per person and game of the luck decision. Two queries."""
    club_throws = RoundThrow.objects.filter(round__game__evening__club=club)
    turns = club_throws.count()
    pairs = club_throws.values("round__game_id", "player_id").distinct().count()
    return turns, pairs


@dataclass(frozen=True)
class Run:
    """A sequence of flags summed up for the longest run of True over several sequences
    joined end to end: its length, the run at its start and at its end, its longest."""

    length: int = 0
    prefix: int = 0
    suffix: int = 0
    best: int = 0

    @classmethod
    def of(cls, flags: Sequence[bool]) -> Run:
        """The summary of `flags`."""
        prefix = next((i for i, flag in enumerate(flags) if not flag), len(flags))
        suffix = next((i for i, flag in enumerate(reversed(flags)) if not flag), len(flags))
        return cls(len(flags), prefix, suffix, _longest(flags))

    def __add__(self, other: Run) -> Run:
        """This sequence followed by `other`'s."""
        return Run(
            length=self.length + other.length,
            prefix=self.prefix if self.prefix < self.length else self.length + other.prefix,
            suffix=other.suffix if other.suffix < other.length else other.length + self.suffix,
            best=max(self.best, other.best, self.suffix + other.prefix),
        )


@dataclass
class PersonPart:
    """One person's figures in one season (see ``PersonStatistics``): counts, the exact
    Schock-Aus expected from entered turns, the games entered short (their expectation
    needs the club's mean turns, applied when the parts are combined) and the three
    streaks' runs."""

    games: int = 0
    losses: int = 0
    schock_aus: int = 0
    runden_owed: int = 0
    runden_given: int = 0
    evenings_present: int = 0
    evenings_absent: int = 0
    entered_expected: Fraction = field(default_factory=Fraction)
    short_games: int = 0
    games_run: Run = field(default_factory=Run)
    schock_aus_run: Run = field(default_factory=Run)
    presence_run: Run = field(default_factory=Run)


@dataclass
class SeasonPart:
    """A season's statistics by member id (no names: those are read when the parts are
    combined), kept per season version. Record rows keep every row that ties for the
    season's best, so the combined record breaks ties as one pass over all seasons would.

    ``schock_aus_evening`` / ``losses_evening``: (count, date, member id) of the season's
    highest count; ``season_points``: (points, member id) of the season's highest points
    (club members only); ``fastest``: (rounds, date, number, loser id) or None."""

    season_id: int
    evenings: int = 0
    games: int = 0
    games_with_rounds: int = 0
    schock_aus: int = 0
    people: dict[int, PersonPart] = field(default_factory=dict)
    schock_aus_evening: list[tuple[int, date, int]] = field(default_factory=list)
    losses_evening: list[tuple[int, date, int]] = field(default_factory=list)
    season_points: list[tuple[int, int]] = field(default_factory=list)
    fastest: tuple[int, date, int, int] | None = None
    pair_counts: dict[tuple[int, int], int] = field(default_factory=dict)
    attendance: list[EveningAttendance] = field(default_factory=list)


def _best_rows(rows: list[tuple[int, date, int]]) -> list[tuple[int, date, int]]:
    top = max((r[0] for r in rows), default=None)
    return [r for r in rows if r[0] == top]


Row = Mapping[str, Any]


def _grouped(rows: Iterable[Row], key: Callable[[Row], int]) -> dict[int, list[Row]]:
    """`rows` grouped by `key(row)`, each group in the rows' order."""
    groups: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return groups


@dataclass
class _SeasonRows:
    """The rows of some seasons the parts are made of, read in seven queries."""

    evenings: list[Row]
    attendances: list[Row]
    games: list[Row]
    schock_aus: list[Row]
    given: set[int]
    throws: list[Row]
    rounds_per_game: dict[int, int]


def _season_rows(seasons: Sequence[Season]) -> _SeasonRows:
    """The evenings, attendance, games, Schock-Aus, Runden given, entered throws and
    rounds per game of `seasons`: seven queries over all of them."""
    scope = {"evening__season__in": seasons}
    return _SeasonRows(
        evenings=list(
            Evening.objects.filter(season__in=seasons)
            .order_by("date")
            .values("id", "season_id", "date", "secretary__name")
        ),
        attendances=list(
            Attendance.objects.filter(**scope).values("evening_id", "member_id", "role")
        ),
        games=list(
            Game.objects.filter(**scope)
            .order_by("evening__date", "number")
            .values("id", "evening_id", "number", "loser_id", "vorleger_id", "entry_mode")
        ),
        schock_aus=list(
            SchockAus.objects.filter(game__evening__season__in=seasons)
            .order_by("game__evening__date", "game__number", "position")
            .values("id", "game_id", "thrower_id")
        ),
        given=set(
            RundeGiven.objects.filter(schock_aus__game__evening__season__in=seasons).values_list(
                "schock_aus_id", flat=True
            )
        ),
        throws=list(
            RoundThrow.objects.filter(round__game__evening__season__in=seasons)
            .order_by("round__game_id", "round__number", "position")
            .values("round__game_id", "position", "player_id", "attempts", "muss_regel")
        ),
        rounds_per_game=dict(
            Round.objects.filter(
                game__evening__season__in=seasons, kind__in=["round", "deckel_nehmen"]
            )
            .values_list("game_id")
            .annotate(n=Count("id"))
        ),
    )


def _season_parts(
    seasons: Sequence[Season], members: dict[int, tuple[str, str]]
) -> list[SeasonPart]:
    """The parts of `seasons` (in their order), from seven queries over all of them."""
    if not seasons:
        return []
    rows = _season_rows(seasons)
    evening_of = {e["id"]: e for e in rows.evenings}
    rules_of_season = {s.pk: season_rules(s) for s in seasons}
    rules_of_game = {
        g["id"]: rules_of_season[evening_of[g["evening_id"]]["season_id"]] for g in rows.games
    }
    turn_expected = _turn_expectations(rows.throws, rules_of_game)
    players_of_game: dict[int, set[int]] = defaultdict(set)
    for game_id, player_id in turn_expected:
        players_of_game[game_id].add(player_id)
    game_evening = {g["id"]: g["evening_id"] for g in rows.games}
    evenings_of = _grouped(rows.evenings, lambda e: e["season_id"])
    attendances_of = _grouped(rows.attendances, lambda a: evening_of[a["evening_id"]]["season_id"])
    club_rows = _ClubRows(
        games_of_evening=_grouped(rows.games, lambda g: g["evening_id"]),
        sa_of_evening=_grouped(rows.schock_aus, lambda sa: game_evening[sa["game_id"]]),
        given=rows.given,
        turn_expected=turn_expected,
        players_of_game=players_of_game,
        rounds_per_game=rows.rounds_per_game,
        members=members,
    )
    return [_season_part(s, evenings_of[s.pk], attendances_of[s.pk], club_rows) for s in seasons]


def _season_part(
    season: Season, evenings: Sequence[Row], attendances: Sequence[Row], rows: _ClubRows
) -> SeasonPart:
    """One pass over a season's rows (no queries)."""
    part = SeasonPart(season_id=season.pk, evenings=len(evenings))
    one = _SeasonPass(rows=rows, statutes=season_statutes(season), part=part)
    one.attend(attendances)
    for evening in evenings:
        one.evening(evening)
    return one.finish()


@dataclass
class _SeasonPass:
    """One pass over a season's rows (no queries, `_season_part`): the part, and the flags
    and rows of the runs and records it ends with."""

    rows: _ClubRows
    statutes: Statutes
    part: SeasonPart
    present_at: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    absent_at: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    # Per person, in order: game flags (not lost?), evening flags (Schock-Aus?), presence.
    game_flags: dict[int, list[bool]] = field(default_factory=lambda: defaultdict(list))
    sa_evening_flags: dict[int, list[bool]] = field(default_factory=lambda: defaultdict(list))
    presence_flags: dict[int, list[bool]] = field(default_factory=lambda: defaultdict(list))
    schock_aus_evening: list[tuple[int, date, int]] = field(default_factory=list)
    losses_evening: list[tuple[int, date, int]] = field(default_factory=list)
    season_points: Counter[int] = field(default_factory=Counter)
    pair_counts: Counter[tuple[int, int]] = field(default_factory=Counter)

    def person(self, member_id: int) -> PersonPart:
        people = self.part.people
        if member_id not in people:
            people[member_id] = PersonPart()
        return people[member_id]

    def attend(self, attendances: Iterable[Row]) -> None:
        """Who was present and who absent, evening by evening."""
        for a in attendances:
            if a["role"] == Attendance.Role.ABSENT:
                self.absent_at[a["evening_id"]].add(a["member_id"])
                self.person(a["member_id"]).evenings_absent += 1
            else:
                self.present_at[a["evening_id"]].add(a["member_id"])
                self.person(a["member_id"]).evenings_present += 1

    def evening(self, evening: Row) -> None:
        """An evening's games, Schock-Aus, points and attendance."""
        eid, day = evening["id"], evening["date"]
        present = self.present_at[eid]
        evening_games = self.rows.games_of_evening.get(eid, [])
        evening_sa = self.rows.sa_of_evening.get(eid, [])
        losses = self.games(evening_games, present, day)
        thrown = self.schock_aus(evening_sa)
        for member_id in present:
            self.sa_evening_flags[member_id].append(thrown[member_id] > 0)
        for member_id in self.part.people:
            self.presence_flags[member_id].append(member_id in present)
        self.schock_aus_evening.extend((count, day, m) for m, count in thrown.items())
        self.losses_evening.extend((count, day, m) for m, count in losses.items())
        kinds = self.rows.members
        # The evening's points under the season's statutes (per event or by rank).
        scored = self.statutes.evening_points(
            present_members=[m for m in present if kinds[m][1] == Member.Kind.MEMBER],
            games_lost=losses,
            schock_aus=thrown,
        )
        self.season_points.update(scored)
        self.part.attendance.append(
            EveningAttendance(
                evening_id=eid,
                date=day,
                secretary=evening["secretary__name"],
                members_present=sum(1 for m in present if kinds[m][1] == Member.Kind.MEMBER),
                guests=sum(1 for m in present if kinds[m][1] == Member.Kind.GUEST),
                members_absent=len(self.absent_at[eid]),
                games=len(evening_games),
                schock_aus=len(evening_sa),
            )
        )
        self.part.games += len(evening_games)
        self.part.schock_aus += len(evening_sa)
        self.part.games_with_rounds += sum(
            1 for g in evening_games if g["id"] in self.rows.players_of_game
        )

    def games(self, evening_games: Iterable[Row], present: set[int], day: date) -> Counter[int]:
        """An evening's games: who played (the entered turns' players, else everyone
        present), lost, opened them; the fastest game. Returns the losses per person."""
        losses: Counter[int] = Counter()
        players_of_game = self.rows.players_of_game
        for g in evening_games:
            rounds_entered = g["id"] in players_of_game
            for member_id in players_of_game[g["id"]] if rounds_entered else present:
                who = self.person(member_id)
                who.games += 1
                self.game_flags[member_id].append(g["loser_id"] != member_id)
                if rounds_entered:
                    who.entered_expected += self.rows.turn_expected[(g["id"], member_id)]
                else:
                    who.short_games += 1
            self.person(g["loser_id"]).losses += 1
            losses[g["loser_id"]] += 1
            if g["vorleger_id"] is not None:
                self.pair_counts[(g["vorleger_id"], g["loser_id"])] += 1
            rounds = self.rows.rounds_per_game.get(g["id"])
            if g["entry_mode"] == Game.EntryMode.ROUNDS and rounds:
                candidate = (rounds, day, g["number"], g["loser_id"])
                if self.part.fastest is None or candidate[:3] < self.part.fastest[:3]:
                    self.part.fastest = candidate
        return losses

    def schock_aus(self, evening_sa: Sequence[Row]) -> Counter[int]:
        """An evening's Schock-Aus, the Runden they owe and those given. Returns the
        Schock-Aus per thrower."""
        thrown: Counter[int] = Counter()
        for sa in evening_sa:
            thrown[sa["thrower_id"]] += 1
            self.person(sa["thrower_id"]).schock_aus += 1
            if sa["id"] in self.rows.given:
                self.person(sa["thrower_id"]).runden_given += 1
        for owed in self.statutes.runden([sa["thrower_id"] for sa in evening_sa]):
            self.person(owed.thrower).runden_owed += 1
        return thrown

    def finish(self) -> SeasonPart:
        """The part with its runs and its record rows."""
        part = self.part
        for member_id, who in part.people.items():
            who.games_run = Run.of(self.game_flags[member_id])
            who.schock_aus_run = Run.of(self.sa_evening_flags[member_id])
            who.presence_run = Run.of(self.presence_flags[member_id])
        part.schock_aus_evening = _best_rows(self.schock_aus_evening)
        part.losses_evening = _best_rows(self.losses_evening)
        top = max(self.season_points.values(), default=None)
        part.season_points = [(p, m) for m, p in self.season_points.items() if p == top]
        part.pair_counts = dict(self.pair_counts)
        return part


@dataclass(frozen=True)
class _ClubRows:
    """The rows of all seasons read, grouped, that every season's pass looks up."""

    games_of_evening: Mapping[int, list[Row]]
    sa_of_evening: Mapping[int, list[Row]]
    given: set[int]
    turn_expected: Mapping[tuple[int, int], Fraction]
    players_of_game: Mapping[int, set[int]]
    rounds_per_game: Mapping[int, int]
    members: dict[int, tuple[str, str]]


def _person_statistics(
    member_id: int,
    parts: Sequence[SeasonPart],
    members: dict[int, tuple[str, str]],
    short_expectation: Mapping[int, Fraction | None],
) -> PersonStatistics:
    """One person's figures over the seasons' parts: counts summed, the Schock-Aus
    expected (None when a season's games entered short have no expectation) and the
    streaks' runs joined."""
    name, kind = members[member_id]
    who = PersonStatistics(member_id=member_id, name=name, guest=kind == Member.Kind.GUEST)
    expected: Fraction | None = Fraction(0)
    games_run = schock_aus_run = presence_run = Run()
    for part in parts:
        one = part.people.get(member_id)
        if one is None:
            # Not listed at any of the season's evenings: each ends a presence run.
            presence_run += Run(part.evenings, 0, 0, 0)
            continue
        who.games += one.games
        who.losses += one.losses
        who.schock_aus += one.schock_aus
        who.runden_owed += one.runden_owed
        who.runden_given += one.runden_given
        who.evenings_present += one.evenings_present
        who.evenings_absent += one.evenings_absent
        per_game = short_expectation[part.season_id]
        if expected is not None:
            if one.short_games and per_game is None:
                expected = None
            else:
                expected += one.entered_expected + one.short_games * (per_game or 0)
        games_run += one.games_run
        schock_aus_run += one.schock_aus_run
        presence_run += one.presence_run
    who.expected_schock_aus = expected
    who.longest_without_loss = games_run.best
    who.longest_schock_aus_evenings = schock_aus_run.best
    who.longest_present = presence_run.best
    return who


def _records(
    parts: Sequence[SeasonPart],
    people: Iterable[PersonStatistics],
    members: dict[int, tuple[str, str]],
    year_of: Mapping[int, int],
) -> Records:
    """The scope's records from its seasons' record rows (ties broken by date, year and
    name, as one pass over all seasons would)."""
    people = list(people)

    def evening_record(rows: list[tuple[int, date, int]]) -> EveningRecord | None:
        if not rows:
            return None
        count, day, member_id = min(rows, key=lambda r: (-r[0], r[1], members[r[2]][0]))
        return EveningRecord(name=members[member_id][0], date=day, count=count)

    def streak(attr: str) -> StreakRecord | None:
        best = min(people, key=lambda p: (-getattr(p, attr), p.name), default=None)
        if best is None or not getattr(best, attr):
            return None
        return StreakRecord(name=best.name, length=getattr(best, attr))

    best_season = None
    season_points = [(p, part.season_id, m) for part in parts for p, m in part.season_points]
    if season_points:
        points, season_id, member_id = min(
            season_points, key=lambda r: (-r[0], year_of[r[1]], members[r[2]][0])
        )
        best_season = SeasonRecord(
            name=members[member_id][0], year=year_of[season_id], points=points
        )
    fastest: tuple[int, date, int, int] | None = None
    for part in parts:
        if part.fastest is not None and (fastest is None or part.fastest[:3] < fastest[:3]):
            fastest = part.fastest
    return Records(
        most_schock_aus_evening=evening_record([r for p in parts for r in p.schock_aus_evening]),
        most_losses_evening=evening_record([r for p in parts for r in p.losses_evening]),
        best_season=best_season,
        fastest_game=(
            GameRecord(
                date=fastest[1], number=fastest[2], rounds=fastest[0], loser=members[fastest[3]][0]
            )
            if fastest
            else None
        ),
        longest_without_loss=streak("longest_without_loss"),
        longest_schock_aus_evenings=streak("longest_schock_aus_evenings"),
        longest_present=streak("longest_present"),
    )


def _head_to_head(
    parts: Sequence[SeasonPart], members: dict[int, tuple[str, str]]
) -> list[HeadToHead]:
    """Who lost most often after whom opened (the Vorleger), most often first."""
    pair_counts: Counter[tuple[int, int]] = Counter()
    for part in parts:
        pair_counts.update(part.pair_counts)
    return [
        HeadToHead(after=members[after][0], loser=members[loser][0], count=count)
        for (after, loser), count in sorted(
            pair_counts.items(),
            key=lambda kv: (-kv[1], members[kv[0][0]][0], members[kv[0][1]][0]),
        )
        if after != loser
    ][:HEAD_TO_HEAD_LIMIT]


def _combine(
    *,
    club: Club,
    season: Season | None,
    seasons: Sequence[Season],
    parts: Sequence[SeasonPart],
    mean_turns: Fraction | None,
    members: dict[int, tuple[str, str]],
) -> Statistics:
    """The scope's statistics from its seasons' parts (in season order; no queries)."""
    short_expectation = {
        s.pk: (
            mean_turns * turn_schock_aus_probability(season_rules(s))
            if mean_turns is not None
            else None
        )
        for s in seasons
    }
    everyone = {m for part in parts for m in part.people}
    people = {m: _person_statistics(m, parts, members, short_expectation) for m in everyone}
    return Statistics(
        club=club,
        season=season,
        seasons=len(parts),
        evenings=sum(p.evenings for p in parts),
        games=sum(p.games for p in parts),
        games_with_rounds=sum(p.games_with_rounds for p in parts),
        schock_aus=sum(p.schock_aus for p in parts),
        people=sorted(people.values(), key=lambda p: p.name),
        records=_records(parts, people.values(), members, {s.pk: s.year for s in seasons}),
        head_to_head=_head_to_head(parts, members),
        attendance=list(parts[0].attendance) if season is not None and parts else [],
    )
