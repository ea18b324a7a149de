"""Simulated Schocken: whole games and evenings with random dice and a plain strategy.

The app's demo data comes from ``simulate_evening``; the odds page checks its exact figures
against ``simulate_turns``. Everything is driven by one ``random.Random``, so a seed always
plays the same evening, with or without ``record``.

The plain strategy (the same for every rule set; docs/rules.md sections 3 and 4). Its
parameters live in ONE place, the frozen dataclass ``Strategy`` (``DEFAULT_STRATEGY``):

- Keep ones: after an attempt that is not the last, every one just rolled is laid out.
- Umwandlung (where ``rules.umwandlung``): when the player goes on and the roll shows two
  sixes, one of them becomes a laid-out one (three sixes: two ones); the other six goes
  back into the cup. It is never taken by a player who would stand, since a turn may not
  end right after it.
- Muss-Regel (club preset): while it applies and an attempt is left, a showing one or a
  roll with two sixes (with Umwandlung) forces the player on (ones laid out, Umwandlung
  taken). Whether it applies is ``muss_regel_applies``: no Schock-Aus yet this evening, the
  count at 4, 9, 14, ..., or the evening's last game.
- Vorleger: stands on a Straße or better (Straße, General, Schock, Jule, Schock-Aus, as the
  rule set evaluates the throw, collected Straße and General included where they count) at
  any attempt, and from the second attempt on also on a Hausnummer of at least
  ``Strategy.vorleger_hausnummer`` (600). The attempts the Vorleger used cap every later
  player's.
- Later players stop as soon as their throw is not the round's current loser, i.e. it
  beats the worst throw so far by the round's comparison (section 2; a full tie counts as
  losing, since the later thrower loses it).
- Three ones end a turn at once; the last allowed attempt ends it anyway.
- ``ausscheidung``: everyone throws once before the game's (first half's) first round;
  tied worst throws throw again (``engine.Game.play_ausscheidung``).
- ``deckel_nehmen``: a later player takes the Deckel instead of throwing when the Vorleger
  stood after one attempt and the round's worst throw so far is at least a Schock
  ``Strategy.take_deckel_against`` (3: seed 000's example), never against a Schock-Aus.
  Its covered throw is simply the next round's first roll.
- ``opener_choice``: the first half's loser names the player on its left (the next seat
  clockwise) to open the second half (``Strategy.name_opener = "left"``; ``"self"`` keeps
  the default).
- ``einwuerfeln``: the last seat (the one before it if that is the game's Vorleger) sits
  out at first and joins the game or first half after ``Strategy.join_after_rounds``
  rounds while the stock holds Deckel, else at the second half's start; nobody leaves
  (leaving without Deckel changes nothing a simulation measures).

Speed: the hot path (``_play_round``, one call per round) rolls the dice of one attempt
with a single ``random()`` call and reads everything else from tables built once per rule
set and strategy (``StrategyTables``, ``_turn_keys``); the Deckel flow (``_play_part``)
runs on plain ints, not on ``engine.Game`` (tests replay simulated games through the
engine, with ``SimulatedGame.replay_items``, to show both agree).
bench/bench_simulator.py prints the games per second. ``record=True`` also keeps every
round with every turn as ``Attempt`` objects; the dice are the same, so a seed plays the
same games either way.

``simulate_statistics`` plays N games of a rule set and reports what the odds page shows
beside the exact odds: the Vorleger's loss rate, the game opener's loss rate, rounds and
Schock-Aus per game, and the same with the Muss-Regel off.

Standard library only (docs/rules.md section 7).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import NamedTuple, TypeAlias

from .engine import (
    FINAL,
    FIRST_HALF,
    GAME,
    SECOND_HALF,
    Ausscheidung,
    ChooseOpener,
    GameAction,
    Join,
    RoundEntries,
    TakeDeckel,
)
from .errors import RuleViolation
from .ruleset import PRESETS, RuleSet
from .throws import Category, Throw, evaluate, rank
from .turns import Attempt, muss_regel_applies

__all__ = [
    "DEFAULT_STRATEGY",
    "GAMES_PER_MEMBER",
    "VORLEGER_HAUSNUMMER",
    "SimulatedEvening",
    "SimulatedGame",
    "SimulatedRound",
    "SimulatedTurn",
    "SimulationMeasures",
    "SimulationStatistics",
    "Strategy",
    "StrategyTables",
    "simulate_evening",
    "simulate_game",
    "simulate_statistics",
    "simulate_turns",
    "strategy_tables",
    "vorleger_goes_on",
]

#: Games per present club member and evening (docs/rules.md section 5, seed 003).
GAMES_PER_MEMBER = 5


@dataclass(frozen=True)
class Strategy:
    """Every parameter of the plain strategy (module docstring), in one place.

    Attributes:
        vorleger_hausnummer: from the second attempt on, the Vorleger stands on a
            Hausnummer of at least this (600); it always stands on a Straße or better.
        later_player_stops_when_not_losing: a later player stops as soon as its throw beats
            the round's worst throw so far (True, the only strategy implemented: a later
            player always goes on while it would lose).
        take_deckel_against: ``deckel_nehmen``: a later player takes the Deckel when the
            Vorleger stood after one attempt and the worst throw so far is at least a
            Schock of this value (3..6; 7 never takes).
        name_opener: ``opener_choice``: ``"left"`` (the next seat clockwise from the first
            half's loser) or ``"self"`` (the first half's loser, the default of the rule).
        join_after_rounds: ``einwuerfeln``: rounds after which the late player joins the
            game or first half; None: nobody joins late.

    Raises:
        ValueError for a parameter out of range.
    """

    vorleger_hausnummer: int = 600
    later_player_stops_when_not_losing: bool = True
    take_deckel_against: int = 3
    name_opener: str = "left"
    join_after_rounds: int | None = 2

    def __post_init__(self) -> None:
        if not 221 <= self.vorleger_hausnummer <= 667:
            raise ValueError(f"vorleger_hausnummer 221..667, not {self.vorleger_hausnummer!r}")
        if self.later_player_stops_when_not_losing is not True:
            raise ValueError("only later players who stop when not losing are implemented")
        if not 2 <= self.take_deckel_against <= 7:
            raise ValueError(f"take_deckel_against 2..7, not {self.take_deckel_against!r}")
        if self.name_opener not in ("left", "self"):
            raise ValueError(f"name_opener 'left' or 'self', not {self.name_opener!r}")
        if self.join_after_rounds is not None and self.join_after_rounds < 0:
            raise ValueError(f"join_after_rounds >= 0 or None, not {self.join_after_rounds!r}")


#: The strategy of ``simulate_game``, ``simulate_evening`` and ``odds`` unless told otherwise.
DEFAULT_STRATEGY = Strategy()
#: From the second attempt on, the Vorleger stands on a Hausnummer of at least this.
VORLEGER_HAUSNUMMER = DEFAULT_STRATEGY.vorleger_hausnummer

# Offsets of the three roll tables in the flat per-rule-set arrays: index = _BASE[c] + r,
# c = ones laid out before the attempt (the strategy lays out nothing else), r = the
# rolled dice encoded base 6 (die j is (r // 6**j) % 6 + 1).
_BASE = (0, 216, 252)
_SIZE = (216, 36, 6)
_TABLE_LEN = 258
_NO_WORST = 1 << 30


@dataclass(frozen=True)
class StrategyTables:
    """Per-rule-set lookup tables of the plain strategy, indexed ``_BASE[c] + r``.

    Attributes (all tuples of length 258):
        rolled: the dice rolled, in roll order.
        dice: the final dice if the player stands (laid-out ones plus the roll).
        natural: whether those dice are a natural throw (nothing laid out).
        strength: ``rank * 4 + koenig * 2 + natural_bonus`` of the final throw; compares
            like ``round_key`` without attempts and position.
        worth: Deckel the final throw is worth.
        schock_aus: the final dice are 1-1-1.
        forced: the Muss-Regel forces the player on (a one showing, or two sixes rolled
            where Umwandlung is played).
        next_kept: ones laid out after the attempt when the player goes on (keep ones,
            Umwandlung of two or three sixes where played).
        keep: the rolled dice laid out when going on (the ones).
        umwandlung: ones made by Umwandlung when going on (0, 1, 2).
        stand_from: the earliest attempt (1 or 2) on which a Vorleger stands on this throw,
            or 4 for never.
        fewer_attempts_win_ties: the rule set's flag.
        take_deckel_key: ``deckel_nehmen``: a later player takes the Deckel when the worst
            key so far is at least this (``_NO_WORST`` when it never does).
    """

    rolled: tuple[tuple[int, ...], ...]
    dice: tuple[tuple[int, int, int], ...]
    natural: tuple[bool, ...]
    strength: tuple[int, ...]
    worth: tuple[int, ...]
    schock_aus: tuple[bool, ...]
    forced: tuple[bool, ...]
    next_kept: tuple[int, ...]
    keep: tuple[tuple[int, ...], ...]
    umwandlung: tuple[int, ...]
    stand_from: tuple[int, ...]
    fewer_attempts_win_ties: bool
    take_deckel_key: int = _NO_WORST


_TABLES: dict[tuple[RuleSet, Strategy], StrategyTables] = {}


def _decode(r: int, n: int) -> tuple[int, ...]:
    return tuple((r // 6**j) % 6 + 1 for j in range(n))


def _strength(throw: Throw, rules: RuleSet) -> int:
    is_schock_aus = throw.dice == (1, 1, 1)
    koenig = 1 if (rules.koenigswurf and is_schock_aus and throw.natural) else 0
    natural = 1 if (rules.natural_wins_ties and throw.natural) else 0
    return rank(throw, rules) * 4 + koenig * 2 + natural


class _TableRow(NamedTuple):
    """One index of ``StrategyTables``: a roll of ``3 - c`` dice after ``c`` ones laid out.

    The fields are those of ``StrategyTables`` of the same name, at that index.
    """

    rolled: tuple[int, ...]
    dice: tuple[int, int, int]
    natural: bool
    strength: int
    worth: int
    schock_aus: bool
    forced: bool
    next_kept: int
    keep: tuple[int, ...]
    umwandlung: int
    stand_from: int


def _table_row(rules: RuleSet, strategy: Strategy, kept: int, r: int) -> _TableRow:
    """The plain strategy's entry for roll ``r`` (base 6, see ``_BASE``) after ``kept`` ones
    laid out (0..2), under ``rules`` (docs/rules.md 1 for the throw, 3 for Umwandlung and the
    Muss-Regel; module docstring for the strategy)."""
    n = 3 - kept
    rolled = _decode(r, n)
    natural = kept == 0
    # attempts=3 is valid for natural and collected throws alike; rank ignores it.
    throw = Throw((1,) * kept + rolled, 3, natural)
    evaluation = evaluate(throw, rules)
    ones = rolled.count(1)
    sixes = rolled.count(6)
    umwandlung = (2 if sixes == 3 else 1 if sixes == 2 else 0) if rules.umwandlung else 0
    if evaluation.category is not Category.HAUSNUMMER:
        stand_from = 1
    elif evaluation.value >= strategy.vorleger_hausnummer:
        stand_from = 2
    else:
        stand_from = 4
    return _TableRow(
        rolled=rolled,
        dice=throw.dice,
        natural=natural,
        strength=_strength(throw, rules),
        worth=evaluation.deckel,
        schock_aus=evaluation.category is Category.SCHOCK_AUS,
        forced=kept > 0 or ones > 0 or umwandlung > 0,
        next_kept=kept + ones + umwandlung,
        keep=(1,) * ones,
        umwandlung=umwandlung,
        stand_from=stand_from,
    )


def _take_deckel_key(rules: RuleSet, strategy: Strategy) -> int:
    """``StrategyTables.take_deckel_key``: the least worst key, one attempt used, against
    which a later player takes the Deckel (docs/rules.md 4, ``deckel_nehmen``); ``_NO_WORST``
    when the rule set does not play it or the strategy never takes."""
    if not (rules.deckel_nehmen and strategy.take_deckel_against <= 6):
        return _NO_WORST
    schock = Throw((1, 1, strategy.take_deckel_against))
    # A worst throw of one attempt: key = strength * 4 + bonus[1] (see _turn_keys).
    return _strength(schock, rules) * 4 + (2 if rules.fewer_attempts_win_ties else 0)


def strategy_tables(rules: RuleSet, strategy: Strategy = DEFAULT_STRATEGY) -> StrategyTables:
    """The plain strategy's lookup tables for ``rules``, built once and cached."""
    key = (rules, strategy)
    tables = _TABLES.get(key)
    if tables is not None:
        return tables
    rows = [
        _table_row(rules, strategy, kept, r) for kept in range(3) for r in range(6 ** (3 - kept))
    ]
    tables = StrategyTables(
        rolled=tuple(row.rolled for row in rows),
        dice=tuple(row.dice for row in rows),
        natural=tuple(row.natural for row in rows),
        strength=tuple(row.strength for row in rows),
        worth=tuple(row.worth for row in rows),
        schock_aus=tuple(row.schock_aus for row in rows),
        forced=tuple(row.forced for row in rows),
        next_kept=tuple(row.next_kept for row in rows),
        keep=tuple(row.keep for row in rows),
        umwandlung=tuple(row.umwandlung for row in rows),
        stand_from=tuple(row.stand_from for row in rows),
        fewer_attempts_win_ties=rules.fewer_attempts_win_ties,
        take_deckel_key=_take_deckel_key(rules, strategy),
    )
    _TABLES[key] = tables
    return tables


