"""The simulator: whole games and evenings with random dice and the plain strategy."""

import random

import pytest

from games.rules import PRESETS, RuleViolation, Throw, round_key
from games.rules.engine import Game, replay_game
from games.rules.simulator import (
    GAMES_PER_MEMBER,
    simulate_evening,
    simulate_game,
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
            game.players,
            [r.entries() for r in game.rounds],
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
            game.players,
            [r.entries(detail=True) for r in game.rounds],
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
            game.players,
            PRESETS[preset],
            game.vorleger,
            schock_aus_so_far=schock_aus,
            last_game=last,
        )
        for simulated in game.rounds:
            outcome = engine.play_round(simulated.entries())
            assert (outcome.phase, outcome.loser) == (simulated.phase, simulated.loser)
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
