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
from collections.abc import Iterable, Mapping, Sequence
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
from league.club.caching import (
    books_cached,
    books_cached_many,
    club_books_version,
    season_part_version,
)
from league.club.models import Club, Member, Season
from league.club.statutes import season_rules, season_statutes
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
    parts = books_cached_many(
        [_part_key(s, club) for s in scope],
        build=lambda missing: _season_parts([scope[i] for i in missing], members),
    )  # 3-9 for the seasons whose part is not cached
    turns, pairs = books_cached(
        "statistics_mean_turns", club_books_version(club=club), build=lambda: _club_turns(club)
    )  # 10-11
    return _combine(
        club=club,
        season=season,
        seasons=scope,
        parts=parts,
        mean_turns=Fraction(turns, pairs) if pairs else None,
        members=members,
    )


def _part_key(season: Season, club: Club) -> tuple[Any, ...]:
    """What a season's part depends on: its books (``data_version``), the club's register
    (the names it shows; ``season_part_version``) and the rules and statutes it stores."""
    return (
        "statistics_part",
        season_part_version(season=season, club=club),
        repr(season.rules),
        repr(getattr(season, "statutes", None)),
    )


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


def _season_parts(
    seasons: Sequence[Season], members: dict[int, tuple[str, str]]
) -> list[SeasonPart]:
    """The parts of `seasons` (in their order), from seven queries over all of them."""
    if not seasons:
        return []
    season_of = {s.pk: s for s in seasons}
    evenings = list(
        Evening.objects.filter(season__in=seasons)
        .order_by("date")
        .values("id", "season_id", "date", "secretary__name")
    )
    scope = {"evening__season__in": seasons}
    attendances = list(Attendance.objects.filter(**scope).values("evening_id", "member_id", "role"))
    games = list(
        Game.objects.filter(**scope)
        .order_by("evening__date", "number")
        .values("id", "evening_id", "number", "loser_id", "vorleger_id", "entry_mode")
    )
    schock_aus = list(
        SchockAus.objects.filter(game__evening__season__in=seasons)
        .order_by("game__evening__date", "game__number", "position")
        .values("id", "game_id", "thrower_id")
    )
    given = set(
        RundeGiven.objects.filter(schock_aus__game__evening__season__in=seasons).values_list(
            "schock_aus_id", flat=True
        )
    )
    throws = list(
        RoundThrow.objects.filter(round__game__evening__season__in=seasons)
        .order_by("round__game_id", "round__number", "position")
        .values("round__game_id", "position", "player_id", "attempts", "muss_regel")
    )
    rounds_per_game = dict(
        Round.objects.filter(game__evening__season__in=seasons, kind__in=["round", "deckel_nehmen"])
        .values_list("game_id")
        .annotate(n=Count("id"))
    )
    evening_of = {e["id"]: e for e in evenings}
    rules_of_season = {pk: season_rules(s) for pk, s in season_of.items()}
    rules_of_game = {
        g["id"]: rules_of_season[evening_of[g["evening_id"]]["season_id"]] for g in games
    }
    turn_expected = _turn_expectations(throws, rules_of_game)
    players_of_game: dict[int, set[int]] = defaultdict(set)
    for game_id, player_id in turn_expected:
        players_of_game[game_id].add(player_id)
    evenings_of: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for e in evenings:
        evenings_of[e["season_id"]].append(e)
    attendances_of: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for a in attendances:
        attendances_of[evening_of[a["evening_id"]]["season_id"]].append(a)
    games_of_evening: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for g in games:
        games_of_evening[g["evening_id"]].append(g)
    sa_of_evening: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    game_evening = {g["id"]: g["evening_id"] for g in games}
    for sa_row in schock_aus:
        sa_of_evening[game_evening[sa_row["game_id"]]].append(sa_row)
    return [
        _season_part(
            season=s,
            evenings=evenings_of[s.pk],
            attendances=attendances_of[s.pk],
            games_of_evening=games_of_evening,
            sa_of_evening=sa_of_evening,
            given=given,
            turn_expected=turn_expected,
            players_of_game=players_of_game,
            rounds_per_game=rounds_per_game,
            members=members,
        )
        for s in seasons
    ]


