"""The simulator: whole games and evenings with random dice and the plain strategy."""

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import PRESETS, RuleSet, RuleViolation, Throw, evaluate, rank, round_key
from games.rules.engine import (
    FIRST_HALF,
    AusscheidungStep,
    ChooseOpener,
    Game,
    Join,
    replay_game,
)
from games.rules.simulator import (
    GAMES_PER_MEMBER,
    Strategy,
    simulate_evening,
    simulate_game,
    simulate_statistics,
    simulate_turns,
    strategy_tables,
    vorleger_goes_on,
)
from games.rules.turns import muss_regel_applies, validate_turn

PRESET_NAMES = sorted(PRESETS)
CLUB = PRESETS["club"]
MEMBERS = ["Anna", "Bernd", "Carla", "Dieter", "Erik"]
GUESTS = ["Gustav"]


def recorded_games(preset, count=40, seed=7):
    """``count`` recorded six-player games of ``preset``, chained like an evening."""
    rng = random.Random(f"{preset}-{seed}")
    games = []
    vorleger = "A"
    schock_aus = 0
    for number in range(count):
        game = simulate_game(
            "ABCDEF",
            PRESETS[preset],
            rng=rng,
            vorleger=vorleger,
            schock_aus_so_far=schock_aus,
            last_game=number == count - 1,
            record=True,
        )
        games.append((game, schock_aus, number == count - 1))
        schock_aus += len(game.schock_aus)
        vorleger = game.loser
    return games


# --- determinism and the evening's shape --------------------------------------------------


def test_the_same_seed_plays_the_same_evening():
    first = simulate_evening(MEMBERS, GUESTS, CLUB, seed=42, secretary="Bernd")
    again = simulate_evening(MEMBERS, GUESTS, CLUB, seed=42, secretary="Bernd")
    assert first == again


def test_different_seeds_play_different_evenings():
    first = simulate_evening(MEMBERS, GUESTS, CLUB, seed=1, secretary="Bernd")
    other = simulate_evening(MEMBERS, GUESTS, CLUB, seed=2, secretary="Bernd")
    assert [g.loser for g in first.games] != [g.loser for g in other.games]


def test_recording_does_not_change_the_dice():
    fast = simulate_evening(MEMBERS, GUESTS, CLUB, seed=5, secretary="Anna")
    recorded = simulate_evening(MEMBERS, GUESTS, CLUB, seed=5, secretary="Anna", record=True)
    assert [(g.loser, g.schock_aus, g.round_count) for g in fast.games] == [
        (g.loser, g.schock_aus, g.round_count) for g in recorded.games
    ]


def test_an_evening_has_five_games_per_present_member_and_guests_add_none():
    evening = simulate_evening(MEMBERS, GUESTS, CLUB, seed=3, secretary="Bernd")
    assert len(evening.games) == GAMES_PER_MEMBER * len(MEMBERS)


def test_the_secretary_opens_the_first_game():
    evening = simulate_evening(MEMBERS, GUESTS, CLUB, seed=3, secretary="Carla")
    assert evening.games[0].vorleger == "Carla"


def test_each_later_game_is_opened_by_the_last_games_loser():
    evening = simulate_evening(MEMBERS, GUESTS, CLUB, seed=3, secretary="Carla")
    assert [g.vorleger for g in evening.games[1:]] == [g.loser for g in evening.games[:-1]]


def test_guests_play_and_can_lose():
    losers = set()
    for seed in range(10):
        evening = simulate_evening(MEMBERS, GUESTS, CLUB, seed=seed, secretary="Anna")
        losers.update(g.loser for g in evening.games)
    assert "Gustav" in losers


def test_a_secretary_who_is_not_a_present_member_is_refused():
    with pytest.raises(RuleViolation) as excinfo:
        simulate_evening(MEMBERS, GUESTS, CLUB, seed=1, secretary="Gustav")
    assert excinfo.value.code == "unknown_player"


def test_a_simulated_game_needs_two_players():
    with pytest.raises(RuleViolation) as excinfo:
        simulate_game(["A"], CLUB, rng=random.Random(1))
    assert excinfo.value.code == "too_few_players"


def test_evening_schock_aus_are_the_games_in_order():
    evening = simulate_evening(MEMBERS, GUESTS, CLUB, seed=11, secretary="Anna")
    assert list(evening.schock_aus) == [name for g in evening.games for name in g.schock_aus]


