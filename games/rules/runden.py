"""Runden owed for an evening's Schock-Aus (docs/rules.md section 5, seed 003).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RundeOwed", "runden_owed", "runden_owed_by"]

FIRST = "first"
FIFTH = "fifth"
LAST = "last"


@dataclass(frozen=True, slots=True)
class RundeOwed:
    """One round of drinks owed.

    Fields:
        ordinal: 1-based number of the Schock-Aus in the evening's throwing order.
        thrower: whatever identifies the thrower, as passed in (name, member id, ...).
        reason: ``"first"``, ``"fifth"`` (5th, 10th, ...) or ``"last"``. A ``"last"`` round
            carried to the Schock-Aus before the last keeps the reason ``"last"``.
    """

    ordinal: int
    thrower: Any
    reason: str


def runden_owed(schock_aus_throwers: Sequence[Any]) -> list[RundeOwed]:
    """Return the Runden owed for an evening, sorted by ordinal (docs/rules.md section 5).

    ``schock_aus_throwers`` lists who threw each of the evening's Schock-Aus, in throwing
    order (a thrower appears once per Schock-Aus). The throwers of the first, of every
    fifth and of the last Schock-Aus owe one round each. When the last already owes one (as
    a fifth), its round falls to the Schock-Aus before it. **Decision** (docs/rules.md 5): a single
    Schock-Aus owes one round. So no Schock-Aus owes two rounds, and n >= 2 Schock-Aus owe
    ``2 + n // 5`` rounds; none owe none.
    """
    throwers = list(schock_aus_throwers)
    n = len(throwers)
    if n == 0:
        return []
    reasons: dict[int, str] = {1: FIRST}
    for ordinal in range(5, n + 1, 5):
        reasons[ordinal] = FIFTH
    if n not in reasons:
        reasons[n] = LAST
    elif n > 1:
        # The last is a fifth: seed 003, "fällt die Runde für den letzten Schock-Aus
        # ausnahmsweise auf den vorletzten Schock-Aus". n - 1 is then never a fifth or
        # the first (n >= 5).
        reasons[n - 1] = LAST
    return [
        RundeOwed(ordinal, throwers[ordinal - 1], reasons[ordinal]) for ordinal in sorted(reasons)
    ]


def runden_owed_by(
    schock_aus_throwers: Sequence[Any],
    *,
    first: bool = True,
    last: bool = True,
    every: int = 5,
    shift: bool = True,
) -> list[RundeOwed]:
    """Return the Runden owed for an evening under a club's own statutes, sorted by ordinal.

    ``schock_aus_throwers`` as for `runden_owed`. The thrower of the first Schock-Aus owes
    one when `first`, of every `every`-th (``every`` >= 1; 0: none) one with the reason
    ``"fifth"`` (the word of seed 003, whatever n is), of the last one when `last`. When the
    last already owes one (as the first or an n-th), its Runde falls to the Schock-Aus
    before it when `shift` and that one owes none yet; otherwise it is not owed twice: no
    Schock-Aus ever owes two Runden. The defaults are seed 003's: ``runden_owed``.

    Raises ValueError for a negative `every`.
    """
    if every < 0:
        raise ValueError("every must be 0 (none) or more")
    throwers = list(schock_aus_throwers)
    n = len(throwers)
    if n == 0:
        return []
    reasons: dict[int, str] = {1: FIRST} if first else {}
    if every:
        for ordinal in range(every, n + 1, every):
            reasons.setdefault(ordinal, FIFTH)
    if last:
        if n not in reasons:
            reasons[n] = LAST
        elif shift and n > 1 and n - 1 not in reasons:
            reasons[n - 1] = LAST
    return [
        RundeOwed(ordinal, throwers[ordinal - 1], reasons[ordinal]) for ordinal in sorted(reasons)
    ]
