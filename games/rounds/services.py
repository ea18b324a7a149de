"""Games entered round by round (docs/rules.md sections 2, 3 and 4).

The secretary enters each round's throws in throwing order, every throw either as a final
throw (dice, attempts, natural) or attempt by attempt. The rules module decides everything:
``games.rules.engine.Game`` validates each throw with the season's rule set (the Vorleger's
attempts cap the others', the Muss-Regel where it applies), moves the Deckel and says when
the game is over, who lost it and who threw Schock-Aus. This module only turns members into
plain values for it, and its answers back into rows: the game itself is written by
``game_record(..., entry_mode="rounds")``, so a game entered this way counts exactly like
the same game entered short, and its ``Round`` / ``RoundThrow`` rows are written in the
same transaction.

The game's players and their seating order (clockwise) are the throwing order of the
first entry with throws (less anyone who joined before it); its first thrower is the
game's Vorleger.

Seed actions (docs/rules.md 4): where the season's rule set has the flag, an
entry may instead be a step of the Ausscheidung (``ausscheidung``), a round ended by Deckel
nehmen (``deckel_nehmen``), the opener of the second half (``choose_opener``) or a player
joining or leaving (``join``, ``leave``). Entries are replayed in order through the
engine's ``Game.apply``; an action the rule set lacks is refused with the engine's code
(``ausscheidung_off``, ``deckel_nehmen_off``, ``opener_choice_off``, ``einwuerfeln_off``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from games.evenings.models import Attendance, Evening, Game, SchockAus
from games.evenings.selectors import next_game_number
from games.evenings.services import game_record
from games.rounds.models import Round, RoundThrow
from games.rules import Attempt, RuleSet, RuleViolation, Throw
from games.rules.engine import (
    FINAL,
    FIRST_HALF,
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
#: Entries that carry throws.
THROWN_KINDS = ("round", "ausscheidung", "deckel_nehmen")


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
        play.people[_key(member)] = member

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
    joined = {_key(r.player) for r in rounds[:k] if r.kind == "join" and r.player is not None}
    seated = [t.player for t in rounds[k].throws]
    taker = rounds[k].player
    if not full and rounds[k].kind == "deckel_nehmen" and taker is not None:
        seated += [taker, *rounds[k].not_thrown]
    seats = [_key(m) for m in seated if _key(m) not in joined]
    opener = _key(rounds[thrown[0]].throws[0].player)
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
    who = _key(round_input.player) if round_input.player is not None else ""
    if kind == "ausscheidung":
        return Ausscheidung(pairs)
    if kind == "deckel_nehmen":
        covered = None if round_input.covered is None else list(round_input.covered)
        return TakeDeckel(who, pairs, covered)
    if kind == "choose_opener":
        return ChooseOpener(who)
    if kind == "join":
        after = _key(round_input.after) if round_input.after is not None else None
        return Join(who, after)
    if kind == "leave":
        return Leave(who)
    return pairs


def _play_entry(game: EngineGame, i: int, round_input: RoundInput, rules: RuleSet) -> PlayedEntry:
    """Apply entry ``i`` to ``game``; a refusal becomes a BooksError at the refused throw
    (``rounds[i].throws[j]``), the entry's player (``rounds[i].player``) or the entry."""
    entries = [_entry(t, f"rounds[{i}].throws[{j}]") for j, t in enumerate(round_input.throws)]
    pairs = [(_key(t.player), e) for t, e in zip(round_input.throws, entries, strict=True)]
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
        named = round_input.player is not None and player == _key(round_input.player)
        raise _violation(exc, f"rounds[{i}].player" if named else f"rounds[{i}]") from exc
    named = {"player": round_input.player, "after": round_input.after}
    if isinstance(result, AusscheidungStep):
        return PlayedEntry(round_input.kind, phase, result.outcome, result, **named)
    return PlayedEntry(round_input.kind, phase, result, **named)


