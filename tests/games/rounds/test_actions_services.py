"""The seed actions of docs/rules.md 4 entered through the service: each in a
season whose preset has it, with the books following, and refused where it lacks it."""

import pytest

from games.evenings.models import Game
from games.rounds.models import Round
from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
)
from games.rounds.services import (
    game_record_rounds,
)
from league.club.errors import BooksError
from tests.games.rounds.actions import (
    ANNA,
    BERND,
    CARLA,
    DIETER,
    EXPECTED,
    action_evening,
    round_inputs,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_game_with_a_seed_action_is_lost_as_the_engine_says(sample_evening, name):
    preset, loser, schock_aus = EXPECTED[name]
    evening, people = action_evening(sample_evening, preset)
    game = game_record_rounds(evening=evening, rounds=round_inputs(name, people))
    assert game.loser == people[loser]
    assert game.entry_mode == Game.EntryMode.ROUNDS
    thrown = list(game.schock_aus.order_by("position").values_list("thrower__name", flat=True))
    assert thrown == schock_aus


def test_the_ausscheidung_steps_are_stored_tied_step_without_loser(sample_evening):
    evening, people = action_evening(sample_evening, "regelwerk2019")
    game = game_record_rounds(evening=evening, rounds=round_inputs("ausscheidung", people))
    rows = list(game.rounds.order_by("number"))
    assert [(r.kind, r.loser and r.loser.name, r.deckel) for r in rows] == [
        ("ausscheidung", None, 0),
        ("ausscheidung", DIETER, 13),
        ("round", DIETER, 13),
    ]
    assert [t.player.name for t in rows[1].throws.order_by("position")] == [BERND, DIETER]


def test_deckel_nehmen_is_stored_with_taker_and_covered_throw(sample_evening):
    evening, people = action_evening(sample_evening, "regelwerk2019")
    game = game_record_rounds(evening=evening, rounds=round_inputs("deckel_nehmen", people))
    row = game.rounds.get(number=1)
    assert (row.kind, row.loser, row.player, row.deckel, row.covered) == (
        "deckel_nehmen",
        people[BERND],
        people[BERND],
        3,
        [6, 4, 1],
    )
    assert [t.player.name for t in row.throws.all()] == [ANNA]


def test_opener_join_and_leave_are_rows_without_throws(sample_evening):
    evening, people = action_evening(sample_evening, "stammtisch")
    game = game_record_rounds(evening=evening, rounds=round_inputs("einwuerfeln", people))
    rows = game.rounds.filter(kind__in=["join", "leave"]).order_by("number")
    assert [(r.number, r.kind, r.player.name, r.after and r.after.name) for r in rows] == [
        (2, "join", DIETER, ANNA),
        (3, "leave", CARLA, None),
    ]
    assert not Round.objects.filter(pk__in=[r.pk for r in rows], throws__isnull=False).exists()


@pytest.mark.parametrize(
    ("preset", "name", "code"),
    [
        ("club", "ausscheidung", "ausscheidung_off"),
        ("stammtisch", "deckel_nehmen", "deckel_nehmen_off"),
        ("meisterschaft", "choose_opener", "opener_choice_off"),
        ("regelwerk2019", "einwuerfeln", "einwuerfeln_off"),
    ],
)
def test_an_action_the_season_lacks_is_refused_and_nothing_saved(
    sample_evening, preset, name, code
):
    evening, people = action_evening(sample_evening, preset)
    with pytest.raises(BooksError) as caught:
        game_record_rounds(evening=evening, rounds=round_inputs(name, people))
    assert caught.value.code == code
    assert caught.value.field.startswith("rounds[")
    assert not evening.games.exists()


def test_an_ausscheidung_in_a_club_season_is_refused_at_the_first_entry(sample_evening):
    evening, people = action_evening(sample_evening, "club")
    with pytest.raises(BooksError) as caught:
        game_record_rounds(evening=evening, rounds=round_inputs("ausscheidung", people))
    assert (caught.value.code, caught.value.field) == ("ausscheidung_off", "rounds[0]")


def test_a_player_with_deckel_may_not_leave(sample_evening):
    evening, people = action_evening(sample_evening, "stammtisch")
    rounds = round_inputs("einwuerfeln", people)[:1] + [
        RoundInput(kind="leave", player=people[BERND])
    ]
    with pytest.raises(BooksError) as caught:
        game_record_rounds(evening=evening, rounds=rounds)
    assert (caught.value.code, caught.value.field) == ("leave_with_deckel", "rounds[1].player")


def test_a_wrong_covered_throw_is_refused_at_the_takers_throw(sample_evening):
    evening, people = action_evening(sample_evening, "regelwerk2019")
    rounds = round_inputs("deckel_nehmen", people)
    rounds[1] = RoundInput(
        throws=[
            ThrowInput(player=people[n], dice=d, attempts=1)
            for n, d in [(BERND, (6, 5, 5)), (CARLA, (1, 1, 1)), (ANNA, (2, 2, 1))]
        ]
    )
    with pytest.raises(BooksError) as caught:
        game_record_rounds(evening=evening, rounds=rounds)
    assert (caught.value.code, caught.value.field) == (
        "covered_throw_mismatch",
        "rounds[1].throws[0]",
    )