def _season_part(
    *,
    season: Season,
    evenings: Sequence[Mapping[str, Any]],
    attendances: Sequence[Mapping[str, Any]],
    games_of_evening: Mapping[int, list[Mapping[str, Any]]],
    sa_of_evening: Mapping[int, list[Mapping[str, Any]]],
    given: set[int],
    turn_expected: Mapping[tuple[int, int], Fraction],
    players_of_game: Mapping[int, set[int]],
    rounds_per_game: Mapping[int, int],
    members: dict[int, tuple[str, str]],
) -> SeasonPart:
    """One pass over a season's rows (no queries)."""
    part = SeasonPart(season_id=season.pk, evenings=len(evenings))
    people = part.people

    def person(member_id: int) -> PersonPart:
        if member_id not in people:
            people[member_id] = PersonPart()
        return people[member_id]

    present_at: dict[int, set[int]] = defaultdict(set)  # evening -> people present
    absent_at: dict[int, set[int]] = defaultdict(set)
    for a in attendances:
        if a["role"] == Attendance.Role.ABSENT:
            absent_at[a["evening_id"]].add(a["member_id"])
            person(a["member_id"]).evenings_absent += 1
        else:
            present_at[a["evening_id"]].add(a["member_id"])
            person(a["member_id"]).evenings_present += 1

    # Per person, in order: game flags (not lost?), evening flags (Schock-Aus?), presence flags.
    game_flags: dict[int, list[bool]] = defaultdict(list)
    sa_evening_flags: dict[int, list[bool]] = defaultdict(list)
    presence_flags: dict[int, list[bool]] = defaultdict(list)
    schock_aus_evening: list[tuple[int, date, int]] = []  # (count, date, member)
    losses_evening: list[tuple[int, date, int]] = []
    season_points: Counter[int] = Counter()
    pair_counts: Counter[tuple[int, int]] = Counter()
    statutes = season_statutes(season)
    for evening in evenings:
        eid, day = evening["id"], evening["date"]
        present = present_at[eid]
        evening_games = games_of_evening.get(eid, [])
        evening_sa = sa_of_evening.get(eid, [])
        losses: Counter[int] = Counter()
        thrown: Counter[int] = Counter()
        for g in evening_games:
            rounds_entered = g["id"] in players_of_game
            takers = players_of_game[g["id"]] if rounds_entered else present
            for member_id in takers:
                who = person(member_id)
                who.games += 1
                game_flags[member_id].append(g["loser_id"] != member_id)
                if rounds_entered:
                    who.entered_expected += turn_expected[(g["id"], member_id)]
                else:
                    who.short_games += 1
            person(g["loser_id"]).losses += 1
            losses[g["loser_id"]] += 1
            if g["vorleger_id"] is not None:
                pair_counts[(g["vorleger_id"], g["loser_id"])] += 1
            rounds = rounds_per_game.get(g["id"])
            if g["entry_mode"] == Game.EntryMode.ROUNDS and rounds:
                candidate = (rounds, day, g["number"], g["loser_id"])
                if part.fastest is None or candidate[:3] < part.fastest[:3]:
                    part.fastest = candidate
        for sa in evening_sa:
            thrown[sa["thrower_id"]] += 1
            person(sa["thrower_id"]).schock_aus += 1
            if sa["id"] in given:
                person(sa["thrower_id"]).runden_given += 1
        for owed in statutes.runden([sa["thrower_id"] for sa in evening_sa]):
            person(owed.thrower).runden_owed += 1
        for member_id in present:
            sa_evening_flags[member_id].append(thrown[member_id] > 0)
        for member_id in people:
            presence_flags[member_id].append(member_id in present)
        for member_id, count in thrown.items():
            schock_aus_evening.append((count, day, member_id))
        for member_id, count in losses.items():
            losses_evening.append((count, day, member_id))
        # The evening's points under the season's statutes (per event or by rank).
        scored = statutes.evening_points(
            present_members=[m for m in present if members[m][1] == Member.Kind.MEMBER],
            games_lost=losses,
            schock_aus=thrown,
        )
        for member_id, points in scored.items():
            season_points[member_id] += points
        part.attendance.append(
            EveningAttendance(
                evening_id=eid,
                date=day,
                secretary=evening["secretary__name"],
                members_present=sum(1 for m in present if members[m][1] == Member.Kind.MEMBER),
                guests=sum(1 for m in present if members[m][1] == Member.Kind.GUEST),
                members_absent=len(absent_at[eid]),
                games=len(evening_games),
                schock_aus=len(evening_sa),
            )
        )
        part.games += len(evening_games)
        part.schock_aus += len(evening_sa)
        part.games_with_rounds += sum(1 for g in evening_games if g["id"] in players_of_game)
    for member_id, who in people.items():
        who.games_run = Run.of(game_flags[member_id])
        who.schock_aus_run = Run.of(sa_evening_flags[member_id])
        who.presence_run = Run.of(presence_flags[member_id])
    part.schock_aus_evening = _best_rows(schock_aus_evening)
    part.losses_evening = _best_rows(losses_evening)
    top = max(season_points.values(), default=None)
    part.season_points = [(p, m) for m, p in season_points.items() if p == top]
    part.pair_counts = dict(pair_counts)
    return part


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
    year_of = {s.pk: s.year for s in seasons}
    short_expectation = {
        s.pk: (
            mean_turns * turn_schock_aus_probability(season_rules(s))
            if mean_turns is not None
            else None
        )
        for s in seasons
    }
    everyone = {m for part in parts for m in part.people}
    people: dict[int, PersonStatistics] = {}
    for member_id in everyone:
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
        people[member_id] = who

    def evening_record(rows: list[tuple[int, date, int]]) -> EveningRecord | None:
        if not rows:
            return None
        count, day, member_id = min(rows, key=lambda r: (-r[0], r[1], members[r[2]][0]))
        return EveningRecord(name=members[member_id][0], date=day, count=count)

    def streak(attr: str) -> StreakRecord | None:
        best = min(people.values(), key=lambda p: (-getattr(p, attr), p.name), default=None)
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
    pair_counts: Counter[tuple[int, int]] = Counter()
    for part in parts:
        pair_counts.update(part.pair_counts)
    records = Records(
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
    head_to_head = [
        HeadToHead(after=members[after][0], loser=members[loser][0], count=count)
        for (after, loser), count in sorted(
            pair_counts.items(),
            key=lambda kv: (-kv[1], members[kv[0][0]][0], members[kv[0][1]][0]),
        )
        if after != loser
    ][:HEAD_TO_HEAD_LIMIT]
    return Statistics(
        club=club,
        season=season,
        seasons=len(parts),
        evenings=sum(p.evenings for p in parts),
        games=sum(p.games for p in parts),
        games_with_rounds=sum(p.games_with_rounds for p in parts),
        schock_aus=sum(p.schock_aus for p in parts),
        people=sorted(people.values(), key=lambda p: p.name),
        records=records,
        head_to_head=head_to_head,
        attendance=list(parts[0].attendance) if season is not None and parts else [],
    )