@dataclass(frozen=True)
class SimulatedTurn:
    """One simulated turn (kept with ``record=True``).

    Attributes:
        player: who threw.
        throw: the final ``Throw``.
        attempts: the turn in detail, a tuple of ``Attempt`` (``validate_turn`` accepts it
            with ``max_attempts`` and ``muss_regel`` below).
        max_attempts: the cap of the turn (the rule set's for the Vorleger, else the
            Vorleger's attempts; 1 in the Ausscheidung).
        muss_regel: the Muss-Regel applied to the turn.
    """

    player: str
    throw: Throw
    attempts: tuple[Attempt, ...]
    max_attempts: int
    muss_regel: bool


@dataclass(frozen=True)
class SimulatedRound:
    """One simulated round: ``phase`` (as ``Game.phase``) and its turns in throwing order.

    ``kind`` is ``"round"``, ``"deckel_nehmen"`` (``taken_by`` took the Deckel; its turn is
    not among ``turns``) or ``"ausscheidung"`` (one step: everyone's or the tied players'
    one throw; ``tied`` names who throw again, and then ``loser`` is None).
    ``entries()`` gives the turns as ``Game.play_round`` takes them, with attempts in
    detail (``detail=True``) or final throws; ``replay_item()`` the whole round as
    ``Game.apply`` takes it.
    """

    phase: str
    turns: tuple[SimulatedTurn, ...]
    winner: str
    loser: str | None
    schock_aus: tuple[str, ...]
    kind: str = "round"
    taken_by: str | None = None
    tied: tuple[str, ...] = ()

    def entries(self, detail: bool = False) -> list[tuple[str, object]]:
        """The round as ordered ``(player, Throw or attempts)`` pairs for the engine."""
        if detail:
            return [(t.player, list(t.attempts)) for t in self.turns]
        return [(t.player, t.throw) for t in self.turns]

    def replay_item(self, detail: bool = False) -> RoundEntries | GameAction:
        """The round as ``Game.apply`` / ``replay_game`` take it."""
        pairs: list[tuple[str, Throw | Sequence[Attempt]]] = [
            (t.player, list(t.attempts) if detail else t.throw) for t in self.turns
        ]
        if self.kind == "ausscheidung":
            return Ausscheidung(pairs)
        if self.kind == "deckel_nehmen":
            assert self.taken_by is not None
            return TakeDeckel(self.taken_by, pairs)
        return pairs


