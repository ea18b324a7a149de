"""Resolving a round: who won, who lost, how many Deckel move (docs/rules.md section 2).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RuleViolation
from .ruleset import PRESETS, RuleSet
from .throws import Throw, _tables

__all__ = ["RoundResult", "resolve_round"]

_CLUB = PRESETS["club"]
_SCHOCK_AUS_DICE = (1, 1, 1)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The outcome of one round (docs/rules.md sections 2 and 7).

    All indices refer to the ``throws`` passed to ``resolve_round`` (throwing order, 0-based).

    Fields:
        order: tuple of all indices, best throw first, worst last.
        winner: index of the best throw (``order[0]``).
        loser: index of the worst throw (``order[-1]``).
        deckel: Deckel the winner's throw is worth (13 for a Schock-Aus with 13 Deckel).
        schock_aus: tuple of the indices of every player who threw 1-1-1, in throwing
            order, whether or not another Schock-Aus ranked higher.
    """

    order: tuple[int, ...]
    winner: int
    loser: int
    deckel: int
    schock_aus: tuple[int, ...]


def resolve_round(throws: Sequence[Throw], rules: RuleSet = _CLUB) -> RoundResult:
    """Rank the throws of one round, given in throwing order (docs/rules.md section 2).

    Throws that rank equal by section 1 are decided by: the Königswurf (``koenigswurf``: a
    natural Schock-Aus beats a collected one), then (variant ``natural_wins_ties``) a
    natural throw beats a collected one, then fewer attempts
    (``fewer_attempts_win_ties``), then the earlier thrower ("Mit ist Schitt": the later
    player only joined in).

    The function checks what a round as a whole must satisfy; each throw's own entry is
    checked by ``validate_turn`` / ``validate_throw``.

    Raises:
        RuleViolation: ``too_few_throws`` for fewer than two throws (a round is played by at
            least two players); ``more_attempts_than_vorleger`` when a later player used
            more attempts than the first thrower, the Vorleger (section 3).
        TypeError: an item is not a ``Throw``.
    """
    throws = tuple(throws)
    _check_round(throws)
    evaluations, ranks = _tables(rules)
    keys, schock_aus = _round_keys(throws, ranks, rules)
    order = tuple(sorted(range(len(throws)), key=keys.__getitem__, reverse=True))
    winner = order[0]
    return RoundResult(
        order=order,
        winner=winner,
        loser=order[-1],
        deckel=evaluations[throws[winner]._key].deckel,
        schock_aus=tuple(schock_aus),
    )


def _check_round(throws: tuple[Throw, ...]) -> None:
    """What a round as a whole must satisfy (docs/rules.md 2 and 3); part of ``resolve_round``.

    ``throws`` in throwing order, the Vorleger's first.

    Raises, in this order:
        RuleViolation ``too_few_throws``: fewer than two throws.
        TypeError: an item is not a ``Throw`` (the first such item).
        RuleViolation ``more_attempts_than_vorleger``: the first later throw with more
            attempts than the Vorleger's.
    """
    if len(throws) < 2:
        raise RuleViolation(
            "too_few_throws",
            f"Eine Runde braucht mindestens zwei Würfe, eingegeben: {len(throws)}.",
            None,
            "docs/rules.md 2",
        )
    for throw in throws:
        if not isinstance(throw, Throw):
            raise TypeError(f"expected a Throw, not {type(throw).__name__}")
    cap = throws[0].attempts
    for index, throw in enumerate(throws[1:], start=1):
        if throw.attempts > cap:
            raise RuleViolation(
                "more_attempts_than_vorleger",
                f"Wurf {index + 1} braucht {throw.attempts} Versuche, der Vorleger nur "
                f"{cap}; niemand darf mehr Versuche brauchen als der Vorleger.",
                None,
                "docs/rules.md 3",
            )


def _round_keys(
    throws: tuple[Throw, ...], ranks: list[int], rules: RuleSet
) -> tuple[list[tuple[int, int, int, int, int]], list[int]]:
    """Sort keys of a round's throws, higher is better (docs/rules.md 2), and its Schock-Aus.

    ``ranks`` is the rule set's rank table (``throws._tables``), indexed by
    ``Throw._key``. Each key is ``(rank, Königswurf, natural beats collected, -attempts,
    -index)``, the flags 0 where the rule set does not play them, so the earlier thrower
    wins a full tie ("Mit ist Schitt"). Returns ``(keys, schock_aus)``, ``schock_aus``
    the indices of the 1-1-1 throws in throwing order.
    """
    koenigswurf = rules.koenigswurf
    natural_wins = rules.natural_wins_ties
    fewer = rules.fewer_attempts_win_ties
    keys = []
    schock_aus = []
    for index, throw in enumerate(throws):
        is_schock_aus = throw.dice == _SCHOCK_AUS_DICE
        if is_schock_aus:
            schock_aus.append(index)
        keys.append(
            (
                ranks[throw._key],
                1 if (koenigswurf and is_schock_aus and throw.natural) else 0,
                1 if (natural_wins and throw.natural) else 0,
                -throw.attempts if fewer else 0,
                -index,
            )
        )
    return keys, schock_aus
