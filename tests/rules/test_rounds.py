"""Resolving a round: Mit ist Schitt and the Königswurf (docs/rules.md section 2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    Attempt,
    RuleSet,
    RuleViolation,
    Throw,
    evaluate,
    rank,
    resolve_round,
    validate_turn,
)

PRESET_NAMES = sorted(PRESETS)


def names(result, players):
    return [players[i] for i in result.order]


# --- Mit ist Schitt from the seeds


def test_fewer_attempts_win_equal_throws_seed_000():
    # seed 000: Schocker A wirft im dritten Wurf 6 55, Schocker D braucht für 6 55 nur zwei
    # Wurf: "Somit ist Schocker D mit nur zwei Wurf ... im Vorteil."
    a = Throw((6, 5, 5), attempts=3, natural=False)
    d = Throw((6, 5, 5), attempts=2, natural=False)
    result = resolve_round([a, d], PRESETS["regelwerk2019"])
    assert (result.winner, result.loser) == (1, 0)


@pytest.mark.parametrize(
    ("name", "seed"),
    [("club", "003"), ("regelwerk2019", "000"), ("meisterschaft", "002"), ("app", "004")],
)
def test_equal_throws_with_fewer_attempts_win_in_presets_that_say_so(name, seed):
    # seed 003: "ist derjenige besser, der mit weniger Versuchen erzielt wurde";
    # seed 002: "ein Schock 3 im ersten Wurf ist besser ... als ein Schock 3 im 2. oder 3.";
    # seed 004: "bei Wurfgleichheit verliert der Spieler mit mehr Würfen".
    first = Throw((1, 1, 3), attempts=3, natural=False)
    later = Throw((1, 1, 3), attempts=1)
    result = resolve_round([first, later], PRESETS[name])
    assert result.loser == 0


def test_stammtisch_lets_the_later_player_lose_whatever_the_attempts_seed_001():
    # seed 001: "so verliert derjenige, der in der Wurfreihenfolge von beiden zuletzt dran
    # war. Er hat also nur 'mit' gemacht".
    first = Throw((6, 5, 5), attempts=3, natural=False)
    later = Throw((6, 5, 5), attempts=1)
    result = resolve_round([first, later], PRESETS["stammtisch"])
    assert result.loser == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_equal_throws_in_equal_attempts_the_later_player_loses(name):
    # seeds 000, 002, 003 ("ist derjenige Wurf besser, der zuerst geworfen wurde"), 004.
    throws = [Throw((4, 3, 2), attempts=2, natural=False) for _ in range(3)]
    result = resolve_round(throws, PRESETS[name])
    assert result.order == (0, 1, 2)


def test_stammtisch_generals_tie_so_the_later_general_loses_seed_001():
    first = Throw((2, 2, 2))
    later = Throw((6, 6, 6))
    assert resolve_round([first, later], PRESETS["stammtisch"]).loser == 1


def test_club_general_six_beats_an_earlier_general_two():
    assert resolve_round([Throw((2, 2, 2)), Throw((6, 6, 6))]).loser == 0


def test_unranked_generals_fall_back_on_fewer_attempts():
    rules = RuleSet(generals_ranked=False, keep_only_ones=False, muss_regel=False)
    first = Throw((6, 6, 6), attempts=2)
    later = Throw((2, 2, 2), attempts=1)
    assert resolve_round([first, later], rules).loser == 0


# --- Königswurf (seed 000)

KOENIGSWURF_A = [Attempt((1, 4, 5), keep=(1,)), Attempt((6, 1), keep=(1,)), Attempt((1,))]
KOENIGSWURF_D = [Attempt((6, 2, 3)), Attempt((3, 4, 5)), Attempt((1, 1, 1))]


def test_koenigswurf_natural_schock_aus_beats_collected_one_seed_000():
    # seed 000, KÖNIGSWURF: Schocker A sammelt 1 / 1 / 1 in drei Würfen, Schocker D wirft
    # im dritten Wurf drei Einsen aus der Hand: "höher zu bewerten".
    rules = PRESETS["regelwerk2019"]
    a = validate_turn(KOENIGSWURF_A, rules)
    d = validate_turn(KOENIGSWURF_D, rules, max_attempts=a.attempts)
    result = resolve_round([a, d], rules)
    assert (result.winner, result.loser, result.schock_aus) == (1, 0, (0, 1))


def test_koenigswurf_outweighs_fewer_attempts():
    rules = PRESETS["regelwerk2019"]
    collected = Throw((1, 1, 1), attempts=3, natural=False)
    natural = Throw((1, 1, 1), attempts=3)
    earlier_collected_in_two = Throw((1, 1, 1), attempts=2, natural=False)
    result = resolve_round([collected, earlier_collected_in_two, natural], rules)
    assert result.order == (2, 1, 0)


@pytest.mark.parametrize("name", ["club", "meisterschaft", "app", "stammtisch"])
def test_without_koenigswurf_the_earlier_schock_aus_in_equal_attempts_wins(name):
    rules = PRESETS[name]
    a = Throw((1, 1, 1), attempts=3, natural=False)
    d = Throw((1, 1, 1), attempts=3, natural=True)
    assert resolve_round([a, d], rules).winner == 0


# --- the result


def test_winner_throw_sets_the_deckel():
    result = resolve_round([Throw((6, 5, 4)), Throw((1, 1, 5)), Throw((3, 2, 2))])
    assert (result.winner, result.loser, result.deckel) == (1, 2, 5)


def test_schock_aus_lists_every_player_who_threw_one():
    result = resolve_round([Throw((1, 1, 1), 3, False), Throw((6, 5, 5), 3), Throw((1, 1, 1), 2)])
    assert (result.schock_aus, result.deckel) == ((0, 2), 13)


@pytest.mark.parametrize("count", [0, 1])
def test_a_round_needs_two_throws(count):
    with pytest.raises(RuleViolation) as caught:
        resolve_round([Throw((1, 2, 3))] * count)
    assert caught.value.code == "too_few_throws"


def test_no_later_player_may_use_more_attempts_than_the_vorleger():
    with pytest.raises(RuleViolation) as caught:
        resolve_round([Throw((6, 5, 4), attempts=1), Throw((6, 5, 3), attempts=2)])
    assert caught.value.code == "more_attempts_than_vorleger"


def test_resolve_round_refuses_what_is_not_a_throw():
    with pytest.raises(TypeError):
        resolve_round([Throw((1, 2, 3)), (1, 2, 3)])


# --- properties


@st.composite
def rounds(draw):
    cap = draw(st.integers(1, 3))
    n = draw(st.integers(2, 7))
    throws = []
    for i in range(n):
        attempts = cap if i == 0 else draw(st.integers(1, cap))
        dice = draw(st.lists(st.integers(1, 6), min_size=3, max_size=3))
        natural = True if attempts == 1 else draw(st.booleans())
        throws.append(Throw(dice, attempts, natural))
    return throws


rules_st = st.sampled_from([PRESETS[name] for name in PRESET_NAMES])


@given(throws=rounds(), rules=rules_st)
def test_order_is_a_permutation_from_winner_to_loser(throws, rules):
    result = resolve_round(throws, rules)
    assert sorted(result.order) == list(range(len(throws)))
    assert (result.order[0], result.order[-1]) == (result.winner, result.loser)


@given(throws=rounds(), rules=rules_st)
def test_order_never_puts_a_lower_ranked_throw_first(throws, rules):
    result = resolve_round(throws, rules)
    ranks = [rank(throws[i], rules) for i in result.order]
    assert ranks == sorted(ranks, reverse=True)


@given(throws=rounds(), rules=rules_st)
def test_deckel_are_what_the_winner_throw_is_worth(throws, rules):
    result = resolve_round(throws, rules)
    assert result.deckel == evaluate(throws[result.winner], rules).deckel


@given(throws=rounds(), rules=rules_st)
def test_schock_aus_are_exactly_the_one_one_one_throws(throws, rules):
    result = resolve_round(throws, rules)
    assert list(result.schock_aus) == [i for i, t in enumerate(throws) if t.dice == (1, 1, 1)]


@given(throws=rounds(), rules=rules_st)
def test_of_two_identical_throws_the_earlier_ranks_first(throws, rules):
    result = resolve_round(throws + [throws[-1]], rules)
    position = {index: place for place, index in enumerate(result.order)}
    assert position[len(throws) - 1] < position[len(throws)]


@given(throws=rounds(), rules=rules_st)
def test_round_order_agrees_with_every_two_player_round_within_it(throws, rules):
    # Transitivity and independence of the other throws: the full order is made of the
    # decisions of the pairs it contains.
    position = {index: place for place, index in enumerate(resolve_round(throws, rules).order)}
    for i in range(len(throws)):
        for j in range(i + 1, len(throws)):
            if throws[j].attempts <= throws[i].attempts:
                pair = resolve_round([throws[i], throws[j]], rules)
                assert (pair.winner == 0) is (position[i] < position[j])
