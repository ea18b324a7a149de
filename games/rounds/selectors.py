"""Reads of games entered round by round: where the entry of the next game starts, the rounds
entered so far played through the engine (``game_rounds_play``: the entry page's preview and
the check ``games.rounds.services.game_record_rounds`` writes from), a stored game's rounds
(for the page, replayed through the engine, and as rows for the API), the exact odds, and
the members' Schock-Aus statistics.

Everything Schocken-specific is answered by ``games.rules`` (the engine replays stored
rounds, ``games.rules.odds`` gives the exact probabilities); this module only loads rows and
shapes the answers for the pages and the API.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.selectors import (
    next_game_number,
    next_vorleger,
)
from games.rounds.feedback import CATEGORY_LABELS, describe_throw, rounds_played, turn_text
from games.rounds.models import Round, RoundThrow
from games.rules import PRESETS, Attempt, Category, RuleSet, RuleViolation, Throw, preset_name
from games.rules.engine import (
    GAME,
    SECOND_HALF,
    Ausscheidung,
    AusscheidungStep,
    ChooseOpener,
    Join,
    Leave,
    RoundOutcome,
    TakeDeckel,
)
from games.rules.engine import Game as EngineGame
from games.rules.odds import (
    attempt_category_odds,
    odds_rows,
    turn_category_odds,
    turn_schock_aus_probability,
)
from games.rules.simulator import SimulationMeasures, simulate_statistics
from league.club.caching import KeptRead
from league.club.errors import BooksError
from league.club.models import Member, Season
from league.club.statutes import season_rules, season_statutes


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
    result: dict[str, Any]

    @property
    def turn_text(self) -> str:
        """The detailed turn in the entry form's notation, e.g. "145:1 / 61:1 / 1"."""
        return turn_text(self.row.turn)


@dataclass
class StoredRound:
    row: Round
    throws: list[StoredThrow]
    summary: dict[str, Any] | None = None


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


#: The odds simulation of a rule set: nothing of a club (the call adds a digest of the
#: flags and the simulation's size); a day, so a new simulator shows soon.
ODDS_SIMULATION = KeptRead("odds-simulation", depends=(), seconds=24 * 60 * 60)


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
    return ODDS_SIMULATION.cached(digest, build=lambda: _odds(rules))


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


@dataclass(frozen=True)
class ThrowInput:
    """One player's throw in a round, as the secretary entered it.

    Either a final throw: ``dice`` (three ints 1..6), ``attempts`` (1..3) and ``natural``
    ("aus der Hand"); or the turn in detail: ``turn``, a list of attempts
    ``{"rolled": [...], "keep": [...], "umwandlung": 0|1|2}`` (docs/rules.md 3). When ``turn`` is
    given, ``dice``/``attempts``/``natural`` are ignored.
    """

    player: Member
    dice: Sequence[int] | None = None
    attempts: int | None = None
    natural: bool = True
    turn: Sequence[dict[str, Any]] | None = None

    @property
    def detailed(self) -> bool:
        return self.turn is not None


#: The kinds of entry (docs/rules.md 4); all but "round" need their rule-set flag.
KINDS = ("round", "ausscheidung", "deckel_nehmen", "choose_opener", "join", "leave")


@dataclass(frozen=True)
class RoundInput:
    """One entry of the game, in the order it happened (docs/rules.md 4).

    ``kind``: ``"round"`` (``throws`` in throwing order, the Vorleger first);
    ``"ausscheidung"`` (one throw of one attempt, natural, per player: everyone at first,
    then only the tied); ``"deckel_nehmen"`` (``throws`` of the players before the taker,
    ``player`` the taker, ``covered`` its covered dice or None, ``not_thrown`` the players
    after the taker in throwing order, who did not throw: only read for the seating when
    no round or Ausscheidung precedes); ``"choose_opener"``
    (``player`` opens the second half); ``"join"`` (``player`` joins, seated after
    ``after`` or last); ``"leave"`` (``player``, who has received no Deckel in this game,
    leaves).
    """

    throws: Sequence[ThrowInput] = ()
    kind: str = "round"
    player: Member | None = None
    after: Member | None = None
    covered: Sequence[int] | None = None
    not_thrown: Sequence[Member] = ()


