"""Statistics and records of a club (issue 14 item 1), read in a constant number of queries.

``club_statistics(*, club, season=None)`` reads the books of one season (or of every season
of the club when ``season`` is None) with eleven queries, whatever the number of
seasons, evenings and games, and computes everything in one pass over those rows:

- per person: games taken part in, losses, loss rate, Schock-Aus, Schock-Aus expected
  (``luck`` = thrown - expected), Runden owed (RULES.md 5, ``Statutes.runden``) and given,
  evenings present and absent;
- streaks per person: the longest run of games without a loss, of evenings with a
  Schock-Aus, of the club's evenings present;
- records: most Schock-Aus in an evening, most losses in an evening, best season (the most
  championship points of a club member in one season, ``Statutes.points``), fastest game
  (fewest rounds, games entered round by round only);
- head to head: who lost right after whom, from the Vorleger chain (the loser of a game
  opens the next one as its Vorleger, RULES.md 4);
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
    """Statistics and records of ``club``'s ``season`` (None: all seasons), issue 14 item 1.

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
    statutes (RULES.md 5) per evening; given counts the Runden recorded as given.

    People: everyone with an attendance in the scope, by name. Eleven queries (constant).
    """
    seasons = Season.objects.filter(club=club).order_by("year")
    if season is not None:
        seasons = seasons.filter(pk=season.pk)
    season_list = list(seasons)  # 1
    season_of = {s.pk: s for s in season_list}
    scope = {"evening__season__in": season_list}
    evenings = list(
        Evening.objects.filter(season__in=season_list)
        .order_by("date")
        .values("id", "season_id", "date", "secretary__name")
    )  # 2
    attendances = list(
        Attendance.objects.filter(**scope).values("evening_id", "member_id", "role")
    )  # 3
    games = list(
        Game.objects.filter(**scope)
        .order_by("evening__date", "number")
        .values("id", "evening_id", "number", "loser_id", "vorleger_id", "entry_mode")
    )  # 4
    schock_aus = list(
        SchockAus.objects.filter(game__evening__season__in=season_list)
        .order_by("game__evening__date", "game__number", "position")
        .values("id", "game_id", "thrower_id")
    )  # 5
    given = set(
        RundeGiven.objects.filter(schock_aus__game__evening__season__in=season_list).values_list(
            "schock_aus_id", flat=True
        )
    )  # 6
    throws = list(
        RoundThrow.objects.filter(round__game__evening__season__in=season_list)
        .order_by("round__game_id", "round__number", "position")
        .values("round__game_id", "position", "player_id", "attempts", "muss_regel")
    )  # 7
    rounds_per_game = dict(
        Round.objects.filter(
            game__evening__season__in=season_list, kind__in=["round", "deckel_nehmen"]
        )
        .values_list("game_id")
        .annotate(n=Count("id"))
    )  # 8
    # The mean turns per person and game over every game of the club entered round by
    # round (for short games, see the docstring).
    club_throws = RoundThrow.objects.filter(round__game__evening__club=club)
    mean = {
        "turns": club_throws.count(),  # 9
        "pairs": club_throws.values("round__game_id", "player_id").distinct().count(),  # 10
    }
    members = {
        pk: (name, kind)
        for pk, name, kind in Member.objects.filter(club=club).values_list("id", "name", "kind")
    }  # 11
    return _compute(
        club=club,
        season=season,
        season_of=season_of,
        evenings=evenings,
        attendances=attendances,
        games=games,
        schock_aus=schock_aus,
        given=given,
        throws=throws,
        rounds_per_game=rounds_per_game,
        mean_turns=Fraction(mean["turns"], mean["pairs"]) if mean["pairs"] else None,
        members=members,
    )


def _compute(
    *,
    club: Club,
    season: Season | None,
    season_of: dict[int, Season],
    evenings: Sequence[Mapping[str, Any]],
    attendances: Sequence[Mapping[str, Any]],
    games: Sequence[Mapping[str, Any]],
    schock_aus: Sequence[Mapping[str, Any]],
    given: set[int],
    throws: Sequence[Mapping[str, Any]],
    rounds_per_game: dict[int, int],
    mean_turns: Fraction | None,
    members: dict[int, tuple[str, str]],
) -> Statistics:
    """The one pass over the rows ``club_statistics`` read (no queries)."""
    evening_of = {e["id"]: e for e in evenings}
    rules_of_season = {pk: season_rules(s) for pk, s in season_of.items()}
    rules_of_game = {
        g["id"]: rules_of_season[evening_of[g["evening_id"]]["season_id"]] for g in games
    }
    short_expectation = {
        pk: (mean_turns * turn_schock_aus_probability(rules) if mean_turns is not None else None)
        for pk, rules in rules_of_season.items()
    }
    turn_expected = _turn_expectations(throws, rules_of_game)
    players_of_game: dict[int, set[int]] = defaultdict(set)
    for game_id, player_id in turn_expected:
        players_of_game[game_id].add(player_id)

    people: dict[int, PersonStatistics] = {}

    def person(member_id: int) -> PersonStatistics:
        if member_id not in people:
            name, kind = members[member_id]
            people[member_id] = PersonStatistics(
                member_id=member_id, name=name, guest=kind == Member.Kind.GUEST
            )
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

    games_of_evening: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for g in games:
        games_of_evening[g["evening_id"]].append(g)
    sa_of_evening: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    game_evening = {g["id"]: g["evening_id"] for g in games}
    for sa_row in schock_aus:
        sa_of_evening[game_evening[sa_row["game_id"]]].append(sa_row)

    # Per person, in order: game flags (lost?), evening flags (Schock-Aus?), presence flags.
    game_flags: dict[int, list[bool]] = defaultdict(list)
    sa_evening_flags: dict[int, list[bool]] = defaultdict(list)
    presence_flags: dict[int, list[bool]] = defaultdict(list)
    schock_aus_evening: list[tuple[int, date, int]] = []  # (count, date, member)
    losses_evening: list[tuple[int, date, int]] = []
    season_points: Counter[tuple[int, int]] = Counter()  # (season, member) -> points
    pair_counts: Counter[tuple[int, int]] = Counter()
    attendance_rows: list[EveningAttendance] = []
    fastest: tuple[int, date, int, int] | None = None
    entered_expected: dict[int, Fraction] = defaultdict(Fraction)
    short_games: Counter[tuple[int, int]] = Counter()
    unknown: set[int] = set()

    for evening in evenings:
        eid, day = evening["id"], evening["date"]
        statutes = season_statutes(season_of[evening["season_id"]])
        present = present_at[eid]
        evening_games = games_of_evening[eid]
        evening_sa = sa_of_evening[eid]
        losses: Counter[int] = Counter()
        thrown: Counter[int] = Counter()
        for g in evening_games:
            rounds_entered = g["id"] in players_of_game
            takers = players_of_game[g["id"]] if rounds_entered else present
            for member_id in takers:
                people[member_id].games += 1
                game_flags[member_id].append(g["loser_id"] == member_id)
                if rounds_entered:
                    entered_expected[member_id] += turn_expected[(g["id"], member_id)]
                else:
                    # Counted here, multiplied once at the end: Fractions are slow.
                    short_games[(member_id, evening["season_id"])] += 1
            person(g["loser_id"]).losses += 1
            losses[g["loser_id"]] += 1
            if g["vorleger_id"] is not None:
                pair_counts[(g["vorleger_id"], g["loser_id"])] += 1
            rounds = rounds_per_game.get(g["id"])
            if g["entry_mode"] == Game.EntryMode.ROUNDS and rounds:
                candidate = (rounds, day, g["number"], g["loser_id"])
                if fastest is None or candidate[:3] < fastest[:3]:
                    fastest = candidate
        for sa in evening_sa:
            thrown[sa["thrower_id"]] += 1
            person(sa["thrower_id"]).schock_aus += 1
            if sa["id"] in given:
                person(sa["thrower_id"]).runden_given += 1
        for owed in statutes.runden([sa["thrower_id"] for sa in evening_sa]):
            person(owed.thrower).runden_owed += 1
        for member_id in sorted(present):
            sa_evening_flags[member_id].append(thrown[member_id] > 0)
        for member_id in sorted(set(people)):
            presence_flags[member_id].append(member_id in present)
        for member_id, count in thrown.items():
            schock_aus_evening.append((count, day, member_id))
        for member_id, count in losses.items():
            losses_evening.append((count, day, member_id))
        for member_id in present | set(thrown) | set(losses):
            if members[member_id][1] == Member.Kind.MEMBER:
                season_points[(evening["season_id"], member_id)] += statutes.points(
                    schock_aus=thrown[member_id], games_lost=losses[member_id]
                )
        attendance_rows.append(
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

    for (member_id, season_id), count in short_games.items():
        per_game = short_expectation[season_id]
        if per_game is None:
            unknown.add(member_id)
        else:
            entered_expected[member_id] += count * per_game
    for member_id, who in people.items():
        who.expected_schock_aus = None if member_id in unknown else entered_expected[member_id]
        who.longest_without_loss = _longest(not lost for lost in game_flags[member_id])
        who.longest_schock_aus_evenings = _longest(sa_evening_flags[member_id])
        who.longest_present = _longest(presence_flags[member_id])

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
    if season_points:
        (season_id, member_id), points = min(
            season_points.items(),
            key=lambda kv: (-kv[1], season_of[kv[0][0]].year, members[kv[0][1]][0]),
        )
        best_season = SeasonRecord(
            name=members[member_id][0], year=season_of[season_id].year, points=points
        )
    records = Records(
        most_schock_aus_evening=evening_record(schock_aus_evening),
        most_losses_evening=evening_record(losses_evening),
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
        seasons=len(season_of),
        evenings=len(evenings),
        games=len(games),
        games_with_rounds=len(players_of_game),
        schock_aus=len(schock_aus),
        people=sorted(people.values(), key=lambda p: p.name),
        records=records,
        head_to_head=head_to_head,
        attendance=attendance_rows if season is not None else [],
    )