# --- the engine agrees ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_replaying_simulated_games_through_the_engine_gives_the_same_result(preset):
    for game, schock_aus, last in recorded_games(preset):
        replay = replay_game(
            game.seated,
            game.replay_items(),
            PRESETS[preset],
            vorleger=game.vorleger,
            schock_aus_so_far=schock_aus,
            last_game=last,
        )
        assert (replay.loser, replay.schock_aus, len(replay.rounds)) == (
            game.loser,
            game.schock_aus,
            game.round_count,
        )


@pytest.mark.parametrize("preset", ["club", "regelwerk2019"])
def test_detailed_simulated_turns_replay_through_the_engine(preset):
    for game, schock_aus, last in recorded_games(preset, count=10):
        replay = replay_game(
            game.seated,
            game.replay_items(detail=True),
            PRESETS[preset],
            vorleger=game.vorleger,
            schock_aus_so_far=schock_aus,
            last_game=last,
        )
        assert replay.loser == game.loser


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_simulated_halves_and_final_match_the_engine(preset):
    for game, schock_aus, last in recorded_games(preset, count=10):
        engine = Game(
            game.seated,
            PRESETS[preset],
            game.vorleger,
            schock_aus_so_far=schock_aus,
            last_game=last,
        )
        for event, item in zip(game.events, game.replay_items(), strict=True):
            played = engine.apply(item)
            if isinstance(played, AusscheidungStep):
                assert played.tied == event.tied
                played = played.outcome
            if played is not None:
                assert (played.phase, played.loser) == (event.phase, event.loser)
        assert (engine.first_half_loser, engine.blattschuss) == (
            game.first_half_loser,
            game.blattschuss,
        )


# --- every simulated turn is a valid turn ---------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_simulated_turn_is_a_valid_turn(preset):
    checked = 0
    for game, _, _ in recorded_games(preset):
        for simulated in game.rounds:
            for turn in simulated.turns:
                throw = validate_turn(
                    turn.attempts,
                    PRESETS[preset],
                    max_attempts=turn.max_attempts,
                    muss_regel=turn.muss_regel,
                )
                assert throw == turn.throw and throw.natural == turn.throw.natural
                checked += 1
    assert checked > 1000


def test_simulated_turns_under_the_muss_regel_are_valid():
    rng = random.Random(99)
    checked = 0
    for _ in range(200):
        game = simulate_game("ABCDEF", CLUB, rng=rng, last_game=True, record=True)
        for simulated in game.rounds:
            for turn in simulated.turns:
                assert turn.muss_regel
                validate_turn(turn.attempts, CLUB, max_attempts=turn.max_attempts, muss_regel=True)
                checked += 1
    assert checked > 1000


def test_the_muss_regel_flag_follows_the_evenings_schock_aus_count():
    evening = simulate_evening(MEMBERS, GUESTS, CLUB, seed=8, secretary="Anna", record=True)
    count = 0
    flags = []
    expected = []
    for number, game in enumerate(evening.games, start=1):
        for simulated in game.rounds:
            for turn in simulated.turns:
                flags.append(turn.muss_regel)
                expected.append(
                    muss_regel_applies(
                        schock_aus_so_far=count,
                        last_game=number == len(evening.games),
                        rules=CLUB,
                    )
                )
                count += turn.throw.dice == (1, 1, 1)
    assert flags == expected


# --- the strategy ---------------------------------------------------------------------------


def test_later_players_use_at_most_the_vorlegers_attempts():
    for game, _, _ in recorded_games("app", count=10):
        for simulated in game.rounds:
            cap = simulated.turns[0].throw.attempts
            assert all(t.throw.attempts <= cap for t in simulated.turns[1:])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_later_players_who_stop_early_are_not_the_rounds_loser_at_that_moment(preset):
    rules = PRESETS[preset]
    for game, _, _ in recorded_games(preset, count=20):
        for simulated in game.rounds:
            keys = []
            for position, turn in enumerate(simulated.turns):
                key = round_key(turn.throw, position, rules)
                stopped_early = turn.throw.attempts < turn.max_attempts
                if position and stopped_early and turn.throw.dice != (1, 1, 1):
                    assert key > min(keys)
                keys.append(key)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_vorleger_turns_follow_the_strategy_rule(preset):
    rules = PRESETS[preset]
    tables = strategy_tables(rules)
    for game, _, _ in recorded_games(preset, count=20):
        for simulated in game.rounds:
            turn = simulated.turns[0]
            kept = 0
            for k, attempt in enumerate(turn.attempts, start=1):
                index = [0, 216, 252][kept] + sum(
                    (d - 1) * 6**j for j, d in enumerate(attempt.rolled)
                )
                goes_on = vorleger_goes_on(tables, index, k, turn.max_attempts, turn.muss_regel)
                assert goes_on == (k < len(turn.attempts))
                kept += len(attempt.keep) + attempt.umwandlung