@dataclass(frozen=True)
class PlayedEntry:
    """What the engine made of one entry: ``kind``, the ``phase`` it was entered in,
    ``outcome`` (a RoundOutcome for rounds, Deckel nehmen and the deciding Ausscheidung
    step, else None), ``step`` (the AusscheidungStep, else None), ``player``/``after``
    (the entry's: taker, opener, who joins after whom, who leaves)."""

    kind: str
    phase: str
    outcome: RoundOutcome | None = None
    step: AusscheidungStep | None = None
    player: Member | None = None
    after: Member | None = None


@dataclass
class RoundsPlay:
    """The rounds entered so far, played through the engine (see ``game_rounds_play``).

    Fields:
        rules: the season's rule set; ``number``: the game's number in the evening;
        schock_aus_before: the evening's Schock-Aus in games numbered below this one;
        last_game: this game is the evening's last (the Muss-Regel applies throughout);
        outcomes: one engine ``RoundOutcome`` per round (players as Members, see
            ``player``); ``finished``, ``loser`` (Member or None), ``schock_aus``
            (Members in throwing order); ``next_order``: the next round's throwing order
            (Members) while the game is not over; ``deckel``: Member -> Deckel now;
            ``stock``: Deckel left in the stock; ``schock_aus_in_game``: Schock-Aus so far;
        entries: one ``PlayedEntry`` per entry (``outcomes`` are those of them that
            settled a round); ``tied``: Members tied in the Ausscheidung, who throw again;
        phase: the engine's phase now; ``opener_open``: the second half's opener may be
            chosen now (``opener_choice``); ``first_vorleger``: who opens the game (the
            first thrower of the first entry with throws).
    """

    rules: RuleSet
    number: int
    schock_aus_before: int
    last_game: bool
    outcomes: list[RoundOutcome] = field(default_factory=list)
    finished: bool = False
    loser: Member | None = None
    schock_aus: list[Member] = field(default_factory=list)
    next_order: list[Member] = field(default_factory=list)
    deckel: dict[Member, int] = field(default_factory=dict)
    stock: int = 0
    people: dict[str, Member] = field(default_factory=dict)
    entries: list[PlayedEntry] = field(default_factory=list)
    tied: list[Member] = field(default_factory=list)
    phase: str = GAME
    opener_open: bool = False
    first_vorleger: Member | None = None

    def player(self, key: str) -> Member:
        """The Member behind an engine player key."""
        return self.people[key]

    @property
    def schock_aus_in_game(self) -> int:
        return len(self.schock_aus)


def evening_game_context(*, evening: Evening, number: int) -> tuple[int, bool]:
    """What the Muss-Regel needs to know about game ``number`` of ``evening`` (docs/rules.md 3/5):
    the evening's Schock-Aus thrown in games numbered below it, and whether it is the
    evening's last game (number >= five games per present club member)."""
    before = SchockAus.objects.filter(game__evening=evening, game__number__lt=number).count()
    members = evening.attendances.filter(role=Attendance.Role.MEMBER).count()
    return before, number >= season_statutes(evening.season).games_expected(present_members=members)


def player_key(member: Member) -> str:
    """The engine's name of a player: the member's name (the engine names players in its
    messages; names are unique within a club)."""
    return member.name


def _violation(exc: RuleViolation, field_name: str) -> BooksError:
    return BooksError(exc.code, str(exc), field=field_name)


# What the engine takes for one throw: a final throw, or the turn attempt by attempt.
Entry = Throw | list[Attempt]


def _entry(throw: ThrowInput, field_name: str) -> Entry:
    try:
        if throw.detailed:
            return [Attempt.from_mapping(a) for a in throw.turn or ()]
        if throw.dice is None or throw.attempts is None:
            raise BooksError(
                "throw_missing",
                _("Enter the dice and the attempts of this throw."),
                field=field_name,
            )
        return Throw(list(throw.dice), throw.attempts, bool(throw.natural))
    except RuleViolation as exc:
        raise _violation(exc, field_name) from exc
    except (TypeError, AttributeError) as exc:
        raise BooksError(
            "invalid_entry", _("This throw cannot be read."), field=field_name
        ) from exc


