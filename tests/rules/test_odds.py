"""Exact odds (games.rules.odds): Fractions by enumeration, checked against counting and
against a long simulation of the same strategy."""

import dataclasses
import math
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from games.rules import PRESETS, Category, Throw, evaluate, odds, rank
from games.rules.simulator import simulate_turns

PRESET_NAMES = sorted(PRESETS)
CLUB = PRESETS["club"]


# --- one attempt ------------------------------------------------------------------------


def test_one_attempt_schock_aus_is_one_in_216():
    assert odds.attempt_odds()["Schock-Aus"] == Fraction(1, 216)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_one_attempt_odds_sum_to_exactly_one(preset):
    assert sum(odds.attempt_odds(PRESETS[preset]).values()) == 1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_one_attempt_categories_sum_to_exactly_one(preset):
    assert sum(odds.attempt_category_odds(PRESETS[preset]).values()) == 1


def test_one_attempt_labels_agree_with_counting_all_216_rolls():
    counts = Counter(evaluate(Throw(d), CLUB).label for d in product(range(1, 7), repeat=3))
    assert odds.attempt_odds(CLUB) == {label: Fraction(n, 216) for label, n in counts.items()}


def test_one_attempt_schock_5_is_three_rolls_of_216():
    # 1-1-5, 1-5-1, 5-1-1.
    assert odds.attempt_odds()["Schock 5"] == Fraction(3, 216)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_one_attempt_odds_are_ordered_best_to_worst(preset):
    rules = PRESETS[preset]
    throws = {evaluate(Throw(d), rules).label: Throw(d) for d in product(range(1, 7), repeat=3)}
    ranks = [rank(throws[label], rules) for label in odds.attempt_odds(rules)]
    assert ranks == sorted(ranks, reverse=True)


def test_schock_doof_is_listed_after_the_generals_when_generals_beat_it():
    labels = list(odds.attempt_odds(PRESETS["club"]))
    assert labels.index("Schock Doof") > labels.index("General 2")


def test_schock_doof_is_listed_before_the_generals_when_it_beats_them():
    labels = list(odds.attempt_odds(PRESETS["app"]))
    assert labels.index("Schock Doof") < labels.index("General 6")


# --- a full turn ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("muss_regel", [False, True])
@pytest.mark.parametrize("max_attempts", [1, 2, 3])
def test_turn_odds_sum_to_exactly_one(preset, muss_regel, max_attempts):
    dist = odds.turn_throw_odds(PRESETS[preset], muss_regel=muss_regel, max_attempts=max_attempts)
    assert sum(dist.values()) == 1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_turn_labels_and_categories_sum_to_exactly_one(preset):
    rules = PRESETS[preset]
    assert sum(odds.turn_odds(rules).values()) == sum(odds.turn_category_odds(rules).values())
    assert sum(odds.turn_odds(rules).values()) == 1


def test_turn_throws_are_ordered_best_to_worst():
    from games.rules import round_key

    keys = [round_key(t, 0, CLUB) for t in odds.turn_throw_odds(CLUB)]
    assert keys == sorted(keys, reverse=True)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_turn_of_one_attempt_is_one_attempt(preset):
    rules = PRESETS[preset]
    assert odds.turn_odds(rules, max_attempts=1) == odds.attempt_odds(rules)


def test_turn_attempts_odds_sum_to_one():
    assert sum(odds.turn_attempts_odds(CLUB).values()) == 1


def test_the_muss_regel_makes_schock_aus_more_likely_in_the_club():
    assert odds.turn_schock_aus_probability(
        CLUB, muss_regel=True
    ) > odds.turn_schock_aus_probability(CLUB)


def test_the_muss_regel_flag_changes_nothing_without_the_rule():
    rules = PRESETS["meisterschaft"]
    assert odds.turn_odds(rules, muss_regel=True) == odds.turn_odds(rules)


def test_collected_generals_and_strassen_never_count_as_such():
    dist = odds.turn_throw_odds(CLUB)
    special = (Category.GENERAL, Category.STRASSE)
    assert all(t.natural for t in dist if evaluate(t, CLUB).category in special)


def test_schock_aus_probability_of_a_turn_is_the_schock_aus_category():
    assert odds.turn_schock_aus_probability(CLUB) == odds.turn_odds(CLUB)["Schock-Aus"]


def test_expected_schock_aus_is_turns_times_the_turn_probability():
    p = odds.turn_schock_aus_probability(CLUB)
    assert odds.expected_schock_aus(120, CLUB) == 120 * p


def test_expected_schock_aus_refuses_negative_turns():
    with pytest.raises(ValueError):
        odds.expected_schock_aus(-1, CLUB)


def test_turn_odds_refuse_a_cap_outside_one_to_three():
    with pytest.raises(ValueError):
        odds.turn_odds(CLUB, max_attempts=4)


# --- exact versus simulated -----------------------------------------------------------------

SIMULATED_TURNS = 40_000


def assert_within_four_sigma(exact: dict, observed: Counter, n: int):
    for key, p in exact.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        share = observed[key] / n
        assert abs(share - float(p)) <= 4 * sigma + 1e-12, (key, share, float(p))


