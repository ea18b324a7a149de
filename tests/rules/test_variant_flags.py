"""Variant flags clubs compose (VARIANTS.md; docs/rules.md 6): evaluation, rounds, turns."""

import dataclasses
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    Attempt,
    Category,
    RuleSet,
    RuleViolation,
    Throw,
    evaluate,
    rank,
    resolve_round,
    round_key,
    validate_turn,
)
from games.rules.engine import Game

CLUB = PRESETS["club"]
APP = PRESETS["app"]


def with_(rules, **changes):
    return dataclasses.replace(rules, **changes)


def code_of(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


# --- jule (papr/schocken-discord-bot, shawdyy/schocken) -------------------------------------

JULE = with_(APP, jule=True)


def test_natural_421_is_a_jule_worth_seven_deckel():
    evaluation = evaluate(Throw((4, 2, 1)), JULE)
    assert (evaluation.label, evaluation.deckel, evaluation.category) == (
        "Jule",
        7,
        Category.SCHOCK,
    )


def test_jule_ranks_just_below_the_schock_aus():
    ranks = [rank(Throw(d), JULE) for d in [(1, 1, 1), (4, 2, 1), (1, 1, 6)]]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 3


def test_a_jule_wins_a_round_against_schock_6_and_moves_seven_deckel():
    result = resolve_round([Throw((1, 1, 6)), Throw((4, 2, 1)), Throw((6, 5, 3))], JULE)
    assert (result.winner, result.loser, result.deckel) == (1, 2, 7)


def test_a_collected_421_is_the_hausnummer_421():
    assert evaluate(Throw((4, 2, 1), 2, natural=False), JULE).label == "421"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_without_the_flag_421_is_a_hausnummer(name):
    assert evaluate(Throw((4, 2, 1)), PRESETS[name]).label == "421"


# --- collected Straße / General (RebelMetal/schocken-web-app, shawdyy/schocken) -------------


def test_a_collected_strasse_counts_as_strasse_with_the_flag():
    throw = Throw((1, 2, 3), 2, natural=False)
    assert (
        evaluate(throw, with_(APP, collected_strasse_counts=True)).label,
        evaluate(throw, APP).label,
    ) == ("Straße 123", "321")


def test_a_collected_general_counts_as_general_with_the_flag():
    throw = Throw((5, 5, 5), 3, natural=False)
    with_flag = evaluate(throw, with_(APP, collected_general_counts=True))
    assert ((with_flag.label, with_flag.deckel), evaluate(throw, APP).label) == (
        ("General 5", 3),
        "555",
    )


def test_collected_flags_are_independent():
    rules = with_(APP, collected_strasse_counts=True)
    assert evaluate(Throw((5, 5, 5), 2, natural=False), rules).category is Category.HAUSNUMMER


# --- natural_wins_ties (RebelMetal/schocken-web-app) ----------------------------------------


def test_a_natural_throw_beats_an_equal_collected_one_before_attempts_count():
    natural = Throw((5, 1, 1), 3, natural=True)
    collected = Throw((1, 1, 5), 2, natural=False)
    on = resolve_round([natural, collected], with_(APP, natural_wins_ties=True))
    off = resolve_round([natural, collected], APP)
    assert (on.winner, off.winner) == (0, 1)


def test_natural_wins_ties_does_not_reorder_unequal_throws():
    rules = with_(APP, natural_wins_ties=True)
    collected = Throw((1, 1, 6), 3, natural=False)
    assert resolve_round([collected, Throw((1, 1, 5))], rules).winner == 0


# --- umwandlung ------------------------------------------------------------------------------

NO_UMWANDLUNG = with_(CLUB, umwandlung=False)


def test_umwandlung_is_refused_where_the_rules_do_not_allow_it():
    turn = [Attempt((6, 6, 3), umwandlung=1), Attempt((4, 2))]
    assert code_of(validate_turn, turn, NO_UMWANDLUNG) == "umwandlung_not_allowed"


def test_without_umwandlung_two_sixes_do_not_force_the_player_on():
    throw = validate_turn([Attempt((6, 6, 3))], NO_UMWANDLUNG, muss_regel=True)
    assert throw == Throw((6, 6, 3))


def test_with_umwandlung_two_sixes_force_the_player_on_under_the_muss_regel():
    assert code_of(validate_turn, [Attempt((6, 6, 3))], CLUB, muss_regel=True) == (
        "muss_regel_broken"
    )


# --- keep_sixes (shawdyy/schocken whichNumbersCanBeHeld "oneSix") ----------------------------


def test_keep_sixes_lets_a_six_be_laid_out_under_keep_only_ones():
    turn = [Attempt((6, 4, 2), keep=(6,)), Attempt((6, 5))]
    assert validate_turn(turn, with_(CLUB, keep_sixes=True)) == Throw((6, 6, 5), 2, False)


def test_without_keep_sixes_a_laid_out_six_is_refused_under_keep_only_ones():
    turn = [Attempt((6, 4, 2), keep=(6,)), Attempt((6, 5))]
    assert code_of(validate_turn, turn, CLUB) == "keep_not_one"


# --- deckel_total (papr/schocken-discord-bot: 15) -------------------------------------------


def test_fifteen_deckel_a_schock_aus_is_worth_fifteen_and_ends_the_game():
    rules = with_(CLUB, deckel_total=15, muss_regel=False)
    game = Game("ABC", rules)
    outcome = game.play_round({"A": Throw((1, 1, 1)), "B": Throw((2, 2, 1)), "C": Throw((6, 5, 3))})
    assert (outcome.deckel, game.deckel["B"], game.loser) == (15, 15, "B")


# --- any combination: a strict total order in every round ----------------------------------

ALL_THROWS = [
    Throw(dice, attempts, natural)
    for dice in {tuple(sorted(d)) for d in product(range(1, 7), repeat=3)}
    for attempts in (1, 2, 3)
    for natural in (True, False)
    if natural or attempts > 1
]

variant_rule_sets = st.builds(
    RuleSet,
    general_beats_schock_doof=st.booleans(),
    generals_ranked=st.booleans(),
    strassen_ranked=st.booleans(),
    fewer_attempts_win_ties=st.booleans(),
    koenigswurf=st.booleans(),
    deckel_total=st.integers(1, 20),
    jule=st.booleans(),
    collected_strasse_counts=st.booleans(),
    collected_general_counts=st.booleans(),
    natural_wins_ties=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(variant_rule_sets)
def test_round_keys_order_every_throw_strictly_under_any_flags(rules):
    keys = [round_key(throw, position, rules) for position, throw in enumerate(ALL_THROWS)]
    assert len(set(keys)) == len(keys)


@settings(max_examples=60, deadline=None)
@given(variant_rule_sets)
def test_only_the_schock_aus_is_worth_all_deckel_and_no_throw_less_than_one(rules):
    worth = {
        throw: evaluate(throw, rules).deckel for throw in ALL_THROWS if throw.dice != (1, 1, 1)
    }
    schock_aus = evaluate(Throw((1, 1, 1)), rules).deckel
    assert (min(worth.values()), max(worth.values()), schock_aus) == (
        1,
        7 if rules.jule else 6,
        rules.deckel_total,
    )