@dataclass(frozen=True)
class SimulatedGame:
    """One simulated game.

    Attributes:
        players: seating order of everyone who played (a late joiner included).
        vorleger: who opened the game (the last game's loser or the secretary; with an
            Ausscheidung its loser opens the first round).
        loser: who lost it (opens the next game).
        schock_aus: Schock-Aus throwers in throwing order.
        round_count: rounds played (over both halves and the final; a decided Ausscheidung
            and a round ended by Deckel nehmen count as one round each, as in the engine).
        rounds: every ``SimulatedRound`` with ``record=True``, else empty.
        first_half_loser, second_half_loser, blattschuss: halves format only.
        starting_players: who sat at the table at the start (``players`` without a late
            joiner); None means ``players``.
        events: with ``record=True``, every round and action (``Join``, ``ChooseOpener``)
            in order; ``replay_items`` turns them into what ``replay_game`` takes.
        vorleger_rounds, vorleger_lost: rounds that had a Vorleger (every round but the
            Ausscheidung) and how many of them the Vorleger lost.
    """

    players: tuple[str, ...]
    vorleger: str
    loser: str
    schock_aus: tuple[str, ...]
    round_count: int
    rounds: tuple[SimulatedRound, ...] = ()
    first_half_loser: str | None = None
    second_half_loser: str | None = None
    blattschuss: bool = False
    starting_players: tuple[str, ...] | None = None
    events: tuple[SimulatedRound | Join | ChooseOpener, ...] = ()
    vorleger_rounds: int = 0
    vorleger_lost: int = 0

    @property
    def seated(self) -> tuple[str, ...]:
        """Who sat at the table when the game began (for ``engine.Game``)."""
        return self.players if self.starting_players is None else self.starting_players

    def replay_items(self, detail: bool = False) -> list[RoundEntries | GameAction]:
        """Every recorded round and action as ``replay_game`` takes them (needs
        ``record=True``): ``replay_game(game.seated, game.replay_items(), rules,
        vorleger=game.vorleger, ...)`` gives the same loser and Schock-Aus."""
        return [
            event.replay_item(detail) if isinstance(event, SimulatedRound) else event
            for event in self.events
        ]