def _locate(game: EngineGame, entries: list[Entry], rules: RuleSet) -> int | None:
    """The position of the first throw of a round the rules refuse on its own, so that the
    error can be shown at that throw. Only locates: the engine's answer stands."""
    from games.rules import validate_throw, validate_turn

    cap = rules.max_attempts
    in_round = 0
    for j, entry in enumerate(entries):
        muss = game.muss_regel_applies(in_round)
        try:
            used = entry.attempts if isinstance(entry, Throw) else len(entry)
            if j > 0 and used > cap:
                return j
            if isinstance(entry, Throw):
                thrown = validate_throw(entry, rules, max_attempts=cap, muss_regel=muss)
            else:
                thrown = validate_turn(entry, rules, max_attempts=cap, muss_regel=muss)
        except RuleViolation:
            return j
        if j == 0:
            cap = thrown.attempts
        if thrown.dice == (1, 1, 1):
            in_round += 1
    return None


# Engine refusals about the round as a whole (order, completeness, the game being over).
_ROUND_CODES = {"game_finished", "player_missing", "vorleger_not_first", "not_seating_order"}


def _where(
    exc: RuleViolation,
    game: EngineGame,
    pairs: list[tuple[str, Entry]],
    entries: list[Entry],
    rules: RuleSet,
) -> int | None:
    """The index of the refused throw in the round (None: the round as a whole)."""
    code = exc.code
    if code in _ROUND_CODES:
        return None
    keys = [k for k, _e in pairs]
    player = getattr(exc, "player", None)
    if player in keys:
        if code == "duplicate_player":
            return len(keys) - 1 - keys[::-1].index(player)
        return keys.index(player)
    if code in ("player_out", "unknown_player"):
        return next((j for j, k in enumerate(keys) if k in game.out or k not in game.players), None)
    if code == "duplicate_player":
        return next((j for j, k in enumerate(keys) if k in keys[:j]), None)
    return _locate(game, entries, rules)


def _check_players(evening: Evening, rounds: Sequence[RoundInput], play: RoundsPlay) -> None:
    """Every entry is of a known kind, rounds and Ausscheidung steps have throws, actions
    name their player, everyone named was present; `play.people` learns them."""
    if not rounds:
        raise BooksError("no_rounds", _("Enter at least one round."), field="rounds")
    present = set(
        evening.attendances.exclude(role=Attendance.Role.ABSENT).values_list("member_id", flat=True)
    )

    def seen(member: Member, field_name: str) -> None:
        if member.pk not in present:
            raise BooksError(
                "player_not_present",
                _("%(name)s was not present at this evening.") % {"name": member.name},
                field=field_name,
            )
        play.people[player_key(member)] = member

    for i, round_input in enumerate(rounds):
        if round_input.kind not in KINDS:
            raise BooksError("invalid_kind", _("Unknown kind of entry."), field=f"rounds[{i}]")
        if round_input.kind in ("round", "ausscheidung") and not round_input.throws:
            raise BooksError("empty_round", _("This round has no throws."), field=f"rounds[{i}]")
        if round_input.kind not in ("round", "ausscheidung"):
            if round_input.player is None:
                raise BooksError(
                    "entry_player_missing",
                    _("Choose the player of this entry."),
                    field=f"rounds[{i}].player",
                )
            seen(round_input.player, f"rounds[{i}].player")
        if round_input.after is not None:
            seen(round_input.after, f"rounds[{i}].after")
        for member in round_input.not_thrown:
            seen(member, f"rounds[{i}].not_thrown")
        for j, throw in enumerate(round_input.throws):
            seen(throw.player, f"rounds[{i}].throws[{j}]")


