"""Evaluating and ranking throws (docs/rules.md section 1) under every preset (section 6)."""

import pickle
from itertools import combinations, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    Category,
    RuleSet,
    RuleViolation,
    Throw,
    evaluate,
    rank,
)

ALL_TRIPLES = list(product(range(1, 7), repeat=3))
ALL_THROWS = [
    Throw(dice, attempts=1 if natural else 2, natural=natural)
    for dice in ALL_TRIPLES
    for natural in (True, False)
]
PRESET_NAMES = sorted(PRESETS)

dice_st = st.lists(st.integers(1, 6), min_size=3, max_size=3)
throw_st = st.builds(Throw, dice_st, st.integers(1, 3), st.booleans())
rules_st = st.sampled_from([PRESETS[name] for name in PRESET_NAMES])


# --- the reference ladder, written out from docs/rules.md 1 and seed 004's "Würfel-Reihenfolge"


def ladder(rules):
    """Groups of labels, best first; labels in one group rank equal."""
    schocks = [["Schock-Aus"], ["Schock 6"], ["Schock 5"], ["Schock 4"], ["Schock 3"]]
    generals = [f"General {x}" for x in (6, 5, 4, 3, 2)]
    generals = [[g] for g in generals] if rules.generals_ranked else [generals]
    strassen = ["Straße 456", "Straße 345", "Straße 234", "Straße 123"]
    strassen = [[s] for s in strassen] if rules.strassen_ranked else [strassen]
    if rules.general_beats_schock_doof:
        top = schocks + generals + [["Schock Doof"]]
    else:
        top = schocks + [["Schock Doof"]] + generals
    numbers = sorted(
        {int("".join(map(str, sorted(d, reverse=True)))) for d in ALL_TRIPLES}, reverse=True
    )
    return top + strassen + [[str(n)] for n in numbers]


def expected_position(throw, rules):
    label = evaluate(throw, rules).label
    for position, group in enumerate(ladder(rules)):
        if label in group:
            return position
    raise AssertionError(f"{label} is not on the ladder")


# --- evaluation


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_triple_evaluates_natural_and_collected_under_every_preset(name):
    evaluations = [evaluate(throw, PRESETS[name]) for throw in ALL_THROWS]
    assert all(isinstance(e.category, Category) for e in evaluations)
    assert all(e.deckel >= 1 and e.label for e in evaluations)


@pytest.mark.parametrize(
    ("dice", "natural", "category", "value", "deckel", "label"),
    [
        ((1, 1, 1), True, Category.SCHOCK_AUS, 1, 13, "Schock-Aus"),
        ((1, 1, 1), False, Category.SCHOCK_AUS, 1, 13, "Schock-Aus"),
        ((1, 6, 1), True, Category.SCHOCK, 6, 6, "Schock 6"),
        ((1, 1, 5), False, Category.SCHOCK, 5, 5, "Schock 5"),
        ((4, 1, 1), True, Category.SCHOCK, 4, 4, "Schock 4"),
        ((1, 3, 1), True, Category.SCHOCK, 3, 3, "Schock 3"),
        ((2, 1, 1), True, Category.SCHOCK, 2, 2, "Schock Doof"),
        ((6, 6, 6), True, Category.GENERAL, 6, 3, "General 6"),
        ((2, 2, 2), True, Category.GENERAL, 2, 3, "General 2"),
        ((5, 4, 6), True, Category.STRASSE, 6, 2, "Straße 456"),
        ((3, 1, 2), True, Category.STRASSE, 3, 2, "Straße 123"),
        ((3, 1, 6), True, Category.HAUSNUMMER, 631, 1, "631"),  # seed 004's example
        ((2, 1, 2), True, Category.HAUSNUMMER, 221, 1, "221"),
        ((6, 5, 2), True, Category.HAUSNUMMER, 652, 1, "652"),  # seed 000: "6 52"
        ((3, 2, 2), False, Category.HAUSNUMMER, 322, 1, "322"),
    ],
)
def test_throw_evaluates_as_section_one_says(dice, natural, category, value, deckel, label):
    evaluation = evaluate(Throw(dice, attempts=2, natural=natural))
    assert (evaluation.category, evaluation.value, evaluation.deckel, evaluation.label) == (
        category,
        value,
        deckel,
        label,
    )


