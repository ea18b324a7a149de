"""Reads of games entered round by round: where the entry of the next game starts, a stored
game's rounds (for the page, replayed through the engine, and as rows for the API), the
exact odds, and the members' Schock-Aus statistics.

Everything Schocken-specific is answered by ``games.rules`` (the engine replays stored
rounds, ``games.rules.odds`` gives the exact probabilities); this module only loads rows and
shapes the answers for the pages and the API.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from django.db.models import Count, Prefetch, Q, QuerySet

from games.evenings.models import Evening, Game, SchockAus
from games.evenings.selectors import next_game_number
from games.evenings.services import next_vorleger
from games.rounds.feedback import CATEGORY_LABELS, describe_throw, rounds_played
from games.rounds.models import Round, RoundThrow
from games.rounds.services import RoundInput, ThrowInput, evening_game_context, rounds_replay
from games.rules import PRESETS, Category, RuleSet, Throw, preset_name
from games.rules.odds import (
    attempt_category_odds,
    odds_rows,
    turn_category_odds,
    turn_schock_aus_probability,
)
from games.rules.simulator import SimulationMeasures, simulate_statistics
from league.club.caching import books_cached
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.statutes import season_rules


@dataclass
class RoundsEntryStart:
    """Where the round entry of an evening's next game starts: its ``number``, the first
    round's throwing ``order`` (the Vorleger, then the other people present by name) and
    the evening's Schock-Aus in the games before it."""

    number: int
    order: list[Member]
    schock_aus_before: int


def rounds_entry_start(*, evening: Evening, people: list[Member]) -> RoundsEntryStart:
    """The start of the entry of the evening's next game; ``people``: those present
    (``present_people``). The Vorleger is the loser of the game before (docs/rules.md 4.5)."""
    number = next_game_number(evening=evening)
    vorleger = next_vorleger(evening=evening, number=number)
    order = [vorleger] + [m for m in people if m != vorleger]
    before = evening_game_context(evening=evening, number=number)[0]
    return RoundsEntryStart(number=number, order=order, schock_aus_before=before)


def game_round_rows(*, game: Game) -> QuerySet[Round]:
    """A game's stored rounds with their throws in throwing order (the API's rows). Two
    queries."""
    return Round.objects.filter(game=game).prefetch_related(
        Prefetch("throws", queryset=RoundThrow.objects.order_by("position"))
    )


@dataclass
class StoredThrow:
    row: RoundThrow
    result: dict

    @property
    def turn_text(self) -> str:
        """The detailed turn in the entry form's notation, e.g. "145:1 / 61:1 / 1"."""
        from games.rounds.forms import turn_text

        return turn_text(self.row.turn)


@dataclass
class StoredRound:
    row: Round
    throws: list[StoredThrow]
    summary: dict | None = None


@dataclass
class GameRounds:
    """A stored game with its rounds. ``mismatch``: the rounds no longer give the game's
    loser and Schock-Aus (the game was corrected afterwards without its rounds)."""

    game: Game
    rules: RuleSet
    rounds: list[StoredRound] = field(default_factory=list)
    mismatch: bool = False


def game_rounds_detail(*, game: Game) -> GameRounds:
    """A stored game's rounds with each throw's label and, replayed through the engine,
    each round's Deckel flow (stock, who holds how many, who went out), and whether the
    rounds still give the game's loser and Schock-Aus (``mismatch``). Three queries when
    the game comes with its evening and season (``select_related("evening__season")``).

    The replay uses the stored final throws with the Muss-Regel switched off: the rule only
    restricts how a turn may be played, never how the Deckel move, and it was checked when
    the game was entered. If a replay is refused anyway (rows edited by hand), the rounds
    are shown without their Deckel flow.
    """
    rules = season_rules(game.evening.season)
    rounds = list(
        Round.objects.filter(game=game)
        .select_related("vorleger", "loser", "player", "after")
        .order_by("number")
    )
    throws = defaultdict(list)
    for t in (
        RoundThrow.objects.filter(round__game=game)
        .select_related("player")
        .order_by("round__number", "position")
    ):
        throws[t.round_id].append(t)
    detail = GameRounds(game=game, rules=rules)
    for r in rounds:
        detail.rounds.append(
            StoredRound(
                row=r,
                throws=[
                    StoredThrow(
                        t,
                        describe_throw(
                            Throw(t.dice, t.attempts, t.natural), rules, muss_regel=t.muss_regel
                        ),
                    )
                    for t in throws[r.pk]
                ],
            )
        )
    _replay(detail, rules)
    return detail