def _replay(play: RoundsPlay, rounds: Sequence[RoundInput]) -> EngineGame:
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
                play.people[_key(member)] = member
    _replay(play, rounds)
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
    game = _replay(play, rounds)
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
    """Record a game entered round by round.

    ``rounds``: every round of the game in order, each with its throws in throwing order
    (see ``RoundInput``/``ThrowInput``). The rounds are played through the engine with the
    season's rule set (``game_rounds_play``); the derived loser and Schock-Aus throwers (in
    throwing order) are recorded by ``game_record(entry_mode="rounds")`` with the first
    round's first thrower as Vorleger, and the ``Round``/``RoundThrow`` rows (with the turn
    in detail where entered so, and whether the Muss-Regel applied) in the same transaction.

    The books-changed event (docs/rules.md 5: the season's data version moves, the loser's
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
        vorleger=play.first_vorleger,
        entry_mode=Game.EntryMode.ROUNDS,
    )
    # game_record raised the books-changed event already (same transaction, so nobody
    # reads the new version before the rounds are in): the books read the loser and the
    # Schock-Aus from the game, which the rounds only explain.
    _write_rounds(game, rounds, play)
    return game


def _write_rounds(game: Game, rounds: Sequence[RoundInput], play: RoundsPlay) -> None:
    """One ``Round`` row per entry (``number`` its 1-based place, ``kind`` its kind) and its
    ``RoundThrow`` rows in the engine's throwing order (docs/rules.md 4)."""
    throws = []
    for number, (round_input, played) in enumerate(zip(rounds, play.entries, strict=True), start=1):
        outcome, step = played.outcome, played.step
        by_key = {_key(t.player): t for t in round_input.throws}
        if step is not None:
            order, thrown, muss = step.throwing_order, step.throws, (False,) * len(step.throws)
        elif outcome is not None:
            order, thrown, muss = outcome.throwing_order, outcome.throws, outcome.muss_regel
        else:
            order, thrown, muss = (), (), ()
        row = Round.objects.create(
            game=game,
            number=number,
            kind=round_input.kind,
            phase=_PHASES[played.phase],
            vorleger=play.player(order[0]) if order else None,
            loser=play.player(outcome.loser) if outcome is not None else None,
            deckel=outcome.moved if outcome is not None else 0,
            player=round_input.player,
            after=round_input.after,
            covered=list(outcome.covered) if outcome is not None and outcome.covered else None,
        )
        for position, (key, final, applied) in enumerate(
            zip(order, thrown, muss, strict=True), start=1
        ):
            entry = by_key[key]
            throws.append(
                RoundThrow(
                    round=row,
                    position=position,
                    player=entry.player,
                    die1=final.dice[0],
                    die2=final.dice[1],
                    die3=final.dice[2],
                    attempts=final.attempts,
                    natural=final.natural,
                    turn=_turn_json(entry) if entry.detailed else None,
                    muss_regel=applied,
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


@transaction.atomic
def rounds_people_merge(
    *, source: Member, target: Member, reason: str
) -> set[tuple[int, int | None]]:
    """The rounds' part of merging a person entered twice (league.club.services.member_merge):
    every round's Vorleger, loser, player and seat neighbour, and every
    throw of `source`, become `target`'s, each with an audit record carrying `reason`. Runs
    after play's part (games.evenings.services.evening_people_merge), which refused an
    evening both played and raised the books-changed event of every evening touched.
    Returns no further (season, evening) pairs: rounds hold no figure of their own."""
    fields = ("vorleger", "loser", "player", "after")
    rounds = list(
        Round.objects.filter(
            Q(vorleger=source) | Q(loser=source) | Q(player=source) | Q(after=source)
        )
    )
    for item in rounds:
        for name in fields:
            if getattr(item, f"{name}_id") == source.pk:
                setattr(item, f"{name}_id", target.pk)
    bulk_update_with_history(rounds, Round, list(fields), default_change_reason=reason)
    throws = list(RoundThrow.objects.filter(player=source))
    for throw in throws:
        throw.player = target
    bulk_update_with_history(throws, RoundThrow, ["player"], default_change_reason=reason)
    return set()
