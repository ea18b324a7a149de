"""A game entered round by round under a halves-format rule set (docs/rules.md 4, seeds 000-004):
halves, final and Blattschuss come from the engine; the phases are stored per round."""

import datetime

import pytest

from games.evenings.services import evening_create
from games.rounds.models import Round
from games.rounds.selectors import (
    RoundInput,
    ThrowInput,
)
from games.rounds.services import (
    game_record_rounds,
)
from tests.factories import ClubFactory, MemberFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    club = ClubFactory(rule_preset="app")
    SeasonFactory(club=club, rule_preset="app")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True)
    bernd = MemberFactory(club=club, name="Bernd")
    ev = evening_create(
        club=club, date=datetime.date(2026, 3, 6), secretary=anna, present_members=[anna, bernd]
    )
    return ev, anna, bernd


def _round(*throws):
    return RoundInput(throws=[ThrowInput(player=p, dice=d, attempts=1) for p, d in throws])


def test_a_final_decides_when_the_halves_have_different_losers(evening):
    ev, anna, bernd = evening
    rounds = [
        _round((anna, (1, 1, 1)), (bernd, (6, 5, 2))),  # Bernd loses the first half
        _round((bernd, (1, 1, 1)), (anna, (5, 4, 2))),  # Anna loses the second half
        _round((bernd, (1, 1, 1)), (anna, (6, 4, 2))),  # the final, opened by Bernd
    ]
    game = game_record_rounds(evening=ev, rounds=rounds)
    assert game.loser == anna
    assert [sa.thrower for sa in game.schock_aus.order_by("position")] == [anna, bernd, bernd]


def test_each_round_keeps_its_phase(evening):
    ev, anna, bernd = evening
    rounds = [
        _round((anna, (1, 1, 1)), (bernd, (6, 5, 2))),
        _round((bernd, (1, 1, 1)), (anna, (5, 4, 2))),
        _round((bernd, (1, 1, 1)), (anna, (6, 4, 2))),
    ]
    game = game_record_rounds(evening=ev, rounds=rounds)
    assert list(game.rounds.values_list("phase", flat=True)) == [
        Round.Phase.FIRST_HALF,
        Round.Phase.SECOND_HALF,
        Round.Phase.FINAL,
    ]


def test_losing_both_halves_ends_the_game_without_a_final(evening):
    ev, anna, bernd = evening
    rounds = [
        _round((anna, (1, 1, 1)), (bernd, (6, 5, 2))),
        _round((bernd, (4, 2, 2)), (anna, (1, 1, 1))),  # Bernd again: Blattschuss
    ]
    game = game_record_rounds(evening=ev, rounds=rounds)
    assert game.loser == bernd
    assert game.rounds.count() == 2
