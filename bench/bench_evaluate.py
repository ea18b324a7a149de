"""Evaluations per second of games.rules.evaluate on one core.

Pre-built Throw objects over all 216 triples x natural/collected, evaluated in a loop under
the club rules (and each preset once). Target: >= 1,000,000 evaluations per second.

    .venv/bin/python bench/bench_evaluate.py
"""

from __future__ import annotations

import sys
import time
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import PRESETS, Throw, evaluate, rank  # noqa: E402

THROWS = [
    Throw(dice, attempts=1 if natural else 2, natural=natural)
    for dice in product(range(1, 7), repeat=3)
    for natural in (True, False)
]
TARGET = 1_000_000


def per_second(function, rules, repeats: int = 2000, rounds: int = 5) -> float:
    """Best of ``rounds`` runs, each ``repeats`` x 432 calls; calls per second."""
    function(THROWS[0], rules)  # build the rule set's tables outside the timing
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            for throw in THROWS:
                function(throw, rules)
        best = min(best, time.perf_counter() - start)
    return repeats * len(THROWS) / best


def main() -> None:
    print(f"Python {sys.version.split()[0]}, {len(THROWS)} throws per pass")
    club = per_second(evaluate, PRESETS["club"])
    print(f"evaluate club:        {club:>14,.0f} /s  (target {TARGET:,})")
    for name in sorted(PRESETS):
        print(f"evaluate {name:<13} {per_second(evaluate, PRESETS[name], 500, 3):>14,.0f} /s")
    print(f"rank club:            {per_second(rank, PRESETS['club']):>14,.0f} /s")
    print("OK" if club >= TARGET else "BELOW TARGET")


if __name__ == "__main__":
    main()
