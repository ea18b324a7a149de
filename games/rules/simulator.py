"""Simulated Schocken: whole games and evenings with random dice and a plain strategy.

The app's demo data comes from ``simulate_evening``; the odds page checks its exact figures
against ``simulate_turns``. Everything is driven by one ``random.Random``, so a seed always
plays the same evening, with or without ``record``.

The plain strategy (the same for every preset; RULES.md section 3):

- Keep ones: after an attempt that is not the last, every one just rolled is laid out.
- Umwandlung: when the player goes on and the roll shows two sixes, one of them becomes a
  laid-out one (three sixes: two ones); the other six goes back into the cup. It is never
  taken by a player who would stand, since a turn may not end right after it.
- Muss-Regel (club preset): while it applies and an attempt is left, a showing one or a
  roll with two sixes forces the player on (ones laid out, Umwandlung taken). Whether it
  applies is ``muss_regel_applies``: no Schock-Aus yet this evening, the count at 4, 9, 14, ...,
  or the evening's last game.
- Vorleger: stands on a Straße or better (Straße, General, Schock, Schock-Aus) at any
  attempt, and from the second attempt on also on a Hausnummer of 600 or more
  (``VORLEGER_HAUSNUMMER``). The attempts the Vorleger used cap every later player's.
- Later players stop as soon as their throw is not the round's current loser, i.e. it
  beats the worst throw so far by the round's comparison (section 2; a full tie counts as
  losing, since the later thrower loses it).
- Three ones end a turn at once; the last allowed attempt ends it anyway.

Speed: the hot path rolls the dice of one attempt with a single ``random()`` call and reads
everything else from tables built once per rule set (``StrategyTables``); the Deckel flow
runs on plain ints, not on ``engine.Game`` (tests replay simulated games through the engine
to show both agree). bench/bench_simulator.py measured about 60,000 six-player club games
and 25,000 six-player halves games (with final) per second on one core. ``record=True``
also keeps every round with every turn as ``Attempt`` objects (about 8,500 club games per
second); the dice are the same, so a seed plays the same games either way.

Standard library only (RULES.md section 7).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .engine import FINAL, FIRST_HALF, GAME, SECOND_HALF
from .errors import RuleViolation
from .ruleset import PRESETS, RuleSet
from .throws import Category, Throw, evaluate, rank
from .turns import Attempt, muss_regel_applies

__all__ = [
    "GAMES_PER_MEMBER",
    "VORLEGER_HAUSNUMMER",
    "SimulatedEvening",
    "SimulatedGame",
    "SimulatedRound",
    "SimulatedTurn",
    "StrategyTables",
    "simulate_evening",
    "simulate_game",
    "simulate_turns",
    "strategy_tables",
    "vorleger_goes_on",
]

#: Games per present club member and evening (RULES.md section 5, seed 003).
GAMES_PER_MEMBER = 5
#: From the second attempt on, the Vorleger stands on a Hausnummer of at least this.
VORLEGER_HAUSNUMMER = 600

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
        strength: ``rank * 2 + koenig`` of the final throw; compares like ``round_key``
            without attempts and position.
        worth: Deckel the final throw is worth.
        schock_aus: the final dice are 1-1-1.
        forced: the Muss-Regel forces the player on (a one showing or two sixes rolled).
        next_kept: ones laid out after the attempt when the player goes on (keep ones,
            Umwandlung of two or three sixes).
        keep: the rolled dice laid out when going on (the ones).
        umwandlung: ones made by Umwandlung when going on (0, 1, 2).
        stand_from: the earliest attempt (1 or 2) on which a Vorleger stands on this throw,
            or 4 for never.
    """

    rolled: tuple
    dice: tuple
    natural: tuple
    strength: tuple
    worth: tuple
    schock_aus: tuple
    forced: tuple
    next_kept: tuple
    keep: tuple
    umwandlung: tuple
    stand_from: tuple
    fewer_attempts_win_ties: bool


_TABLES: dict[RuleSet, StrategyTables] = {}


