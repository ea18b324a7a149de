"""Evaluations per second of games.rules.evaluate on one core, and validate_throw's.

Pre-built Throw objects over all 216 triples x natural/collected, evaluated in a loop under
the club rules, each preset, and composed rule sets with the variant flags on (any flag
combination). Target: >= 2,000,000 evaluations per second on one core.
``validate_throw`` (the check of a final throw entered without its attempts, run for every
throw of a round entered on the page, the API and the engine's replays) is timed on the
same throws, each with 1 to 3 attempts (refusals included), under the club rules with and
without the Muss-Regel and under the composed club rules; no target, figures only.

    .venv/bin/python bench/bench_evaluate.py
"""

from __future__ import annotations

import dataclasses
import sys
import time
from itertools import product

import support  # noqa: F401  (puts the project root on sys.path)

from games.rules import PRESETS, RuleSet, RuleViolation, Throw, evaluate, rank, validate_throw

THROWS = [
    Throw(dice, attempts=1 if natural else 2, natural=natural)
    for dice in product(range(1, 7), repeat=3)
    for natural in (True, False)
]
TARGET = 2_000_000

#: The throws validate_throw is timed on: every triple, natural or collected, 1 to 3 attempts.
ENTERED = [
    Throw(dice, attempts=attempts, natural=natural)
    for dice in product(range(1, 7), repeat=3)
    for natural in (True, False)
    for attempts in (1, 2, 3)
]

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


def validations_per_second(rules: RuleSet, *, muss: bool, rounds: int = 5) -> float:
    """Best of ``rounds`` passes over ``ENTERED`` (refused throws included); calls per second."""

    def one_pass() -> None:
        for throw in ENTERED:
            try:
                validate_throw(throw, rules, muss_regel=muss)
            except RuleViolation:
                pass

    one_pass()  # whatever the rule set builds once, outside the timing
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(100):
            one_pass()
        best = min(best, time.perf_counter() - start)
    return 100 * len(ENTERED) / best


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
    for label, rules, muss in (
        ("club", PRESETS["club"], False),
        ("club, Muss-Regel", PRESETS["club"], True),
        ("composed club+", COMPOSED["composed club+"], True),
        ("regelwerk2019", PRESETS["regelwerk2019"], False),
    ):
        rate = validations_per_second(rules, muss=muss)
        print(f"validate_throw {label:<17} {rate:>12,.0f} /s")
    slowest = min(rates.values())
    print(f"slowest {slowest:,.0f} /s, target {TARGET:,}:", "OK" if slowest >= TARGET else "BELOW")


if __name__ == "__main__":
    main()
