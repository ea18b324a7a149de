"""Games entered round by round (issue 3 item 3; RULES.md sections 2, 3 and 4).

The secretary enters each round's throws in throwing order, every throw either as a final
throw (dice, attempts, natural) or attempt by attempt. The rules module decides everything:
``games.rules.engine.Game`` validates each throw with the season's rule set (the Vorleger's
attempts cap the others', the Muss-Regel where it applies), moves the Deckel and says when
the game is over, who lost it and who threw Schock-Aus. This module only turns members into
plain values for it, and its answers back into rows: the game itself is written by
``game_record(..., entry_mode="rounds")``, so a game entered this way counts exactly like
the same game entered short, and its ``Round`` / ``RoundThrow`` rows are written in the
same transaction.

The game's players and their seating order (clockwise) are the first round's throwing
order; its first thrower is the game's Vorleger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.selectors import next_game_number
from games.evenings.services import game_record
from games.rounds.models import Round, RoundThrow
from games.rules import Attempt, RuleSet, RuleViolation, Throw
from games.rules.engine import FINAL, FIRST_HALF, GAME, SECOND_HALF, RoundOutcome
from games.rules.engine import Game as EngineGame
from league.club.errors import BooksError, check_version
from league.club.models import Member
from league.club.statutes import season_rules, season_statutes

_PHASES = {
    GAME: Round.Phase.SINGLE,
    FIRST_HALF: Round.Phase.FIRST_HALF,
    SECOND_HALF: Round.Phase.SECOND_HALF,
    FINAL: Round.Phase.FINAL,
}


@dataclass(frozen=True)
class ThrowInput:
    """One player's throw in a round, as the secretary entered it.

    Either a final throw: ``dice`` (three ints 1..6), ``attempts`` (1..3) and ``natural``
    ("aus der Hand"); or the turn in detail: ``turn``, a list of attempts
    ``{"rolled": [...], "keep": [...], "umwandlung": 0|1|2}`` (RULES.md 3). When ``turn`` is
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


@dataclass(frozen=True)
class RoundInput:
    """One round: the throws in throwing order (the Vorleger first)."""

    throws: Sequence[ThrowInput]


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
            ``stock``: Deckel left in the stock; ``schock_aus_in_game``: Schock-Aus so far.
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

    def player(self, key: str) -> Member:
        """The Member behind an engine player key."""
        return self.people[key]

    @property
    def schock_aus_in_game(self) -> int:
        return len(self.schock_aus)


def evening_game_context(*, evening: Evening, number: int) -> tuple[int, bool]:
    """What the Muss-Regel needs to know about game ``number`` of ``evening`` (RULES.md 3/5):
    the evening's Schock-Aus thrown in games numbered below it, and whether it is the
    evening's last game (number >= five games per present club member)."""
    before = SchockAus.objects.filter(game__evening=evening, game__number__lt=number).count()
    members = evening.attendances.filter(role=Attendance.Role.MEMBER).count()
    return before, number >= season_statutes(evening.season).games_expected(present_members=members)


def _key(member: Member) -> str:
    # The engine names players in its messages; names are unique within a club.
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
    """Every round has throws, every thrower was present; `play.people` learns them."""
    if not rounds:
        raise BooksError("no_rounds", _("Enter at least one round."), field="rounds")
    present = set(
        evening.attendances.exclude(role=Attendance.Role.ABSENT).values_list("member_id", flat=True)
    )
    for i, round_input in enumerate(rounds):
        if not round_input.throws:
            raise BooksError("empty_round", _("This round has no throws."), field=f"rounds[{i}]")
        for j, throw in enumerate(round_input.throws):
            if throw.player.pk not in present:
                raise BooksError(
                    "player_not_present",
                    _("%(name)s was not present at this evening.") % {"name": throw.player.name},
                    field=f"rounds[{i}].throws[{j}]",
                )
            play.people[_key(throw.player)] = throw.player


def _note_state(play: RoundsPlay, game: EngineGame) -> None:
    """Copy the engine's state after the entered rounds into `play` (as Members)."""
    play.finished = game.finished
    play.loser = play.player(game.loser) if game.finished and game.loser else None
    play.schock_aus = [play.player(k) for k in game.schock_aus]
    play.stock = game.stock
    play.deckel = {play.player(k): n for k, n in game.deckel.items()}
    if not game.finished:
        play.next_order = [play.player(k) for k in game.throwing_order()]


