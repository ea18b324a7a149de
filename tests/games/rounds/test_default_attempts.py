"""A throw entered as its final dice without attempts is what the dice show: three dice
thrown once, aus der Hand; given attempts stay as given (the round-by-round entry and its
live feedback)."""

from django.http import QueryDict

from games.rounds.forms import default_attempts, throw_query


def test_dice_without_attempts_are_three_dice_thrown_once():
    assert default_attempts([6, 4, 2], "", False) == (1, True)


def test_given_attempts_stay_as_given():
    assert default_attempts([6, 4, 2], "3", False) == (3, False)
    assert default_attempts([6, 4, 2], "2", True) == (2, True)


def test_no_dice_no_attempts():
    assert default_attempts(None, "", False) == (None, False)


def test_the_live_feedback_query_takes_the_same_default():
    query = QueryDict("dice=642&attempts=&natural=0")
    throw = throw_query(query, default_max_attempts=3)
    assert (throw["attempts"], throw["natural"]) == (1, True)
