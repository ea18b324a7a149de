"""validate_throw accepts exactly the final throws that some turn validate_turn accepts can
end with (docs/rules.md 3 and 7), for every composition of the flags.

The turns are enumerated here through the public ``validate_turn`` alone: between two
attempts a turn is its attempt number and the dice laid out so far (``validate_turn``'s
documented semantics), so one legal prefix per such state stands for all of them.
"""

import dataclasses
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import PRESETS, Attempt, RuleSet, RuleViolation, Throw, validate_throw
from games.rules import validate_turn as validate_turn_

CLUB = PRESETS["club"]
ALL_THROWS = [
    Throw(dice, attempts, natural)
    for dice in combinations_with_replacement(range(1, 7), 3)
    for attempts in (1, 2, 3)
    for natural in (True, False)
]


def code_of(throw, rules, **kwargs):
    try:
        validate_throw(throw, rules, **kwargs)
    except RuleViolation as exc:
        return exc.code
    return None


def is_legal_prefix(attempts, rules, cap, muss):
    """Whether ``attempts`` may be the first attempts of a turn with more to come: a final
    probe attempt is added; a refusal of the probe itself leaves the prefix legal."""
    laid_out = sum(len(a.keep) + a.umwandlung for a in attempts)
    probe = [*attempts, Attempt((2,) * (3 - laid_out))]
    try:
        validate_turn_(probe, rules, max_attempts=cap, muss_regel=muss)
    except RuleViolation as exc:
        # Three ones showing and another attempt is the prefix's fault, though reported
        # at the next attempt.
        return exc.attempt == len(probe) and exc.code != "rolled_after_schock_aus"
    return True


def turn_outcomes(rules, cap, muss):
    """Every ``(dice, attempts, natural)`` a turn that validate_turn accepts ends with,
    mapped to one such turn."""
    outcomes = {}
    prefixes = {(): []}  # dice laid out (sorted) -> one legal prefix reaching them
    for number in range(1, cap + 1):
        following = {}
        for laid_out, prefix in prefixes.items():
            for rolled in combinations_with_replacement(range(1, 7), 3 - len(laid_out)):
                turn = [*prefix, Attempt(rolled)]
                try:
                    throw = validate_turn_(turn, rules, max_attempts=cap, muss_regel=muss)
                except RuleViolation:
                    pass
                else:
                    outcomes.setdefault((throw.dice, throw.attempts, throw.natural), turn)
                if number == cap:
                    continue
                keeps = {k for size in range(len(rolled) + 1) for k in combinations(rolled, size)}
                for umwandlung in (0, 1, 2):
                    for keep in keeps:
                        step = [*prefix, Attempt(rolled, keep, umwandlung)]
                        if is_legal_prefix(step, rules, cap, muss):
                            state = tuple(sorted(laid_out + keep + (1,) * umwandlung))
                            following.setdefault(state, step)
        prefixes = following
    return outcomes


def accepted(rules, cap, muss):
    return {
        (t.dice, t.attempts, t.natural)
        for t in ALL_THROWS
        if code_of(t, rules, max_attempts=cap, muss_regel=muss) is None
    }


compositions = st.builds(
    RuleSet,
    general_beats_schock_doof=st.booleans(),
    generals_ranked=st.booleans(),
    koenigswurf=st.booleans(),
    keep_only_ones=st.booleans(),
    muss_regel=st.booleans(),
    format=st.sampled_from(["single", "halves"]),
    max_attempts=st.integers(1, 3),
    umwandlung=st.booleans(),
    jule=st.booleans(),
    collected_strasse_counts=st.booleans(),
    collected_general_counts=st.booleans(),
    keep_sixes=st.booleans(),
)


@settings(max_examples=25, deadline=None)
@given(compositions, st.integers(1, 3), st.booleans())
def test_validate_throw_accepts_exactly_what_some_legal_turn_ends_with(rules, cap, muss):
    outcomes = turn_outcomes(rules, cap, muss)
    assert accepted(rules, cap, muss) == set(outcomes)


# The flags that decide what a turn may do, every combination once (the other flags only
# change what a throw is worth): what may be laid out, Umwandlung, the Muss-Regel, the cap.
LAY_OUT = {"anything": (False, False), "ones": (True, False), "ones and sixes": (True, True)}


@pytest.mark.parametrize("lay_out", sorted(LAY_OUT))
@pytest.mark.parametrize("umwandlung", [False, True])
@pytest.mark.parametrize("muss", [False, True])
@pytest.mark.parametrize("cap", [1, 2, 3])
def test_every_composition_of_the_turn_flags_agrees_with_validate_turn(
    lay_out, umwandlung, muss, cap
):
    keep_only_ones, keep_sixes = LAY_OUT[lay_out]
    rules = dataclasses.replace(
        CLUB, keep_only_ones=keep_only_ones, keep_sixes=keep_sixes, umwandlung=umwandlung
    )
    assert accepted(rules, cap, muss) == set(turn_outcomes(rules, cap, muss))


@settings(max_examples=30, deadline=None)
@given(compositions, st.integers(1, 3))
def test_a_throw_refused_as_breaking_the_muss_regel_is_possible_without_it(rules, cap):
    muss_rules = dataclasses.replace(rules, muss_regel=True)
    refused = [
        t
        for t in ALL_THROWS
        if code_of(t, muss_rules, max_attempts=cap, muss_regel=True) == "muss_regel_broken"
    ]
    assert [t for t in refused if code_of(t, muss_rules, max_attempts=cap)] == []


def test_collected_six_six_six_stopped_early_under_the_muss_regel_is_refused():
    """Seed 003, Muss-Regel: "Ebenso muss er für zwei Sechsen aus einem Wurf eine Eins
    rauslegen und fortfahren."

    With sixes laid out (``keep_sixes``) a collected 6-6-6 in two of three attempts needs
    two sixes in one roll (a six laid out, then 6-6; or 6-6 laid out from one roll), and
    then the player had to turn them into a one and go on.
    """
    rules = dataclasses.replace(CLUB, keep_sixes=True)
    throw = Throw((6, 6, 6), attempts=2, natural=False)
    assert code_of(throw, rules, max_attempts=3, muss_regel=True) == "muss_regel_broken"


def test_collected_six_six_six_in_the_last_attempt_is_possible_under_the_muss_regel():
    """Seed 003: the Muss-Regel binds "vorausgesetzt er hat noch mindestens einen
    Versuch": with two attempts allowed, a six laid out and then 6-6 ends the turn."""
    rules = dataclasses.replace(CLUB, keep_sixes=True)
    throw = Throw((6, 6, 6), attempts=2, natural=False)
    assert code_of(throw, rules, max_attempts=2, muss_regel=True) is None


@pytest.mark.parametrize("keep_only_ones", [False, True])
def test_collected_six_six_six_stopped_early_without_the_muss_regel_is_possible(keep_only_ones):
    """Seed 003: "Zeigen alle drei Würfel keine Eins oder keine zwei Sechsen, ist es dem
    Spieler freigestellt, ob er aufhört oder weitermacht." Without the Muss-Regel in force
    the player may always stop: a six laid out, then 6-6."""
    rules = dataclasses.replace(CLUB, keep_only_ones=keep_only_ones, keep_sixes=True)
    throw = Throw((6, 6, 6), attempts=2, natural=False)
    assert code_of(throw, rules, max_attempts=3, muss_regel=False) is None