def game_rounds_play(
    *,
    evening: Evening,
    rounds: Sequence[RoundInput],
    number: int | None = None,
    require_finished: bool = True,
) -> RoundsPlay:
    """Play the entered rounds of game ``number`` (default: the evening's next) through the
    engine with the season's rule set, without writing anything.

    With ``require_finished=False`` the rounds may stop before the game is over (the entry
    page uses this to show the state and pre-fill the next round).

    Raises BooksError (field ``rounds[i]`` or ``rounds[i].throws[j]``, 0-based):
    ``no_rounds``, ``empty_round``, ``player_not_present``, ``throw_missing``,
    ``invalid_entry``, every RuleViolation code of the engine and of
    ``validate_throw``/``validate_turn`` (e.g. ``more_attempts_than_vorleger``,
    ``too_many_attempts``, ``keep_not_one``, ``muss_regel_broken``, ``player_out``,
    ``not_seating_order``, ``game_finished`` for a round after the game ended) and
    ``game_not_finished``.
    """
    rules = season_rules(evening.season)
    number = next_game_number(evening=evening) if number is None else number
    before, last_game = evening_game_context(evening=evening, number=number)
    play = RoundsPlay(rules=rules, number=number, schock_aus_before=before, last_game=last_game)
    _check_players(evening, rounds, play)
    first = rounds[0].throws
    try:
        game = EngineGame(
            [_key(t.player) for t in first],
            rules,
            _key(first[0].player),
            schock_aus_so_far=before,
            last_game=last_game,
        )
    except RuleViolation as exc:
        raise _violation(exc, "rounds[0]") from exc
    for i, round_input in enumerate(rounds):
        entries = [_entry(t, f"rounds[{i}].throws[{j}]") for j, t in enumerate(round_input.throws)]
        pairs = [(_key(t.player), e) for t, e in zip(round_input.throws, entries, strict=True)]
        try:
            outcome = game.play_round(pairs)
        except RuleViolation as exc:
            where = _where(exc, game, pairs, entries, rules)
            field_name = f"rounds[{i}]" if where is None else f"rounds[{i}].throws[{where}]"
            raise _violation(exc, field_name) from exc
        play.outcomes.append(outcome)
    _note_state(play, game)
    if not game.finished and require_finished:
        raise BooksError(
            "game_not_finished",
            _("The game is not over yet: nobody holds all %(total)s Deckel.")
            % {"total": rules.deckel_total},
            field="rounds",
        )
    return play


@transaction.atomic
def game_record_rounds(
    *,
    evening: Evening,
    rounds: Sequence[RoundInput],
    number: int | None = None,
    expected_evening_version: int | None = None,
) -> Game:
    """Record a game entered round by round (issue 3 item 3).

    ``rounds``: every round of the game in order, each with its throws in throwing order
    (see ``RoundInput``/``ThrowInput``). The rounds are played through the engine with the
    season's rule set (``game_rounds_play``); the derived loser and Schock-Aus throwers (in
    throwing order) are recorded by ``game_record(entry_mode="rounds")`` with the first
    round's first thrower as Vorleger, and the ``Round``/``RoundThrow`` rows (with the turn
    in detail where entered so, and whether the Muss-Regel applied) in the same transaction.

    The books-changed event (RULES.md 5: the season's data version moves, the loser's
    charge is booked) is raised by ``game_record`` through ``evening_changed``, inside this
    one transaction; the rounds are written after it in the same transaction.

    Returns the ``Game``. Raises BooksError: every code of ``game_rounds_play`` (nothing is
    saved), and those of ``game_record`` (``duplicate_game_number`` 409, ``invalid_number``,
    ``stale_version`` 412).
    """
    evening = Evening.objects.select_for_update().select_related("season").get(pk=evening.pk)
    check_version(evening, expected_evening_version)
    number = next_game_number(evening=evening) if number is None else number
    if number < 1:
        raise BooksError("invalid_number", _("The game number must be 1 or more."), field="number")
    if evening.games.filter(number=number).exists():
        raise BooksError(
            "duplicate_game_number",
            _("This evening has a game with this number already."),
            field="number",
            status=409,
        )
    play = game_rounds_play(evening=evening, rounds=rounds, number=number)
    assert play.loser is not None  # game_rounds_play refuses a game that is not over
    game = game_record(
        evening=evening,
        loser=play.loser,
        schock_aus_throwers=play.schock_aus,
        number=number,
        vorleger=rounds[0].throws[0].player,
        entry_mode=Game.EntryMode.ROUNDS,
    )
    # game_record raised the books-changed event already (same transaction, so nobody
    # reads the new version before the rounds are in): the books read the loser and the
    # Schock-Aus from the game, which the rounds only explain.
    _write_rounds(game, rounds, play)
    return game


def _write_rounds(game: Game, rounds: Sequence[RoundInput], play: RoundsPlay) -> None:
    throws = []
    for round_input, outcome in zip(rounds, play.outcomes, strict=True):
        row = Round.objects.create(
            game=game,
            number=outcome.number,
            phase=_PHASES[outcome.phase],
            vorleger=play.player(outcome.vorleger),
            loser=play.player(outcome.loser),
            deckel=outcome.moved,
        )
        for position, (entry, thrown, muss) in enumerate(
            zip(round_input.throws, outcome.throws, outcome.muss_regel, strict=True), start=1
        ):
            throws.append(
                RoundThrow(
                    round=row,
                    position=position,
                    player=entry.player,
                    die1=thrown.dice[0],
                    die2=thrown.dice[1],
                    die3=thrown.dice[2],
                    attempts=thrown.attempts,
                    natural=thrown.natural,
                    turn=_turn_json(entry) if entry.detailed else None,
                    muss_regel=muss,
                )
            )
    bulk_create_with_history(throws, RoundThrow)


def _turn_json(entry: ThrowInput) -> list[dict[str, Any]]:
    return [
        {
            "rolled": list(a.get("rolled", ())),
            "keep": list(a.get("keep", ())),
            "umwandlung": int(a.get("umwandlung", 0) or 0),
        }
        for a in entry.turn or ()
    ]
