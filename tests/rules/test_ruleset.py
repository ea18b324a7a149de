"""The rule sets of docs/rules.md section 6."""

import dataclasses
import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import FLAGS as FLAG_TABLE
from games.rules import PRESETS, RuleSet, RuleViolation, Throw, evaluate, preset_name
from games.rules.flags import describe

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

# docs/rules.md section 6, the table, row by row.
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


# --- seed flags (docs/rules.md 4): on exactly in the presets docs/rules.md names
# ----------------------

SEED_FLAGS = {
    "ausscheidung": {"regelwerk2019", "meisterschaft"},
    "deckel_nehmen": {"regelwerk2019"},
    "opener_choice": {"regelwerk2019"},
    "einwuerfeln": {"stammtisch"},
}


@pytest.mark.parametrize("flag", sorted(SEED_FLAGS))
def test_seed_flag_is_on_in_exactly_the_presets_rules_md_names(flag):
    assert {name for name, rules in PRESETS.items() if getattr(rules, flag)} == SEED_FLAGS[flag]


VARIANT_DEFAULTS = {
    "umwandlung": True,
    "jule": False,
    "collected_strasse_counts": False,
    "collected_general_counts": False,
    "natural_wins_ties": False,
    "keep_sixes": False,
}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_variant_flags_keep_their_default_in_every_preset(name):
    rules = PRESETS[name]
    assert {flag: getattr(rules, flag) for flag in VARIANT_DEFAULTS} == VARIANT_DEFAULTS


def test_a_default_rule_set_has_every_seed_flag_off():
    assert not any(getattr(RuleSet(), flag) for flag in SEED_FLAGS)


# --- to_dict / from_dict ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_survives_to_dict_and_from_dict(name):
    rules = PRESETS[name]
    parsed = RuleSet.from_dict(rules.to_dict())
    assert (parsed, parsed.name) == (rules, name)


def test_to_dict_is_plain_json_data():
    data = dataclasses.replace(PRESETS["app"], jule=True, deckel_total=15).to_dict()
    assert json.loads(json.dumps(data)) == data


def test_from_dict_fills_missing_flags_with_their_defaults():
    assert RuleSet.from_dict({"koenigswurf": True}) == RuleSet(koenigswurf=True)


@pytest.mark.parametrize(
    "data",
    [
        {"koenigswurf": 1},
        {"jule": "true"},
        {"deckel_total": True},
        {"deckel_total": 13.0},
        {"deckel_total": "13"},
        {"deckel_total": 0},
        {"deckel_total": 10**9},
        {"max_attempts": 4},
        {"format": "thirds"},
        {"format": ["halves"]},
        {"name": 5},
        {"unknown_flag": True},
        {"__class__": "x"},
        {3: True},
        {None: True},
        [("koenigswurf", True)],
        "club",
        None,
        42,
    ],
    ids=repr,
)
def test_from_dict_refuses_hostile_input(data):
    with pytest.raises(RuleViolation) as caught:
        RuleSet.from_dict(data)
    assert caught.value.code == "invalid_rule_set"


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([f.name for f in dataclasses.fields(RuleSet)] + ["x", ""]),
        st.one_of(st.booleans(), st.integers(-5, 200), st.text(max_size=8), st.none()),
    )
)
def test_from_dict_gives_a_rule_set_or_invalid_rule_set_and_nothing_else(data):
    try:
        rules = RuleSet.from_dict(data)
    except RuleViolation as exc:
        assert exc.code == "invalid_rule_set"
    else:
        assert RuleSet.from_dict(rules.to_dict()) == rules


# --- preset_name ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_name_names_a_renamed_preset(name):
    renamed = dataclasses.replace(PRESETS[name], name="Unser Regelwerk")
    assert (preset_name(renamed), renamed.preset) == (name, name)


def test_preset_name_of_a_composed_rule_set_is_none():
    assert preset_name(dataclasses.replace(PRESETS["club"], jule=True)) is None


# --- FLAGS: the table for the rules page ----------------------------------------------------


def test_flags_table_covers_every_rule_set_field_once():
    names = [flag.name for flag in FLAG_TABLE]
    fields = [f.name for f in dataclasses.fields(RuleSet) if f.name != "name"]
    assert (sorted(names), len(names)) == (sorted(fields), len(set(names)))


@pytest.mark.parametrize("flag", FLAG_TABLE, ids=lambda f: f.name)
def test_every_flag_has_a_german_label_explanation_example_and_source(flag):
    assert (
        all((flag.label, flag.explanation, flag.example, flag.source)),
        flag.explanation.endswith("."),
        flag.group in {"section_6", "seed", "variant"},
    ) == (True, True, True)


def test_at_least_six_variant_flags_are_offered():
    assert len([flag for flag in FLAG_TABLE if flag.group == "variant"]) >= 6


def test_describe_lists_every_flag_with_its_value():
    described = dict((flag.name, value) for flag, value in describe(PRESETS["stammtisch"]))
    assert (described["einwuerfeln"], described["format"], len(described)) == (
        True,
        "halves",
        len(FLAG_TABLE),
    )