def _stored_inputs(detail: GameRounds) -> list[RoundInput]:
    """The stored entries as the service's input (docs/rules.md 4): final throws, kind, player,
    after, covered dice."""
    return [
        RoundInput(
            kind=r.row.kind,
            throws=[
                ThrowInput(
                    player=t.row.player,
                    dice=t.row.dice,
                    attempts=t.row.attempts,
                    natural=t.row.natural,
                )
                for t in r.throws
            ],
            player=r.row.player,
            after=r.row.after,
            covered=r.row.covered,
        )
        for r in detail.rounds
    ]


def _replay(detail: GameRounds, rules: RuleSet) -> None:
    """Each stored entry's summary (``rounds_played``), replayed through the engine with
    the Muss-Regel off; ``mismatch`` when the replay is refused or no longer gives the
    game's loser and Schock-Aus."""
    if not detail.rounds:
        return
    plain = dataclasses.replace(rules, muss_regel=False)
    try:
        play = rounds_replay(rounds=_stored_inputs(detail), rules=plain)
    except BooksError:
        detail.mismatch = True
        return
    played, _seen = rounds_played(play)
    for r, shown in zip(detail.rounds, played, strict=True):
        r.summary = shown.summary
    recorded = list(
        detail.game.schock_aus.order_by("position").values_list("thrower_id", flat=True)
    )
    replayed = [m.pk for m in play.schock_aus]
    loser = play.loser.pk if play.loser else None
    detail.mismatch = loser != detail.game.loser_id or replayed != recorded


# -- exact odds ---------------------------------------------------------------


@dataclass(frozen=True)
class OddsLine:
    """One line of an odds table: what, the exact probability, and it in percent."""

    label: str
    probability: Fraction

    @property
    def percent(self) -> Decimal:
        return Decimal(self.probability.numerator) * 100 / Decimal(self.probability.denominator)

    @property
    def fraction(self) -> str:
        if not self.probability:
            return "0"
        return f"{self.probability.numerator}/{self.probability.denominator}"


@dataclass
class CategoryLine:
    label: str
    attempt: OddsLine
    turn: OddsLine
    turn_muss: OddsLine | None


@dataclass
class ThrowOddsLine:
    """One throw label: one attempt, a turn, a turn under the Muss-Regel (or None)."""

    label: str
    attempt: OddsLine
    turn: OddsLine
    turn_muss: OddsLine | None


@dataclass(frozen=True)
class SimulatedMeasures:
    """What the simulator measured for one rule set, Muss-Regel on or off: ``games``
    simulated, the Vorleger's loss rate per round, rounds and Schock-Aus per game."""

    games: int
    vorleger_loss_rate: Fraction
    rounds_per_game: Fraction
    schock_aus_per_game: Fraction

    @property
    def vorleger_loss_percent(self) -> Decimal:
        return _decimal(self.vorleger_loss_rate * 100)

    @property
    def rounds(self) -> Decimal:
        return _decimal(self.rounds_per_game)

    @property
    def schock_aus(self) -> Decimal:
        return _decimal(self.schock_aus_per_game)


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


@dataclass(frozen=True)
class OddsSimulation:
    """The simulator's measures of a rule set (``simulate_statistics``) beside the exact
    odds: ``with_muss_regel`` and ``without_muss_regel`` (the same games, same seed), and
    whether the rule set itself plays the Muss-Regel (``plays_muss_regel``)."""

    seed: int
    players: int
    plays_muss_regel: bool
    with_muss_regel: SimulatedMeasures
    without_muss_regel: SimulatedMeasures


#: Games the odds page simulates per rule set (a fixed seed: the page shows the same
#: numbers every time; about a tenth of a second on one core, then cached).
ODDS_SIMULATED_GAMES = 2000
ODDS_SIMULATION_SEED = 11
ODDS_SIMULATION_PLAYERS = 6