@pytest.mark.parametrize(
    ("preset", "muss_regel"),
    [("club", False), ("club", True), ("stammtisch", False), ("regelwerk2019", False)],
)
def test_turn_categories_agree_with_a_long_simulation(preset, muss_regel):
    rules = PRESETS[preset]
    turns = simulate_turns(
        SIMULATED_TURNS, rules, rng=random.Random(f"odds-{preset}"), muss_regel=muss_regel
    )
    observed = Counter(evaluate(Throw(d, k, nat), rules).category for d, k, nat in turns)
    exact = odds.turn_category_odds(rules, muss_regel=muss_regel)
    assert_within_four_sigma(exact, observed, SIMULATED_TURNS)


@pytest.mark.parametrize("muss_regel", [False, True])
def test_turn_labels_and_attempts_agree_with_a_long_simulation(muss_regel):
    turns = simulate_turns(
        SIMULATED_TURNS, CLUB, rng=random.Random("odds-labels"), muss_regel=muss_regel
    )
    labels = Counter(evaluate(Throw(d, k, nat), CLUB).label for d, k, nat in turns)
    attempts = Counter(k for _, k, _ in turns)
    assert_within_four_sigma(odds.turn_odds(CLUB, muss_regel=muss_regel), labels, len(turns))
    assert_within_four_sigma(
        odds.turn_attempts_odds(CLUB, muss_regel=muss_regel), attempts, len(turns)
    )


# --- the page's table -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_column_of_the_odds_table_sums_to_exactly_one(preset):
    rows = odds.odds_rows(PRESETS[preset])
    sums = {sum(r.one_attempt for r in rows), sum(r.turn for r in rows)}
    if PRESETS[preset].muss_regel:
        sums.add(sum(r.turn_muss_regel for r in rows))
    assert sums == {1}


def test_the_odds_table_has_no_muss_regel_column_without_the_rule():
    rows = odds.odds_rows(PRESETS["stammtisch"])
    assert {r.turn_muss_regel for r in rows} == {None}


def test_a_collected_321_is_in_the_table_but_never_rolled_at_once():
    row = next(r for r in odds.odds_rows(CLUB) if r.label == "321")
    assert (row.one_attempt, row.turn > 0) == (0, True)


def test_the_odds_table_lists_labels_best_first():
    labels = [r.label for r in odds.odds_rows(CLUB)]
    assert labels[:2] == ["Schock-Aus", "Schock 6"] and labels[-1] == "221"


# --- composed rule sets: the odds follow every flag ------------------------------

APP = PRESETS["app"]


def composed(**changes):
    return dataclasses.replace(APP, **changes)


def test_jule_in_one_attempt_is_six_in_216():
    # VARIANTS.md: "Jule 4-2-1 is 6/216 = 2.778 %".
    one = odds.attempt_odds(composed(jule=True))
    assert (one["Jule"], "421" in one) == (Fraction(6, 216), False)


def test_jule_is_listed_right_after_the_schock_aus():
    assert list(odds.attempt_odds(composed(jule=True)))[:2] == ["Schock-Aus", "Jule"]


def test_a_collected_strasse_that_counts_leaves_no_321_and_more_straße_123():
    # The collected 1-2-3 is a Straße now, and the Vorleger stands on it (strategy).
    off = odds.turn_odds(APP)
    on = odds.turn_odds(composed(collected_strasse_counts=True))
    assert ("321" in on, on["Straße 123"] > off["Straße 123"] + off["321"]) == (False, True)


def test_without_umwandlung_a_turn_throws_fewer_schock_aus():
    with_ = odds.turn_schock_aus_probability(APP)
    without = odds.turn_schock_aus_probability(composed(umwandlung=False))
    assert without < with_


def test_without_umwandlung_every_turn_distribution_still_sums_to_one():
    rules = dataclasses.replace(CLUB, umwandlung=False)
    assert sum(odds.turn_odds(rules, muss_regel=True).values()) == 1


def test_the_odds_table_shows_the_deckel_of_the_rule_set():
    rows = {row.label: row.deckel for row in odds.odds_rows(composed(deckel_total=15, jule=True))}
    assert (rows["Schock-Aus"], rows["Jule"]) == (15, 7)


@pytest.mark.parametrize(
    "changes",
    [
        {"jule": True},
        {"collected_strasse_counts": True, "collected_general_counts": True},
        {"umwandlung": False},
        {"natural_wins_ties": True, "koenigswurf": True},
        {"keep_only_ones": True, "keep_sixes": True, "muss_regel": True},
    ],
    ids=lambda c: "+".join(sorted(c)),
)
def test_every_column_of_a_composed_odds_table_sums_to_exactly_one(changes):
    rows = odds.odds_rows(composed(**changes))
    columns = [[r.one_attempt for r in rows], [r.turn for r in rows]]
    if rows[0].turn_muss_regel is not None:
        columns.append([r.turn_muss_regel for r in rows])
    assert {sum(column) for column in columns} == {1}


def test_composed_turn_odds_agree_with_a_long_simulation():
    rules = composed(jule=True, collected_strasse_counts=True, umwandlung=False)
    turns = simulate_turns(SIMULATED_TURNS, rules, rng=random.Random("odds-composed"))
    observed = Counter(evaluate(Throw(d, k, nat), rules).label for d, k, nat in turns)
    assert_within_four_sigma(odds.turn_odds(rules), observed, SIMULATED_TURNS)
