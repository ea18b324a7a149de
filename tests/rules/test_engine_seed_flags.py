"""The seed flags of docs/rules.md section 4 in the game engine.

``ausscheidung`` (seeds 000, 002), ``deckel_nehmen`` (000), ``opener_choice`` (000) and
``einwuerfeln`` (001): each played from its seed's own example, each refused with a stable
code when the rule set does not play it or the moment is wrong.
"""

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import PRESETS, Attempt, RuleSet, RuleViolation, Throw
from games.rules.engine import (
    AUSSCHEIDUNG,
    DECKEL_NEHMEN,
    FINAL,
    FIRST_HALF,
    GAME,
    SECOND_HALF,
    Ausscheidung,
    ChooseOpener,
    Game,
    Join,
    Leave,
    TakeDeckel,
    replay_game,
)

REGELWERK = PRESETS["regelwerk2019"]
MEISTERSCHAFT = PRESETS["meisterschaft"]
STAMMTISCH = PRESETS["stammtisch"]
CLUB = PRESETS["club"]

SCHOCK_AUS = Throw((1, 1, 1))
SCHOCK_5 = Throw((1, 1, 5))
SCHOCK_3 = Throw((1, 1, 3))
STRASSE_456 = Throw((4, 5, 6))
H_653 = Throw((6, 5, 3))
H_642 = Throw((6, 4, 2))
H_542 = Throw((5, 4, 2))
H_221 = Throw((2, 2, 1))


