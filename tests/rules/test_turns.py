"""A turn attempt by attempt, final throws without attempts, the Muss-Regel (docs/rules.md 3, 5)."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    Attempt,
    Category,
    RuleViolation,
    Throw,
    evaluate,
    muss_regel_applies,
    validate_throw,
    validate_turn,
)

CLUB = PRESETS["club"]
MEISTERSCHAFT = PRESETS["meisterschaft"]
PRESET_NAMES = sorted(PRESETS)
A = Attempt


def violation(attempts, rules=CLUB, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        validate_turn(attempts, rules, **kwargs)
    return caught.value.code, caught.value.attempt


def throw_violation(throw, rules=CLUB, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        validate_throw(throw, rules, **kwargs)
    return caught.value.code


# --- the final throw of a valid turn


def test_one_attempt_gives_a_natural_throw():
    assert validate_turn([A((3, 1, 6))]) == Throw((6, 3, 1), attempts=1, natural=True)


def test_rerolling_everything_keeps_the_throw_natural():
    assert validate_turn([A((1, 4, 5)), A((2, 3, 4))]) == Throw((4, 3, 2), 2, natural=True)


def test_laid_out_dice_make_the_throw_collected():
    assert validate_turn([A((1, 4, 5), keep=(1,)), A((4, 1))]) == Throw((4, 1, 1), 2, False)


def test_collected_1_2_3_is_hausnummer_321_seed_003():
    # seed 003: "Eine raus gelegte Eins kann allerdings nicht zur Bildung der kleinen
    # Straße 1+2+3 verwendet werden."
    throw = validate_turn([A((1, 5, 5), keep=(1,)), A((2, 3))])
    assert (evaluate(throw).category, evaluate(throw).label) == (Category.HAUSNUMMER, "321")


def test_zugeworfener_general_is_a_hausnummer_seed_000():
    # seed 000: "Jeder Pasch zählt nur in einem Wurf und darf ... nicht zugeworfen werden."
    throw = validate_turn([A((5, 2, 3), keep=(5,)), A((5, 5))], MEISTERSCHAFT)
    assert evaluate(throw, MEISTERSCHAFT).label == "555"


def test_schock_aus_collected_over_three_attempts_seed_000_schocker_a():
    attempts = [A((1, 4, 5), keep=(1,)), A((6, 1), keep=(1,)), A((1,))]
    assert validate_turn(attempts) == Throw((1, 1, 1), attempts=3, natural=False)


def test_attempt_from_mapping_reads_the_json_shape():
    attempt = Attempt.from_mapping({"rolled": [6, 6, 2], "keep": [], "umwandlung": 1})
    assert attempt == Attempt((6, 6, 2), (), 1)


# --- Umwandlung (seeds 000, 002, 003, 004)


def test_two_sixes_become_one_laid_out_one_and_two_dice_go_back_seed_002_004():
    # seed 004: "zwei Sechser ... zu einem Einser umdrehen. Der andere Würfel muss ... in den
    # Becher"; so the next attempt rolls two dice.
    throw = validate_turn([A((6, 6, 3), umwandlung=1), A((1, 5))])
    assert throw == Throw((5, 1, 1), attempts=2, natural=False)


def test_three_sixes_become_two_laid_out_ones_seed_000():
    # seed 000: "Wer drei Sechser in einem Wurf tätigt, darf aus drei Sechser zwei Einser
    # machen ... der dritte Würfel ... muss zurück in den Becher".
    throw = validate_turn([A((6, 6, 6), umwandlung=2), A((4,))])
    assert evaluate(throw).label == "Schock 4"


def test_after_an_umwandlung_the_next_attempt_rolls_three_minus_laid_out_dice():
    assert violation([A((6, 6, 3), umwandlung=1), A((1, 5, 2))]) == ("wrong_number_of_dice", 2)


def test_after_two_umwandlung_ones_the_next_attempt_rolls_one_die():
    assert violation([A((6, 6, 6), umwandlung=2), A((4, 5))]) == ("wrong_number_of_dice", 2)


def test_umwandlung_in_the_third_attempt_is_refused_seed_000():
    # seed 000: "Eine Umwandlung der Würfel im dritten Wurf ist nicht möglich".
    attempts = [A((2, 3, 5)), A((2, 3, 5)), A((6, 6, 5), umwandlung=1)]
    assert violation(attempts) == ("umwandlung_on_last_attempt", 3)


def test_umwandlung_in_the_vorlegers_last_allowed_attempt_is_refused():
    attempts = [A((2, 3, 5)), A((6, 6, 5), umwandlung=1), A((4, 4))]
    assert violation(attempts, max_attempts=2) == ("umwandlung_on_last_attempt", 2)


def test_turn_may_not_end_right_after_an_umwandlung_seed_002():
    # seed 002: "Es muss danach nochmal gewürfelt werden."
    assert violation([A((6, 6, 5), umwandlung=1)]) == ("turn_ends_after_umwandlung", 1)


@pytest.mark.parametrize(
    ("rolled", "umwandlung"),
    [((6, 5, 5), 1), ((6, 6, 5), 2), ((1, 2, 3), 1)],
)
def test_umwandlung_without_the_sixes_is_refused(rolled, umwandlung):
    attempts = [A(rolled, umwandlung=umwandlung), A((2, 3))]
    assert violation(attempts) == ("umwandlung_without_sixes", 1)


@pytest.mark.parametrize("umwandlung", [-1, 3, True, "1"])
def test_umwandlung_makes_zero_one_or_two_ones(umwandlung):
    attempts = [A((6, 6, 6), umwandlung=umwandlung), A((2,))]
    assert violation(attempts) == ("umwandlung_out_of_range", 1)


def test_the_sixes_of_an_umwandlung_cannot_also_be_laid_out():
    attempts = [A((6, 6, 2), keep=(6,), umwandlung=1), A((3,))]
    assert violation(attempts, MEISTERSCHAFT) == ("keep_not_rolled", 1)


def test_third_six_may_be_laid_out_beside_a_single_umwandlung_where_anything_may():
    throw = validate_turn([A((6, 6, 6), keep=(6,), umwandlung=1), A((3,))], MEISTERSCHAFT)
    assert throw == Throw((6, 3, 1), attempts=2, natural=False)


# --- laying out


def test_laying_out_a_die_that_was_not_rolled_is_refused():
    assert violation([A((1, 4, 5), keep=(2,)), A((3, 3))]) == ("keep_not_rolled", 1)


def test_laying_out_a_die_twice_is_refused():
    assert violation([A((1, 4, 5), keep=(1, 1)), A((3,))]) == ("keep_not_rolled", 1)


def test_club_lays_out_only_ones_seed_003():
    # seed 003: "kann er geworfene Einsen rauslegen"; nothing else is named.
    assert violation([A((5, 4, 1), keep=(5,)), A((3, 2))]) == ("keep_not_one", 1)


@pytest.mark.parametrize("name", ["regelwerk2019", "stammtisch", "meisterschaft", "app"])
def test_other_tables_lay_out_any_die_seed_002(name):
    # seed 002: "Es dürfen alles rausgelegt, aber nichts wieder reingenommen werden."
    throw = validate_turn([A((5, 4, 1), keep=(5, 4)), A((6,))], PRESETS[name])
    assert throw == Throw((6, 5, 4), attempts=2, natural=False)


def test_nothing_is_laid_out_after_the_last_attempt():
    assert violation([A((1, 4, 5), keep=(1,))]) == ("keep_on_last_attempt", 1)


def test_laying_out_all_three_dice_and_rolling_on_is_refused():
    attempts = [A((5, 5, 5), keep=(5, 5, 5)), A(())]
    assert violation(attempts, MEISTERSCHAFT) == ("keep_all_dice", 1)


def test_later_attempt_must_roll_every_die_still_in_the_cup():
    assert violation([A((1, 4, 5), keep=(1,)), A((4, 5, 6))]) == ("wrong_number_of_dice", 2)


@pytest.mark.parametrize("rolled", [(0, 4, 5), (1, 4, 7), (1, 4, "5"), (1, 4, 2.0)])
def test_a_die_outside_one_to_six_is_refused(rolled):
    assert violation([A(rolled)]) == ("die_out_of_range", 1)


@pytest.mark.parametrize("rolled", [(1, 4), (1, 4, 5, 6), (), 5, None, "145"])
def test_a_first_attempt_rolls_three_dice(rolled):
    assert violation([A(rolled)]) == ("wrong_number_of_dice", 1)


# --- attempts


def test_a_turn_needs_an_attempt():
    assert violation([]) == ("no_attempts", None)


def test_fourth_attempt_is_refused():
    attempts = [A((2, 3, 5)), A((2, 3, 5)), A((2, 3, 5)), A((2, 3, 5))]
    assert violation(attempts) == ("too_many_attempts", 4)


def test_no_player_uses_more_attempts_than_the_vorleger():
    attempts = [A((2, 3, 5)), A((2, 3, 5)), A((2, 3, 5))]
    assert violation(attempts, max_attempts=2) == ("too_many_attempts", 3)


@pytest.mark.parametrize("max_attempts", [0, 4, "3"])
def test_vorleger_cap_is_one_to_three(max_attempts):
    assert violation([A((2, 3, 5))], max_attempts=max_attempts) == ("attempts_out_of_range", None)


def test_three_ones_end_the_turn_at_once():
    attempts = [A((1, 1, 1)), A((2, 3, 4))]
    assert violation(attempts) == ("rolled_after_schock_aus", 2)


def test_three_ones_from_laid_out_and_rolled_dice_end_the_turn_at_once():
    attempts = [A((1, 1, 4), keep=(1, 1)), A((1,)), A((2,))]
    assert violation(attempts) == ("rolled_after_schock_aus", 3)


def test_turn_items_must_be_attempts():
    with pytest.raises(TypeError):
        validate_turn([{"rolled": [1, 2, 3]}])


# --- Muss-Regel (seed 003)


def test_muss_regel_forces_a_player_with_1_2_3_to_lay_out_the_one_and_go_on_seed_003():
    # seed 003: "So kann es sein, dass man weitermachen muss, obwohl der Wurf besser ist als
    # der des Konkurrenten (besonders ärgerlich bei der kleinen Straße)."
    assert violation([A((1, 2, 3))], muss_regel=True) == ("muss_regel_broken", 1)


def test_muss_regel_message_says_the_player_had_to_go_on():
    with pytest.raises(RuleViolation) as caught:
        validate_turn([A((1, 2, 3))], muss_regel=True)
    assert "weiterwürfeln" in str(caught.value) and "Eins" in str(caught.value)


def test_muss_regel_is_kept_by_laying_out_the_one_and_using_every_attempt():
    attempts = [A((1, 2, 3), keep=(1,)), A((2, 3)), A((4, 5))]
    assert validate_turn(attempts, muss_regel=True) == Throw((5, 4, 1), 3, natural=False)


def test_muss_regel_forbids_stopping_while_a_laid_out_one_shows():
    attempts = [A((1, 2, 3), keep=(1,)), A((2, 3))]
    assert violation(attempts, muss_regel=True) == ("muss_regel_broken", 2)


def test_muss_regel_forbids_going_on_without_laying_out_the_one():
    attempts = [A((1, 2, 3)), A((2, 3, 4))]
    assert violation(attempts, muss_regel=True) == ("muss_regel_broken", 1)


def test_muss_regel_forbids_leaving_a_second_one_in_the_cup():
    attempts = [A((1, 1, 3), keep=(1,)), A((2, 3))]
    assert violation(attempts, muss_regel=True) == ("muss_regel_broken", 1)


def test_muss_regel_demands_an_umwandlung_for_two_sixes_seed_003():
    # seed 003: "Ebenso muss er für zwei Sechsen aus einem Wurf eine Eins rauslegen und
    # fortfahren."
    attempts = [A((6, 6, 4)), A((2, 3, 5))]
    assert violation(attempts, muss_regel=True) == ("muss_regel_broken", 1)


def test_muss_regel_forbids_stopping_on_two_sixes():
    assert violation([A((6, 6, 4))], muss_regel=True) == ("muss_regel_broken", 1)


def test_muss_regel_is_kept_with_an_umwandlung_and_going_on():
    attempts = [A((6, 6, 4), umwandlung=1), A((2, 3)), A((4, 5))]
    assert validate_turn(attempts, muss_regel=True) == Throw((5, 4, 1), 3, natural=False)


@pytest.mark.parametrize("rolled", [(4, 5, 2), (6, 5, 2), (2, 3, 4), (5, 5, 5)])
def test_muss_regel_leaves_a_roll_without_one_or_two_sixes_free(rolled):
    assert validate_turn([A(rolled)], muss_regel=True) == Throw(rolled, 1, natural=True)


def test_muss_regel_ends_with_the_last_attempt_the_vorleger_allows():
    assert validate_turn([A((1, 2, 3))], max_attempts=1, muss_regel=True).dice == (3, 2, 1)


def test_muss_regel_gives_way_to_a_schock_aus():
    attempts = [A((4, 5, 2)), A((1, 1, 1))]
    assert validate_turn(attempts, muss_regel=True) == Throw((1, 1, 1), 2, natural=True)


@pytest.mark.parametrize("name", ["regelwerk2019", "stammtisch", "meisterschaft", "app"])
def test_muss_regel_takes_effect_only_under_a_rule_set_that_plays_it(name):
    assert validate_turn([A((1, 2, 3))], PRESETS[name], muss_regel=True).dice == (3, 2, 1)


def test_club_player_without_the_muss_regel_may_stop_on_1_2_3():
    throw = validate_turn([A((1, 2, 3))], CLUB, muss_regel=False)
    assert evaluate(throw).label == "Straße 123"


@pytest.mark.parametrize(
    ("so_far", "applies"),
    [(0, True), (1, False), (2, False), (3, False), (4, True), (5, False)]
    + [(8, False), (9, True), (10, False), (14, True), (19, True), (20, False)],
)
def test_muss_regel_applies_when_the_next_schock_aus_costs_a_runde(so_far, applies):
    assert muss_regel_applies(schock_aus_so_far=so_far, last_game=False) is applies


@pytest.mark.parametrize("so_far", [1, 2, 3, 5, 7])
def test_muss_regel_applies_throughout_the_last_game(so_far):
    assert muss_regel_applies(schock_aus_so_far=so_far, last_game=True) is True


@pytest.mark.parametrize("name", ["regelwerk2019", "stammtisch", "meisterschaft", "app"])
def test_muss_regel_never_applies_at_tables_without_it(name):
    rules = PRESETS[name]
    assert muss_regel_applies(schock_aus_so_far=0, last_game=True, rules=rules) is False


def test_muss_regel_count_cannot_be_negative():
    with pytest.raises(RuleViolation):
        muss_regel_applies(schock_aus_so_far=-1, last_game=False)


# --- validate_throw


def test_collected_throw_in_one_attempt_is_refused():
    assert throw_violation(Throw((5, 1, 1), 1, natural=False)) == "collected_in_one_attempt"


def test_final_throw_with_more_attempts_than_the_vorleger_is_refused():
    assert throw_violation(Throw((5, 1, 1), 3, False), max_attempts=2) == "too_many_attempts"


@pytest.mark.parametrize("dice", [(5, 5, 5), (2, 2, 2), (4, 5, 6), (2, 3, 4), (3, 4, 5)])
def test_club_refuses_a_collected_general_or_strasse_pattern_without_a_one(dice):
    assert throw_violation(Throw(dice, 2, natural=False)) == "collected_without_one"


def test_club_refuses_a_collected_hausnummer_without_a_one():
    # Sample evening, game 20: Anna Becker's 6-5-5 in 3, natural=false (docs/rules.md 3).
    assert throw_violation(Throw((6, 5, 5), 3, natural=False)) == "collected_without_one"


@pytest.mark.parametrize(
    "throw",
    [
        Throw((1, 2, 3), 2, natural=False),
        Throw((5, 5, 5), 3, natural=True),
        Throw((1, 1, 1), 1, natural=True),
        Throw((1, 1, 1), 3, natural=False),
        Throw((4, 1, 1), 2, natural=False),
    ],
    ids=repr,
)
def test_club_accepts_throws_that_can_come_about(throw):
    assert validate_throw(throw) == throw


@pytest.mark.parametrize("name", ["regelwerk2019", "stammtisch", "meisterschaft", "app"])
def test_other_tables_accept_a_collected_general_without_a_one(name):
    throw = Throw((5, 5, 5), 2, natural=False)
    assert validate_throw(throw, PRESETS[name]) == throw


@pytest.mark.parametrize(
    "throw",
    [Throw((1, 2, 3), 1), Throw((6, 6, 4), 2), Throw((5, 1, 1), 2, natural=False)],
    ids=repr,
)
def test_validate_throw_refuses_stopping_early_under_the_muss_regel(throw):
    assert throw_violation(throw, muss_regel=True) == "muss_regel_broken"


def test_validate_throw_under_the_muss_regel_accepts_a_one_in_the_last_attempt():
    throw = Throw((5, 1, 1), 3, natural=False)
    assert validate_throw(throw, muss_regel=True) == throw


# --- RuleViolation


def test_rule_violation_names_attempt_and_rule():
    with pytest.raises(RuleViolation) as caught:
        validate_turn([A((5, 4, 1), keep=(5,)), A((3, 2))])
    error = caught.value
    assert (error.attempt, "keep_only_ones" in error.rule, str(error).startswith("Versuch 1:")) == (
        1,
        True,
        True,
    )


def test_rule_violation_is_a_value_error():
    with pytest.raises(ValueError):
        validate_turn([])


def test_rule_violation_survives_pickling():
    error = RuleViolation("keep_not_one", "Nur Einsen.", 2, "docs/rules.md 3")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.message, copy.attempt, copy.rule, str(copy)) == (
        "keep_not_one",
        "Nur Einsen.",
        2,
        "docs/rules.md 3",
        "Versuch 2: Nur Einsen.",
    )


# --- properties

junk_die = st.one_of(st.integers(-1, 8), st.sampled_from(["1", None, 1.0, True]))
junk_dice = st.one_of(st.lists(junk_die, max_size=4), st.integers(), st.none())
junk_attempt = st.builds(
    Attempt,
    junk_dice,
    st.one_of(st.lists(junk_die, max_size=4), st.none()),
    st.one_of(st.integers(-1, 3), st.none()),
)
rules_st = st.sampled_from([PRESETS[name] for name in PRESET_NAMES])


@settings(max_examples=300)
@given(
    attempts=st.lists(junk_attempt, max_size=5),
    rules=rules_st,
    max_attempts=st.integers(0, 4),
    muss=st.booleans(),
)
def test_any_entry_validates_or_raises_rule_violation(attempts, rules, max_attempts, muss):
    try:
        throw = validate_turn(attempts, rules, max_attempts=max_attempts, muss_regel=muss)
    except RuleViolation as error:
        assert error.code and str(error)
    else:
        assert 1 <= throw.attempts == len(attempts) <= max_attempts


# Dice with a bias to ones and sixes, so that Umwandlung and the Muss-Regel come up often.
die_st = st.sampled_from([1, 1, 2, 3, 4, 5, 6, 6])


@st.composite
def legal_turns(draw):
    """A turn played by the rules, with the final throw it must give."""
    rules = draw(rules_st)
    cap = draw(st.integers(1, rules.max_attempts))
    muss = draw(st.booleans())
    forced_rule = muss and rules.muss_regel
    laid: list[int] = []
    attempts = []
    for number in range(1, cap + 1):
        rolled = [draw(die_st) for _ in range(3 - len(laid))]
        showing = laid + rolled
        sixes = rolled.count(6)
        forced = forced_rule and (1 in showing or sixes >= 2)
        if showing.count(1) == 3 or number == cap or (not forced and draw(st.booleans())):
            attempts.append(Attempt(rolled))
            natural = not laid
            return rules, cap, muss, attempts, Throw(showing, number, natural)
        most = 2 if sixes == 3 else 1 if sixes == 2 else 0
        umwandlung = draw(st.integers(1 if forced and sixes >= 2 else 0, most))
        available = list(rolled)
        for _ in range(umwandlung + 1 if umwandlung else 0):
            available.remove(6)
        # Under the Muss-Regel every rolled one goes out; anything else is the player's choice.
        keep = [1] * available.count(1) if forced else []
        optional = [d for d in available if not (forced and d == 1)]
        room = 2 - len(laid) - umwandlung - len(keep)
        for die in optional:
            allowed = die == 1 or not rules.keep_only_ones
            if room > 0 and allowed and draw(st.booleans()):
                keep.append(die)
                room -= 1
        attempts.append(Attempt(rolled, tuple(keep), umwandlung))
        laid += keep + [1] * umwandlung
    raise AssertionError("a turn ends by its cap")


@settings(max_examples=500)
@given(turn=legal_turns())
def test_every_turn_played_by_the_rules_validates_to_its_final_throw(turn):
    rules, cap, muss, attempts, expected = turn
    assert validate_turn(attempts, rules, max_attempts=cap, muss_regel=muss) == expected


@settings(max_examples=500)
@given(turn=legal_turns())
def test_final_throw_of_a_legal_turn_passes_validate_throw(turn):
    rules, cap, muss, attempts, expected = turn
    assert validate_throw(expected, rules, max_attempts=cap, muss_regel=muss) == expected