@pytest.mark.parametrize(
    ("dice", "number"),
    [
        # seed 003: "Straße und 3er-Pasch müssen in einem Versuch ('Natur') geworfen werden";
        # "Eine raus gelegte Eins kann nicht zur Bildung der kleinen Straße 1+2+3 verwendet
        # werden"; seed 000: "Wird eine Straße zugeworfen ... wie bei den Hausnummern".
        ((1, 2, 3), 321),
        ((2, 3, 4), 432),
        ((4, 5, 6), 654),
        ((5, 5, 5), 555),
        ((6, 6, 6), 666),
        ((2, 2, 2), 222),
    ],
    ids=lambda v: "-".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_collected_strasse_or_general_is_a_hausnummer_seeds_000_003(name, dice, number):
    evaluation = evaluate(Throw(dice, attempts=3, natural=False), PRESETS[name])
    assert (evaluation.category, evaluation.value, evaluation.deckel) == (
        Category.HAUSNUMMER,
        number,
        1,
    )


def test_schock_aus_is_worth_all_deckel_of_the_rule_set():
    rules = RuleSet(deckel_total=15)
    assert evaluate(Throw((1, 1, 1)), rules).deckel == 15


def test_evaluate_returns_the_same_result_for_dice_in_any_order():
    assert evaluate(Throw((6, 1, 3))) is evaluate(Throw((3, 6, 1)))


def test_evaluate_refuses_what_is_not_a_throw():
    with pytest.raises(TypeError):
        evaluate((1, 1, 1))


@given(throw=throw_st, rules=rules_st)
def test_deckel_follow_the_category(throw, rules):
    evaluation = evaluate(throw, rules)
    expected = {
        Category.SCHOCK_AUS: rules.deckel_total,
        Category.SCHOCK: evaluation.value,
        Category.GENERAL: 3,
        Category.STRASSE: 2,
        Category.HAUSNUMMER: 1,
    }[evaluation.category]
    assert evaluation.deckel == expected


@given(throw=throw_st)
def test_general_and_strasse_only_come_natural(throw):
    category = evaluate(throw).category
    assert throw.natural or category not in (Category.GENERAL, Category.STRASSE)


# --- Throw


@pytest.mark.parametrize(
    ("dice", "attempts", "code"),
    [
        ((0, 1, 2), 1, "die_out_of_range"),
        ((1, 2, 7), 1, "die_out_of_range"),
        ((1, 2, "3"), 1, "die_out_of_range"),
        ((1, 2, True), 1, "die_out_of_range"),
        ((1, 2), 1, "wrong_number_of_dice"),
        ((1, 2, 3, 4), 1, "wrong_number_of_dice"),
        (123, 1, "wrong_number_of_dice"),
        ((1, 2, 3), 0, "attempts_out_of_range"),
        ((1, 2, 3), 4, "attempts_out_of_range"),
    ],
)
def test_throw_refuses_impossible_dice_and_attempts(dice, attempts, code):
    with pytest.raises(RuleViolation) as caught:
        Throw(dice, attempts=attempts)
    assert caught.value.code == code


def test_throw_stores_dice_sorted_high_to_low():
    assert Throw([3, 6, 1]).dice == (6, 3, 1)


@given(dice=dice_st, as_tuple=st.booleans())
def test_throw_sorts_any_dice_high_to_low(dice, as_tuple):
    entered = tuple(dice) if as_tuple else list(dice)
    assert Throw(entered).dice == tuple(sorted(dice, reverse=True))


def test_throw_is_immutable():
    throw = Throw((1, 2, 3))
    with pytest.raises(AttributeError):
        throw.natural = False


def test_throws_with_equal_dice_attempts_and_natural_are_equal_and_hash_alike():
    assert Throw((1, 2, 3), 2, True) == Throw((3, 2, 1), 2, True)
    assert len({Throw((1, 2, 3), 2, True), Throw((3, 2, 1), 2, True)}) == 1


def test_throws_differing_in_natural_are_not_equal():
    assert Throw((1, 2, 3), 2, True) != Throw((1, 2, 3), 2, False)


def test_throw_survives_pickling():
    throw = Throw((5, 5, 6), 3, False)
    assert pickle.loads(pickle.dumps(throw)) == throw


# --- rank: the order of section 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rank_agrees_with_the_ladder_of_section_one_for_every_pair(name):
    rules = PRESETS[name]
    positions = {throw: expected_position(throw, rules) for throw in ALL_THROWS}
    ranks = {throw: rank(throw, rules) for throw in ALL_THROWS}
    disagreements = [
        (a, b)
        for a, b in combinations(ALL_THROWS, 2)
        if (ranks[a] > ranks[b]) != (positions[a] < positions[b])
        or (ranks[a] == ranks[b]) != (positions[a] == positions[b])
    ]
    assert disagreements == []


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_schock_aus_ranks_above_every_other_throw(name):
    rules = PRESETS[name]
    best = max(rank(throw, rules) for throw in ALL_THROWS if throw.dice != (1, 1, 1))
    assert rank(Throw((1, 1, 1)), rules) > best


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_221_is_the_smallest_throw(name):
    rules = PRESETS[name]
    lowest = min(ALL_THROWS, key=lambda throw: rank(throw, rules))
    assert evaluate(lowest, rules).label == "221"
    others = [t for t in ALL_THROWS if t.dice != (2, 2, 1)]
    assert all(rank(t, rules) > rank(lowest, rules) for t in others)


@given(throw=throw_st, rules=rules_st)
def test_rank_ignores_the_number_of_attempts(throw, rules):
    other = Throw(throw.dice, attempts=4 - throw.attempts, natural=throw.natural)
    assert rank(throw, rules) == rank(other, rules)


# --- the presets differ where section 6 says


def r(dice, natural=True):
    return Throw(dice, attempts=2, natural=natural)


@pytest.mark.parametrize(
    ("name", "general_wins"),
    [
        ("club", True),  # decision of docs/rules.md 6, as seeds 000 and 002
        ("regelwerk2019", True),  # seed 000: "der einzige Schock, der ... mit einem Pasch"
        ("meisterschaft", True),  # seed 002: "Der General ist höher bewertet als ein Schock 2"
        ("stammtisch", False),
        ("app", False),  # seed 004: 112 listed above 666
    ],
)
def test_general_against_schock_doof_follows_the_preset(name, general_wins):
    rules = PRESETS[name]
    assert (rank(r((2, 2, 2)), rules) > rank(r((1, 1, 2)), rules)) is general_wins


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_general_loses_to_schock_3(name):
    rules = PRESETS[name]
    assert rank(r((6, 6, 6)), rules) < rank(r((1, 1, 3)), rules)


def test_stammtisch_ranks_all_generals_equal_seed_001():
    # seed 001: "Es ist egal, ob der General aus drei Sechsern oder drei Zweiern besteht.
    # Alle Generals sind gleich hoch."
    rules = PRESETS["stammtisch"]
    assert rank(r((6, 6, 6)), rules) == rank(r((2, 2, 2)), rules)


@pytest.mark.parametrize("name", ["club", "regelwerk2019", "meisterschaft", "app"])
def test_ranked_generals_go_by_pips(name):
    rules = PRESETS[name]
    assert rank(r((6, 6, 6)), rules) > rank(r((2, 2, 2)), rules)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_bigger_strasse_beats_smaller_strasse(name):
    # seed 001: "dass eine größere Straße eine kleinere Straße überbietet"
    rules = PRESETS[name]
    assert rank(r((4, 5, 6)), rules) > rank(r((1, 2, 3)), rules)


def test_unranked_strassen_rank_equal():
    rules = RuleSet(strassen_ranked=False)
    assert rank(r((4, 5, 6)), rules) == rank(r((1, 2, 3)), rules)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_smallest_general_beats_biggest_strasse(name):
    rules = PRESETS[name]
    assert rank(r((2, 2, 2)), rules) > rank(r((4, 5, 6)), rules)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_smallest_strasse_beats_biggest_hausnummer(name):
    rules = PRESETS[name]
    assert rank(r((1, 2, 3)), rules) > rank(r((6, 6, 5)), rules)
