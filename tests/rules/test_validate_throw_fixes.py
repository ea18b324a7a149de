"""validate_throw refuses what cannot happen at the table (docs/rules.md 3 and 7).

(a) a collected 1-1-1 in one attempt; (b) under ``keep_only_ones`` a collected final throw
without a one. And ``validate_turn`` never produces a throw that ``validate_throw`` refuses.
"""

import dataclasses
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import PRESETS, Attempt, RuleSet, RuleViolation, Throw, validate_throw
from games.rules import validate_turn as validate_turn_

PRESET_NAMES = sorted(PRESETS)
KEEP_ONLY_ONES = [name for name in PRESET_NAMES if PRESETS[name].keep_only_ones]
KEEP_ANY = [name for name in PRESET_NAMES if not PRESETS[name].keep_only_ones]


def code_of(throw, rules, **kwargs):
    try:
        validate_throw(throw, rules, **kwargs)
    except RuleViolation as exc:
        return exc.code
    return None


def collected_throws(cap):
    """Every collected final throw possible by its shape: each multiset, attempts 2..cap."""
    return [
        Throw(dice, attempts, natural=False)
        for dice in combinations_with_replacement(range(1, 7), 3)
        for attempts in range(2, cap + 1)
    ]


def reads_as_hausnummer_either_way(throw):
    a, b, c = throw.dice
    return not (a == b == c or (a - 1 == b and b - 1 == c))


# --- (a) a collected 1-1-1 needs two attempts ------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_collected_schock_aus_in_one_attempt_is_refused(name):
    throw = Throw((1, 1, 1), attempts=1, natural=False)
    assert code_of(throw, PRESETS[name]) == "collected_in_one_attempt"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_natural_schock_aus_in_one_attempt_is_accepted(name):
    throw = Throw((1, 1, 1), attempts=1, natural=True)
    assert validate_throw(throw, PRESETS[name]) == throw


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("attempts", [2, 3])
def test_collected_schock_aus_from_the_second_attempt_is_accepted(name, attempts):
    throw = Throw((1, 1, 1), attempts=attempts, natural=False)
    assert validate_throw(throw, PRESETS[name]) == throw


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_collected_throw_in_one_attempt_is_refused(name):
    codes = {
        code_of(Throw(dice, 1, natural=False), PRESETS[name])
        for dice in combinations_with_replacement(range(1, 7), 3)
    }
    assert codes == {"collected_in_one_attempt"}


# --- (b) keep_only_ones: a collected throw shows a one ---------------------------------------


@pytest.mark.parametrize("name", KEEP_ONLY_ONES)
def test_collected_532_in_two_attempts_is_refused(name):
    assert code_of(Throw((5, 3, 2), 2, natural=False), PRESETS[name]) == "collected_without_one"


@pytest.mark.parametrize("name", KEEP_ONLY_ONES)
@pytest.mark.parametrize(("cap", "refused", "hausnummer"), [(2, 35, 27), (3, 70, 54)])
def test_collected_throws_without_a_one_are_refused_exhaustively(name, cap, refused, hausnummer):
    # The count of the ones accepted before (read as a Hausnummer either way): 27 at a
    # cap of two, 54 at three. With the General and Straße patterns, also refused before,
    # it is 35 and 70: every multiset of 2..6 (35), for each collected attempt count.
    rules = PRESETS[name]
    without_one = [t for t in collected_throws(cap) if 1 not in t.dice]
    codes = [code_of(t, rules, max_attempts=cap) for t in without_one]
    newly = [t for t in without_one if reads_as_hausnummer_either_way(t)]
    assert (len(without_one), set(codes), len(newly)) == (
        refused,
        {"collected_without_one"},
        hausnummer,
    )


@pytest.mark.parametrize("name", KEEP_ONLY_ONES)
@pytest.mark.parametrize("cap", [2, 3])
def test_collected_throws_with_a_one_are_accepted(name, cap):
    with_one = [t for t in collected_throws(cap) if 1 in t.dice]
    assert [t for t in with_one if code_of(t, PRESETS[name], max_attempts=cap)] == []


@pytest.mark.parametrize("name", KEEP_ANY)
@pytest.mark.parametrize("cap", [2, 3])
def test_tables_that_lay_out_anything_accept_every_collected_throw(name, cap):
    throws = collected_throws(cap)
    assert [t for t in throws if code_of(t, PRESETS[name], max_attempts=cap)] == []


def test_keep_sixes_accepts_a_collected_throw_with_a_six_but_not_without():
    rules = dataclasses.replace(PRESETS["club"], keep_sixes=True)
    assert (
        code_of(Throw((6, 5, 3), 2, natural=False), rules),
        code_of(Throw((5, 3, 2), 2, natural=False), rules),
    ) == (None, "collected_without_one")


def test_refusal_explains_in_german_that_only_ones_are_laid_out():
    with pytest.raises(RuleViolation) as caught:
        validate_throw(Throw((5, 3, 2), 2, natural=False))
    assert "nur Einsen rausgelegt" in str(caught.value)


# --- validate_turn never produces what validate_throw refuses --------------------------------


def random_rule_sets():
    return st.builds(
        RuleSet,
        keep_only_ones=st.booleans(),
        keep_sixes=st.booleans(),
        umwandlung=st.booleans(),
        muss_regel=st.booleans(),
        collected_strasse_counts=st.booleans(),
        collected_general_counts=st.booleans(),
        jule=st.booleans(),
    )


@st.composite
def turns(draw):
    """A turn as a secretary might enter it: mostly possible, sometimes not."""
    count = draw(st.integers(1, 3))
    attempts = []
    laid_out = 0
    for number in range(1, count + 1):
        rolled = tuple(draw(st.lists(st.integers(1, 6), min_size=3 - laid_out, max_size=3)))
        rolled = rolled[: 3 - laid_out]
        if number == count:
            attempts.append(Attempt(rolled))
            break
        sixes = rolled.count(6)
        umwandlung = draw(st.integers(0, sixes - 1)) if sixes >= 2 else 0
        usable = list(rolled)
        for _ in range(umwandlung + 1 if umwandlung else 0):
            usable.remove(6)
        keep = (
            tuple(draw(st.lists(st.sampled_from(usable), max_size=len(usable)))) if usable else ()
        )
        attempts.append(Attempt(rolled, keep, umwandlung))
        laid_out += len(keep) + umwandlung
        if laid_out >= 3:
            break
    return attempts


@settings(max_examples=600, deadline=None)
@given(turns(), random_rule_sets(), st.booleans())
def test_every_throw_validate_turn_returns_passes_validate_throw(attempts, rules, muss):
    try:
        throw = validate_turn_(attempts, rules, muss_regel=muss)
    except RuleViolation:
        return
    assert validate_throw(throw, rules, max_attempts=3, muss_regel=muss) == throw