@dataclass(frozen=True)
class SimulatedEvening:
    """One simulated club evening (docs/rules.md section 5).

    Attributes:
        seed: the seed it was played with.
        players: seating order (by default present members, then guests, as given).
        members_present, guests: as given.
        secretary: opened the first game.
        games: ``GAMES_PER_MEMBER`` x present members ``SimulatedGame``s, in order.
    """

    seed: int | str
    players: tuple[str, ...]
    members_present: tuple[str, ...]
    guests: tuple[str, ...]
    secretary: str
    games: tuple[SimulatedGame, ...]

    @property
    def schock_aus(self) -> tuple[str, ...]:
        """The evening's Schock-Aus throwers in throwing order (for ``runden_owed``)."""
        return tuple(name for game in self.games for name in game.schock_aus)


class _Recorder:
    """Collects rounds and actions in record mode; the fast path passes None instead."""

    def __init__(self, tables: StrategyTables, names: Sequence[str]) -> None:
        self.tables = tables
        self.names = names
        self.phase = GAME
        self.events: list[SimulatedRound | Join | ChooseOpener] = []
        self.turns: list[SimulatedTurn] = []

    def turn(self, seat: int, path: list[int], k: int, cap: int, muss: bool) -> None:
        t = self.tables
        attempts = []
        for step, index in enumerate(path, start=1):
            if step == len(path):
                attempts.append(Attempt(t.rolled[index]))
            else:
                attempts.append(Attempt(t.rolled[index], t.keep[index], t.umwandlung[index]))
        last = path[-1]
        throw = Throw(t.dice[last], k, t.natural[last])
        self.turns.append(SimulatedTurn(self.names[seat], throw, tuple(attempts), cap, muss))

    def end_round(
        self,
        winner: int,
        loser: int | None,
        schock_aus: Sequence[int],
        kind: str = "round",
        taken_by: int | None = None,
        tied: Sequence[int] = (),
    ) -> None:
        self.events.append(
            SimulatedRound(
                self.phase,
                tuple(self.turns),
                self.names[winner],
                None if loser is None else self.names[loser],
                tuple(self.names[s] for s in schock_aus),
                kind,
                None if taken_by is None else self.names[taken_by],
                tuple(self.names[s] for s in tied),
            )
        )
        self.turns = []

    def action(self, action: Join | ChooseOpener) -> None:
        self.events.append(action)

    @property
    def rounds(self) -> tuple[SimulatedRound, ...]:
        return tuple(e for e in self.events if isinstance(e, SimulatedRound))


@dataclass
class _Part:
    """What one part (game, half or final) needs beyond the tables; mutable tallies."""

    rules: RuleSet
    rng_random: Callable[[], float]
    schock_aus_before: int
    last_game: bool
    schock_aus: list[int]
    recorder: _Recorder | None
    joiner: int | None = None
    join_after: int | None = None
    joined: bool = False
    vorleger_rounds: int = 0
    vorleger_lost: int = 0


def _ausscheidung(
    tables: StrategyTables, part: _Part, order: list[int]
) -> tuple[int, int, int, bool]:
    """Play the Ausscheidung over ``order``: returns (loser, best seat, worth, Schock-Aus
    thrown in it). Ties for the worst throw again, only they (docs/rules.md 4)."""
    strength = tables.strength
    rng_random = part.rng_random
    recorder = part.recorder
    any_schock_aus = False
    seats = order
    while True:
        rolls = [int(rng_random() * 216) for _ in seats]
        keys = [strength[r] for r in rolls]
        worst = min(keys)
        best_key = max(keys)
        best = seats[keys.index(best_key)]
        tied = [s for s, key in zip(seats, keys, strict=True) if key == worst]
        thrown = [s for s, r in zip(seats, rolls, strict=True) if tables.schock_aus[r]]
        if thrown:
            any_schock_aus = True
            part.schock_aus.extend(thrown)
        if recorder is not None:
            for seat, r in zip(seats, rolls, strict=True):
                recorder.turn(seat, [r], 1, 1, False)
            decided = tied[0] if len(tied) == 1 else None
            recorder.end_round(
                best, decided, thrown, "ausscheidung", None, tied if len(tied) > 1 else ()
            )
        if len(tied) == 1:
            return tied[0], best, tables.worth[rolls[keys.index(best_key)]], any_schock_aus
        seats = tied


#: The hot path's per-rule-set tables: ``_turn_keys`` and the ``StrategyTables`` columns
#: ``worth``, ``schock_aus``, ``forced``, ``next_kept``, ``stand_from``.
_Columns: TypeAlias = tuple[
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[bool, ...],
    tuple[bool, ...],
    tuple[int, ...],
    tuple[int, ...],
]
#: A game's constants on the hot path: ``take_deckel_key`` and whether it is ever reached
#: (``deckel_nehmen``), the rule set's ``max_attempts`` and ``muss_regel``, and the game's
#: ``_Part.rng_random``, ``.recorder`` and ``.schock_aus``.
_Constants: TypeAlias = tuple[
    int, bool, int, bool, Callable[[], float], "_Recorder | None", list[int]
]
#: ``_turn_keys`` per ``StrategyTables`` object, by id; each entry keeps its tables alive,
#: so no other object can take the id while it is cached.
_TURN_KEYS: dict[int, tuple[StrategyTables, tuple[tuple[int, ...], ...]]] = {}


def _turn_keys(tables: StrategyTables) -> tuple[tuple[int, ...], ...]:
    """A turn's key by attempts used ``k`` (1..3) and roll ``index`` (see ``_BASE``):
    ``keys[k][index] = strength[index] * 4 + bonus[k]``, ``bonus = (0, 2, 1, 0)`` where
    fewer attempts win ties, else zeros (docs/rules.md 2). Keys compare like ``round_key``
    without the position: the later thrower loses a full tie. Built once per tables: the
    hot path reads a key on nearly every attempt, and a precomputed one allocates nothing.
    """
    cached = _TURN_KEYS.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    # Tie-break on attempts folded into the key: key = strength * 4 + (3 - attempts).
    bonus = (0, 2, 1, 0) if tables.fewer_attempts_win_ties else (0, 0, 0, 0)
    keys = tuple(tuple(s * 4 + b for s in tables.strength) for b in bonus)
    _TURN_KEYS[id(tables)] = (tables, keys)
    return keys