def _start_game(
    rounds: Sequence[RoundInput], rules: RuleSet, before: int, last_game: bool
) -> EngineGame:
    """The engine's game at its start (docs/rules.md 4): the seating is the throwing order of
    the first full entry (a round or the Ausscheidung), less the players who join before
    it; it opens with the first thrower of the first entry with throws (a Deckel-nehmen
    round lists only the players before the taker, so the seating turns to start there;
    without a full entry, a Deckel-nehmen round's throwers, taker and ``not_thrown``).

    Raises BooksError ``no_rounds`` (no entry has throws) and the engine's codes of
    ``Game`` at ``rounds[k]`` (k: the full entry)."""
    thrown = [k for k, r in enumerate(rounds) if r.throws]
    full = [k for k in thrown if rounds[k].kind in ("round", "ausscheidung")]
    if not thrown:
        raise BooksError("no_rounds", _("Enter at least one round."), field="rounds")
    k = full[0] if full else thrown[0]
    joined = {player_key(r.player) for r in rounds[:k] if r.kind == "join" and r.player is not None}
    seated = [t.player for t in rounds[k].throws]
    taker = rounds[k].player
    if not full and rounds[k].kind == "deckel_nehmen" and taker is not None:
        seated += [taker, *rounds[k].not_thrown]
    seats = [player_key(m) for m in seated if player_key(m) not in joined]
    opener = player_key(rounds[thrown[0]].throws[0].player)
    if opener in seats:
        at = seats.index(opener)
        seats = seats[at:] + seats[:at]
    try:
        return EngineGame(
            seats, rules, seats[0] if seats else None, schock_aus_so_far=before, last_game=last_game
        )
    except RuleViolation as exc:
        raise _violation(exc, f"rounds[{k}]") from exc


def _engine_item(
    round_input: RoundInput, pairs: list[tuple[str, Entry]]
) -> Ausscheidung | TakeDeckel | ChooseOpener | Join | Leave | list[tuple[str, Entry]]:
    """One entry as ``Game.apply`` takes it (docs/rules.md 4): the round's pairs, or an action."""
    kind = round_input.kind
    who = player_key(round_input.player) if round_input.player is not None else ""
    if kind == "ausscheidung":
        return Ausscheidung(pairs)
    if kind == "deckel_nehmen":
        covered = None if round_input.covered is None else list(round_input.covered)
        return TakeDeckel(who, pairs, covered)
    if kind == "choose_opener":
        return ChooseOpener(who)
    if kind == "join":
        after = player_key(round_input.after) if round_input.after is not None else None
        return Join(who, after)
    if kind == "leave":
        return Leave(who)
    return pairs


def _play_entry(game: EngineGame, i: int, round_input: RoundInput, rules: RuleSet) -> PlayedEntry:
    """Apply entry ``i`` to ``game``; a refusal becomes a BooksError at the refused throw
    (``rounds[i].throws[j]``), the entry's player (``rounds[i].player``) or the entry."""
    entries = [_entry(t, f"rounds[{i}].throws[{j}]") for j, t in enumerate(round_input.throws)]
    pairs = [(player_key(t.player), e) for t, e in zip(round_input.throws, entries, strict=True)]
    phase = game.phase
    try:
        result = game.apply(_engine_item(round_input, pairs))
    except RuleViolation as exc:
        keys = [k for k, _e in pairs]
        player = getattr(exc, "player", None)
        if round_input.kind == "round":
            where = _where(exc, game, pairs, entries, rules)
        else:
            where = keys.index(player) if player in keys else None
        if where is not None:
            raise _violation(exc, f"rounds[{i}].throws[{where}]") from exc
        named = round_input.player is not None and player == player_key(round_input.player)
        raise _violation(exc, f"rounds[{i}].player" if named else f"rounds[{i}]") from exc
    named = {"player": round_input.player, "after": round_input.after}
    if isinstance(result, AusscheidungStep):
        return PlayedEntry(round_input.kind, phase, result.outcome, result, **named)
    return PlayedEntry(round_input.kind, phase, result, **named)


