"""Game 20 of the sample evening, round by round.

The sample gives only game 20's last round (Erik Lange opens it; Erik, Anna, Bernd are
still in). The three rounds before it are built here so that the stock is empty, Carla,
Dieter and Gustav are out and Erik lost the round before: every throw is natural in one
attempt (the Vorleger, Erik, used one), no Schock-Aus, so no Muss-Regel question arises.

Seating (clockwise): Erik, Anna, Bernd, Carla, Dieter, Gustav.
- Round 1 (Erik opens): Erik Schock 6 wins, Anna (431) loses and takes 6 of 13.
- Round 2 (Anna opens): Anna Schock 5 wins, Bernd (421) loses and takes 5 of 7.
- Round 3 (Bernd opens): Carla Schock 4 wins, Erik (421) loses and takes the last 2:
  Carla, Dieter, Gustav hold none and are out.
- Round 4 (Erik opens): the sample's last round.
"""

from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
)
from tests.sample import recorded_natural

SEATING = ["Erik Lange", "Anna Becker", "Bernd Krause", "Carla Vogt", "Dieter Hahn", "Gustav Meier"]

EARLIER_ROUNDS = [
    # (player, dice) in throwing order; all natural, one attempt.
    [
        ("Erik Lange", (1, 1, 6)),
        ("Anna Becker", (4, 3, 1)),
        ("Bernd Krause", (6, 5, 3)),
        ("Carla Vogt", (5, 4, 2)),
        ("Dieter Hahn", (6, 4, 2)),
        ("Gustav Meier", (5, 5, 2)),
    ],
    [
        ("Anna Becker", (1, 1, 5)),
        ("Bernd Krause", (4, 2, 1)),
        ("Carla Vogt", (6, 6, 4)),
        ("Dieter Hahn", (5, 3, 2)),
        ("Gustav Meier", (6, 3, 2)),
        ("Erik Lange", (6, 5, 4)),
    ],
    [
        ("Bernd Krause", (6, 3, 1)),
        ("Carla Vogt", (1, 1, 4)),
        ("Dieter Hahn", (5, 3, 1)),
        ("Gustav Meier", (6, 5, 2)),
        ("Erik Lange", (4, 2, 1)),
        ("Anna Becker", (5, 2, 1)),
    ],
]


def last_round_input(sample: dict, people: dict) -> RoundInput:
    """The sample's last round of game 20 as a RoundInput (turns in detail where given)."""
    last = sample["evening"]["game_20_last_round"]
    throws = []
    for name in last["throwing_order"]:
        turn = last["turns"][name]
        if isinstance(turn, list):
            throws.append(ThrowInput(player=people[name], turn=turn))
        else:
            throws.append(
                ThrowInput(
                    player=people[name],
                    dice=turn["final_dice"],
                    attempts=turn["attempts"],
                    natural=recorded_natural(turn),
                )
            )
    return RoundInput(throws=throws)


def game_20_rounds(sample: dict, people: dict) -> list[RoundInput]:
    """All four rounds of game 20."""
    rounds = [
        RoundInput(
            throws=[ThrowInput(player=people[n], dice=d, attempts=1, natural=True) for n, d in r]
        )
        for r in EARLIER_ROUNDS
    ]
    return rounds + [last_round_input(sample, people)]