def _hot_path(tables: StrategyTables, part: _Part) -> tuple[_Columns, _Constants]:
    """Bind what ``_play_round`` reads on every turn, once per part, as plain tuples (they
    unpack fastest: a NamedTuple here cost the simulator several per cent)."""
    columns = (
        _turn_keys(tables),
        tables.worth,
        tables.schock_aus,
        tables.forced,
        tables.next_kept,
        tables.stand_from,
    )
    rules = part.rules
    take_key = tables.take_deckel_key
    constants = (
        take_key,
        take_key != _NO_WORST,
        rules.max_attempts,
        rules.muss_regel,
        part.rng_random,
        part.recorder,
        part.schock_aus,
    )
    return columns, constants


def _muss_now(part: _Part) -> bool:
    """Whether the Muss-Regel applies to the next turn (``muss_regel_applies``, docs/rules.md 3
    and 5), counting the evening's Schock-Aus before the game and the game's so far."""
    return muss_regel_applies(
        schock_aus_so_far=part.schock_aus_before + len(part.schock_aus),
        last_game=part.last_game,
        rules=part.rules,
    )


def _play_part(
    tables: StrategyTables,
    part: _Part,
    seats: Sequence[int],
    vorleger: int,
    ausscheidung: bool,
) -> tuple[int, int]:
    """Play one game (single format) or one half or final until someone holds all Deckel.

    ``seats`` are seat indices in seating order, ``vorleger`` one of them. Appends the
    Schock-Aus throwers' seats to ``part.schock_aus``. Returns ``(loser seat, rounds)``.
    Each round is ``_play_round``; the Deckel flow (docs/rules.md 4) is inline, on the hot path.
    """
    columns, constants = _hot_path(tables, part)
    total = part.rules.deckel_total
    deckel = dict.fromkeys(seats, 0)
    if part.joiner is not None:
        deckel[part.joiner] = 0
    active = list(seats)
    stock = total
    rounds = vorleger_rounds = vorleger_lost = 0
    if ausscheidung:
        rounds = 1
        loser, stock, active, over = _open_with_ausscheidung(tables, part, deckel, active, vorleger)
        if over:
            return loser, rounds
        vorleger = loser
    muss = part.rules.muss_regel and _muss_now(part)
    while True:
        if part.joiner is not None and not part.joined and rounds == part.join_after and stock:
            active = _join_late(part, active)
        rounds += 1
        start = active.index(vorleger)
        order = active[start:] + active[:start]
        winner, loser, worth, schock_aus, muss = _play_round(columns, constants, part, order, muss)
        vorleger_rounds += 1
        if loser == order[0]:
            vorleger_lost += 1
        if schock_aus:
            # docs/rules.md 4.4: all 13 Deckel go to the round's loser; the part is over.
            break
        if stock:  # Aufnahme
            moved = worth if worth < stock else stock
            stock -= moved
            deckel[loser] += moved
            if not stock:
                active = [s for s in active if deckel[s]]
        else:  # Ablegen
            moved = worth if worth < deckel[winner] else deckel[winner]
            deckel[winner] -= moved
            deckel[loser] += moved
            if not deckel[winner]:
                active.remove(winner)
        if deckel[loser] == total:
            break
        vorleger = loser
    part.vorleger_rounds += vorleger_rounds
    part.vorleger_lost += vorleger_lost
    return loser, rounds


def _open_with_ausscheidung(
    tables: StrategyTables, part: _Part, deckel: dict[int, int], active: list[int], vorleger: int
) -> tuple[int, int, list[int], bool]:
    """The Ausscheidung before a part's first round (docs/rules.md 4, ``ausscheidung``), from
    ``vorleger`` clockwise over ``active``, and its Aufnahme from the full stock.

    ``deckel`` (seat -> Deckel) changes in place. Returns ``(loser, stock, active, over)``:
    the Ausscheidung's loser (the first round's Vorleger), the stock and active seats
    after it, and whether the part is over (a Schock-Aus was thrown in it, or the loser
    took every Deckel).
    """
    stock = part.rules.deckel_total
    start = active.index(vorleger)
    loser, _best, worth, thrown = _ausscheidung(tables, part, active[start:] + active[:start])
    if thrown:
        return loser, stock, active, True
    # The stock is full before the first round: Aufnahme.
    moved = worth if worth < stock else stock
    stock -= moved
    deckel[loser] += moved
    if not stock:
        active = [s for s in active if deckel[s]]
    return loser, stock, active, deckel[loser] == part.rules.deckel_total


def _join_late(part: _Part, active: list[int]) -> list[int]:
    """``einwuerfeln``: the late player ``part.joiner`` takes its seat with no Deckel
    (docs/rules.md 4; module docstring). Returns the new active seats, in seating order."""
    joiner = _mark_joined(part)
    return sorted(active + [joiner])


def _mark_joined(part: _Part) -> int:
    """The late player ``part.joiner`` has joined (``einwuerfeln``); a ``Join`` after the
    seat before it is recorded. Returns its seat."""
    joiner = part.joiner
    assert joiner is not None
    part.joined = True
    if part.recorder is not None:
        names = part.recorder.names
        part.recorder.action(Join(names[joiner], after=names[joiner - 1]))
    return joiner