def odds_simulation(*, rules: RuleSet) -> OddsSimulation:
    """What ``games.rules.simulator.simulate_statistics`` measures for ``rules`` with the
    Muss-Regel and without it (``ODDS_SIMULATED_GAMES`` games of
    ``ODDS_SIMULATION_PLAYERS`` players, fixed seed). Cached in Django's cache per rule
    set (keyed by its ``to_dict()``): the simulation is the same for the same flags. A cache
    that cannot be reached (Redis down) only costs the simulation (``kept_cache``)."""
    flags = dataclasses.replace(rules, name="").to_dict()
    wanted = [flags, ODDS_SIMULATED_GAMES, ODDS_SIMULATION_SEED, ODDS_SIMULATION_PLAYERS]
    digest = hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()
    # A day: a new simulator shows soon. Kept through the contract of kept reads
    # (league/club/caching.py: computed when the cache cannot be reached).
    return books_cached("odds-simulation", digest, build=lambda: _odds(rules), seconds=24 * 60 * 60)


def _odds(rules: RuleSet) -> OddsSimulation:
    stats = simulate_statistics(
        dataclasses.replace(rules, muss_regel=True),
        ODDS_SIMULATED_GAMES,
        seed=ODDS_SIMULATION_SEED,
        players=ODDS_SIMULATION_PLAYERS,
    )
    result = OddsSimulation(
        seed=ODDS_SIMULATION_SEED,
        players=ODDS_SIMULATION_PLAYERS,
        plays_muss_regel=rules.muss_regel,
        with_muss_regel=_measures(stats.with_muss_regel),
        without_muss_regel=_measures(stats.without_muss_regel),
    )
    return result


def _measures(measures: SimulationMeasures) -> SimulatedMeasures:
    return SimulatedMeasures(
        games=measures.games,
        vorleger_loss_rate=measures.vorleger_loss_rate,
        rounds_per_game=measures.rounds_per_game,
        schock_aus_per_game=measures.schock_aus_per_game,
    )


@dataclass
class OddsOverview:
    """The odds of one rule set: per category and per throw label (``odds_rows``), each
    for one attempt, a turn, and a turn under the Muss-Regel where the rule set plays it,
    ordered best to worst. ``preset`` names the preset the rules equal (None for a club's
    own composition); ``season`` is the season whose rules they are, if any."""

    preset: str | None
    rules: RuleSet
    categories: list[CategoryLine]
    throws: list[ThrowOddsLine]
    schock_aus_attempt: OddsLine
    schock_aus_turn: OddsLine
    season: Season | None = None


def odds_overview(
    *, preset: str | None = None, rules: RuleSet | None = None, season: Season | None = None
) -> OddsOverview:
    """Exact odds (docs/rules.md 1, 3; games.rules.odds) for a rule set: ``rules`` when given,
    else the season's (``season_rules``), else ``PRESETS[preset]`` (KeyError for an
    unknown preset). One attempt (three dice once) and a full turn of up to three attempts
    by the plain strategy (the Vorleger's turn); every flag of the rule set counts."""
    if rules is None:
        rules = season_rules(season) if season is not None else PRESETS[preset or "club"]
    attempt = attempt_category_odds(rules)
    turn = turn_category_odds(rules)
    turn_muss = turn_category_odds(rules, muss_regel=True) if rules.muss_regel else None
    categories = [
        CategoryLine(
            label=CATEGORY_LABELS[c],
            attempt=OddsLine(CATEGORY_LABELS[c], attempt[c]),
            turn=OddsLine(CATEGORY_LABELS[c], turn[c]),
            turn_muss=OddsLine(CATEGORY_LABELS[c], turn_muss[c]) if turn_muss else None,
        )
        for c in Category
    ]
    return OddsOverview(
        preset=preset_name(rules),
        rules=rules,
        categories=categories,
        throws=[
            ThrowOddsLine(
                label=row.label,
                attempt=OddsLine(row.label, row.one_attempt),
                turn=OddsLine(row.label, row.turn),
                turn_muss=(
                    None
                    if row.turn_muss_regel is None
                    else OddsLine(row.label, row.turn_muss_regel)
                ),
            )
            for row in odds_rows(rules)
        ],
        schock_aus_attempt=OddsLine("Schock-Aus", attempt[Category.SCHOCK_AUS]),
        schock_aus_turn=OddsLine("Schock-Aus", turn[Category.SCHOCK_AUS]),
        season=season,
    )


