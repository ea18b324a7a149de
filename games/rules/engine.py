"""The game engine: rounds through the Deckel flow of docs/rules.md section 4, both formats.

A ``Game`` holds one game of Schocken: the players in seating order (clockwise), the stock,
the Deckel each player holds, who is out, who opens the next round (the Vorleger) and, once
it is over, the loser. ``Game.play_round`` takes the throws of one round, checks that the
round could have been played at the table, resolves it with ``resolve_round`` (docs/rules.md
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

The seed flags of docs/rules.md section 4, each a method that refuses with a ``RuleViolation``
when the rule set does not play it (code ``<flag>_off``) or the moment is wrong:

- ``ausscheidung``: ``Game.play_ausscheidung(throws)``, everyone's one throw before the
  first round, then the re-throws of players tied for the worst (``ausscheidung_tied``).
- ``deckel_nehmen``: ``Game.take_deckel(taker, throws, covered=None)`` ends the round with
  the taker as loser; its covered throw is the next round's first attempt.
- ``opener_choice``: ``Game.choose_opener(player)`` before the second half's first round.
- ``einwuerfeln``: ``Game.join(player, after=None)`` and ``Game.leave(player)`` between
  rounds of a game or half.

``replay_game`` plays a whole game from its rounds (and these actions, as ``Ausscheidung``,
``TakeDeckel``, ``ChooseOpener``, ``Join``, ``Leave`` items) and returns the game's loser
and the Schock-Aus throwers in throwing order: the app derives both from a game entered
round by round.

Decisions where docs/rules.md is silent (each **Decision** is repeated where it is coded):

- The Ausscheidung is played before the game's first round (single format) or the first
  half's, never before the second half or the final: seeds 000 and 002 hold it "um den
  Spielbeginn" / "bei Spielbeginn", and seed 000 lets the first half's loser name the
  second half's opener.
- The Ausscheidung is offered, not enforced: a game whose first round is entered without it
  starts with the given Vorleger, as before (old entries and pages keep working).
- Each step of the Ausscheidung is settled on its own throws: the step that leaves one
  worst throw decides, and its best throw sets the Deckel ("dieser Wurf ist dann bindend",
  seed 000). Ties are by section 1 only (equal rank), everyone having thrown once.
- A 1-1-1 in the Ausscheidung is a Schock-Aus like any other: it counts for the evening's
  books and the worst throw of the deciding step takes all Deckel, losing the half.
- Deckel nehmen when the stock is empty: the player with the best throw so far gives the
  Deckel (Ablegen), as a round's winner would. After a Schock-Aus it takes all Deckel.
- ``einwuerfeln``: joining and leaving happen between rounds, never during the final;
  joining needs Deckel in the stock (a player without Deckel is out once it is empty);
  leaving needs that the player has received no Deckel in the game so far, in any half
  (seed 001: "keine Pappen erhalten"); a player who leaves is out of the rest of the game,
  the final included, and does not join again; a leaving Vorleger passes the opening to
  the next player clockwise.

Standard library only (docs/rules.md section 7).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from .errors import RuleViolation
from .rounds import resolve_round
from .ruleset import PRESETS, RuleSet
from .throws import Throw, check_dice, evaluate, rank, round_key
from .turns import Attempt, muss_regel_applies, validate_throw, validate_turn

__all__ = [
    "ABLEGEN",
    "AUFNAHME",
    "AUSSCHEIDUNG",
    "DECKEL_NEHMEN",
    "FINAL",
    "FIRST_HALF",
    "GAME",
    "ROUND",
    "SCHOCK_AUS_MOVE",
    "SECOND_HALF",
    "Ausscheidung",
    "AusscheidungStep",
    "ChooseOpener",
    "Game",
    "GameAction",
    "GameReplay",
    "Join",
    "Leave",
    "RoundOutcome",
    "TakeDeckel",
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

# What kind of round a RoundOutcome is (RoundOutcome.kind).
#: An ordinary round: every active player threw.
ROUND = "round"
#: The deciding step of the Ausscheidung (``ausscheidung``, seeds 000, 002).
AUSSCHEIDUNG = "ausscheidung"
#: A round ended by a player who took Deckel with a covered throw (``deckel_nehmen``).
DECKEL_NEHMEN = "deckel_nehmen"

#: One player's entry in a round: a final ``Throw``, or the turn in detail as a sequence of
#: ``Attempt`` (validated with ``validate_turn``).
TurnEntry: TypeAlias = Throw | Sequence[Attempt]
RoundEntries: TypeAlias = Mapping[str, TurnEntry] | Iterable[tuple[str, TurnEntry]]

_R_GAME = "docs/rules.md 4"
_R_AUSSCHEIDUNG = "docs/rules.md 4, ausscheidung (Seeds 000, 002)"
_R_DECKEL_NEHMEN = "docs/rules.md 4, deckel_nehmen (Seed 000)"
_R_OPENER = "docs/rules.md 4, opener_choice (Seed 000)"
_R_EINWUERFELN = "docs/rules.md 4, einwuerfeln (Seed 001)"


def _refuse(code: str, message: str, player: object = None, rule: str = _R_GAME) -> RuleViolation:
    exc = RuleViolation(code, message, rule=rule)
    exc.player = player  # whose entry was refused, for the form to mark; None for the round
    return exc


@dataclass(frozen=True)
class RoundOutcome:
    """What one round did to the game (docs/rules.md sections 2 and 4).

    Attributes:
        number: 1-based number of the round in the game (counted across halves and final;
            the Ausscheidung's deciding step counts as a round).
        phase: ``"game"`` (single format) or ``"first_half"``, ``"second_half"``, ``"final"``.
        vorleger: who opened the round (for the Ausscheidung: the first in its listing).
        throwing_order: the players who threw, Vorleger first, clockwise (for
            ``deckel_nehmen``: those before the taker; the taker did not throw).
        throws: the final throws, in throwing order.
        muss_regel: per player in throwing order, whether the Muss-Regel applied to the turn.
        order: the players best to worst (the taker last for ``deckel_nehmen``).
        winner, loser: the round's best and worst throw's player (the taker is the loser).
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
        kind: ``"round"``, ``"ausscheidung"`` or ``"deckel_nehmen"``.
        taken_by: for ``deckel_nehmen``, who took the Deckel (also ``loser``), else None.
        covered: for ``deckel_nehmen``, the covered throw's dice if they were entered.
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
    kind: str = ROUND
    taken_by: str | None = None
    covered: tuple[int, ...] | None = None


@dataclass(frozen=True)
class AusscheidungStep:
    """One step of the Ausscheidung (``Game.play_ausscheidung``; seeds 000, 002).

    Attributes:
        number: 1 for everyone's throw, 2, 3, ... for the re-throws of tied players.
        throwing_order: who threw in this step, in seating order.
        throws: their throws (one attempt each, natural), in that order.
        tied: the players tied for the worst throw, who throw again; empty once decided.
        outcome: the ``RoundOutcome`` (kind ``"ausscheidung"``) of the deciding step, which
            moved the Deckel and names the first round's Vorleger (its ``loser``); None
            while players are tied.
    """

    number: int
    throwing_order: tuple[str, ...]
    throws: tuple[Throw, ...]
    tied: tuple[str, ...]
    outcome: RoundOutcome | None


# -- actions, for replay_game and Game.apply -----------------------------------------------


@dataclass(frozen=True)
class Ausscheidung:
    """A step of the Ausscheidung: ``throws`` as ``Game.play_ausscheidung`` takes them."""

    throws: RoundEntries


@dataclass(frozen=True)
class TakeDeckel:
    """Deckel nehmen: ``taker``, the throws before it, and optionally its covered dice."""

    taker: str
    throws: RoundEntries = ()
    covered: Sequence[int] | None = None


@dataclass(frozen=True)
class ChooseOpener:
    """The first half's loser names ``player`` to open the second half."""

    player: str


@dataclass(frozen=True)
class Join:
    """``player`` joins the running game or half (einwürfeln), seated after ``after``."""

    player: str
    after: str | None = None


@dataclass(frozen=True)
class Leave:
    """``player``, who has received no Deckel in this game, leaves it (``Game.leave``)."""

    player: str


GameAction: TypeAlias = Ausscheidung | TakeDeckel | ChooseOpener | Join | Leave
_ACTIONS = (Ausscheidung, TakeDeckel, ChooseOpener, Join, Leave)


class Game:
    """One game of Schocken, played round by round (docs/rules.md section 4).

    Args:
        players: the players in seating order; clockwise is this order. At least two,
            no name twice. Names or any hashable ids (e.g. member primary keys).
        rules: the rule set (``format`` chooses single game or halves with final; the
            seed flags enable ``play_ausscheidung``, ``take_deckel``, ``choose_opener``,
            ``join`` and ``leave``).
        vorleger: who opens the first round; default the first player. In the club it is
            the secretary for the evening's first game, else the last game's loser. With
            an Ausscheidung, its loser opens the first round instead.
        schock_aus_so_far: Schock-Aus thrown this evening before this game; only needed to
            decide the Muss-Regel for turns entered in detail.
        last_game: this is the evening's last game (the Muss-Regel applies throughout).

    State (read only): ``players`` (seating order, joined players included), ``rules``,
    ``phase``, ``stock``, ``deckel`` (dict player -> Deckel, every player, 0 when none),
    ``out`` (players of the game not taking part in the current part any more, including
    those not in the final and those who left), ``vorleger``, ``finished``, ``loser``,
    ``first_half_loser``, ``second_half_loser``, ``blattschuss``, ``schock_aus`` (throwers
    in throwing order over the whole game), ``rounds``, ``ausscheidung_steps``,
    ``ausscheidung_open``, ``ausscheidung_tied``, ``covered_throw``, ``left``,
    ``received`` (who has received Deckel in this game, in any half).
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
        self._player_set: frozenset[str] = frozenset(players)
        self.rules: RuleSet = rules
        self.last_game: bool = bool(last_game)
        self.schock_aus_before: int = schock_aus_so_far
        self.first_half_loser: str | None = None
        self.second_half_loser: str | None = None
        self.second_half_opener: str | None = None
        self.blattschuss: bool = False
        self.loser: str | None = None
        self.schock_aus: list[str] = []
        self.rounds: list[RoundOutcome] = []
        self.ausscheidung_steps: list[AusscheidungStep] = []
        self._left: set[str] = set()
        self._received: set[str] = set()
        self._tied: tuple[str, ...] = ()
        self._ausscheidung_schock_aus: list[str] = []
        self._covered: tuple[str, tuple[int, ...] | None] | None = None
        self._start_part(FIRST_HALF if rules.format == "halves" else GAME, players, vorleger)

    # -- state ---------------------------------------------------------------------------

    def _start_part(self, phase: str, participants: Sequence[str], vorleger: str) -> None:
        self.phase: str = phase
        self.participants: tuple[str, ...] = tuple(participants)
        self.stock: int = self.rules.deckel_total
        self._deckel: dict[str, int] = dict.fromkeys(self.players, 0)
        self._out: set[str] = set(self.players) - set(participants)
        self.vorleger: str = vorleger
        self._part_rounds: int = 0
        self._covered = None

    @property
    def deckel(self) -> dict[str, int]:
        """Deckel per player (a copy), every player of the game, 0 when none."""
        return dict(self._deckel)

    @property
    def out(self) -> frozenset[str]:
        """Players not (any more) taking part in the current game, half or final."""
        return frozenset(self._out)

    @property
    def left(self) -> frozenset[str]:
        """Players who left the game (``einwuerfeln``); they play no further part."""
        return frozenset(self._left)

    @property
    def received(self) -> frozenset[str]:
        """Players who have received Deckel in this game so far, in any half or the final
        (from the stock, from a round's winner or by a Schock-Aus), even if they hold none
        now; under ``einwuerfeln`` they may not leave (seed 001)."""
        return frozenset(self._received)

    @property
    def finished(self) -> bool:
        """True once the game has a loser."""
        return self.loser is not None

    @property
    def half_losers(self) -> tuple[str, ...]:
        """The half losers so far (halves format), first half first."""
        halves = (self.first_half_loser, self.second_half_loser)
        return tuple(p for p in halves if p is not None)

    @property
    def ausscheidung_open(self) -> bool:
        """Whether ``play_ausscheidung`` may be called now: the rule set plays it and the
        game (single format) or the first half has had no round yet, or players are tied
        in it. **Decision**: never before the second half or the final (module docstring).
        """
        if not self.rules.ausscheidung or self.finished:
            return False
        if self._tied:
            return True
        return self.phase in (GAME, FIRST_HALF) and self._part_rounds == 0

    @property
    def ausscheidung_tied(self) -> tuple[str, ...]:
        """Players tied for the worst throw of the Ausscheidung, who throw again; empty
        when no re-throw is due. While it is not empty, only ``play_ausscheidung`` with
        exactly these players is accepted."""
        return self._tied

    @property
    def covered_throw(self) -> tuple[str, tuple[int, ...] | None] | None:
        """After ``take_deckel``: ``(taker, covered dice or None)``; the taker opens the
        next round and its covered throw is that round's first attempt. Else None."""
        return self._covered

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

    def apply(self, action: GameAction | RoundEntries) -> RoundOutcome | AusscheidungStep | None:
        """Play one item of a game: an action (``Ausscheidung``, ``TakeDeckel``,
        ``ChooseOpener``, ``Join``, ``Leave``) or a round's entries (``play_round``).

        Returns what the called method returns (None for opener, join and leave).
        """
        if isinstance(action, Ausscheidung):
            return self.play_ausscheidung(action.throws)
        if isinstance(action, TakeDeckel):
            return self.take_deckel(action.taker, action.throws, covered=action.covered)
        if isinstance(action, ChooseOpener):
            self.choose_opener(action.player)
            return None
        if isinstance(action, Join):
            self.join(action.player, after=action.after)
            return None
        if isinstance(action, Leave):
            self.leave(action.player)
            return None
        return self.play_round(action)

    def play_round(self, throws: RoundEntries) -> RoundOutcome:
        """Play one round and move the Deckel (docs/rules.md sections 2 and 4).

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
            used), ``invalid_entry`` (neither a Throw nor attempts),
            ``ausscheidung_tied`` (tied players of the Ausscheidung must throw again
            first), ``covered_throw_mismatch`` (after Deckel nehmen, the Vorleger's first
            attempt is not its covered throw), and every code of ``validate_throw`` /
            ``validate_turn`` for an impossible throw or turn (same code, attempt and
            rule; the message starts with the player's name, and the exception's
            ``player`` attribute names the player).
        """
        self._check_playing()
        order = self.throwing_order()
        names, entries = self._arrange(throws, order)
        final_throws, muss = self._validate_entries(names, entries)
        self._check_covered(names[0], entries[0])
        result = resolve_round(final_throws, self.rules)
        return self._settle(
            throwing_order=order,
            throws=tuple(final_throws),
            muss=tuple(muss),
            order=tuple(order[i] for i in result.order),
            winner=order[result.winner],
            loser=order[result.loser],
            worth=result.deckel,
            schock_aus=tuple(order[i] for i in sorted(result.schock_aus)),
            kind=ROUND,
        )

    def play_ausscheidung(self, throws: RoundEntries) -> AusscheidungStep:
        """Play one step of the Ausscheidung um den Spielbeginn (docs/rules.md 4, ``ausscheidung``;
        seed 000, seed 002 item 1).

        Args:
            throws: each player's one throw, as for ``play_round`` (a mapping, or pairs in
                any order; the engine lists them in seating order from the Vorleger). The
                first step takes every active player; a re-throw exactly the players of
                ``ausscheidung_tied``. An entry is a ``Throw`` of one attempt, natural, or
                a turn of one ``Attempt``.

        Returns an ``AusscheidungStep``. When one throw is the worst, the step decides: that
        player takes from the stock as many Deckel as the step's best throw is worth (a
        Schock-Aus in the step: all of them, and the half is lost; seed 000's example) and
        opens the first round. When several tie for the worst, they throw again
        (``tied``); **Decision**: "tie" is equal rank by section 1, every throw being
        natural in one attempt, and each step is settled on its own throws.

        Raises:
            RuleViolation: ``ausscheidung_off`` (the rule set does not play it),
            ``ausscheidung_not_now`` (a round was played in this part, or it is the second
            half or the final), ``game_finished``, ``unknown_player``,
            ``duplicate_player``, ``player_out``, ``player_missing``, ``player_not_tied``
            (a re-throw by a player who is not tied), ``ausscheidung_one_throw`` (more than
            one attempt, or collected), ``invalid_entry`` and the codes of
            ``validate_throw`` / ``validate_turn``.
        """
        self._check_ausscheidung_open()
        expected = self._tied or self.throwing_order()
        if self._tied:
            self._check_only_tied_throw(throws)
        names, entries = self._arrange(throws, tuple(expected), any_order=True)
        final_throws = self._validate_ausscheidung(names, entries)
        self._ausscheidung_schock_aus.extend(
            name for name, t in zip(names, final_throws, strict=True) if t.dice == (1, 1, 1)
        )
        ranks = [rank(t, self.rules) for t in final_throws]
        worst = min(ranks)
        tied = tuple(name for name, r in zip(names, ranks, strict=True) if r == worst)
        number = len(self.ausscheidung_steps) + 1
        if len(tied) > 1:
            self._tied = tied
            step = AusscheidungStep(number, tuple(names), tuple(final_throws), tied, None)
            self.ausscheidung_steps.append(step)
            return step
        self._tied = ()
        outcome = self._settle_ausscheidung(names, final_throws)
        step = AusscheidungStep(number, tuple(names), tuple(final_throws), (), outcome)
        self.ausscheidung_steps.append(step)
        return step

    def _check_ausscheidung_open(self) -> None:
        """Refuse ``play_ausscheidung`` now (docs/rules.md 4, ``ausscheidung``; seeds 000, 002).

        Raises:
            RuleViolation, in this order: ``ausscheidung_off``, ``game_finished``,
            ``ausscheidung_not_now`` (see ``ausscheidung_open``).
        """
        if not self.rules.ausscheidung:
            raise _refuse(
                "ausscheidung_off",
                "Nach diesen Regeln gibt es keine Ausscheidung um den Spielbeginn.",
                rule=_R_AUSSCHEIDUNG,
            )
        if self.finished:
            raise self._finished_error()
        if not self.ausscheidung_open:
            raise _refuse(
                "ausscheidung_not_now",
                "Die Ausscheidung wird nur vor der ersten Runde des Spiels bzw. der ersten "
                "Hälfte geworfen.",
                rule=_R_AUSSCHEIDUNG,
            )

    def _check_only_tied_throw(self, throws: RoundEntries) -> None:
        """In a re-throw of the Ausscheidung, only the tied players throw (docs/rules.md 4).

        ``throws`` as ``play_ausscheidung`` takes them; names that are no player of the
        game are left to ``_arrange``.

        Raises:
            RuleViolation ``player_not_tied`` (``player`` set) for the first player of the
            game in ``throws`` who is not in ``ausscheidung_tied``; ``invalid_entry`` for
            entries that are not pairs.
        """
        for name, _ in self._pairs(throws):
            if name in self._player_set and name not in self._tied:
                raise _refuse(
                    "player_not_tied",
                    f"{name} wirft nicht mehr mit: nur "
                    + ", ".join(map(str, self._tied))
                    + " stehen gleich schlecht und werfen noch einmal.",
                    name,
                    _R_AUSSCHEIDUNG,
                )

    def _validate_ausscheidung(self, names: list[str], entries: list[TurnEntry]) -> list[Throw]:
        """Each player's one throw of an Ausscheidung step, checked (docs/rules.md 4,
        ``ausscheidung``: one attempt, natural), in the order of ``names``.

        ``names`` and ``entries`` as ``_arrange`` returns them. Returns the final throws.

        Raises:
            RuleViolation ``ausscheidung_one_throw`` for an entry of more than one attempt
            or a collected throw, else the codes of ``validate_throw`` /
            ``validate_turn`` with a cap of 1 (``_validate_one``); the first player's
            violation first.
        """
        final_throws: list[Throw] = []
        for name, entry in zip(names, entries, strict=True):
            several = (
                entry.attempts != 1 or not entry.natural
                if isinstance(entry, Throw)
                else isinstance(entry, Sequence) and len(entry) != 1
            )
            if several:
                raise _refuse(
                    "ausscheidung_one_throw",
                    f"{name}: In der Ausscheidung wirft jeder genau einmal, aus der Hand.",
                    name,
                    _R_AUSSCHEIDUNG,
                )
            final_throws.append(self._validate_one(name, entry, cap=1, muss=False))
        return final_throws

    def _settle_ausscheidung(self, names: list[str], final_throws: list[Throw]) -> RoundOutcome:
        """Settle the deciding step of the Ausscheidung (one worst throw; docs/rules.md 4).

        The step's best throw sets the Deckel its worst thrower takes; the Schock-Aus of
        every step so far go with it (all Deckel, the part is lost). Returns the
        ``RoundOutcome`` (kind ``"ausscheidung"``).
        """
        result = resolve_round(final_throws, self.rules)
        schock_aus = tuple(self._ausscheidung_schock_aus)
        self._ausscheidung_schock_aus = []
        return self._settle(
            throwing_order=tuple(names),
            throws=tuple(final_throws),
            muss=(False,) * len(names),
            order=tuple(names[i] for i in result.order),
            winner=names[result.winner],
            loser=names[result.loser],
            worth=result.deckel,
            schock_aus=schock_aus,
            kind=AUSSCHEIDUNG,
        )

    def take_deckel(
        self,
        taker: str,
        throws: RoundEntries = (),
        *,
        covered: Sequence[int] | None = None,
    ) -> RoundOutcome:
        """Deckel nehmen (docs/rules.md 4, ``deckel_nehmen``; seed 000, "Aufnehmen der Deckel").

        A player whose turn is still covered takes, instead of throwing, as many Deckel as
        the round's best throw so far is worth; the round ends with that player as its
        loser, and its covered throw becomes the first attempt of the next round, which it
        opens. Seed 000's example: the Vorleger lays "Schock 3" in one attempt, the next
        player keeps its cup covered and takes three Deckel.

        Args:
            taker: the player taking the Deckel; any active player after the Vorleger.
            throws: the entries of the players before ``taker`` in throwing order (the
                Vorleger first), as for ``play_round``.
            covered: the covered throw's three dice, if the secretary enters them; the next
                round's first attempt of the taker must then show them.

        Returns the round's ``RoundOutcome`` (kind ``"deckel_nehmen"``, ``taken_by`` the
        taker). **Decision**: with the stock empty, the player of the best throw so far
        gives the Deckel (Ablegen); after a Schock-Aus the taker takes all.

        Raises:
            RuleViolation: ``deckel_nehmen_off``, ``game_finished``, ``ausscheidung_tied``,
            ``unknown_player``, ``player_out``, ``deckel_nehmen_vorleger`` (the Vorleger
            has no throw before it to take from), ``thrown_after_taker`` (an entry for a
            player after the taker), the codes of ``play_round`` for the entries,
            ``wrong_number_of_dice`` / ``die_out_of_range`` for ``covered``.
        """
        order, position = self._check_taker(taker)
        self._check_nobody_after_taker(taker, throws, order[position:])
        covered_dice = None if covered is None else check_dice(covered)
        names, entries = self._arrange(throws, order[:position])
        final_throws, muss = self._validate_entries(names, entries)
        self._check_covered(names[0], entries[0])
        outcome = self._settle_taken(taker, names, final_throws, tuple(muss), covered_dice)
        if not outcome.phase_loser:
            self._covered = (taker, covered_dice)
        return outcome

    def _check_taker(self, taker: str) -> tuple[tuple[str, ...], int]:
        """Whether ``taker`` may take the Deckel now (docs/rules.md 4, ``deckel_nehmen``).

        Returns ``(order, position)``: the round's throwing order and the taker's place in
        it (>= 1).

        Raises:
            RuleViolation, in this order: ``deckel_nehmen_off``, ``game_finished``,
            ``ausscheidung_tied``, ``unknown_player``, ``player_out``,
            ``deckel_nehmen_vorleger`` (the Vorleger has no throw before it).
        """
        if not self.rules.deckel_nehmen:
            raise _refuse(
                "deckel_nehmen_off",
                "Nach diesen Regeln darf niemand freiwillig Deckel nehmen.",
                rule=_R_DECKEL_NEHMEN,
            )
        self._check_playing()
        order = self.throwing_order()
        self._check_member(taker)
        if taker not in order:
            raise self._out_error(taker)
        position = order.index(taker)
        if position == 0:
            raise _refuse(
                "deckel_nehmen_vorleger",
                f"{taker} legt vor: Deckel nehmen kann nur, wer nach einem Wurf an der Reihe "
                "ist und seinen Wurf noch verdeckt hat.",
                taker,
                _R_DECKEL_NEHMEN,
            )
        return order, position

    def _check_nobody_after_taker(
        self, taker: str, throws: RoundEntries, after: tuple[str, ...]
    ) -> None:
        """No entry for a player from ``taker`` on (``after``, the taker first): the round
        ends when the taker takes the Deckel (docs/rules.md 4, ``deckel_nehmen``).

        Raises:
            RuleViolation ``thrown_after_taker`` (``player`` set) for the first such entry
            in ``throws``; ``invalid_entry`` for entries that are not pairs.
        """
        for name, _ in self._pairs(throws):
            if name in after:
                raise _refuse(
                    "thrown_after_taker",
                    f"{name} wirft nicht mehr: die Runde endet, wenn {taker} Deckel nimmt.",
                    name,
                    _R_DECKEL_NEHMEN,
                )

    def _settle_taken(
        self,
        taker: str,
        names: list[str],
        final_throws: list[Throw],
        muss: tuple[bool, ...],
        covered_dice: tuple[int, ...] | None,
    ) -> RoundOutcome:
        """Settle a round ended by Deckel nehmen (docs/rules.md 4, ``deckel_nehmen``).

        ``names`` and ``final_throws``: the checked throws before ``taker``, in throwing
        order; ``muss`` whether the Muss-Regel applied to each. The best of them (by
        ``round_key``) is the winner and sets the Deckel, the taker is the loser and ranks
        last. Returns the ``RoundOutcome`` (kind ``"deckel_nehmen"``).
        """
        keys = [round_key(t, i, self.rules) for i, t in enumerate(final_throws)]
        ranked = sorted(range(len(names)), key=keys.__getitem__, reverse=True)
        best = ranked[0]
        schock_aus = tuple(
            n for n, t in zip(names, final_throws, strict=True) if t.dice == (1, 1, 1)
        )
        return self._settle(
            throwing_order=tuple(names),
            throws=tuple(final_throws),
            muss=muss,
            order=tuple(names[i] for i in ranked) + (taker,),
            winner=names[best],
            loser=taker,
            worth=evaluate(final_throws[best], self.rules).deckel,
            schock_aus=schock_aus,
            kind=DECKEL_NEHMEN,
            taken_by=taker,
            covered=covered_dice,
        )

    def choose_opener(self, player: str) -> None:
        """The first half's loser names who opens the second half (docs/rules.md 4,
        ``opener_choice``; seed 000, "Vorlegen"). Without a call the first half's loser
        opens it (the default). Allowed before the second half's first round only.

        Raises:
            RuleViolation: ``opener_choice_off``, ``game_finished``, ``opener_not_now``
            (not the second half, or a round of it was played), ``unknown_player``,
            ``player_out`` (a player who left).
        """
        if not self.rules.opener_choice:
            raise _refuse(
                "opener_choice_off",
                "Nach diesen Regeln eröffnet der Verlierer der ersten Hälfte die zweite "
                "selbst; er bestimmt niemand anderen.",
                rule=_R_OPENER,
            )
        if self.finished:
            raise self._finished_error()
        if self.phase != SECOND_HALF or self._part_rounds:
            raise _refuse(
                "opener_not_now",
                "Wer die zweite Hälfte eröffnet, wird vor ihrer ersten Runde bestimmt.",
                rule=_R_OPENER,
            )
        self._check_member(player)
        if player in self._out:
            raise self._out_error(player)
        self.vorleger = player
        self.second_half_opener = player

    def join(self, player: str, *, after: str | None = None) -> None:
        """A player joins the running game or half with no Deckel (docs/rules.md 4,
        ``einwuerfeln``; seed 001: "man kann sich jederzeit in ein bestehendes Spiel
        einwürfeln").

        Args:
            player: the new player (not one who left this game: they stay out).
            after: the player it sits after (clockwise); default the last seat.

        **Decision**: between rounds only, never in the final, never during a tie of the
        Ausscheidung, and only while the stock holds Deckel (once it is empty a player
        without Deckel is out). The player then plays the rest of the game.

        Raises:
            RuleViolation: ``einwuerfeln_off``, ``game_finished``, ``join_not_now`` (final,
            or tied Ausscheidung), ``join_stock_empty``, ``duplicate_player`` (already
            playing), ``join_after_leave`` (left this game: out for the rest of it, docs/rules.md
            4), ``unknown_player`` (``after`` does not play).
        """
        self._check_join(player)
        if after is not None:
            self._check_member(after)
        seats = [p for p in self.players if p != player]
        at = len(seats) if after is None else seats.index(after) + 1
        seats.insert(at, player)
        self.players = tuple(seats)
        self._player_set = frozenset(seats)
        self._deckel.setdefault(player, 0)
        self.participants = tuple(p for p in seats if p in self.participants or p == player)
        self._out.discard(player)

    def _check_join(self, player: str) -> None:
        """Refuse `player` joining now (the codes of `join` but ``unknown_player``)."""
        self._check_einwuerfeln()
        if self.phase == FINAL or self._tied:
            raise _refuse(
                "join_not_now",
                f"{player} kann jetzt nicht einsteigen: "
                + (
                    "das Finale spielen nur die Hälftenverlierer."
                    if self.phase == FINAL
                    else "erst wird die Ausscheidung entschieden."
                ),
                player,
                _R_EINWUERFELN,
            )
        if self.stock == 0:
            raise _refuse(
                "join_stock_empty",
                f"{player} kann nicht mehr einsteigen: der Stock ist leer, wer keine Deckel "
                "hat, ist draußen.",
                player,
                _R_EINWUERFELN,
            )
        try:
            known = player in self._player_set
        except TypeError:
            raise _refuse("invalid_entry", f"{player!r} ist kein Spieler.", None) from None
        if known and player in self._left:
            raise _refuse(
                "join_after_leave",
                f"{player} ist aus diesem Spiel ausgestiegen und bleibt bis zu seinem Ende "
                "draußen.",
                player,
                _R_EINWUERFELN,
            )
        if known:
            raise _refuse("duplicate_player", f"{player} spielt schon mit.", player)

    def leave(self, player: str) -> None:
        """A player who has received no Deckel in this game leaves it (docs/rules.md 4,
        ``einwuerfeln``; seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen
        erhalten hat").

        Received counts over the whole game: a first half's loser holds no Deckel after
        the reset but has received them, and stays (``received``). **Decision**: between
        rounds only, never in the final or during a tie of the Ausscheidung; the player is
        out of the rest of the game, the final included, and may not join again; a
        leaving Vorleger passes the opening to the next active player clockwise.

        Raises:
            RuleViolation: ``einwuerfeln_off``, ``game_finished``, ``leave_not_now``,
            ``unknown_player``, ``leave_with_deckel`` (holds Deckel now),
            ``leave_after_deckel`` (holds none now but received some earlier in the
            game), ``too_few_players`` (fewer than two would remain).
        """
        self._check_einwuerfeln()
        self._check_member(player)
        if self.phase == FINAL or self._tied or player in self._left:
            raise _refuse(
                "leave_not_now",
                f"{player} kann jetzt nicht aussteigen.",
                player,
                _R_EINWUERFELN,
            )
        if self._deckel[player]:
            raise _refuse(
                "leave_with_deckel",
                f"{player} hat {self._deckel[player]} Deckel und darf nicht aussteigen; "
                "aussteigen darf nur, wer in diesem Spiel keine Deckel erhalten hat.",
                player,
                _R_EINWUERFELN,
            )
        if player in self._received:
            raise _refuse(
                "leave_after_deckel",
                f"{player} hat in diesem Spiel schon Deckel erhalten und darf nicht mehr "
                "aussteigen; aussteigen darf nur, wer in diesem Spiel keine Deckel erhalten "
                "hat.",
                player,
                _R_EINWUERFELN,
            )
        remaining = [p for p in self.active_players() if p != player]
        if len(remaining) < 2:
            raise _refuse(
                "too_few_players",
                f"Ohne {player} blieben weniger als zwei Spieler.",
                player,
                _R_EINWUERFELN,
            )
        if self.vorleger == player:
            active = self.active_players()
            self.vorleger = active[(active.index(player) + 1) % len(active)]
        self._left.add(player)
        self._out.add(player)

    # -- checks ----------------------------------------------------------------------------

    def _finished_error(self) -> RuleViolation:
        return _refuse(
            "game_finished",
            f"Das Spiel ist vorbei; {self.loser} hat verloren. Keine weitere Runde.",
        )

    def _out_error(self, name: str) -> RuleViolation:
        where = _PHASE_NAMES[self.phase]
        return _refuse("player_out", f"{name} ist in diesem Teil ({where}) nicht mehr dabei.", name)

    def _check_playing(self) -> None:
        if self.finished:
            raise self._finished_error()
        if self._tied:
            raise _refuse(
                "ausscheidung_tied",
                "Erst werfen "
                + ", ".join(map(str, self._tied))
                + " in der Ausscheidung noch einmal.",
                rule=_R_AUSSCHEIDUNG,
            )

    def _check_member(self, name: object) -> None:
        try:
            known = name in self._player_set
        except TypeError:  # an unhashable "name" is no player either
            known = False
        if not known:
            raise _refuse("unknown_player", f"{name!r} spielt dieses Spiel nicht mit.", name)

    def _check_einwuerfeln(self) -> None:
        if not self.rules.einwuerfeln:
            raise _refuse(
                "einwuerfeln_off",
                "Nach diesen Regeln steigt niemand in ein laufendes Spiel ein oder aus.",
                rule=_R_EINWUERFELN,
            )
        if self.finished:
            raise self._finished_error()

    def _check_covered(self, vorleger: str, entry: object) -> None:
        """After Deckel nehmen, the taker's covered throw is its first attempt."""
        if self._covered is None:
            return
        taker, dice = self._covered
        self._covered = None
        if dice is None or vorleger != taker:
            return
        if isinstance(entry, Throw):
            first = entry.dice if entry.attempts == 1 and entry.natural else None
        else:
            attempts = list(entry) if isinstance(entry, Sequence) else []
            first = attempts[0].rolled if attempts else None
        if first is not None and sorted(first) != sorted(dice):
            self._covered = (taker, dice)
            raise _refuse(
                "covered_throw_mismatch",
                f"{taker}: Der erste Versuch ist der verdeckte Wurf aus der Runde davor ("
                + "-".join(map(str, sorted(dice, reverse=True)))
                + "), eingegeben wurde "
                + "-".join(map(str, sorted(first, reverse=True)))
                + ".",
                taker,
                _R_DECKEL_NEHMEN,
            )

    @staticmethod
    def _pairs(throws: RoundEntries) -> list[tuple[str, TurnEntry]]:
        if isinstance(throws, Mapping):
            return list(throws.items())
        try:
            pairs: list[tuple[Any, ...]] = [tuple(pair) for pair in throws]
        except TypeError as exc:
            raise _refuse(
                "invalid_entry", "Eine Runde ist eine Liste von (Spieler, Wurf)."
            ) from exc
        for pair in pairs:
            if len(pair) != 2:
                raise _refuse("invalid_entry", "Eine Runde ist eine Liste von (Spieler, Wurf).")
        return [(pair[0], pair[1]) for pair in pairs]

    def _arrange(
        self, throws: RoundEntries, order: tuple[str, ...], *, any_order: bool = False
    ) -> tuple[list[str], list[TurnEntry]]:
        is_mapping = isinstance(throws, Mapping) or any_order
        pairs = self._pairs(throws)
        seen: set[str] = set()
        for name, _ in pairs:
            self._check_member(name)
            if name in seen:
                raise _refuse(
                    "duplicate_player", f"{name} hat in der Runde zweimal geworfen.", name
                )
            seen.add(name)
            if name in self._out:
                raise self._out_error(name)
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

    def _validate_one(self, name: str, entry: object, *, cap: int, muss: bool) -> Throw:
        if isinstance(entry, Throw):
            attempts: list[Attempt] | None = None
        elif isinstance(entry, Sequence) and not isinstance(entry, str | bytes):
            if not all(isinstance(item, Attempt) for item in entry):
                raise _refuse(
                    "invalid_entry",
                    f"Der Zug von {name} ist keine Liste von Versuchen (Attempt).",
                    name,
                )
            attempts = list(entry)
        else:
            raise _refuse(
                "invalid_entry",
                f"Der Eintrag für {name} ist weder ein Wurf noch eine Liste von Versuchen.",
                name,
            )
        try:
            if attempts is None:
                assert isinstance(entry, Throw)
                return validate_throw(entry, self.rules, max_attempts=cap, muss_regel=muss)
            return validate_turn(attempts, self.rules, max_attempts=cap, muss_regel=muss)
        except RuleViolation as exc:
            # Same code, attempt and rule; the message says whose turn it was.
            named = RuleViolation(exc.code, f"{name}: {exc.message}", exc.attempt, exc.rule)
            named.player = name
            raise named from exc

    def _validate_entries(
        self, names: list[str], entries: list[TurnEntry]
    ) -> tuple[list[Throw], list[bool]]:
        cap = self.rules.max_attempts
        final_throws: list[Throw] = []
        muss: list[bool] = []
        schock_aus_in_round = 0
        order0 = names[0]
        for position, (name, entry) in enumerate(zip(names, entries, strict=True)):
            applies = self.muss_regel_applies(schock_aus_in_round)
            if isinstance(entry, Throw):
                used: object = entry.attempts
            elif isinstance(entry, Sequence) and not isinstance(entry, str | bytes):
                used = len(entry)
            else:
                used = None
            if position > 0 and isinstance(used, int) and used > cap:
                # docs/rules.md 3: the Vorleger's attempts cap every later player's.
                raise _refuse(
                    "more_attempts_than_vorleger",
                    f"{name} hat {used} Versuche gebraucht, der Vorleger {order0} nur {cap}.",
                    name,
                )
            throw = self._validate_one(name, entry, cap=cap, muss=applies)
            if position == 0:
                cap = throw.attempts
            if throw.dice == (1, 1, 1):
                schock_aus_in_round += 1
            final_throws.append(throw)
            muss.append(applies)
        return final_throws, muss

    # -- moving the Deckel -----------------------------------------------------------------

    def _settle(
        self,
        *,
        throwing_order: tuple[str, ...],
        throws: tuple[Throw, ...],
        muss: tuple[bool, ...],
        order: tuple[str, ...],
        winner: str,
        loser: str,
        worth: int,
        schock_aus: tuple[str, ...],
        kind: str,
        taken_by: str | None = None,
        covered: tuple[int, ...] | None = None,
    ) -> RoundOutcome:
        """Move the Deckel of a round (docs/rules.md 4) and record its outcome."""
        total = self.rules.deckel_total
        deckel = self._deckel
        worth, moved, source, went_out = self._move_deckel(winner, loser, worth, schock_aus)
        if moved:
            self._received.add(loser)
        self._out.update(went_out)
        self.schock_aus.extend(schock_aus)
        phase = self.phase
        phase_loser = loser if deckel[loser] == total else None
        after = tuple(deckel.items())
        stock_after = self.stock
        self.vorleger = loser
        self._part_rounds += 1
        if phase_loser is not None:
            self._end_part(phase_loser)
        outcome = RoundOutcome(
            number=len(self.rounds) + 1,
            phase=phase,
            vorleger=throwing_order[0],
            throwing_order=throwing_order,
            throws=throws,
            muss_regel=muss,
            order=order,
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
            kind=kind,
            taken_by=taken_by,
            covered=covered,
        )
        self.rounds.append(outcome)
        return outcome

    def _move_deckel(
        self, winner: str, loser: str, worth: int, schock_aus: tuple[str, ...]
    ) -> tuple[int, int, str, list[str]]:
        """Move a round's Deckel between the stock and the players (docs/rules.md 4); part of
        ``_settle``.

        A Schock-Aus in the round: all Deckel, from the stock and from everyone, go to
        ``loser`` (docs/rules.md 4.4). Else Aufnahme while the stock holds Deckel (``loser``
        takes ``worth``, at most the stock), then Ablegen (``winner`` gives ``worth``, at
        most all it holds).

        Returns ``(worth, moved, source, went_out)``: the Deckel the round was worth (the
        total for a Schock-Aus), the Deckel that changed hands, ``SCHOCK_AUS_MOVE``,
        ``AUFNAHME`` or ``ABLEGEN``, and the active players out from now on (not yet added
        to ``_out``).
        """
        total = self.rules.deckel_total
        deckel = self._deckel
        active = self.active_players()
        went_out: list[str] = []
        if schock_aus:
            # docs/rules.md 4.4: all 13, from the stock and from everyone, to the round's loser.
            worth = total
            moved = total - deckel[loser]
            source = SCHOCK_AUS_MOVE
            for p in deckel:
                deckel[p] = 0
            deckel[loser] = total
            self.stock = 0
            went_out = [p for p in active if p != loser]
        elif self.stock > 0:
            moved = min(worth, self.stock)
            source = AUFNAHME
            self.stock -= moved
            deckel[loser] += moved
            if self.stock == 0:
                went_out = [p for p in active if deckel[p] == 0]
        else:
            moved = min(worth, deckel[winner])
            source = ABLEGEN
            deckel[winner] -= moved
            deckel[loser] += moved
            if deckel[winner] == 0:
                went_out = [winner]
        return worth, moved, source, went_out

    def _end_part(self, part_loser: str) -> None:
        staying = [p for p in self.players if p not in self._left]
        if self.phase in (GAME, FINAL):
            self.loser = part_loser
        elif self.phase == FIRST_HALF:
            self.first_half_loser = part_loser
            # Decision: the first half's loser opens the second half (seed 000, seed 004),
            # unless it names another opener (opener_choice, Game.choose_opener).
            self._start_part(SECOND_HALF, staying, part_loser)
        else:
            self.second_half_loser = part_loser
            if part_loser == self.first_half_loser:
                self.blattschuss = True
                self.loser = part_loser
            else:
                finalists = [p for p in self.players if p in (self.first_half_loser, part_loser)]
                first = self.first_half_loser
                assert first is not None
                self._start_part(FINAL, finalists, first)


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
    rounds: Iterable[RoundEntries | GameAction],
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
            player and ``Throw`` or attempts), or an action of the seed flags
            (``Ausscheidung``, ``TakeDeckel``, ``ChooseOpener``, ``Join``, ``Leave``) in the
            order it happened (``Game.apply``).
        rules, vorleger, schock_aus_so_far, last_game: as for ``Game``.

    Returns a ``GameReplay`` with the loser and the Schock-Aus throwers in throwing order.

    Raises:
        RuleViolation: anything ``Game`` or ``Game.play_round`` refuses (``game_finished``
        for a round after the game ended), and ``game_not_finished`` when the rounds run
        out before a player holds all 13 Deckel.
    """
    game = Game(players, rules, vorleger, schock_aus_so_far=schock_aus_so_far, last_game=last_game)
    for item in rounds:
        game.apply(item)
    if not game.finished:
        raise _refuse(
            "game_not_finished",
            f"Nach {len(game.rounds)} Runden hat noch niemand alle "
            f"{rules.deckel_total} Deckel: das Spiel ist nicht zu Ende.",
        )
    assert game.loser is not None
    return GameReplay(
        loser=game.loser,
        schock_aus=tuple(game.schock_aus),
        rounds=tuple(game.rounds),
        first_half_loser=game.first_half_loser,
        second_half_loser=game.second_half_loser,
        blattschuss=game.blattschuss,
    )