def _play_round(
    columns: _Columns, constants: _Constants, part: _Part, order: list[int], muss: bool
) -> tuple[int, int, int, int, bool]:
    """One round over ``order`` (seats, Vorleger first) by the plain strategy (docs/rules.md 2, 3;
    module docstring), the simulator's hot path; ``muss``: the Muss-Regel applies now.

    Returns ``(winner, loser, worth, schock_aus, muss)``: best and worst seat (a taker of
    the Deckel loses), the best throw's Deckel, the number of Schock-Aus thrown (appended
    to ``part.schock_aus``) and ``muss`` for the next round."""
    keys, worth_of, is_schock_aus, forced, next_kept, stand_from = columns
    take_key, can_take, cap, muss_possible, rng_random, recorder, thrown = constants
    base, size = _BASE, _SIZE  # locals are faster than globals, on every attempt
    best, worst = -1, _NO_WORST
    winner = loser = order[0]
    winner_worth = schock_aus = 0
    taker: int | None = None
    first = True
    for seat in order:
        if can_take and not first and cap == 1 and worst >= take_key and not schock_aus:
            taker = loser = seat  # deckel_nehmen: the covered throw stays covered (Strategy)
            break
        kept = k = 0
        path: list[int] | None = [] if recorder is not None else None
        while True:
            k += 1
            index = base[kept] + int(rng_random() * size[kept])
            if path is not None:
                path.append(index)
            if k == cap or is_schock_aus[index]:
                break
            if muss and forced[index]:
                kept = next_kept[index]
                continue
            if first:
                if stand_from[index] <= k:
                    break
            elif keys[k][index] > worst:
                break
            kept = next_kept[index]
        key = keys[k][index]
        if recorder is not None and path is not None:
            recorder.turn(seat, path, k, cap, muss)
        if key > best:
            best = key
            winner = seat
            winner_worth = worth_of[index]
        if key <= worst:
            worst = key
            loser = seat
        if is_schock_aus[index]:
            schock_aus += 1
            thrown.append(seat)
            muss = muss_possible and _muss_now(part)
        if first:
            cap = k
            first = False
    if recorder is not None:
        kind = "round" if taker is None else "deckel_nehmen"
        recorder.end_round(winner, loser, thrown[len(thrown) - schock_aus :], kind, taker)
    return winner, loser, winner_worth, schock_aus, muss


def simulate_game(
    players: Sequence[str],
    rules: RuleSet = PRESETS["club"],
    *,
    rng: random.Random,
    vorleger: str | None = None,
    schock_aus_so_far: int = 0,
    last_game: bool = False,
    record: bool = False,
    strategy: Strategy = DEFAULT_STRATEGY,
) -> SimulatedGame:
    """Play one game with random dice and the plain strategy (module docstring).

    Args:
        players: seating order (clockwise), at least two, no name twice.
        rules: the rule set; ``format`` chooses single game or halves with final, and the
            seed flags are played as the strategy says.
        rng: the source of the dice; the same state plays the same game.
        vorleger: who opens the game (default: the first player).
        schock_aus_so_far: Schock-Aus thrown earlier this evening (for the Muss-Regel).
        last_game: the evening's last game (the Muss-Regel applies throughout).
        record: also keep every round and turn (``SimulatedGame.rounds`` and ``events``);
            same dice.
        strategy: the strategy's parameters (``DEFAULT_STRATEGY``).

    Returns a ``SimulatedGame``. The Deckel flow is that of ``engine.Game`` (docs/rules.md 4);
    replaying ``replay_items()`` through ``replay_game`` gives the same loser and Schock-Aus.

    Raises:
        RuleViolation: ``too_few_players``, ``duplicate_player``, ``unknown_player``.
    """
    names = tuple(players)
    vorleger = _check_table(names, vorleger)
    tables = strategy_tables(rules, strategy)
    seats = tuple(range(len(names)))
    first = names.index(vorleger)
    recorder = _Recorder(tables, names) if record else None
    part = _Part(rules, rng.random, schock_aus_so_far, last_game, [], recorder)
    joiner = _seat_late_joiner(part, strategy, seats, first)
    starting = seats if joiner is None else tuple(s for s in seats if s != joiner)
    if rules.format != "halves":
        loser, rounds = _play_phase(tables, part, GAME, starting, first)
        halves: tuple[int | None, int | None, bool] = (None, None, False)
    else:
        loser, rounds, halves = _play_halves(tables, part, strategy, seats, starting, first)
    return _simulated_game(names, vorleger, part, loser, rounds, halves, starting)


def _check_table(names: tuple[str, ...], vorleger: str | None) -> str:
    """Check a game's players and Vorleger (docs/rules.md 4) and return the Vorleger (default:
    the first player); part of ``simulate_game``.

    Raises:
        RuleViolation, in this order: ``too_few_players``, ``duplicate_player``,
        ``unknown_player`` (a Vorleger who does not play).
    """
    if len(names) < 2:
        raise RuleViolation("too_few_players", "Ein Spiel braucht mindestens zwei Spieler.")
    if len(set(names)) != len(names):
        raise RuleViolation("duplicate_player", "Ein Spieler sitzt zweimal am Tisch.")
    if vorleger is None:
        vorleger = names[0]
    if vorleger not in names:
        raise RuleViolation(
            "unknown_player", f"Der Vorleger {vorleger} spielt dieses Spiel nicht mit."
        )
    return vorleger


def _seat_late_joiner(
    part: _Part, strategy: Strategy, seats: tuple[int, ...], first: int
) -> int | None:
    """``einwuerfeln`` (docs/rules.md 4; module docstring): the seat that joins late, set on
    ``part`` with the rounds it waits, or None (the rule set does not play it, the strategy
    joins nobody late, or fewer than three players).

    The last seat joins late, the one before it when it opens the game (``first``): seat
    >= 1, so it always has a player before it to sit after.
    """
    if not (part.rules.einwuerfeln and strategy.join_after_rounds is not None):
        return None
    if len(seats) < 3:
        return None
    joiner = seats[-1] if seats[-1] != first else seats[-2]
    part.joiner = joiner
    part.join_after = strategy.join_after_rounds
    return joiner


def _play_phase(
    tables: StrategyTables, part: _Part, phase: str, seats: Sequence[int], opener: int
) -> tuple[int, int]:
    """Play the game or a half or the final (``phase``, as ``engine.Game.phase``) over
    ``seats`` from ``opener``, with the Ausscheidung first where the rule set plays it
    (the game's or first half's only; docs/rules.md 4). Returns ``(loser seat, rounds)``."""
    if part.recorder is not None:
        part.recorder.phase = phase
    ausscheidung = part.rules.ausscheidung and phase in (GAME, FIRST_HALF)
    return _play_part(tables, part, seats, opener, ausscheidung)