def test_umwandlung_is_taken_when_going_on_with_two_sixes():
    seen = 0
    for game, _, _ in recorded_games("meisterschaft"):
        for simulated in game.rounds:
            for turn in simulated.turns:
                for attempt in turn.attempts[:-1]:
                    if attempt.rolled.count(6) >= 2:
                        assert attempt.umwandlung == attempt.rolled.count(6) - 1
                        seen += 1
    assert seen > 0


def test_simulate_turns_returns_throws_of_at_most_the_cap():
    turns = simulate_turns(500, CLUB, rng=random.Random(1), max_attempts=2)
    assert {k for _, k, _ in turns} <= {1, 2}


def test_simulate_turns_end_in_valid_throws():
    from games.rules.turns import validate_throw

    for dice, k, natural in simulate_turns(500, CLUB, rng=random.Random(2)):
        validate_throw(Throw(dice, k, natural), CLUB)


def test_an_evening_follows_the_given_seating():
    seating = ["Gustav", "Erik", "Anna", "Dieter", "Bernd", "Carla"]
    evening = simulate_evening(
        MEMBERS, GUESTS, CLUB, seed=4, secretary="Anna", seating=seating, record=True
    )
    first_round = evening.games[0].rounds[0]
    assert [t.player for t in first_round.turns] == [
        "Anna",
        "Dieter",
        "Bernd",
        "Carla",
        "Gustav",
        "Erik",
    ]


def test_a_seating_that_is_not_the_evenings_players_is_refused():
    with pytest.raises(RuleViolation) as excinfo:
        simulate_evening(MEMBERS, GUESTS, CLUB, seed=4, secretary="Anna", seating=MEMBERS)
    assert excinfo.value.code == "unknown_player"


# --- every flag is played -------------------------------------------------------

COMPOSED = dataclasses.replace(
    PRESETS["regelwerk2019"],
    jule=True,
    collected_strasse_counts=True,
    collected_general_counts=True,
    natural_wins_ties=True,
    einwuerfeln=True,
    deckel_total=15,
    name="composed",
)


def recorded(rules, count=60, seed=3, players="ABCDEF"):
    rng = random.Random(seed)
    return [simulate_game(players, rules, rng=rng, record=True) for _ in range(count)]


def test_composed_rule_sets_replay_through_the_engine():
    for game in recorded(COMPOSED):
        replay = replay_game(game.seated, game.replay_items(detail=True), COMPOSED)
        assert (replay.loser, replay.schock_aus, len(replay.rounds)) == (
            game.loser,
            game.schock_aus,
            game.round_count,
        )


@settings(max_examples=25, deadline=None)
@given(
    st.builds(
        RuleSet,
        format=st.sampled_from(["single", "halves"]),
        deckel_total=st.integers(1, 17),
        muss_regel=st.booleans(),
        keep_only_ones=st.booleans(),
        ausscheidung=st.booleans(),
        deckel_nehmen=st.booleans(),
        opener_choice=st.booleans(),
        einwuerfeln=st.booleans(),
        umwandlung=st.booleans(),
        jule=st.booleans(),
        collected_strasse_counts=st.booleans(),
        collected_general_counts=st.booleans(),
        natural_wins_ties=st.booleans(),
        koenigswurf=st.booleans(),
    ),
    st.integers(2, 6),
    st.integers(0, 2**32),
)
def test_simulated_games_of_any_flags_replay_through_the_engine(rules, players, seed):
    rng = random.Random(seed)
    for number in range(3):
        game = simulate_game("ABCDEF"[:players], rules, rng=rng, record=True, last_game=number == 2)
        replay = replay_game(
            game.seated, game.replay_items(detail=True), rules, last_game=number == 2
        )
        assert (replay.loser, replay.schock_aus) == (game.loser, game.schock_aus)


def test_the_ausscheidung_is_played_where_the_rules_have_it():
    kinds = {e.kind for g in recorded(PRESETS["meisterschaft"]) for e in g.rounds}
    assert kinds == {"ausscheidung", "round"}


def test_deckel_are_taken_only_against_a_schock_3_laid_in_one_attempt():
    rules = PRESETS["regelwerk2019"]
    taken = [r for g in recorded(rules, 200, players="AB") for r in g.rounds if r.taken_by]
    for simulated in taken:
        worst = min(rank(t.throw, rules) for t in simulated.turns)
        assert simulated.turns[0].throw.attempts == 1
        assert worst >= rank(Throw((1, 1, 3)), rules)
    assert taken


