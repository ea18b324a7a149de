"""The game engine: rounds through the Deckel flow of RULES.md section 4, both formats.

A ``Game`` holds one game of Schocken: the players in seating order (clockwise), the stock,
the Deckel each player holds, who is out, who opens the next round (the Vorleger) and, once
it is over, the loser. ``Game.play_round`` takes the throws of one round, checks that the
round could have been played at the table, resolves it with ``resolve_round`` (RULES.md
section 2) and moves the Deckel:

- Aufnahme: while the stock holds Deckel, the round's loser takes as many as the winner's
  throw is worth, at most what is left.
- When the stock is empty, every player without Deckel is out.
- Ablegen: from then on the winner gives that many of its own Deckel (at most all it has)
  to the loser; a winner who gave away all is out.
- A player holding all 13 Deckel has lost. A Schock-Aus ends the game (single format) or
  the half or final (halves format) once the round is complete: all 13 Deckel go to the
  round's loser.
- The round's loser opens the next round.

Halves format (seeds 000, 001, 002, 004): first half and second half with all players; the
two half losers play a final, opened by the first half's loser; a player who loses both
halves has lost at once (Blattschuss). **Decision** (seed 000 "Vorlegen", seed 004): the
second half is opened by the first half's loser, as any round's loser opens the next round.

``replay_game`` plays a whole game from its rounds and returns the game's loser and the
Schock-Aus throwers in throwing order: the app derives both from a game entered round by
round.

Standard library only (RULES.md section 7).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleViolation
from .rounds import resolve_round
from .ruleset import PRESETS, RuleSet
from .throws import Throw
from .turns import Attempt, muss_regel_applies, validate_throw, validate_turn

__all__ = [
    "FINAL",
    "FIRST_HALF",
    "GAME",
    "SECOND_HALF",
    "Game",
    "GameReplay",
    "RoundOutcome",
    "replay_game",
]

#: Phase of a single-format game (seed 003): the whole game is one part.
GAME = "game"
#: Phases of a halves-format game, in the order they are played.
FIRST_HALF = "first_half"
SECOND_HALF = "second_half"
FINAL = "final"

_PHASE_NAMES = {
    GAME: "Spiel",
    FIRST_HALF: "erste Hälfte",
    SECOND_HALF: "zweite Hälfte",
    FINAL: "Finale",
}

# How the Deckel moved in a round (RoundOutcome.source).
AUFNAHME = "stock"
ABLEGEN = "winner"
SCHOCK_AUS_MOVE = "schock_aus"

#: One player's entry in a round: a final ``Throw``, or the turn in detail as a sequence of
#: ``Attempt`` (validated with ``validate_turn``).
TurnEntry = Throw | Sequence
RoundEntries = Mapping[str, TurnEntry] | Iterable[tuple[str, TurnEntry]]


def _refuse(code: str, message: str, player: object = None) -> RuleViolation:
    exc = RuleViolation(code, message, rule="RULES.md 4")
    exc.player = player  # whose entry was refused, for the form to mark; None for the round
    return exc


@dataclass(frozen=True)
class RoundOutcome:
    """What one round did to the game (RULES.md sections 2 and 4).

    Attributes:
        number: 1-based number of the round in the game (counted across halves and final).
        phase: ``"game"`` (single format) or ``"first_half"``, ``"second_half"``, ``"final"``.
        vorleger: who opened the round.
        throwing_order: the players of the round, Vorleger first, clockwise.
        throws: the final throws, in throwing order.
        muss_regel: per player in throwing order, whether the Muss-Regel applied to the turn.
        order: the players best to worst.
        winner, loser: the round's best and worst throw's player.
        deckel: Deckel the winner's throw is worth (13 for a Schock-Aus).
        moved: Deckel that actually changed hands (fewer than ``deckel`` when the stock or
            the winner ran short).
        source: ``"stock"`` (Aufnahme), ``"winner"`` (Ablegen) or ``"schock_aus"`` (all 13
            to the loser).
        schock_aus: players who threw 1-1-1, in throwing order.
        went_out: players who are out of the game (or half, or final) from this round on.
        phase_loser: who lost the part (game, half or final) with this round, else None.
        finished: the game is over after this round.
        stock: Deckel left in the stock after the round.
        deckel_after: Deckel per player after the round (before a new half resets them).
    """

    number: int
    phase: str
    vorleger: str
    throwing_order: tuple[str, ...]
    throws: tuple[Throw, ...]
    muss_regel: tuple[bool, ...]
    order: tuple[str, ...]
    winner: str
    loser: str
    deckel: int
    moved: int
    source: str
    schock_aus: tuple[str, ...]
    went_out: tuple[str, ...]
    phase_loser: str | None
    finished: bool
    stock: int
    deckel_after: tuple[tuple[str, int], ...]


class Game:
    """One game of Schocken, played round by round (RULES.md section 4).

    Args:
        players: the players in seating order; clockwise is this order. At least two,
            no name twice. Names or any hashable ids (e.g. member primary keys).
        rules: the rule set (``format`` chooses single game or halves with final).
        vorleger: who opens the first round; default the first player. In the club it is
            the secretary for the evening's first game, else the last game's loser.
        schock_aus_so_far: Schock-Aus thrown this evening before this game; only needed to
            decide the Muss-Regel for turns entered in detail.
        last_game: this is the evening's last game (the Muss-Regel applies throughout).

    State (read only): ``players``, ``rules``, ``phase``, ``stock``, ``deckel`` (dict
    player -> Deckel, every player, 0 when none), ``out`` (players of the game not taking
    part in the current part any more, including those not in the final), ``vorleger``,
    ``finished``, ``loser``, ``first_half_loser``, ``second_half_loser``, ``blattschuss``,
    ``schock_aus`` (throwers in throwing order over the whole game) and ``rounds``.
    Invariant: ``stock + sum(deckel.values()) == rules.deckel_total`` at all times.

    Raises:
        RuleViolation: ``too_few_players``, ``duplicate_player``, ``unknown_player`` (a
        Vorleger who does not play), ``invalid_count`` (negative ``schock_aus_so_far``).
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: RuleSet = PRESETS["club"],
        vorleger: str | None = None,
        *,
        schock_aus_so_far: int = 0,
        last_game: bool = False,
    ) -> None:
        players = tuple(players)
        if len(players) < 2:
            raise _refuse("too_few_players", "Ein Spiel braucht mindestens zwei Spieler.")
        if len(set(players)) != len(players):
            raise _refuse("duplicate_player", "Ein Spieler sitzt zweimal am Tisch.")
        if vorleger is None:
            vorleger = players[0]
        if vorleger not in players:
            raise _refuse(
                "unknown_player", f"Der Vorleger {vorleger} spielt dieses Spiel nicht mit."
            )
        if not isinstance(schock_aus_so_far, int) or schock_aus_so_far < 0:
            raise _refuse(
                "invalid_count", "Die Zahl der Schock-Aus des Abends muss mindestens 0 sein."
            )
        self.players: tuple[str, ...] = players
        self._player_set = frozenset(players)
        self.rules: RuleSet = rules
        self.last_game: bool = bool(last_game)
        self.schock_aus_before: int = schock_aus_so_far
        self.first_half_loser: str | None = None
        self.second_half_loser: str | None = None
        self.blattschuss: bool = False
        self.loser: str | None = None
        self.schock_aus: list[str] = []
        self.rounds: list[RoundOutcome] = []
        self._start_part(FIRST_HALF if rules.format == "halves" else GAME, players, vorleger)

    # -- state ---------------------------------------------------------------------------

    def _start_part(self, phase: str, participants: Sequence[str], vorleger: str) -> None:
        self.phase: str = phase
        self.participants: tuple[str, ...] = tuple(participants)
        self.stock: int = self.rules.deckel_total
        self._deckel: dict[str, int] = dict.fromkeys(self.players, 0)
        self._out: set[str] = set(self.players) - set(participants)
        self.vorleger: str = vorleger

    @property
    def deckel(self) -> dict[str, int]:
        """Deckel per player (a copy), every player of the game, 0 when none."""
        return dict(self._deckel)

    @property
    def out(self) -> frozenset[str]:
        """Players not (any more) taking part in the current game, half or final."""
        return frozenset(self._out)

    @property
    def finished(self) -> bool:
        """True once the game has a loser."""
        return self.loser is not None

    @property
    def half_losers(self) -> tuple[str, ...]:
        """The half losers so far (halves format), first half first."""
        halves = (self.first_half_loser, self.second_half_loser)
        return tuple(p for p in halves if p is not None)

    def active_players(self) -> tuple[str, ...]:
        """Players still in the current part, in seating order."""
        return tuple(p for p in self.participants if p not in self._out)

    def throwing_order(self) -> tuple[str, ...]:
        """The next round's throwing order: active players from the Vorleger, clockwise."""
        active = self.active_players()
        start = active.index(self.vorleger)
        return active[start:] + active[:start]

    def muss_regel_applies(self, schock_aus_in_round: int = 0) -> bool:
        """Whether the Muss-Regel applies to a turn of the next round.

        ``schock_aus_in_round`` counts the Schock-Aus already thrown earlier in the round.
        """
        count = self.schock_aus_before + len(self.schock_aus) + schock_aus_in_round
        return muss_regel_applies(
            schock_aus_so_far=count, last_game=self.last_game, rules=self.rules
        )

    # -- playing ---------------------------------------------------------------------------

    def play_round(self, throws: RoundEntries) -> RoundOutcome:
        """Play one round and move the Deckel (RULES.md sections 2 and 4).

        Args:
            throws: every active player's entry, either a mapping player -> entry (the
                engine arranges it in throwing order, since a mapping has no order of its
                own) or a sequence of ``(player, entry)`` pairs in throwing order. An entry
                is a final ``Throw`` or the turn in detail as a sequence of ``Attempt``.

        Returns the ``RoundOutcome``; the game's state moves on (next Vorleger = loser).

        Raises:
            RuleViolation with code ``game_finished`` (the game is over),
            ``unknown_player`` (not in this game), ``duplicate_player`` (twice in the
            round), ``player_out`` (out of this game, half or final, or not in the final),
            ``player_missing`` (an active player did not throw), ``vorleger_not_first``
            (the round does not start at the Vorleger), ``not_seating_order`` (not
            clockwise), ``more_attempts_than_vorleger`` (more attempts than the Vorleger
            used), ``invalid_entry`` (neither a Throw nor attempts), and every code of
            ``validate_throw`` / ``validate_turn`` for an impossible throw or turn (same
            code, attempt and rule; the message starts with the player's name, and the
            exception's ``player`` attribute names the player).
        """
        if self.finished:
            raise _refuse(
                "game_finished",
                f"Das Spiel ist vorbei; {self.loser} hat verloren. Keine weitere Runde.",
            )
        order = self.throwing_order()
        names, entries = self._arrange(throws, order)
        final_throws, muss = self._validate_entries(names, entries)
        return self._apply(order, tuple(final_throws), tuple(muss))

    def _arrange(self, throws: RoundEntries, order: tuple[str, ...]) -> tuple[list, list]:
        if isinstance(throws, Mapping):
            pairs = list(throws.items())
            is_mapping = True
        else:
            try:
                pairs = [tuple(pair) for pair in throws]
            except TypeError as exc:
                raise _refuse(
                    "invalid_entry", "Eine Runde ist eine Liste von (Spieler, Wurf)."
                ) from exc
            is_mapping = False
        seen: set[str] = set()
        for pair in pairs:
            if len(pair) != 2:
                raise _refuse("invalid_entry", "Eine Runde ist eine Liste von (Spieler, Wurf).")
            name = pair[0]
            try:
                known = name in self._player_set
            except TypeError:  # an unhashable "name" is no player either
                known = False
            if not known:
                raise _refuse("unknown_player", f"{name!r} spielt dieses Spiel nicht mit.", name)
            if name in seen:
                raise _refuse(
                    "duplicate_player", f"{name} hat in der Runde zweimal geworfen.", name
                )
            seen.add(name)
            if name in self._out:
                where = _PHASE_NAMES[self.phase]
                raise _refuse(
                    "player_out", f"{name} ist in diesem Teil ({where}) nicht mehr dabei.", name
                )
        missing = [p for p in order if p not in seen]
        if missing:
            raise _refuse(
                "player_missing",
                f"Es fehlt der Wurf von {', '.join(map(str, missing))} in der Runde.",
                missing[0],
            )
        if is_mapping:
            by_name = dict(pairs)
            return list(order), [by_name[p] for p in order]
        names = [p for p, _ in pairs]
        if names[0] != order[0]:
            raise _refuse(
                "vorleger_not_first",
                f"Die Runde beginnt beim Vorleger {order[0]}, nicht bei {names[0]}.",
            )
        if tuple(names) != order:
            raise _refuse(
                "not_seating_order",
                "Die Würfe stehen nicht in Sitzordnung (im Uhrzeigersinn): erwartet "
                + ", ".join(order)
                + ".",
            )
        return names, [entry for _, entry in pairs]

    def _validate_entries(self, names: list[str], entries: list) -> tuple[list, list]:
        cap = self.rules.max_attempts
        final_throws: list[Throw] = []
        muss: list[bool] = []
        schock_aus_in_round = 0
        order0 = names[0]
        for position, (name, entry) in enumerate(zip(names, entries, strict=True)):
            applies = self.muss_regel_applies(schock_aus_in_round)
            is_throw = isinstance(entry, Throw)
            if not is_throw and (not isinstance(entry, Sequence) or isinstance(entry, str | bytes)):
                raise _refuse(
                    "invalid_entry",
                    f"Der Eintrag für {name} ist weder ein Wurf noch eine Liste von Versuchen.",
                    name,
                )
            if not is_throw and not all(isinstance(item, Attempt) for item in entry):
                raise _refuse(
                    "invalid_entry",
                    f"Der Zug von {name} ist keine Liste von Versuchen (Attempt).",
                    name,
                )
            used = entry.attempts if is_throw else len(entry)
            if position > 0 and isinstance(used, int) and used > cap:
                # RULES.md 3: the Vorleger's attempts cap every later player's.
                raise _refuse(
                    "more_attempts_than_vorleger",
                    f"{name} hat {used} Versuche gebraucht, der Vorleger {order0} nur {cap}.",
                    name,
                )
            try:
                if is_throw:
                    throw = validate_throw(entry, self.rules, max_attempts=cap, muss_regel=applies)
                else:
                    throw = validate_turn(
                        list(entry), self.rules, max_attempts=cap, muss_regel=applies
                    )
            except RuleViolation as exc:
                # Same code, attempt and rule; the message says whose turn it was.
                named = RuleViolation(exc.code, f"{name}: {exc.message}", exc.attempt, exc.rule)
                named.player = name
                raise named from exc
            if position == 0:
                cap = throw.attempts
            if sorted(throw.dice) == [1, 1, 1]:
                schock_aus_in_round += 1
            final_throws.append(throw)
            muss.append(applies)
        return final_throws, muss

    def _apply(
        self, order: tuple[str, ...], throws: tuple[Throw, ...], muss: tuple[bool, ...]
    ) -> RoundOutcome:
        result = resolve_round(list(throws), self.rules)
        winner = order[result.winner]
        loser = order[result.loser]
        schock_aus = tuple(order[i] for i in sorted(result.schock_aus))
        total = self.rules.deckel_total
        deckel = self._deckel
        went_out: list[str] = []
        if schock_aus:
            # RULES.md 4.4: all 13, from the stock and from everyone, to the round's loser.
            worth = total
            moved = total - deckel[loser]
            source = SCHOCK_AUS_MOVE
            for p in deckel:
                deckel[p] = 0
            deckel[loser] = total
            self.stock = 0
            went_out = [p for p in order if p != loser]
        elif self.stock > 0:
            worth = result.deckel
            moved = min(worth, self.stock)
            source = AUFNAHME
            self.stock -= moved
            deckel[loser] += moved
            if self.stock == 0:
                went_out = [p for p in order if deckel[p] == 0]
        else:
            worth = result.deckel
            moved = min(worth, deckel[winner])
            source = ABLEGEN
            deckel[winner] -= moved
            deckel[loser] += moved
            if deckel[winner] == 0:
                went_out = [winner]
        self._out.update(went_out)
        self.schock_aus.extend(schock_aus)
        phase = self.phase
        phase_loser = loser if deckel[loser] == total else None
        after = tuple(deckel.items())
        stock_after = self.stock
        self.vorleger = loser
        if phase_loser is not None:
            self._end_part(phase_loser)
        outcome = RoundOutcome(
            number=len(self.rounds) + 1,
            phase=phase,
            vorleger=order[0],
            throwing_order=order,
            throws=throws,
            muss_regel=muss,
            order=tuple(order[i] for i in result.order),
            winner=winner,
            loser=loser,
            deckel=worth,
            moved=moved,
            source=source,
            schock_aus=schock_aus,
            went_out=tuple(went_out),
            phase_loser=phase_loser,
            finished=self.finished,
            stock=stock_after,
            deckel_after=after,
        )
        self.rounds.append(outcome)
        return outcome

    def _end_part(self, part_loser: str) -> None:
        if self.phase in (GAME, FINAL):
            self.loser = part_loser
        elif self.phase == FIRST_HALF:
            self.first_half_loser = part_loser
            # Decision: the first half's loser opens the second half (seed 000, seed 004).
            self._start_part(SECOND_HALF, self.players, part_loser)
        else:
            self.second_half_loser = part_loser
            if part_loser == self.first_half_loser:
                self.blattschuss = True
                self.loser = part_loser
            else:
                finalists = [p for p in self.players if p in (self.first_half_loser, part_loser)]
                self._start_part(FINAL, finalists, self.first_half_loser)


