"""The rule sets of RULES.md section 6."""

import dataclasses
import pickle

import pytest

from games.rules import PRESETS, RuleSet, RuleViolation, Throw, evaluate

FLAGS = (
    "general_beats_schock_doof",
    "generals_ranked",
    "strassen_ranked",
    "fewer_attempts_win_ties",
    "koenigswurf",
    "keep_only_ones",
    "muss_regel",
    "format",
)

# RULES.md section 6, the table, row by row.
TABLE = {
    "club": (True, True, True, True, False, True, True, "single"),
    "regelwerk2019": (True, True, True, True, True, False, False, "halves"),
    "stammtisch": (False, False, True, False, False, False, False, "halves"),
    "meisterschaft": (True, True, True, True, False, False, False, "halves"),
    "app": (False, True, True, True, False, False, False, "halves"),
}


def test_presets_are_exactly_the_five_of_section_six():
    assert set(PRESETS) == set(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_has_the_switches_of_section_six(name):
    rules = PRESETS[name]
    assert tuple(getattr(rules, flag) for flag in FLAGS) == TABLE[name]


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_preset_plays_13_deckel_and_3_attempts(name):
    assert (PRESETS[name].deckel_total, PRESETS[name].max_attempts) == (13, 3)


def test_only_regelwerk2019_plays_the_koenigswurf():
    assert [name for name, rules in PRESETS.items() if rules.koenigswurf] == ["regelwerk2019"]


def test_rule_set_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["club"].koenigswurf = True


def test_rule_sets_with_the_same_switches_are_equal_whatever_their_name():
    assert RuleSet(name="ours") == PRESETS["club"]


def test_replaced_rule_set_differs_from_its_preset():
    assert dataclasses.replace(PRESETS["club"], koenigswurf=True) != PRESETS["club"]


def test_pickled_rule_set_carries_no_lookup_tables():
    rules = RuleSet(name="pickled")
    evaluate(Throw((1, 2, 3)), rules)  # builds the tables
    assert "_evaluations" not in pickle.loads(pickle.dumps(rules)).__dict__


def test_pickled_rule_set_still_evaluates():
    rules = pickle.loads(pickle.dumps(PRESETS["app"]))
    assert evaluate(Throw((4, 5, 6)), rules).label == "Straße 456"


@pytest.mark.parametrize(
    "changes",
    [
        {"format": "thirds"},
        {"max_attempts": 4},
        {"max_attempts": 0},
        {"deckel_total": 0},
        {"koenigswurf": "yes"},
    ],
)
def test_rule_set_refuses_impossible_values(changes):
    with pytest.raises(RuleViolation) as caught:
        RuleSet(**changes)
    assert caught.value.code == "invalid_rule_set"