def code_of(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


def deckel_conserved(game):
    return game.stock + sum(game.deckel.values()) == game.rules.deckel_total


def first_half_lost_by(game, loser):
    """One Schock-Aus round that hands ``loser`` the first half (everyone else better)."""
    order = game.throwing_order()
    throws = {p: H_642 for p in order}
    throws[loser] = H_221
    thrower = next(p for p in order if p != loser)
    throws[thrower] = SCHOCK_AUS
    game.play_round(throws)
    assert game.first_half_loser == loser


# --- ausscheidung: seeds 000 ("Ausscheidung um den Spielbeginn") and 002 (item 1) ---------


@pytest.mark.parametrize("rules", [REGELWERK, MEISTERSCHAFT], ids=["000", "002"])
def test_worst_throw_of_the_ausscheidung_takes_what_the_best_is_worth(rules):
    game = Game("ABCD", rules)
    step = game.play_ausscheidung({"A": H_653, "B": SCHOCK_5, "C": H_221, "D": H_642})
    outcome = step.outcome
    assert (outcome.kind, outcome.loser, outcome.moved, game.deckel["C"], game.stock) == (
        AUSSCHEIDUNG,
        "C",
        5,
        5,
        8,
    )


def test_the_ausscheidung_loser_opens_the_first_round():
    """Seed 002, item 1: "Der mit dem niedrigsten Wurf bekommt die entsprechenden Deckel
    und fährt fort." Seed 000 says so too ("setzt das Spiel fort") and contradicts it
    later; docs/rules.md 4 decides for the worst throw."""
    game = Game("ABCD", REGELWERK)
    game.play_ausscheidung({"A": H_653, "B": SCHOCK_5, "C": H_221, "D": H_642})
    assert (game.vorleger, game.throwing_order()) == ("C", ("C", "D", "A", "B"))


def test_seed_000_a_schock_aus_in_the_tie_gives_the_half_to_the_other_tied_player():
    # Seed 000: "Zwei Spieler haben zwei einundzwanzig geworfen ... Würfelt nun einer der
    # Spieler drei Einser, so ist die erste Hälfte bereits an den zweiten Spieler vergeben."
    game = Game("ABCD", REGELWERK)
    tie = game.play_ausscheidung({"A": H_653, "B": H_221, "C": H_642, "D": H_221})
    assert (tie.tied, tie.outcome, game.ausscheidung_tied) == (("B", "D"), None, ("B", "D"))
    step = game.play_ausscheidung({"B": SCHOCK_AUS, "D": H_542})
    assert (step.outcome.phase, step.outcome.phase_loser, game.first_half_loser) == (
        FIRST_HALF,
        "D",
        "D",
    )
    assert (game.phase, game.schock_aus, game.deckel["D"]) == (SECOND_HALF, ["B"], 0)


def test_only_the_tied_players_throw_again_and_that_throw_binds():
    game = Game("ABCD", MEISTERSCHAFT)
    game.play_ausscheidung({"A": H_653, "B": H_221, "C": SCHOCK_5, "D": H_221})
    step = game.play_ausscheidung({"D": STRASSE_456, "B": H_542})
    # The re-throw is settled on its own: Straße worth 2, B is worst.
    assert (step.outcome.loser, step.outcome.moved, step.number) == ("B", 2, 2)


def test_ties_of_the_worst_throw_repeat_until_one_is_worst():
    game = Game("ABC", MEISTERSCHAFT)
    game.play_ausscheidung({"A": H_221, "B": H_221, "C": H_221})
    game.play_ausscheidung({"A": H_642, "B": H_642, "C": H_653})
    step = game.play_ausscheidung({"A": H_542, "B": H_653})
    assert (len(game.ausscheidung_steps), step.outcome.loser) == (3, "A")


def test_a_round_before_the_tie_is_thrown_again_is_refused():
    game = Game("ABC", MEISTERSCHAFT)
    game.play_ausscheidung({"A": H_221, "B": H_221, "C": H_653})
    assert code_of(game.play_round, {"A": H_653, "B": H_642, "C": H_221}) == "ausscheidung_tied"


def test_a_player_who_is_not_tied_cannot_throw_again():
    game = Game("ABC", MEISTERSCHAFT)
    game.play_ausscheidung({"A": H_221, "B": H_221, "C": H_653})
    assert code_of(game.play_ausscheidung, {"A": H_653, "C": H_642}) == "player_not_tied"


def test_the_ausscheidung_is_one_natural_throw():
    game = Game("ABC", MEISTERSCHAFT)
    throws = {"A": Throw((6, 5, 3), attempts=2), "B": H_221, "C": H_642}
    assert code_of(game.play_ausscheidung, throws) == "ausscheidung_one_throw"


def test_the_ausscheidung_takes_one_attempt_in_detail_too():
    game = Game("ABC", MEISTERSCHAFT)
    step = game.play_ausscheidung({"A": [Attempt((6, 5, 3))], "B": H_221, "C": H_642})
    assert step.outcome.loser == "B"


def test_every_player_throws_in_the_ausscheidung():
    game = Game("ABC", MEISTERSCHAFT)
    assert code_of(game.play_ausscheidung, {"A": H_653, "B": H_221}) == "player_missing"


def test_the_ausscheidung_is_refused_where_the_rules_do_not_play_it():
    game = Game("ABC", CLUB)
    assert code_of(game.play_ausscheidung, {"A": H_653, "B": H_221, "C": H_642}) == (
        "ausscheidung_off"
    )


def test_the_ausscheidung_is_refused_after_the_first_round():
    game = Game("ABC", MEISTERSCHAFT)
    game.play_round({"A": H_653, "B": H_221, "C": H_642})
    assert code_of(game.play_ausscheidung, {"A": H_653, "B": H_221, "C": H_642}) == (
        "ausscheidung_not_now"
    )


def test_the_ausscheidung_is_not_played_before_the_second_half():
    game = Game("ABC", MEISTERSCHAFT)
    first_half_lost_by(game, "B")
    assert (game.ausscheidung_open, game.vorleger) == (False, "B")


def test_a_game_entered_without_its_ausscheidung_starts_with_the_given_vorleger():
    game = Game("ABC", REGELWERK, "B")
    outcome = game.play_round([("B", H_653), ("C", H_221), ("A", H_642)])
    assert (outcome.vorleger, outcome.kind, game.ausscheidung_open) == ("B", "round", False)


def test_the_ausscheidung_in_a_single_game_opens_it():
    rules = dataclasses.replace(CLUB, ausscheidung=True, muss_regel=False)
    game = Game("ABC", rules)
    step = game.play_ausscheidung({"A": H_653, "B": H_221, "C": H_642})
    assert (step.outcome.phase, game.vorleger) == (GAME, "B")


# --- deckel_nehmen: seed 000 ("Aufnehmen der Deckel") --------------------------------------


def test_seed_000_schock_3_laid_the_next_player_takes_three_deckel():
    # "Ein Spieler legt im ersten Wurf 'Schock 3' vor, der nachlegende Spieler lässt seinen
    # Wurf verdeckt ... und nimmt drei Deckel."
    game = Game("ABC", REGELWERK)
    outcome = game.take_deckel("B", [("A", SCHOCK_3)])
    assert (outcome.kind, outcome.loser, outcome.taken_by, outcome.moved) == (
        DECKEL_NEHMEN,
        "B",
        "B",
        3,
    )
    assert (game.deckel["B"], game.stock, deckel_conserved(game)) == (3, 10, True)


def test_the_taker_opens_the_next_round_with_its_covered_throw():
    # "Der noch nicht aufgedeckte Wurf ... ist dann der erste Wurf der nächsten Wurfrunde,
    # mit dem er nun vorlegt."
    game = Game("ABC", REGELWERK)
    game.take_deckel("B", [("A", SCHOCK_3)], covered=(6, 4, 1))
    assert (game.throwing_order()[0], game.covered_throw) == ("B", ("B", (6, 4, 1)))
    outcome = game.play_round(
        [("B", [Attempt((6, 4, 1), keep=(1,)), Attempt((1, 5))]), ("C", H_653), ("A", H_221)]
    )
    assert (outcome.vorleger, outcome.loser, game.covered_throw) == ("B", "A", None)


def test_a_first_attempt_that_is_not_the_covered_throw_is_refused():
    game = Game("ABC", REGELWERK)
    game.take_deckel("B", [("A", SCHOCK_3)], covered=(6, 4, 1))
    entries = [("B", Throw((6, 5, 3))), ("C", H_653), ("A", H_221)]
    assert code_of(game.play_round, entries) == "covered_throw_mismatch"


def test_the_players_after_the_taker_do_not_throw():
    game = Game("ABC", REGELWERK)
    entries = [("A", SCHOCK_3), ("C", H_653)]
    assert code_of(game.take_deckel, "B", entries) == "thrown_after_taker"


def test_the_vorleger_cannot_take_deckel():
    game = Game("ABC", REGELWERK)
    assert code_of(game.take_deckel, "A", []) == "deckel_nehmen_vorleger"


def test_deckel_nehmen_takes_as_many_as_the_best_throw_so_far_is_worth():
    game = Game("ABCD", REGELWERK)
    outcome = game.take_deckel("C", [("A", H_653), ("B", SCHOCK_5)])
    assert (outcome.winner, outcome.moved, outcome.order) == ("B", 5, ("B", "A", "C"))


def test_deckel_nehmen_once_the_stock_is_empty_takes_from_the_best_throw():
    rules = dataclasses.replace(REGELWERK, deckel_total=4)
    game = Game("ABC", rules)
    game.play_round({"A": SCHOCK_3, "B": H_221, "C": H_653})  # B 3
    game.play_round({"B": H_653, "C": H_642, "A": H_221})  # A 1, stock empty, C out
    outcome = game.take_deckel("B", [("A", SCHOCK_3)])
    # A gives its one Deckel (all it has): B holds all 4 and loses the first half.
    assert (outcome.source, outcome.moved, dict(outcome.deckel_after)) == (
        "winner",
        1,
        {"A": 0, "B": 4, "C": 0},
    )
    assert game.first_half_loser == "B"


def test_deckel_nehmen_is_refused_where_the_rules_do_not_play_it():
    game = Game("ABC", MEISTERSCHAFT)
    assert code_of(game.take_deckel, "B", [("A", SCHOCK_3)]) == "deckel_nehmen_off"


# --- opener_choice: seed 000 ("Vorlegen") ---------------------------------------------------


def test_the_first_half_loser_opens_the_second_half_by_default():
    game = Game("ABCD", REGELWERK)
    first_half_lost_by(game, "C")
    assert game.throwing_order()[0] == "C"


def test_seed_000_the_first_half_loser_names_the_second_half_opener():
    # "Der Verlierer der Ersten Hälfte kann nun bestimmen wer anfangen (vorlegen) muss."
    game = Game("ABCD", REGELWERK)
    first_half_lost_by(game, "C")
    game.choose_opener("A")
    assert (game.throwing_order(), game.second_half_opener) == (("A", "B", "C", "D"), "A")


def test_the_opener_is_named_before_the_second_halfs_first_round():
    game = Game("ABCD", REGELWERK)
    first_half_lost_by(game, "C")
    game.play_round({"C": H_653, "D": H_221, "A": H_642, "B": H_542})
    assert code_of(game.choose_opener, "A") == "opener_not_now"


def test_naming_the_opener_in_the_first_half_is_refused():
    assert code_of(Game("ABCD", REGELWERK).choose_opener, "B") == "opener_not_now"


def test_naming_the_opener_is_refused_where_the_rules_do_not_play_it():
    game = Game("ABCD", MEISTERSCHAFT)
    first_half_lost_by(game, "C")
    assert code_of(game.choose_opener, "A") == "opener_choice_off"


def test_the_final_is_opened_by_the_first_half_loser_whoever_opened_the_second():
    game = Game("ABCD", REGELWERK)
    first_half_lost_by(game, "C")
    game.choose_opener("A")
    game.play_round({"A": SCHOCK_AUS, "B": H_221, "C": H_642, "D": H_653})
    assert (game.phase, game.throwing_order()) == (FINAL, ("C", "B"))


# --- einwuerfeln: seed 001 -------------------------------------------------------------------


def test_seed_001_a_player_joins_a_running_half_with_no_deckel():
    # "man kann sich jederzeit in ein bestehendes Spiel einwürfeln."
    game = Game("ABC", STAMMTISCH)
    game.play_round({"A": SCHOCK_3, "B": H_221, "C": H_653})
    game.join("D", after="A")
    assert (game.players, game.deckel["D"], game.throwing_order()) == (
        ("A", "D", "B", "C"),
        0,
        ("B", "C", "A", "D"),
    )
    outcome = game.play_round({"B": H_653, "C": H_642, "A": H_542, "D": H_221})
    assert (outcome.loser, deckel_conserved(game)) == ("D", True)


def test_a_joined_player_plays_the_second_half_too():
    game = Game("ABC", STAMMTISCH)
    game.join("D")
    first_half_lost_by(game, "B")
    assert set(game.active_players()) == {"A", "B", "C", "D"}


def test_seed_001_a_player_without_deckel_may_leave():
    # "Man darf nur wieder aussteigen, wenn man keine Pappen erhalten hat."
    game = Game("ABCD", STAMMTISCH)
    game.play_round({"A": SCHOCK_3, "B": H_221, "C": H_653, "D": H_642})
    game.leave("C")
    assert (game.throwing_order(), "C" in game.left) == (("B", "D", "A"), True)


def test_a_player_with_deckel_may_not_leave():
    game = Game("ABCD", STAMMTISCH)
    game.play_round({"A": SCHOCK_3, "B": H_221, "C": H_653, "D": H_642})
    assert code_of(game.leave, "B") == "leave_with_deckel"


def test_a_leaving_vorleger_passes_the_opening_clockwise():
    game = Game("ABCD", STAMMTISCH, "B")
    game.leave("B")
    assert game.throwing_order() == ("C", "D", "A")


def test_leaving_is_refused_when_fewer_than_two_would_remain():
    assert code_of(Game("AB", STAMMTISCH).leave, "A") == "too_few_players"


def test_joining_an_empty_stock_is_refused():
    rules = dataclasses.replace(STAMMTISCH, deckel_total=2)
    game = Game("ABC", rules)
    game.play_round({"A": H_653, "B": H_221, "C": H_642})  # B 1
    game.play_round({"B": H_653, "C": H_221, "A": H_642})  # C 1, the stock is empty
    assert (game.stock, code_of(game.join, "D")) == (0, "join_stock_empty")


def test_joining_the_final_is_refused():
    game = Game("ABC", STAMMTISCH)
    first_half_lost_by(game, "B")
    game.play_round({"B": SCHOCK_AUS, "C": H_221, "A": H_653})
    assert (game.phase, code_of(game.join, "D")) == (FINAL, "join_not_now")


def test_a_player_already_playing_cannot_join():
    assert code_of(Game("ABC", STAMMTISCH).join, "B") == "duplicate_player"


@pytest.mark.parametrize("call", ["join", "leave"])
def test_joining_and_leaving_are_refused_where_the_rules_do_not_play_them(call):
    game = Game("ABC", CLUB)
    assert code_of(getattr(game, call), "C" if call == "leave" else "D") == "einwuerfeln_off"


# --- replay with actions ---------------------------------------------------------------------


def test_replay_game_plays_the_seed_actions_in_order():
    replay = replay_game(
        "ABC",
        [
            Ausscheidung({"A": H_653, "B": H_221, "C": H_642}),
            TakeDeckel("C", [("B", SCHOCK_3)]),
            {"C": SCHOCK_AUS, "A": H_221, "B": H_653},  # A loses the first half
            ChooseOpener("B"),
            [("B", SCHOCK_AUS), ("C", H_653), ("A", H_221)],  # Blattschuss
        ],
        REGELWERK,
    )
    kinds = [r.kind for r in replay.rounds]
    assert (replay.loser, replay.blattschuss, kinds) == (
        "A",
        True,
        ["ausscheidung", "deckel_nehmen", "round", "round"],
    )


def test_replay_game_plays_join_and_leave():
    replay = replay_game(
        "ABC",
        [Join("D"), Leave("A"), {"B": SCHOCK_AUS, "C": H_221, "D": H_653}],
        dataclasses.replace(STAMMTISCH, format="single"),
        vorleger="B",
    )
    assert (replay.loser, replay.rounds[0].throwing_order) == ("C", ("B", "C", "D"))


# --- properties over random flag combinations -----------------------------------------------

THROWS = [Throw(d) for d in [(1, 1, 1), (1, 1, 6), (1, 1, 3), (4, 5, 6), (6, 5, 3), (2, 2, 1)]]


def random_throw(rng, attempts):
    dice = [rng.randint(1, 6) for _ in range(3)]
    natural = not (attempts >= 2 and 1 in dice and rng.random() < 0.3)
    return Throw(dice, attempts, natural)


def play_randomly(game, rng, limit=3000):
    """Random legal actions until the game ends; checks the Deckel after every step."""
    names = iter(f"N{i}" for i in range(100))
    steps = 0
    while not game.finished and steps < limit:
        steps += 1
        rules = game.rules
        if game.ausscheidung_open and (game.ausscheidung_tied or rng.random() < 0.7):
            players = game.ausscheidung_tied or game.throwing_order()
            game.play_ausscheidung({p: random_throw(rng, 1) for p in players})
        elif rules.einwuerfeln and game.phase != FINAL and rng.random() < 0.1:
            zero = [p for p in game.active_players() if p not in game.received]
            if game.stock and rng.random() < 0.5:
                game.join(next(names))
            elif zero and len(game.active_players()) > 2:
                game.leave(rng.choice(zero))
        elif rules.opener_choice and game.phase == SECOND_HALF and rng.random() < 0.2:
            try:
                game.choose_opener(rng.choice(game.active_players()))
            except RuleViolation as exc:
                assert exc.code == "opener_not_now"
        else:
            order = game.throwing_order()
            cap = rng.randint(1, rules.max_attempts)
            if rules.deckel_nehmen and len(order) > 1 and rng.random() < 0.2:
                taker = rng.randrange(1, len(order))
                before = [(p, random_throw(rng, cap)) for p in order[:taker]]
                game.take_deckel(order[taker], before)
            else:
                game.play_round([(p, random_throw(rng, cap)) for p in order])
        assert game.stock + sum(game.deckel.values()) == rules.deckel_total
        assert all(d >= 0 for d in game.deckel.values())
    return steps


rule_sets = st.builds(
    RuleSet,
    format=st.sampled_from(["single", "halves"]),
    deckel_total=st.integers(1, 17),
    muss_regel=st.just(False),
    keep_only_ones=st.booleans(),
    ausscheidung=st.booleans(),
    deckel_nehmen=st.booleans(),
    opener_choice=st.booleans(),
    einwuerfeln=st.booleans(),
    jule=st.booleans(),
    umwandlung=st.booleans(),
    collected_strasse_counts=st.booleans(),
    collected_general_counts=st.booleans(),
    natural_wins_ties=st.booleans(),
    koenigswurf=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(rule_sets, st.integers(2, 6), st.integers(0, 2**32))
def test_every_game_ends_with_one_loser_holding_all_deckel(rules, players, seed):
    game = Game([f"P{i}" for i in range(players)], rules)
    play_randomly(game, random.Random(seed))
    holders = [p for p, n in game.deckel.items() if n]
    assert (game.finished, holders, game.deckel[game.loser]) == (
        True,
        [game.loser],
        rules.deckel_total,
    )


@settings(max_examples=100, deadline=None)
@given(rule_sets, st.integers(2, 6), st.integers(0, 2**32))
def test_schock_aus_of_the_game_are_those_of_its_rounds(rules, players, seed):
    game = Game([f"P{i}" for i in range(players)], rules)
    play_randomly(game, random.Random(seed))
    assert game.schock_aus == [p for r in game.rounds for p in r.schock_aus]
