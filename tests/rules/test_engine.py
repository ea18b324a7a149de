"""The game engine: the Deckel flow of docs/rules.md section 4, both formats, and its refusals."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import PRESETS, RuleViolation, Throw
from games.rules.engine import FINAL, FIRST_HALF, GAME, SECOND_HALF, Game, replay_game
from games.rules.turns import Attempt

CLUB = PRESETS["club"]
HALVES = PRESETS["meisterschaft"]
PRESET_NAMES = sorted(PRESETS)

# One Schock-Aus earlier this evening: the Muss-Regel does not apply, so a Vorleger may
# stand after one attempt with a one showing (docs/rules.md 3).
NO_MUSS = {"schock_aus_so_far": 1}

SCHOCK_AUS = Throw((1, 1, 1))
SCHOCK_6 = Throw((1, 1, 6))
SCHOCK_5 = Throw((1, 1, 5))
SCHOCK_3 = Throw((1, 1, 3))
GENERAL_4 = Throw((4, 4, 4))
STRASSE_456 = Throw((4, 5, 6))
H_653 = Throw((6, 5, 3))
H_642 = Throw((6, 4, 2))
H_221 = Throw((2, 2, 1))


def random_throw(rng, attempts):
    dice = [rng.randint(1, 6) for _ in range(3)]
    natural = not (attempts >= 2 and 1 in dice and rng.random() < 0.3)
    return Throw(dice, attempts, natural)


def random_round(game, rng):
    """Random valid throws for the next round: every later player uses the Vorleger's
    attempts, so the Muss-Regel never forbids standing."""
    order = game.throwing_order()
    cap = rng.randint(1, 3)
    return [(name, random_throw(rng, cap)) for name in order]


def play_out(game, rng, limit=20_000):
    outcomes = []
    while not game.finished and len(outcomes) < limit:
        outcomes.append(game.play_round(random_round(game, rng)))
    return outcomes


def stock_run_out_game():
    """Four players; after three rounds the stock is empty: A 2, B 5, C 6, D out."""
    game = Game("ABCD", CLUB, "A", **NO_MUSS)
    game.play_round({"A": SCHOCK_6, "B": H_653, "C": H_221, "D": H_642})  # C takes 6
    game.play_round({"C": SCHOCK_5, "D": H_653, "A": H_642, "B": H_221})  # B takes 5
    game.play_round({"B": SCHOCK_6, "C": H_653, "D": H_642, "A": H_221})  # A takes 2 of 6
    return game


# --- Aufnahme, Ablegen, out, lost ------------------------------------------------------


def test_round_loser_takes_the_winners_worth_from_the_stock():
    game = Game("ABC", CLUB, **NO_MUSS)
    outcome = game.play_round({"A": SCHOCK_5, "B": H_653, "C": H_221})
    assert (outcome.loser, outcome.moved, game.deckel["C"], game.stock) == ("C", 5, 5, 8)


def test_a_hausnummer_winner_is_worth_one_deckel():
    game = Game("ABC", CLUB, **NO_MUSS)
    game.play_round({"A": H_653, "B": H_642, "C": H_221})
    assert (game.deckel["C"], game.stock) == (1, 12)


def test_loser_takes_only_what_is_left_in_the_stock():
    game = stock_run_out_game()
    assert (game.rounds[-1].deckel, game.rounds[-1].moved, game.deckel["A"]) == (6, 2, 2)


def test_players_without_deckel_are_out_when_the_stock_is_empty():
    game = stock_run_out_game()
    assert (game.stock, game.out, game.rounds[-1].went_out) == (0, {"D"}, ("D",))


def test_players_out_do_not_throw_in_later_rounds():
    game = stock_run_out_game()
    assert game.throwing_order() == ("A", "B", "C")


def test_round_loser_opens_the_next_round():
    game = Game("ABCD", CLUB, "A", **NO_MUSS)
    game.play_round({"A": SCHOCK_6, "B": H_653, "C": H_221, "D": H_642})
    assert (game.vorleger, game.throwing_order()) == ("C", ("C", "D", "A", "B"))


def test_ablegen_winner_gives_its_worth_of_its_own_deckel_to_the_loser():
    game = stock_run_out_game()
    outcome = game.play_round([("A", H_642), ("B", GENERAL_4), ("C", H_221)])
    assert (outcome.source, game.deckel) == ("winner", {"A": 2, "B": 2, "C": 9, "D": 0})


def test_winner_gives_at_most_all_it_has_and_is_out():
    game = stock_run_out_game()
    outcome = game.play_round([("A", SCHOCK_3), ("B", H_653), ("C", H_221)])
    assert (outcome.moved, game.deckel["A"], game.out) == (2, 0, {"A", "D"})


def test_player_holding_all_thirteen_loses_the_game():
    game = stock_run_out_game()
    game.play_round([("A", SCHOCK_3), ("B", H_653), ("C", H_221)])  # A out; B 5, C 8
    game.play_round([("C", SCHOCK_5), ("B", H_221)])  # C gives 5: B 10, C 3
    outcome = game.play_round([("B", H_221), ("C", SCHOCK_6)])  # C gives its 3, B holds 13
    assert (outcome.phase_loser, game.finished, game.loser, game.deckel["B"]) == (
        "B",
        True,
        "B",
        13,
    )


def test_schock_aus_ends_the_game_with_all_thirteen_to_the_rounds_loser():
    game = stock_run_out_game()
    outcome = game.play_round([("A", SCHOCK_AUS), ("B", H_653), ("C", H_221)])
    assert (game.loser, game.deckel, game.stock, outcome.source) == (
        "C",
        {"A": 0, "B": 0, "C": 13, "D": 0},
        0,
        "schock_aus",
    )


def test_schock_aus_takes_the_deckel_from_the_stock_too():
    game = Game("ABC", CLUB, **NO_MUSS)
    game.play_round({"A": H_653, "B": H_221, "C": H_642})  # B takes 1
    game.play_round({"B": H_653, "C": SCHOCK_AUS, "A": H_221})
    assert (game.loser, game.deckel["A"], game.stock) == ("A", 13, 0)


def test_every_schock_aus_of_the_round_is_recorded_in_throwing_order():
    game = Game("ABC", CLUB, "B", **NO_MUSS)
    game.play_round([("B", SCHOCK_AUS), ("C", H_221), ("A", SCHOCK_AUS)])
    assert game.schock_aus == ["B", "A"]


def test_game_opened_by_the_named_vorleger():
    game = Game("ABC", CLUB, "C")
    assert game.throwing_order() == ("C", "A", "B")


def test_mapping_is_arranged_in_throwing_order():
    game = Game("ABC", CLUB, "B", **NO_MUSS)
    outcome = game.play_round({"A": H_221, "B": H_653, "C": H_642})
    assert outcome.throwing_order == ("B", "C", "A")


def test_equal_throws_lose_for_the_later_player():
    game = Game("ABC", CLUB, "A", **NO_MUSS)
    outcome = game.play_round([("A", H_221), ("B", H_653), ("C", H_221)])
    assert outcome.loser == "C"


def test_single_format_game_is_one_phase():
    assert Game("ABC", CLUB).phase == GAME


# --- halves, final, Blattschuss ----------------------------------------------------------


def lose_part(game, player):
    """Play one round in which ``player`` throws the only Schock-Aus-free worst throw
    against a Schock-Aus: the part (half or final) ends with ``player`` as its loser."""
    order = game.throwing_order()
    throws = [(p, H_221 if p == player else H_653) for p in order]
    first_other = next(i for i, (p, _) in enumerate(throws) if p != player)
    throws[first_other] = (throws[first_other][0], SCHOCK_AUS)
    return game.play_round(throws)


def test_first_half_ends_with_a_half_loser_and_the_second_half_starts():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    assert (game.first_half_loser, game.phase, game.stock, game.finished) == (
        "C",
        SECOND_HALF,
        13,
        False,
    )


def test_first_half_loser_opens_the_second_half():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    assert game.throwing_order() == ("C", "D", "A", "B")


def test_second_half_is_played_by_all_players_again():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    assert (game.out, sum(game.deckel.values())) == (frozenset(), 0)


def test_final_is_played_by_the_two_half_losers():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    lose_part(game, "B")
    assert (game.phase, game.active_players(), game.out) == (FINAL, ("B", "C"), {"A", "D"})


def test_final_is_opened_by_the_first_halfs_loser():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    lose_part(game, "B")
    assert game.throwing_order() == ("C", "B")


def test_final_loser_loses_the_game():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    lose_part(game, "B")
    lose_part(game, "B")
    assert (game.loser, game.half_losers, game.blattschuss) == ("B", ("C", "B"), False)


def test_losing_both_halves_is_blattschuss_and_ends_the_game_without_final():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    outcome = lose_part(game, "C")
    assert (game.loser, game.blattschuss, outcome.phase, outcome.finished) == (
        "C",
        True,
        SECOND_HALF,
        True,
    )


def test_schock_aus_ends_only_the_half_it_was_thrown_in():
    game = Game("ABCD", HALVES, "A")
    outcome = lose_part(game, "D")
    assert (outcome.phase, outcome.phase_loser, game.finished) == (FIRST_HALF, "D", False)


def test_players_not_in_the_final_may_not_throw_in_it():
    game = Game("ABCD", HALVES, "A")
    lose_part(game, "C")
    lose_part(game, "B")
    with pytest.raises(RuleViolation) as excinfo:
        game.play_round([("C", H_653), ("B", H_221), ("A", H_642)])
    assert excinfo.value.code == "player_out"


# --- complete games, every preset ----------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_plays_complete_games_to_one_loser(preset):
    rng = random.Random(preset)
    losers = set()
    for _ in range(30):
        game = Game("ABCDEF", PRESETS[preset], rng.choice("ABCDEF"), **NO_MUSS)
        play_out(game, rng)
        losers.add(game.loser)
        assert game.finished and game.deckel[game.loser] == 13
    assert losers <= set("ABCDEF")


# --- refusals ------------------------------------------------------------------------------


def refusal(game, throws):
    with pytest.raises(RuleViolation) as excinfo:
        game.play_round(throws)
    return excinfo.value.code


def test_round_with_a_player_not_in_the_game_is_refused():
    game = Game("ABC", CLUB)
    assert refusal(game, {"A": H_653, "B": H_642, "C": H_221, "Z": H_221}) == "unknown_player"


def test_round_with_a_player_missing_is_refused():
    game = Game("ABC", CLUB)
    assert refusal(game, {"A": H_653, "B": H_642}) == "player_missing"


def test_round_with_a_player_who_is_out_is_refused():
    game = stock_run_out_game()
    assert refusal(game, [("A", H_653), ("B", H_642), ("C", H_221), ("D", H_221)]) == ("player_out")


def test_round_with_a_player_twice_is_refused():
    game = Game("ABC", CLUB)
    assert refusal(game, [("A", H_653), ("A", H_642), ("C", H_221)]) == "duplicate_player"


def test_round_not_started_by_the_vorleger_is_refused():
    game = Game("ABC", CLUB, "B")
    assert refusal(game, [("A", H_653), ("B", H_642), ("C", H_221)]) == "vorleger_not_first"


def test_round_not_in_seating_order_is_refused():
    game = Game("ABCD", CLUB, "A")
    throws = [("A", H_653), ("C", H_642), ("B", H_221), ("D", H_221)]
    assert refusal(game, throws) == "not_seating_order"


def test_round_after_the_game_ended_is_refused():
    game = Game("AB", CLUB, **NO_MUSS)
    game.play_round([("A", SCHOCK_AUS), ("B", H_221)])
    assert refusal(game, [("B", H_653), ("A", H_221)]) == "game_finished"


def test_more_attempts_than_the_vorleger_used_are_refused():
    game = Game("ABC", CLUB, **NO_MUSS)
    throws = [("A", Throw((6, 5, 3), 1)), ("B", Throw((6, 4, 2), 2)), ("C", H_221)]
    assert refusal(game, throws) == "more_attempts_than_vorleger"


def test_more_attempts_than_the_vorleger_in_a_detailed_turn_are_refused():
    game = Game("ABC", CLUB, **NO_MUSS)
    turn = [Attempt((6, 4, 2)), Attempt((6, 5, 3))]
    throws = [("A", Throw((6, 5, 3), 1)), ("B", turn), ("C", H_221)]
    assert refusal(game, throws) == "more_attempts_than_vorleger"


def test_a_throw_that_could_not_have_happened_is_refused():
    game = Game("ABC", CLUB, **NO_MUSS)
    collected_in_one = Throw((6, 5, 1), 1, natural=False)
    assert refusal(game, [("A", collected_in_one), ("B", H_642), ("C", H_221)]) == (
        "collected_in_one_attempt"
    )


def test_standing_against_the_muss_regel_is_refused():
    game = Game("ABC", CLUB)  # no Schock-Aus yet this evening: the Muss-Regel applies
    assert refusal(game, [("A", SCHOCK_6), ("B", H_642), ("C", H_221)]) == "muss_regel_broken"


def test_an_entry_that_is_neither_throw_nor_attempts_is_refused():
    game = Game("ABC", CLUB)
    assert refusal(game, [("A", "6-5-3"), ("B", H_642), ("C", H_221)]) == "invalid_entry"


def test_a_game_needs_two_players():
    with pytest.raises(RuleViolation) as excinfo:
        Game(["A"], CLUB)
    assert excinfo.value.code == "too_few_players"


def test_a_game_refuses_a_player_seated_twice():
    with pytest.raises(RuleViolation) as excinfo:
        Game(["A", "B", "A"], CLUB)
    assert excinfo.value.code == "duplicate_player"


def test_a_game_refuses_a_vorleger_who_does_not_play():
    with pytest.raises(RuleViolation) as excinfo:
        Game(["A", "B"], CLUB, "Z")
    assert excinfo.value.code == "unknown_player"


def test_refused_round_leaves_the_game_unchanged():
    game = stock_run_out_game()
    before = (game.stock, game.deckel, game.out, game.vorleger, len(game.rounds))
    refusal(game, [("A", H_653), ("B", H_642)])
    assert (game.stock, game.deckel, game.out, game.vorleger, len(game.rounds)) == before


# --- turns in detail and the Muss-Regel ----------------------------------------------------


def test_detailed_turns_are_validated_into_throws():
    game = Game("AB", CLUB, **NO_MUSS)
    turn = [Attempt((1, 4, 5), keep=(1,)), Attempt((6, 1), keep=(1,)), Attempt((3,))]
    outcome = game.play_round([("A", turn), ("B", Throw((6, 5, 4), 3))])
    assert outcome.throws[0] == Throw((1, 1, 3), 3, natural=False)


def test_muss_regel_applies_after_a_schock_aus_earlier_in_the_round():
    game = Game("ABC", CLUB, "A", schock_aus_so_far=3)
    outcome = game.play_round(
        [("A", SCHOCK_AUS), ("B", Throw((6, 5, 4), 1)), ("C", Throw((6, 5, 3), 1))]
    )
    assert outcome.muss_regel == (False, True, True)


def test_sample_game_20_last_round_ends_with_anna_becker_holding_13(sample_evening):
    """docs/rules.md 4 with the sample evening: game 20's last round, Schock-Aus by Erik Lange
    and Bernd Krause, Anna Becker loses with all 13 Deckel."""
    detail = sample_evening["evening"]["game_20_last_round"]
    erik, anna, bernd = detail["throwing_order"]
    seating = [erik, anna, bernd, "Carla Vogt", "Dieter Hahn", "Gustav Meier"]
    # Three Schock-Aus before game 20 (games 3, 7, 13): the Muss-Regel does not apply.
    game = Game(seating, CLUB, erik, schock_aus_so_far=3)
    others = dict.fromkeys(seating[3:], H_642)
    game.play_round({erik: SCHOCK_6, anna: H_221, bernd: H_653, **others})  # Anna takes 6
    game.play_round({anna: SCHOCK_6, bernd: H_221, erik: H_653, **others})  # Bernd takes 6
    game.play_round({bernd: SCHOCK_6, erik: H_221, anna: H_653, **others})  # Erik: the last
    assert game.throwing_order() == tuple(detail["throwing_order"])
    entries = []
    for name in detail["throwing_order"]:
        turn = detail["turns"][name]
        if isinstance(turn, dict):
            # Written down as collected, which keep_only_ones makes impossible: natural.
            entries.append((name, Throw(turn["final_dice"], turn["attempts"], natural=True)))
        else:
            entries.append((name, [Attempt.from_mapping(a) for a in turn]))
    outcome = game.play_round(entries)
    expected = detail["expected"]
    assert (game.loser, game.deckel[anna]) == (expected["loser"], 13)
    assert list(outcome.order) == expected["order_best_to_worst"]
    assert list(outcome.schock_aus) == expected["schock_aus_in_throwing_order"]
    assert (
        dict(zip(outcome.throwing_order, outcome.muss_regel, strict=True))
        == (expected["muss_regel_applies"])
    )


# --- replay -------------------------------------------------------------------------------


def test_replay_returns_the_loser_and_the_schock_aus_in_throwing_order():
    rounds = [
        {"A": SCHOCK_6, "B": H_653, "C": H_221},
        [("C", SCHOCK_AUS), ("A", H_221), ("B", SCHOCK_AUS)],
    ]
    replay = replay_game("ABC", rounds, CLUB, vorleger="A", **NO_MUSS)
    assert (replay.loser, replay.schock_aus) == ("A", ("C", "B"))


def test_replay_of_an_unfinished_game_is_refused():
    with pytest.raises(RuleViolation) as excinfo:
        replay_game("ABC", [{"A": SCHOCK_6, "B": H_653, "C": H_221}], CLUB, **NO_MUSS)
    assert excinfo.value.code == "game_not_finished"


def test_replay_with_a_round_after_the_end_is_refused():
    rounds = [[("A", SCHOCK_AUS), ("B", H_221)], [("B", H_653), ("A", H_221)]]
    with pytest.raises(RuleViolation) as excinfo:
        replay_game("AB", rounds, CLUB, **NO_MUSS)
    assert excinfo.value.code == "game_finished"


def test_replay_reports_a_blattschuss():
    game = Game("ABC", HALVES, "A")
    lose_part(game, "B")
    lose_part(game, "B")
    rounds = [dict(zip(r.throwing_order, r.throws, strict=True)) for r in game.rounds]
    replay = replay_game("ABC", rounds, HALVES, vorleger="A")
    assert (replay.loser, replay.blattschuss, replay.first_half_loser) == ("B", True, "B")


# --- properties ------------------------------------------------------------------------------

presets_st = st.sampled_from(PRESET_NAMES)
players_st = st.integers(2, 6).map(lambda n: "ABCDEF"[:n])


@settings(max_examples=60, deadline=None)
@given(preset=presets_st, players=players_st, seed=st.integers(0, 2**32))
def test_deckel_are_conserved_after_every_round(preset, players, seed):
    rng = random.Random(seed)
    game = Game(players, PRESETS[preset], rng.choice(players), **NO_MUSS)
    totals = []
    while not game.finished:
        game.play_round(random_round(game, rng))
        totals.append(game.stock + sum(game.deckel.values()))
    assert set(totals) == {13}


@settings(max_examples=60, deadline=None)
@given(preset=presets_st, players=players_st, seed=st.integers(0, 2**32))
def test_every_game_ends_with_exactly_one_loser_holding_all_deckel(preset, players, seed):
    rng = random.Random(seed)
    game = Game(players, PRESETS[preset], rng.choice(players), **NO_MUSS)
    play_out(game, rng)
    holders = [p for p, n in game.deckel.items() if n]
    assert game.finished and holders == [game.loser]


entry_st = st.one_of(
    st.builds(
        Throw,
        st.lists(st.integers(1, 6), min_size=3, max_size=3),
        st.integers(1, 3),
        st.booleans(),
    ),
    st.lists(
        st.builds(
            Attempt,
            st.lists(st.integers(0, 7), min_size=0, max_size=4),
            st.lists(st.integers(0, 7), max_size=3),
            st.integers(-1, 3),
        ),
        max_size=4,
    ),
    st.none(),
    st.integers(),
    st.text(max_size=3),
)
name_st = st.sampled_from(["A", "B", "C", "D", "Z", ""])
round_st = st.one_of(
    st.lists(st.tuples(name_st, entry_st), max_size=5),
    st.dictionaries(name_st, entry_st, max_size=5),
    st.lists(st.one_of(st.none(), st.tuples(name_st)), max_size=3),
    st.none(),
)


@settings(max_examples=300, deadline=None)
@given(preset=presets_st, rounds=st.lists(round_st, max_size=6))
def test_the_engine_refuses_bad_input_only_with_rule_violations(preset, rounds):
    game = Game("ABCD", PRESETS[preset], "B")
    for entries in rounds:
        try:
            game.play_round(entries)
        except RuleViolation:
            pass
        assert game.stock + sum(game.deckel.values()) == 13


def test_a_refused_turn_names_the_player_and_keeps_the_code():
    game = Game("ABC", CLUB)
    with pytest.raises(RuleViolation) as excinfo:
        game.play_round([("A", SCHOCK_6), ("B", H_642), ("C", H_221)])
    assert (excinfo.value.code, excinfo.value.player) == ("muss_regel_broken", "A")


def test_players_may_be_any_hashable_ids():
    game = Game([7, 3, 9], CLUB, 3, **NO_MUSS)
    outcome = game.play_round({7: H_642, 3: SCHOCK_5, 9: H_221})
    assert (outcome.throwing_order, game.deckel[9]) == ((3, 9, 7), 5)
