"""Leaving a game under ``einwuerfeln`` (docs/rules.md 4, seed 001): only who has received no
Deckel in the game may leave, and who left stays out of the rest of it.

Seed 001: "Achtung: man kann sich jederzeit in ein bestehendes Spiel einwürfeln. Man darf
nur wieder aussteigen, wenn man keine Pappen erhalten hat."
"""

import dataclasses

import pytest

from games.rules import PRESETS, RuleViolation, Throw
from games.rules.engine import FINAL, SECOND_HALF, Game

STAMMTISCH = PRESETS["stammtisch"]
SCHOCK_AUS = Throw((1, 1, 1))
SCHOCK_3 = Throw((1, 1, 3))
H_653 = Throw((6, 5, 3))
H_642 = Throw((6, 4, 2))
H_542 = Throw((5, 4, 2))
H_221 = Throw((2, 2, 1))


def code_of(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


def second_half_after_a_losing_first_half(rules=STAMMTISCH):
    """A, B, C, D; B throws 2-2-1 against C's Schock-Aus and loses the first half: all
    13 Deckel to B, then back to the stock for the second half."""
    game = Game("ABCD", rules)
    game.play_round({"A": H_642, "B": H_221, "C": SCHOCK_AUS, "D": H_653})
    return game


def test_the_first_half_loser_may_not_leave_in_the_second_half():
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat."
    B received all 13 Pappen in the first half; holding none after the reset changes
    nothing."""
    game = second_half_after_a_losing_first_half()
    assert (game.phase, game.deckel["B"], code_of(game.leave, "B")) == (
        SECOND_HALF,
        0,
        "leave_after_deckel",
    )


def test_the_refusal_says_in_german_that_deckel_were_received():
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat." """
    game = second_half_after_a_losing_first_half()
    with pytest.raises(RuleViolation) as caught:
        game.leave("B")
    assert "in diesem Spiel schon Deckel erhalten" in str(caught.value)


def test_a_player_who_gave_all_deckel_away_may_not_leave():
    """Seed 001: "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat."
    With 5 Deckel: B takes 3, C and D the last two; B then wins with Schock 3 and gives
    all 3 to C. B holds none, but has received Pappen in this game."""
    rules = dataclasses.replace(STAMMTISCH, format="single", deckel_total=5)
    game = Game("ABCD", rules)
    game.play_round({"A": SCHOCK_3, "B": H_221, "C": H_653, "D": H_642})  # B 3
    game.play_round({"B": H_653, "C": H_221, "D": H_642, "A": H_542})  # C 1
    game.play_round({"C": H_653, "D": H_221, "A": H_642, "B": H_542})  # D 1, A out
    game.play_round({"D": H_642, "B": SCHOCK_3, "C": H_221})  # B gives 3 to C
    assert (game.deckel["B"], game.finished, code_of(game.leave, "B")) == (
        0,
        False,
        "leave_after_deckel",
    )


def test_the_first_half_loser_plays_the_final():
    """Seed 001: "Das Finale bestreiten die beiden Hälftenverlierer." and "Man darf nur
    wieder aussteigen, wenn man keine Pappen erhalten hat.": the first half's loser, who
    cannot leave, is in the final, which the two half losers play alone."""
    game = second_half_after_a_losing_first_half()
    with pytest.raises(RuleViolation):
        game.leave("B")
    game.play_round({"B": H_642, "C": H_653, "D": H_221, "A": SCHOCK_AUS})  # D loses
    outcome = game.play_round({"B": H_221, "D": SCHOCK_AUS})
    assert (outcome.phase, game.loser) == (FINAL, "B")


def test_a_player_who_left_may_not_join_the_same_game_again():
    """docs/rules.md 4 on seed 001's "Man darf nur wieder aussteigen, wenn man keine Pappen
    erhalten hat": a player who left is out for the rest of the game."""
    game = Game("ABCD", STAMMTISCH)
    game.leave("C")
    assert code_of(game.join, "C") == "join_after_leave"