def test_the_first_half_loser_names_the_player_on_its_left():
    for game in recorded(PRESETS["regelwerk2019"], 30):
        (choice,) = [e for e in game.events if isinstance(e, ChooseOpener)]
        players = game.players
        left = players[(players.index(game.first_half_loser) + 1) % len(players)]
        assert choice.player == left


def test_with_name_opener_self_the_first_half_loser_opens_again():
    rng = random.Random(5)
    game = simulate_game(
        "ABCD",
        PRESETS["regelwerk2019"],
        rng=rng,
        record=True,
        strategy=Strategy(name_opener="self"),
    )
    assert not [e for e in game.events if isinstance(e, ChooseOpener)]


def test_the_late_player_joins_after_the_strategys_rounds():
    for game in recorded(PRESETS["stammtisch"], 30):
        (join,) = [e for e in game.events if isinstance(e, Join)]
        before = game.events.index(join)
        assert (join.player, game.seated) == ("F", tuple("ABCDE"))
        assert before == 2 or game.events[before - 1].phase == FIRST_HALF


def test_nobody_joins_when_the_strategy_says_so():
    rng = random.Random(5)
    game = simulate_game(
        "ABCD", PRESETS["stammtisch"], rng=rng, strategy=Strategy(join_after_rounds=None)
    )
    assert game.starting_players is None


def test_jule_is_thrown_where_the_rules_have_it():
    labels = {
        evaluate(t.throw, COMPOSED).label
        for g in recorded(COMPOSED, 200)
        for r in g.rounds
        for t in r.turns
    }
    assert "Jule" in labels


def test_without_umwandlung_no_simulated_turn_turns_sixes():
    rules = dataclasses.replace(CLUB, umwandlung=False)
    turns = [t for g in recorded(rules, 50) for r in g.rounds for t in r.turns]
    assert sum(a.umwandlung for t in turns for a in t.attempts) == 0 and turns


def test_with_umwandlung_simulated_turns_do_turn_sixes():
    turns = [t for g in recorded(CLUB, 50) for r in g.rounds for t in r.turns]
    assert sum(a.umwandlung for t in turns for a in t.attempts) > 0


def test_strategy_refuses_impossible_parameters():
    with pytest.raises(ValueError):
        Strategy(name_opener="right")


# --- simulate_statistics ---------------------------------------------------------------------


def test_statistics_count_the_games_simulated():
    stats = simulate_statistics(CLUB, 90, seed=1)
    assert (stats.with_muss_regel.games, stats.without_muss_regel.games) == (90, 90)


def test_statistics_are_the_same_for_the_same_seed():
    assert simulate_statistics(CLUB, 60, seed=4) == simulate_statistics(CLUB, 60, seed=4)


def test_statistics_without_the_muss_regel_differ_for_the_club():
    stats = simulate_statistics(CLUB, 300, seed=2)
    assert stats.with_muss_regel != stats.without_muss_regel


def test_statistics_of_a_rule_set_without_muss_regel_are_the_same_twice():
    stats = simulate_statistics(PRESETS["app"], 60, seed=2)
    assert stats.with_muss_regel == stats.without_muss_regel


def test_the_muss_regel_brings_more_schock_aus_per_game():
    # The Muss-Regel forces players on while a one shows: more 1-1-1 (seed 003's intent).
    stats = simulate_statistics(CLUB, 3000, seed=9)
    assert stats.with_muss_regel.schock_aus_per_game > stats.without_muss_regel.schock_aus_per_game


def test_statistics_rates_are_fractions_of_their_counts():
    measures = simulate_statistics(PRESETS["regelwerk2019"], 120, seed=6).with_muss_regel
    assert (
        measures.vorleger_loss_rate == Fraction(measures.vorleger_lost, measures.vorleger_rounds),
        measures.rounds_per_game == Fraction(measures.rounds, 120),
        0 < measures.opener_loss_rate < 1,
    ) == (True, True, True)


def test_statistics_match_the_games_they_summarise():
    rng = random.Random(8)
    games = [simulate_game("ABC", PRESETS["app"], rng=rng, record=True) for _ in range(30)]
    for game in games:
        lost = sum(r.loser == r.turns[0].player for r in game.rounds if r.kind != "ausscheidung")
        assert (game.vorleger_rounds, game.vorleger_lost) == (len(game.rounds), lost)


@pytest.mark.parametrize(("games", "players"), [(0, 6), (10, 1)])
def test_statistics_refuse_nonsense_sizes(games, players):
    with pytest.raises(ValueError):
        simulate_statistics(CLUB, games, seed=1, players=players)
