"""Benchmark: complete simulated Schocken games per second on one core.

Prints games per second for six-player club games (the target is >= 1,000), chained as on
a club evening (the loser opens the next game, the Muss-Regel sees the Schock-Aus count),
then for every preset (the seed flags on where the presets have them: Ausscheidung,
Deckel nehmen, opener choice, einwürfeln), for a composed rule set with every seed flag and
several variant flags on, with ``record=True``, and ``simulate_statistics``.

Run: ``.venv/bin/python bench/bench_simulator.py [--seconds 2]``
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import random
import time

import support  # noqa: F401  (puts the project root on sys.path)

from games.rules import PRESETS
from games.rules.simulator import (
    simulate_evening,
    simulate_game,
    simulate_statistics,
    strategy_tables,
)

#: Every seed flag and several variant flags on at once.
COMPOSED = dataclasses.replace(
    PRESETS["regelwerk2019"],
    einwuerfeln=True,
    jule=True,
    collected_strasse_counts=True,
    collected_general_counts=True,
    natural_wins_ties=True,
    umwandlung=False,
    deckel_total=15,
    name="composed",
)

PLAYERS = ("Anna", "Bernd", "Carla", "Dieter", "Erik", "Frank")


def games_per_second(rules, seconds: float, *, record: bool = False) -> tuple[float, float]:
    """Chained games of six players for about ``seconds``; returns (games/s, rounds/game)."""
    rng = random.Random(2026)
    strategy_tables(rules)  # built once per rule set, outside the timing
    games = rounds = schock_aus = 0
    vorleger = PLAYERS[0]
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            # An evening of 30 games: the Muss-Regel's count restarts every evening.
            number = games % 30
            if number == 0:
                schock_aus = 0
            game = simulate_game(
                PLAYERS,
                rules,
                rng=rng,
                vorleger=vorleger,
                schock_aus_so_far=schock_aus,
                last_game=number == 29,
                record=record,
            )
            games += 1
            rounds += game.round_count
            schock_aus += len(game.schock_aus)
            vorleger = game.loser
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return games / elapsed, rounds / games


def evenings_per_second(seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        simulate_evening(PLAYERS, (), PRESETS["club"], seed=count, secretary="Bernd")
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), one core")
    rate, rounds = games_per_second(PRESETS["club"], args.seconds)
    print(f"club, 6 players, chained:   {rate:10,.0f} games/s  ({rounds:.1f} rounds/game)")
    for name in sorted(PRESETS):
        rate, rounds = games_per_second(PRESETS[name], args.seconds / 2)
        print(f"{name:<14} 6 players:    {rate:10,.0f} games/s  ({rounds:.1f} rounds/game)")
    rate, rounds = games_per_second(COMPOSED, args.seconds / 2)
    print(f"composed (all seed flags):  {rate:10,.0f} games/s  ({rounds:.1f} rounds/game)")
    rate, _ = games_per_second(PRESETS["club"], args.seconds / 2, record=True)
    print(f"club, record=True:          {rate:10,.0f} games/s")
    rate, _ = games_per_second(COMPOSED, args.seconds / 2, record=True)
    print(f"composed, record=True:      {rate:10,.0f} games/s")
    start = time.perf_counter()
    stats = simulate_statistics(PRESETS["club"], 3000, seed=2026)
    elapsed = time.perf_counter() - start
    for label, m in (("with", stats.with_muss_regel), ("without", stats.without_muss_regel)):
        print(
            f"club statistics, Muss-Regel {label:<7}: {m.games} games, Vorleger loses "
            f"{float(m.vorleger_loss_rate):.1%} of rounds, opener {float(m.opener_loss_rate):.1%}"
            f" of games, {float(m.rounds_per_game):.1f} rounds and "
            f"{float(m.schock_aus_per_game):.3f} Schock-Aus per game"
        )
    print(f"simulate_statistics(club, 3000 games, twice): {elapsed:.2f} s")
    rate = evenings_per_second(args.seconds / 2)
    print(f"club evenings (30 games):   {rate:10,.1f} evenings/s")


if __name__ == "__main__":
    main()
