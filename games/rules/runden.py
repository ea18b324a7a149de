"""Runden owed for an evening's Schock-Aus (RULES.md section 5, seed 003).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RundeOwed", "runden_owed"]

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
    """Return the Runden owed for an evening, sorted by ordinal (RULES.md section 5).

    ``schock_aus_throwers`` lists who threw each of the evening's Schock-Aus, in throwing
    order (a thrower appears once per Schock-Aus). The throwers of the first, of every
    fifth and of the last Schock-Aus owe one round each. When the last already owes one (as
    a fifth), its round falls to the Schock-Aus before it. **Decision** (RULES.md 5): a single
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