# -- members' Schock-Aus statistics --------------------------------------------------------------


@dataclass
class MemberSchockAusStats:
    """One person's season: ``turns`` played in games entered round by round,
    ``schock_aus_in_turns`` thrown in those turns, ``expected`` (exact Fraction) from the
    plain strategy's odds for each of those turns, and ``schock_aus_total`` over all the
    season's games (short entries included)."""

    member: Member
    turns: int = 0
    schock_aus_in_turns: int = 0
    expected: Fraction = Fraction(0)
    schock_aus_total: int = 0

    @property
    def expected_decimal(self) -> Decimal:
        return Decimal(self.expected.numerator) / Decimal(self.expected.denominator)

    @property
    def ratio_percent(self) -> Decimal | None:
        """Thrown as a percentage of expected; None without turns."""
        if not self.expected:
            return None
        return Decimal(self.schock_aus_in_turns) * 100 / self.expected_decimal


@dataclass
class SchockAusStats:
    season: Season
    rules: RuleSet
    rows: list[MemberSchockAusStats]
    games_with_rounds: int
    games_total: int


@lru_cache(maxsize=256)
def _turn_schock_aus(rules: RuleSet, muss_regel: bool, cap: int) -> Fraction:
    """``turn_schock_aus_probability`` memoised by its inputs (the rule set is frozen and
    hashable): the rules module keeps its strategy tables, but sums the turn's
    distribution by category on every call."""
    return turn_schock_aus_probability(rules, muss_regel=muss_regel, max_attempts=cap)


def _count_turns(
    throws: list[RoundThrow], rules: RuleSet, rows: dict[int, MemberSchockAusStats]
) -> None:
    """Add every entered turn (``throws`` by round, in throwing order) to its player's row:
    one turn, its expected Schock-Aus, and the Schock-Aus thrown. A turn's cap is 3 for the
    Vorleger (position 1) and the Vorleger's attempts for the others."""
    cap = rules.max_attempts
    for t in throws:
        if t.position == 1:
            cap = t.attempts
            this_cap = rules.max_attempts
        else:
            this_cap = cap
        if t.player_id not in rows:
            rows[t.player_id] = MemberSchockAusStats(member=t.player)
        line = rows[t.player_id]
        line.turns += 1
        line.expected += _turn_schock_aus(rules, t.muss_regel, this_cap)
        if t.dice == (1, 1, 1):
            line.schock_aus_in_turns += 1


def season_schock_aus_stats(*, season: Season) -> SchockAusStats:
    """Schock-Aus thrown against the number expected, per person of a season.

    **Decision**: only turns that were entered (games entered round by round) count as
    turns played; a game entered short says nothing about how many turns each player had,
    so it adds to ``schock_aus_total`` only. Each turn's expectation is the exact
    probability of a Schock-Aus in a turn of the plain strategy
    (``games.rules.odds.turn_schock_aus_probability``) with that turn's cap (3 for the
    Vorleger, the Vorleger's attempts for the others) and whether the Muss-Regel applied.
    Rows: every person with a turn or a Schock-Aus, by name. Four queries at most.
    """
    rules = season_rules(season)
    games = Game.objects.filter(evening__season=season)
    throws = list(
        RoundThrow.objects.filter(round__game__evening__season=season)
        .select_related("player")
        .order_by("round_id", "position")
    )
    rows: dict[int, MemberSchockAusStats] = {}
    _count_turns(throws, rules, rows)
    totals = dict(
        SchockAus.objects.filter(game__evening__season=season)
        .values_list("thrower")
        .annotate(n=Count("id"))
    )
    missing = Member.objects.in_bulk([m for m in totals if m not in rows])
    for member_id, count in totals.items():
        if member_id not in rows:
            rows[member_id] = MemberSchockAusStats(member=missing[member_id])
        rows[member_id].schock_aus_total = count
    counts = games.aggregate(
        total=Count("pk"), rounds=Count("pk", filter=Q(entry_mode=Game.EntryMode.ROUNDS))
    )
    return SchockAusStats(
        season=season,
        rules=rules,
        rows=sorted(rows.values(), key=lambda r: r.member.name),
        games_with_rounds=counts["rounds"],
        games_total=counts["total"],
    )