def _play_halves(
    tables: StrategyTables,
    part: _Part,
    strategy: Strategy,
    seats: tuple[int, ...],
    starting: tuple[int, ...],
    first: int,
) -> tuple[int, int, tuple[int | None, int | None, bool]]:
    """Play a game of the halves format (docs/rules.md 4): first half from ``first`` over
    ``starting``, second half over every seat (a late joiner sits down now at the latest),
    and the final of the two half losers unless one lost both (Blattschuss).

    Returns ``(loser, rounds, (first half loser, second half loser, blattschuss))``.
    """
    first_loser, rounds = _play_phase(tables, part, FIRST_HALF, starting, first)
    if part.joiner is not None and not part.joined:
        _mark_joined(part)
    second_seats = seats if part.joiner is None or part.joined else starting
    opener = first_loser
    if part.rules.opener_choice and strategy.name_opener == "left":
        opener = second_seats[(second_seats.index(first_loser) + 1) % len(second_seats)]
        if part.recorder is not None:
            part.recorder.action(ChooseOpener(part.recorder.names[opener]))
    # Decision (engine): the first half's loser opens the second half unless it names
    # another (opener_choice), and it opens the final.
    part.joiner = None
    second_loser, rounds_2 = _play_phase(tables, part, SECOND_HALF, second_seats, opener)
    rounds += rounds_2
    blattschuss = first_loser == second_loser
    if blattschuss:
        loser = first_loser
    else:
        finalists = tuple(sorted((first_loser, second_loser)))
        loser, rounds_3 = _play_phase(tables, part, FINAL, finalists, first_loser)
        rounds += rounds_3
    return loser, rounds, (first_loser, second_loser, blattschuss)


def _simulated_game(
    names: tuple[str, ...],
    vorleger: str,
    part: _Part,
    loser: int,
    rounds: int,
    halves: tuple[int | None, int | None, bool],
    starting: tuple[int, ...],
) -> SimulatedGame:
    """The ``SimulatedGame`` of a game played (``simulate_game``): seats back to names.

    ``halves`` = (first half loser, second half loser, blattschuss), None and False for
    the single format; ``starting`` the seats at the table at the start. A late joiner
    who never sat down is left out of ``players``.
    """
    recorder = part.recorder
    first_loser, second_loser, blattschuss = halves
    late = len(starting) < len(names)
    return SimulatedGame(
        players=tuple(names[s] for s in starting) if late and not part.joined else names,
        vorleger=vorleger,
        loser=names[loser],
        schock_aus=tuple(names[s] for s in part.schock_aus),
        round_count=rounds,
        rounds=() if recorder is None else recorder.rounds,
        first_half_loser=None if first_loser is None else names[first_loser],
        second_half_loser=None if second_loser is None else names[second_loser],
        blattschuss=blattschuss,
        starting_players=tuple(names[s] for s in starting) if late else None,
        events=() if recorder is None else tuple(recorder.events),
        vorleger_rounds=part.vorleger_rounds,
        vorleger_lost=part.vorleger_lost,
    )


def simulate_evening(
    members_present: Sequence[str],
    guests: Sequence[str] = (),
    rules: RuleSet = PRESETS["club"],
    *,
    seed: int | str,
    secretary: str,
    record: bool = False,
    seating: Sequence[str] | None = None,
    strategy: Strategy = DEFAULT_STRATEGY,
) -> SimulatedEvening:
    """Play a whole club evening (docs/rules.md section 5) with the plain strategy.

    Args:
        members_present: club members at the table; each adds ``GAMES_PER_MEMBER`` games.
        guests: guest players; they play but add no games.
        rules: the rule set.
        seed: seeds ``random.Random``; the same seed plays the same evening.
        secretary: the Buchführer, a present member, opens the first game; every later
            game is opened by the last game's loser.
        record: keep every round and turn of every game.
        seating: the seating order (clockwise) of exactly the members and guests; default
            the present members, then the guests, in the order given.
        strategy: the strategy's parameters (``DEFAULT_STRATEGY``).

    The Muss-Regel sees the evening's Schock-Aus count and the last game.

    Raises:
        RuleViolation: ``unknown_player`` when the secretary is not a present member or the
        seating is not exactly the members and guests, ``duplicate_player``,
        ``too_few_players``.
    """
    members = tuple(members_present)
    guest_names = tuple(guests)
    players = _evening_seating(members, guest_names, secretary, seating)
    rng = random.Random(seed)
    count = GAMES_PER_MEMBER * len(members)
    games: list[SimulatedGame] = []
    vorleger = secretary
    schock_aus_so_far = 0
    for number in range(1, count + 1):
        game = simulate_game(
            players,
            rules,
            rng=rng,
            vorleger=vorleger,
            schock_aus_so_far=schock_aus_so_far,
            last_game=number == count,
            record=record,
            strategy=strategy,
        )
        games.append(game)
        schock_aus_so_far += len(game.schock_aus)
        vorleger = game.loser
    return SimulatedEvening(seed, players, members, guest_names, secretary, tuple(games))


def _evening_seating(
    members: tuple[str, ...],
    guest_names: tuple[str, ...],
    secretary: str,
    seating: Sequence[str] | None,
) -> tuple[str, ...]:
    """The evening's seating order (docs/rules.md 5), checked; part of ``simulate_evening``.

    ``seating`` must hold exactly the members and guests; None seats the members, then
    the guests, in the order given.

    Raises:
        RuleViolation ``unknown_player``, in this order: the seating is not exactly the
        members and guests; the secretary is not a present member.
    """
    players = members + guest_names
    if seating is not None:
        if sorted(seating) != sorted(players):
            raise RuleViolation(
                "unknown_player",
                "Die Sitzordnung muss genau die anwesenden Mitglieder und Gäste enthalten.",
            )
        players = tuple(seating)
    if secretary not in members:
        raise RuleViolation(
            "unknown_player", f"Der Buchführer {secretary} ist kein anwesendes Mitglied."
        )
    return players


