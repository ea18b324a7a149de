"""Evaluations per second of games.rules.evaluate on one core.

Pre-built Throw objects over all 216 triples x natural/collected, evaluated in a loop under
the club rules, each preset, and composed rule sets with the variant flags on (issue 11:
any flag combination). Target: >= 2,000,000 evaluations per second on one core.

    .venv/bin/python bench/bench_evaluate.py
"""

from __future__ import annotations

import dataclasses
import sys
import time
from itertools import product

import support  # noqa: F401  (puts the project root on sys.path)

from games.rules import PRESETS, RuleSet, Throw, evaluate, rank

THROWS = [
    Throw(dice, attempts=1 if natural else 2, natural=natural)
    for dice in product(range(1, 7), repeat=3)
    for natural in (True, False)
]
TARGET = 2_000_000

#: Rule sets clubs compose: several variant and seed flags on at once.
COMPOSED: dict[str, RuleSet] = {
    "composed app+": dataclasses.replace(
        PRESETS["app"],
        jule=True,
        collected_strasse_counts=True,
        collected_general_counts=True,
        natural_wins_ties=True,
        deckel_total=15,
        name="composed",
    ),
    "composed club+": dataclasses.replace(
        PRESETS["club"],
        jule=True,
        umwandlung=False,
        keep_sixes=True,
        ausscheidung=True,
        deckel_nehmen=True,
        koenigswurf=True,
        name="composed club",
    ),
}


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
    rates = {}
    for name in sorted(PRESETS):
        rates[name] = per_second(evaluate, PRESETS[name], 1000, 3)
        print(f"evaluate {name:<15} {rates[name]:>14,.0f} /s")
    for name, rules in COMPOSED.items():
        rates[name] = per_second(evaluate, rules, 1000, 3)
        print(f"evaluate {name:<15} {rates[name]:>14,.0f} /s")
    print(f"rank club:               {per_second(rank, PRESETS['club']):>14,.0f} /s")
    slowest = min(rates.values())
    print(f"slowest {slowest:,.0f} /s, target {TARGET:,}:", "OK" if slowest >= TARGET else "BELOW")


if __name__ == "__main__":
    main()