def _engine_replay(play: RoundsPlay, rounds: Sequence[RoundInput]) -> EngineGame:
    """Play ``rounds`` through a new engine game with ``play``'s rules and evening context
    (``play.people`` knows every Member named); fill ``play``. Returns the engine's game.
    Raises BooksError as ``game_rounds_play`` (not ``game_not_finished``)."""
    game = _start_game(rounds, play.rules, play.schock_aus_before, play.last_game)
    play.first_vorleger = play.player(game.vorleger)
    for i, round_input in enumerate(rounds):
        played = _play_entry(game, i, round_input, play.rules)
        play.entries.append(played)
        if played.outcome is not None:
            play.outcomes.append(played.outcome)
    _note_state(play, game)
    return game


def rounds_replay(*, rounds: Sequence[RoundInput], rules: RuleSet) -> RoundsPlay:
    """Replay stored entries (``RoundInput``s built from ``Round`` rows) with ``rules``, no
    evening context (number 0, no Schock-Aus before, not the last game), for the stored
    rounds page (docs/rules.md 4). Raises BooksError when the engine refuses them."""
    play = RoundsPlay(rules=rules, number=0, schock_aus_before=0, last_game=False)
    for round_input in rounds:
        for member in [t.player for t in round_input.throws] + [
            round_input.player,
            round_input.after,
        ]:
            if member is not None:
                play.people[player_key(member)] = member
    _engine_replay(play, rounds)
    return play


def _note_state(play: RoundsPlay, game: EngineGame) -> None:
    """Copy the engine's state after the entered rounds into `play` (as Members)."""
    play.finished = game.finished
    play.loser = play.player(game.loser) if game.finished and game.loser else None
    play.schock_aus = [play.player(k) for k in game.schock_aus]
    play.stock = game.stock
    play.deckel = {play.player(k): n for k, n in game.deckel.items()}
    play.tied = [play.player(k) for k in game.ausscheidung_tied]
    play.phase = game.phase
    play.opener_open = (
        game.rules.opener_choice
        and not game.finished
        and game.phase == SECOND_HALF
        and not any(o.phase == SECOND_HALF for o in game.rounds)
    )
    if not game.finished:
        play.next_order = [play.player(k) for k in game.throwing_order()]


def game_rounds_play(
    *,
    evening: Evening,
    rounds: Sequence[RoundInput],
    number: int | None = None,
    require_finished: bool = True,
) -> RoundsPlay:
    """Play the entered rounds and actions of game ``number`` (default: the evening's next)
    through the engine with the season's rule set (``season_rules``), without writing.

    ``rounds``: the entries in the order they happened (``RoundInput``; docs/rules.md 4). With
    ``require_finished=False`` they may stop before the game is over (the entry page uses
    this to show the state and pre-fill the next round).

    Raises BooksError (field ``rounds[i]``, ``rounds[i].player`` or
    ``rounds[i].throws[j]``, 0-based): ``no_rounds``, ``invalid_kind``, ``empty_round``,
    ``entry_player_missing``, ``player_not_present``, ``throw_missing``,
    ``invalid_entry``, every RuleViolation code of the engine and of
    ``validate_throw``/``validate_turn`` (e.g. ``more_attempts_than_vorleger``,
    ``muss_regel_broken``, ``player_out``, ``not_seating_order``, ``game_finished``; for
    the seed actions ``ausscheidung_off``, ``ausscheidung_tied``, ``player_not_tied``,
    ``deckel_nehmen_off``, ``covered_throw_mismatch``, ``opener_choice_off``,
    ``opener_not_now``, ``einwuerfeln_off``, ``leave_with_deckel``, ``leave_after_deckel``,
    ``join_after_leave``, ...) and ``game_not_finished``.
    """
    rules = season_rules(evening.season)
    number = next_game_number(evening=evening) if number is None else number
    before, last_game = evening_game_context(evening=evening, number=number)
    play = RoundsPlay(rules=rules, number=number, schock_aus_before=before, last_game=last_game)
    _check_players(evening, rounds, play)
    game = _engine_replay(play, rounds)
    if not game.finished and require_finished:
        raise BooksError(
            "game_not_finished",
            _("The game is not over yet: nobody holds all %(total)s Deckel.")
            % {"total": rules.deckel_total},
            field="rounds",
        )
    return play
