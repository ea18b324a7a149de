"""The simulator's random stream is pinned: a seed plays the same games in every version.

The demo data (``simulate_evening``) and the tests depend on it, so a refactoring of the
simulator must leave every game of a seed unchanged. The digests below were taken from the
simulator before its hot path was split into helpers; a change of the
strategy or the rules that is meant to change the games updates them on purpose.
"""

import dataclasses
import hashlib
import random

import pytest

from games.rules import PRESETS
from games.rules.simulator import simulate_evening, simulate_game

PLAYERS = ("Anna", "Bernd", "Carla", "Dieter", "Erik", "Frank")

#: Every seed flag of the halves format at once, Jule, natural wins ties, 15 Deckel.
COMPOSED = dataclasses.replace(
    PRESETS["regelwerk2019"],
    ausscheidung=True,
    deckel_nehmen=True,
    opener_choice=True,
    einwuerfeln=True,
    muss_regel=True,
    jule=True,
    natural_wins_ties=True,
    deckel_total=15,
    name="composed",
)
RULE_SETS = {**PRESETS, "composed": COMPOSED}

#: sha256 (first 16 hex digits) of the games' reprs: (fast path, ``record=True``).
GAME_DIGESTS = {
    "app": ("92d6beea8a40e99c", "3df9ee7ffd69081a"),
    "club": ("29e40eda903b0dac", "e50d7f5fe32a0912"),
    "meisterschaft": ("ec3260e65f43fda7", "de60fbf021438a9a"),
    "regelwerk2019": ("a3162291963dc84c", "26a3b555a1f5bfe6"),
    "stammtisch": ("c1cf7f79f2242daf", "f29d3665dda9fa0b"),
    "composed": ("9464947dc9e1143b", "591f06c435e8a8be"),
}
EVENING_DIGEST = "b06d275e8a856150"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def games_digest(rules, record: bool) -> str:
    """200 chained games (40 recorded), as on club evenings: the loser opens the next game,
    the Muss-Regel sees the Schock-Aus count, every 30th game is an evening's last."""
    rng = random.Random(f"pin-{rules.name}")
    vorleger, count, reprs = PLAYERS[0], 0, []
    for number in range(40 if record else 200):
        game = simulate_game(
            PLAYERS,
            rules,
            rng=rng,
            vorleger=vorleger,
            schock_aus_so_far=count,
            last_game=number % 30 == 29,
            record=record,
        )
        reprs.append(repr(game))
        count += len(game.schock_aus)
        vorleger = game.loser
    return digest("\n".join(reprs))


def test_every_rule_set_is_pinned():
    assert set(GAME_DIGESTS) == set(RULE_SETS)


@pytest.mark.parametrize("name", sorted(GAME_DIGESTS))
def test_a_seed_plays_the_same_games(name):
    rules = RULE_SETS[name]
    assert (games_digest(rules, False), games_digest(rules, True)) == GAME_DIGESTS[name]


def test_a_seed_plays_the_same_evening():
    evening = simulate_evening(
        ("Anna", "Bernd", "Carla", "Dieter"),
        ("Gast",),
        PRESETS["club"],
        seed=2026,
        secretary="Bernd",
        record=True,
    )
    assert digest(repr(evening)) == EVENING_DIGEST