@dataclass(frozen=True)
class GameReplay:
    """A whole game played from its rounds (see ``replay_game``).

    Attributes:
        loser: the game's loser (opens the next game).
        schock_aus: Schock-Aus throwers over the game, in throwing order (a player may
            appear more than once in the halves format).
        rounds: every round's ``RoundOutcome``.
        first_half_loser, second_half_loser: halves format only, else None.
        blattschuss: the same player lost both halves.
    """

    loser: str
    schock_aus: tuple[str, ...]
    rounds: tuple[RoundOutcome, ...]
    first_half_loser: str | None = None
    second_half_loser: str | None = None
    blattschuss: bool = False


def replay_game(
    players: Sequence[str],
    rounds: Iterable[RoundEntries],
    rules: RuleSet = PRESETS["club"],
    *,
    vorleger: str | None = None,
    schock_aus_so_far: int = 0,
    last_game: bool = False,
) -> GameReplay:
    """Play a whole game from its rounds and say who lost and who threw Schock-Aus.

    Args:
        players: seating order (clockwise), as for ``Game``.
        rounds: each round as ``Game.play_round`` takes it (mapping or ordered pairs of
            player and ``Throw`` or attempts).
        rules, vorleger, schock_aus_so_far, last_game: as for ``Game``.

    Returns a ``GameReplay`` with the loser and the Schock-Aus throwers in throwing order.

    Raises:
        RuleViolation: anything ``Game`` or ``Game.play_round`` refuses (``game_finished``
        for a round after the game ended), and ``game_not_finished`` when the rounds run
        out before a player holds all 13 Deckel.
    """
    game = Game(players, rules, vorleger, schock_aus_so_far=schock_aus_so_far, last_game=last_game)
    for entries in rounds:
        game.play_round(entries)
    if not game.finished:
        raise _refuse(
            "game_not_finished",
            f"Nach {len(game.rounds)} Runden hat noch niemand alle "
            f"{rules.deckel_total} Deckel: das Spiel ist nicht zu Ende.",
        )
    return GameReplay(
        loser=game.loser,
        schock_aus=tuple(game.schock_aus),
        rounds=tuple(game.rounds),
        first_half_loser=game.first_half_loser,
        second_half_loser=game.second_half_loser,
        blattschuss=game.blattschuss,
    )
