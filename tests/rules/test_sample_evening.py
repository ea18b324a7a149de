"""Game 20's last round of the sample evening 2026-10-09 (tests/samples), club rules.

Anna Becker's final throw is written down as 6-5-5 in 3 attempts, ``natural=false``. Under
``keep_only_ones`` only ones are laid out, so that entry is impossible (docs/rules.md,
section 3) and ``validate_throw`` refuses it; the tests read it as the natural 6-5-5 it
must have been (the same Hausnummer 655, so every expected figure of the sample stays as it is).
"""

import json
from pathlib import Path

import pytest

from games.rules import (
    PRESETS,
    Attempt,
    RuleViolation,
    Throw,
    evaluate,
    muss_regel_applies,
    resolve_round,
    validate_throw,
    validate_turn,
)

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "evening-2026-10-09.json"
CLUB = PRESETS["club"]


@pytest.fixture(scope="module")
def evening():
    return json.loads(SAMPLE.read_text(encoding="utf-8"))["evening"]


@pytest.fixture(scope="module")
def last_round(evening):
    return evening["game_20_last_round"]


def schock_aus_before_game(evening, number):
    return sum(len(g["schock_aus"]) for g in evening["games"] if g["number"] < number)


def is_last_game(evening, number):
    return number == max(g["number"] for g in evening["games"])


def attempts_of(last_round, player):
    return [Attempt.from_mapping(a) for a in last_round["turns"][player]]


@pytest.fixture(scope="module")
def throws(last_round):
    """The round's final throws in throwing order; Erik Lange is the Vorleger."""
    erik = validate_turn(attempts_of(last_round, "Erik Lange"), CLUB, muss_regel=False)
    anna_entry = last_round["turns"]["Anna Becker"]
    anna = validate_throw(
        Throw(anna_entry["final_dice"], anna_entry["attempts"], natural=True),
        CLUB,
        max_attempts=erik.attempts,
    )
    bernd = validate_turn(
        attempts_of(last_round, "Bernd Krause"),
        CLUB,
        max_attempts=erik.attempts,
        muss_regel=True,
    )
    by_name = {"Erik Lange": erik, "Anna Becker": anna, "Bernd Krause": bernd}
    return [by_name[name] for name in last_round["throwing_order"]]


def test_erik_collects_a_schock_aus_in_three_attempts(throws):
    assert throws[0] == Throw((1, 1, 1), attempts=3, natural=False)


def test_bernd_throws_a_natural_schock_aus_in_his_second_attempt(throws):
    assert throws[2] == Throw((1, 1, 1), attempts=2, natural=True)


def test_anna_collected_hausnummer_without_a_one_is_refused_as_written(last_round):
    entry = last_round["turns"]["Anna Becker"]
    throw = Throw(entry["final_dice"], entry["attempts"], entry["natural"])
    with pytest.raises(RuleViolation) as caught:
        validate_throw(throw, CLUB, max_attempts=3)
    assert caught.value.code == "collected_without_one"


def test_anna_throw_read_as_natural_is_the_same_hausnummer(throws):
    assert (throws[1], evaluate(throws[1], CLUB).label) == (Throw((6, 5, 5), 3), "655")


def test_anna_natural_throw_is_accepted_under_the_muss_regel_too(last_round):
    entry = last_round["turns"]["Anna Becker"]
    throw = Throw(entry["final_dice"], entry["attempts"], natural=True)
    assert validate_throw(throw, CLUB, max_attempts=3, muss_regel=True) == throw


def test_round_order_matches_the_expected_order(throws, last_round):
    result = resolve_round(throws, CLUB)
    order = [last_round["throwing_order"][i] for i in result.order]
    assert order == last_round["expected"]["order_best_to_worst"]


def test_round_loser_and_deckel_match_the_expected(throws, last_round):
    result = resolve_round(throws, CLUB)
    expected = last_round["expected"]
    assert (last_round["throwing_order"][result.loser], result.deckel) == (
        expected["loser"],
        expected["deckel"],
    )


def test_round_schock_aus_match_the_expected(throws, last_round):
    result = resolve_round(throws, CLUB)
    names = [last_round["throwing_order"][i] for i in result.schock_aus]
    assert names == last_round["expected"]["schock_aus_in_throwing_order"]


def test_round_schock_aus_match_the_game_record(throws, evening, last_round):
    result = resolve_round(throws, CLUB)
    names = [last_round["throwing_order"][i] for i in result.schock_aus]
    game = next(g for g in evening["games"] if g["number"] == 20)
    assert names == game["schock_aus"]


def test_muss_regel_applies_as_expected_for_each_player(evening, last_round, throws):
    # Count the evening's Schock-Aus before each turn, this round's earlier ones included.
    so_far = schock_aus_before_game(evening, 20)
    last_game = is_last_game(evening, 20)
    applies = {}
    for player, throw in zip(last_round["throwing_order"], throws, strict=True):
        applies[player] = muss_regel_applies(
            schock_aus_so_far=so_far, last_game=last_game, rules=CLUB
        )
        so_far += throw.dice == (1, 1, 1)
    assert applies == last_round["expected"]["muss_regel_applies"]


def test_three_schock_aus_were_thrown_before_game_20(evening):
    assert schock_aus_before_game(evening, 20) == 3


def test_bernd_turn_is_valid_under_the_muss_regel_that_applies_to_him(last_round):
    # After 4-5-2 (no one, no two sixes) he was free; 1-1-1 ended his turn at once.
    throw = validate_turn(
        attempts_of(last_round, "Bernd Krause"), CLUB, max_attempts=3, muss_regel=True
    )
    assert throw.dice == (1, 1, 1)