def _decode(r: int, n: int) -> tuple[int, ...]:
    return tuple((r // 6**j) % 6 + 1 for j in range(n))


def strategy_tables(rules: RuleSet) -> StrategyTables:
    """The plain strategy's lookup tables for ``rules``, built once and cached."""
    tables = _TABLES.get(rules)
    if tables is not None:
        return tables
    columns: dict[str, list] = {
        name: []
        for name in (
            "rolled",
            "dice",
            "natural",
            "strength",
            "worth",
            "schock_aus",
            "forced",
            "next_kept",
            "keep",
            "umwandlung",
            "stand_from",
        )
    }
    for kept in range(3):
        n = 3 - kept
        for r in range(6**n):
            rolled = _decode(r, n)
            dice = (1,) * kept + rolled
            natural = kept == 0
            # attempts=3 is valid for natural and collected throws alike; rank ignores it.
            throw = Throw(dice, 3, natural)
            evaluation = evaluate(throw, rules)
            is_schock_aus = evaluation.category is Category.SCHOCK_AUS
            koenig = 1 if (rules.koenigswurf and is_schock_aus and natural) else 0
            ones = rolled.count(1)
            sixes = rolled.count(6)
            umwandlung = 2 if sixes == 3 else 1 if sixes == 2 else 0
            if evaluation.category is not Category.HAUSNUMMER:
                stand_from = 1
            elif evaluation.value >= VORLEGER_HAUSNUMMER:
                stand_from = 2
            else:
                stand_from = 4
            columns["rolled"].append(rolled)
            columns["dice"].append(throw.dice)
            columns["natural"].append(natural)
            columns["strength"].append(rank(throw, rules) * 2 + koenig)
            columns["worth"].append(evaluation.deckel)
            columns["schock_aus"].append(is_schock_aus)
            columns["forced"].append(kept > 0 or ones > 0 or sixes >= 2)
            columns["next_kept"].append(kept + ones + umwandlung)
            columns["keep"].append((1,) * ones)
            columns["umwandlung"].append(umwandlung)
            columns["stand_from"].append(stand_from)
    tables = StrategyTables(
        **{name: tuple(values) for name, values in columns.items()},
        fewer_attempts_win_ties=rules.fewer_attempts_win_ties,
    )
    _TABLES[rules] = tables
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
            Vorleger's attempts).
        muss_regel: the Muss-Regel applied to the turn.
    """

    player: str
    throw: Throw
    attempts: tuple
    max_attempts: int
    muss_regel: bool


@dataclass(frozen=True)
class SimulatedRound:
    """One simulated round: ``phase`` (as ``Game.phase``) and its turns in throwing order.

    ``entries()`` gives the round as ``Game.play_round`` takes it, with attempts in detail
    (``detail=True``) or final throws.
    """

    phase: str
    turns: tuple[SimulatedTurn, ...]
    winner: str
    loser: str
    schock_aus: tuple[str, ...]

    def entries(self, detail: bool = False) -> list[tuple[str, object]]:
        """The round as ordered ``(player, Throw or attempts)`` pairs for the engine."""
        if detail:
            return [(t.player, list(t.attempts)) for t in self.turns]
        return [(t.player, t.throw) for t in self.turns]


@dataclass(frozen=True)
class SimulatedGame:
    """One simulated game.

    Attributes:
        players: seating order.
        vorleger: who opened the game.
        loser: who lost it (opens the next game).
        schock_aus: Schock-Aus throwers in throwing order.
        round_count: rounds played (over both halves and the final).
        rounds: every ``SimulatedRound`` with ``record=True``, else empty.
        first_half_loser, second_half_loser, blattschuss: halves format only.
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


@dataclass(frozen=True)
class SimulatedEvening:
    """One simulated club evening (RULES.md section 5).

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
    """Collects rounds in record mode; the fast path passes None instead."""

    def __init__(self, tables: StrategyTables, names: Sequence[str], phase: str) -> None:
        self.attempt = Attempt
        self.tables = tables
        self.names = names
        self.phase = phase
        self.rounds: list[SimulatedRound] = []
        self.turns: list[SimulatedTurn] = []

    def turn(self, seat: int, path: list[int], k: int, cap: int, muss: bool) -> None:
        t = self.tables
        attempts = []
        for step, index in enumerate(path, start=1):
            if step == len(path):
                attempts.append(self.attempt(t.rolled[index]))
            else:
                attempts.append(self.attempt(t.rolled[index], t.keep[index], t.umwandlung[index]))
        last = path[-1]
        throw = Throw(t.dice[last], k, t.natural[last])
        self.turns.append(SimulatedTurn(self.names[seat], throw, tuple(attempts), cap, muss))

    def end_round(self, winner: int, loser: int, schock_aus: list[int]) -> None:
        self.rounds.append(
            SimulatedRound(
                self.phase,
                tuple(self.turns),
                self.names[winner],
                self.names[loser],
                tuple(self.names[s] for s in schock_aus),
            )
        )
        self.turns = []


def _play_part(
    tables: StrategyTables,
    rules: RuleSet,
    seats: Sequence[int],
    vorleger: int,
    rng_random,
    schock_aus_before: int,
    last_game: bool,
    schock_aus: list[int],
    recorder: _Recorder | None,
) -> tuple[int, int]:
    """Play one game (single format) or one half or final until someone holds all Deckel.

    ``seats`` are seat indices in seating order, ``vorleger`` one of them. Appends the
    Schock-Aus throwers' seats to ``schock_aus``. Returns ``(loser seat, rounds played)``.
    """
    rolled_strength = tables.strength
    worth_of = tables.worth
    is_schock_aus = tables.schock_aus
    forced = tables.forced
    next_kept = tables.next_kept
    stand_from = tables.stand_from
    # Tie-break on attempts folded into the key: key = strength * 4 + (3 - attempts).
    bonus = (0, 2, 1, 0) if tables.fewer_attempts_win_ties else (0, 0, 0, 0)
    max_attempts = rules.max_attempts
    total = rules.deckel_total
    muss_possible = rules.muss_regel
    muss = muss_possible and muss_regel_applies(
        schock_aus_so_far=schock_aus_before + len(schock_aus), last_game=last_game, rules=rules
    )

    deckel = dict.fromkeys(seats, 0)
    active = list(seats)
    stock = total
    rounds = 0
    while True:
        rounds += 1
        start = active.index(vorleger)
        order = active[start:] + active[:start]
        cap = max_attempts
        best = -1
        worst = _NO_WORST
        winner = loser = order[0]
        winner_worth = 0
        round_schock_aus = None
        first = True
        for seat in order:
            kept = 0
            k = 0
            path = [] if recorder is not None else None
            while True:
                k += 1
                index = _BASE[kept] + int(rng_random() * _SIZE[kept])
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
                elif rolled_strength[index] * 4 + bonus[k] > worst:
                    break
                kept = next_kept[index]
            key = rolled_strength[index] * 4 + bonus[k]
            if recorder is not None:
                recorder.turn(seat, path, k, cap, muss)
            if key > best:
                best = key
                winner = seat
                winner_worth = worth_of[index]
            if key <= worst:
                worst = key
                loser = seat
            if is_schock_aus[index]:
                if round_schock_aus is None:
                    round_schock_aus = [seat]
                else:
                    round_schock_aus.append(seat)
                schock_aus.append(seat)
                if muss_possible:
                    muss = muss_regel_applies(
                        schock_aus_so_far=schock_aus_before + len(schock_aus),
                        last_game=last_game,
                        rules=rules,
                    )
            if first:
                cap = k
                first = False
        if recorder is not None:
            recorder.end_round(winner, loser, round_schock_aus or [])
        if round_schock_aus is not None:
            # RULES.md 4.4: all 13 Deckel go to the round's loser; the part is over.
            return loser, rounds
        if stock:
            moved = winner_worth if winner_worth < stock else stock
            stock -= moved
            deckel[loser] += moved
            if not stock:
                active = [s for s in active if deckel[s]]
        else:
            moved = winner_worth if winner_worth < deckel[winner] else deckel[winner]
            deckel[winner] -= moved
            deckel[loser] += moved
            if not deckel[winner]:
                active.remove(winner)
        if deckel[loser] == total:
            return loser, rounds
        vorleger = loser


def simulate_game(
    players: Sequence[str],
    rules: RuleSet = PRESETS["club"],
    *,
    rng: random.Random,
    vorleger: str | None = None,
    schock_aus_so_far: int = 0,
    last_game: bool = False,
    record: bool = False,
) -> SimulatedGame:
    """Play one game with random dice and the plain strategy (module docstring).

    Args:
        players: seating order (clockwise), at least two, no name twice.
        rules: the rule set; ``format`` chooses single game or halves with final.
        rng: the source of the dice; the same state plays the same game.
        vorleger: who opens the game (default: the first player).
        schock_aus_so_far: Schock-Aus thrown earlier this evening (for the Muss-Regel).
        last_game: the evening's last game (the Muss-Regel applies throughout).
        record: also keep every round and turn (``SimulatedGame.rounds``); same dice.

    Returns a ``SimulatedGame``. The Deckel flow is that of ``engine.Game`` (RULES.md 4);
    replaying ``rounds`` through ``Game`` gives the same loser and Schock-Aus.

    Raises:
        RuleViolation: ``too_few_players``, ``duplicate_player``, ``unknown_player``.
    """
    names = tuple(players)
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
    tables = strategy_tables(rules)
    rng_random = rng.random
    seats = tuple(range(len(names)))
    first = names.index(vorleger)
    schock_aus: list[int] = []
    recorded: list[SimulatedRound] = []

    def part(phase: str, part_seats: Sequence[int], opener: int) -> tuple[int, int]:
        recorder = _Recorder(tables, names, phase) if record else None
        result = _play_part(
            tables,
            rules,
            part_seats,
            opener,
            rng_random,
            schock_aus_so_far,
            last_game,
            schock_aus,
            recorder,
        )
        if recorder is not None:
            recorded.extend(recorder.rounds)
        return result

    if rules.format != "halves":
        loser, rounds = part(GAME, seats, first)
        return SimulatedGame(
            names,
            vorleger,
            names[loser],
            tuple(names[s] for s in schock_aus),
            rounds,
            tuple(recorded),
        )
    first_loser, rounds_1 = part(FIRST_HALF, seats, first)
    # Decision (engine): the first half's loser opens the second half and the final.
    second_loser, rounds_2 = part(SECOND_HALF, seats, first_loser)
    rounds = rounds_1 + rounds_2
    blattschuss = first_loser == second_loser
    if blattschuss:
        loser = first_loser
    else:
        finalists = tuple(sorted((first_loser, second_loser)))
        loser, rounds_3 = part(FINAL, finalists, first_loser)
        rounds += rounds_3
    return SimulatedGame(
        names,
        vorleger,
        names[loser],
        tuple(names[s] for s in schock_aus),
        rounds,
        tuple(recorded),
        names[first_loser],
        names[second_loser],
        blattschuss,
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
) -> SimulatedEvening:
    """Play a whole club evening (RULES.md section 5) with the plain strategy.

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

    The Muss-Regel sees the evening's Schock-Aus count and the last game.

    Raises:
        RuleViolation: ``unknown_player`` when the secretary is not a present member or the
        seating is not exactly the members and guests, ``duplicate_player``,
        ``too_few_players``.
    """
    members = tuple(members_present)
    guest_names = tuple(guests)
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
        )
        games.append(game)
        schock_aus_so_far += len(game.schock_aus)
        vorleger = game.loser
    return SimulatedEvening(seed, players, members, guest_names, secretary, tuple(games))


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
) -> list[tuple[tuple[int, int, int], int, bool]]:
    """Simulate ``count`` Vorleger turns alone, by the strategy of ``simulate_game``.

    Returns one ``(dice high to low, attempts, natural)`` per turn; ``odds.turn_odds``
    gives the exact distribution of the same turns.
    """
    tables = strategy_tables(rules)
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
