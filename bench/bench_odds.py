"""Benchmark: time to compute the exact odds (Fractions, full enumeration) per rule set.

Prints milliseconds for the one-attempt odds, the turn odds (with and without the
Muss-Regel) and the page's table, each computed cold (caches cleared) for every preset and
for a composed rule set (Jule, collected Straße and General, no Umwandlung, 15 Deckel).

Run: ``.venv/bin/python bench/bench_odds.py``
"""

from __future__ import annotations

import dataclasses
import time

import support  # noqa: F401  (puts the project root on sys.path)

from games.rules import PRESETS, odds


def cold_ms(func, *args, **kwargs) -> float:
    odds._attempt_dist.cache_clear()
    odds._turn_dist.cache_clear()
    start = time.perf_counter()
    func(*args, **kwargs)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    print(f"{'preset':<14} {'attempt':>9} {'turn':>9} {'turn+muss':>10} {'table':>9}   P(SA/turn)")
    composed = dataclasses.replace(
        PRESETS["club"],
        jule=True,
        collected_strasse_counts=True,
        collected_general_counts=True,
        umwandlung=False,
        deckel_total=15,
        name="composed",
    )
    rule_sets = {**PRESETS, "composed": composed}
    for name in sorted(rule_sets):
        rules = rule_sets[name]
        attempt = cold_ms(odds.attempt_odds, rules)
        turn = cold_ms(odds.turn_odds, rules)
        muss = cold_ms(odds.turn_odds, rules, muss_regel=True)
        table = cold_ms(odds.odds_rows, rules)
        p = odds.turn_schock_aus_probability(rules, muss_regel=rules.muss_regel)
        print(
            f"{name:<14} {attempt:7.1f}ms {turn:7.1f}ms {muss:8.1f}ms {table:7.1f}ms"
            f"   {p} = {float(p):.4f}"
        )


if __name__ == "__main__":
    main()
