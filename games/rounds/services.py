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
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from games.evenings.models import Evening, Game
from games.evenings.selectors import next_game_number
from games.evenings.services import game_record
from games.rounds.models import Round, RoundThrow
from games.rounds.selectors import (
    RoundInput,
    RoundsPlay,
    ThrowInput,
    game_rounds_play,
    player_key,
)
from games.rules.engine import (
    FINAL,
    FIRST_HALF,
    GAME,
    SECOND_HALF,
)
from league.club.errors import BooksError, check_version
from league.club.models import Member

_PHASES = {
    GAME: Round.Phase.SINGLE,
    FIRST_HALF: Round.Phase.FIRST_HALF,
    SECOND_HALF: Round.Phase.SECOND_HALF,
    FINAL: Round.Phase.FINAL,
}


#: Entries that carry throws.
THROWN_KINDS = ("round", "ausscheidung", "deckel_nehmen")


@transaction.atomic
def game_record_rounds(
    *,
    evening: Evening,
    rounds: Sequence[RoundInput],
    number: int | None = None,
    expected_evening_version: int | None = None,
    target_confirmed: bool = True,
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

    ``target_confirmed=False`` (the entry page and the API, until the user confirms) refuses
    a game beyond the evening's target count ("Abendsoll", docs/rules.md 5: games per
    present club member) with ``evening_target_reached`` (409, ``details`` ``{"target":
    n}``), as ``game_record`` does for a game entered short; the rounds are played first,
    so a game the rules refuse is refused for that, and nothing is saved either way.

    Returns the ``Game``. Raises BooksError: every code of ``game_rounds_play`` (nothing is
    saved), and those of ``game_record`` (``duplicate_game_number`` 409, ``invalid_number``,
    ``stale_version`` 412, ``evening_target_reached`` 409).
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
        target_confirmed=target_confirmed,
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
        by_key = {player_key(t.player): t for t in round_input.throws}
        if step is not None:
            order, thrown, muss = step.throwing_order, step.throws, (False,) * len(step.throws)
        elif outcome is not None:
            order, thrown, muss = outcome.throwing_order, outcome.throws, outcome.muss_regel
        else:
            order, thrown, muss = (), (), ()
        row = Round.objects.create(
            club_id=game.club_id,
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
                    club_id=game.club_id,
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