def vorleger_goes_on(tables: StrategyTables, index: int, k: int, cap: int, muss: bool) -> bool:
    """Whether a Vorleger (or a player alone) rolls again after attempt ``k``.

    ``index`` is the attempt's roll in ``tables`` (``_BASE[kept] + r``), ``cap`` the
    attempts allowed, ``muss`` whether the Muss-Regel applies. The hot path of
    ``simulate_game`` inlines the same decision; ``simulate_turns`` and ``odds`` call this.
    """
    if k >= cap or tables.schock_aus[index]:
        return False
    if muss and tables.forced[index]:
        return True
    return tables.stand_from[index] > k


def simulate_turns(
    count: int,
    rules: RuleSet = PRESETS["club"],
    *,
    rng: random.Random,
    muss_regel: bool = False,
    max_attempts: int | None = None,
    strategy: Strategy = DEFAULT_STRATEGY,
) -> list[tuple[tuple[int, int, int], int, bool]]:
    """Simulate ``count`` Vorleger turns alone, by the strategy of ``simulate_game``.

    Returns one ``(dice high to low, attempts, natural)`` per turn; ``odds.turn_odds``
    gives the exact distribution of the same turns.
    """
    tables = strategy_tables(rules, strategy)
    cap = rules.max_attempts if max_attempts is None else max_attempts
    muss = muss_regel and rules.muss_regel
    rng_random = rng.random
    out = []
    for _ in range(count):
        kept = 0
        k = 0
        while True:
            k += 1
            index = _BASE[kept] + int(rng_random() * _SIZE[kept])
            if not vorleger_goes_on(tables, index, k, cap, muss):
                break
            kept = tables.next_kept[index]
        out.append((tables.dice[index], k, tables.natural[index]))
    return out


# -- statistics ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationMeasures:
    """What ``simulate_statistics`` counted over ``games`` simulated games.

    Counts: ``games``, ``rounds`` (as ``SimulatedGame.round_count``), ``vorleger_rounds``
    (rounds with a Vorleger: all but the Ausscheidung), ``vorleger_lost`` (of those, lost
    by their Vorleger), ``opener_lost`` (games lost by the player who opened them: the
    secretary or the last game's loser), ``schock_aus``. The rates are exact fractions of
    these counts (not money, so a float is fine for display).
    """

    games: int
    rounds: int
    vorleger_rounds: int
    vorleger_lost: int
    opener_lost: int
    schock_aus: int

    @property
    def vorleger_loss_rate(self) -> Fraction:
        """Share of rounds lost by the round's Vorleger."""
        return Fraction(self.vorleger_lost, max(self.vorleger_rounds, 1))

    @property
    def opener_loss_rate(self) -> Fraction:
        """Share of games lost by the player who opened the game."""
        return Fraction(self.opener_lost, max(self.games, 1))

    @property
    def rounds_per_game(self) -> Fraction:
        """Rounds per game."""
        return Fraction(self.rounds, max(self.games, 1))

    @property
    def schock_aus_per_game(self) -> Fraction:
        """Schock-Aus per game."""
        return Fraction(self.schock_aus, max(self.games, 1))


@dataclass(frozen=True)
class SimulationStatistics:
    """``simulate_statistics``'s report for one rule set.

    Attributes:
        rules: the rule set as played (``with_muss_regel``).
        seed, players, strategy: how the games were played.
        with_muss_regel: the rule set as it is.
        without_muss_regel: the same rule set with ``muss_regel`` off, same seed (equal to
            ``with_muss_regel`` for a rule set that does not play it).
    """

    rules: RuleSet
    seed: int | str
    players: int
    strategy: Strategy
    with_muss_regel: SimulationMeasures
    without_muss_regel: SimulationMeasures = field(repr=False)


def _measure(
    rules: RuleSet, games: int, seed: int | str, names: tuple[str, ...], strategy: Strategy
) -> SimulationMeasures:
    rng = random.Random(seed)
    per_evening = GAMES_PER_MEMBER * len(names)
    rounds = vorleger_rounds = vorleger_lost = opener_lost = schock_aus = 0
    evening_schock_aus = 0
    vorleger = names[0]
    for number in range(games):
        in_evening = number % per_evening
        if in_evening == 0:
            evening_schock_aus = 0
            vorleger = names[0]  # the secretary opens each evening
        game = simulate_game(
            names,
            rules,
            rng=rng,
            vorleger=vorleger,
            schock_aus_so_far=evening_schock_aus,
            last_game=in_evening == per_evening - 1,
            strategy=strategy,
        )
        rounds += game.round_count
        vorleger_rounds += game.vorleger_rounds
        vorleger_lost += game.vorleger_lost
        opener_lost += game.loser == vorleger
        schock_aus += len(game.schock_aus)
        evening_schock_aus += len(game.schock_aus)
        vorleger = game.loser
    return SimulationMeasures(
        games, rounds, vorleger_rounds, vorleger_lost, opener_lost, schock_aus
    )


def simulate_statistics(
    rules: RuleSet = PRESETS["club"],
    games: int = 2000,
    *,
    seed: int | str,
    players: int = 6,
    strategy: Strategy = DEFAULT_STRATEGY,
) -> SimulationStatistics:
    """Simulate ``games`` games of ``rules`` and measure them (the odds page).

    The games are played as club evenings of ``players`` members: ``GAMES_PER_MEMBER`` x
    ``players`` games each, the first opened by the secretary (the first seat), every later
    one by the last game's loser, the Muss-Regel seeing the evening's Schock-Aus count and
    its last game. Then the same games are played again (same seed) with ``muss_regel``
    off.

    Returns a ``SimulationStatistics`` with the Vorleger's loss rate per round, the game
    opener's loss rate per game, rounds and Schock-Aus per game, each with the number of
    games simulated, for the rule set as it is and with the Muss-Regel off.

    Raises:
        ValueError: ``games`` < 1 or ``players`` < 2.
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, not {games!r}")
    if not isinstance(players, int) or players < 2:
        raise ValueError(f"players must be an int >= 2, not {players!r}")
    names = tuple(f"Spieler {i}" for i in range(1, players + 1))
    with_muss = _measure(rules, games, seed, names, strategy)
    without = (
        _measure(replace(rules, muss_regel=False), games, seed, names, strategy)
        if rules.muss_regel
        else with_muss
    )
    return SimulationStatistics(rules, seed, players, strategy, with_muss, without)
