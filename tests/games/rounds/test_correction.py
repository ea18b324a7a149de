"""A game entered round by round cannot be corrected short: its rounds decide its result."""

import pytest

from games.evenings.services import game_delete, game_update
from league.club.errors import BooksError
from tests.games.rounds.test_services import _evening

pytestmark = pytest.mark.django_db


def test_changing_the_loser_of_a_game_entered_by_rounds_is_refused(sample_evening):
    evening, people = _evening(sample_evening)
    game = evening.games.get(number=20)
    throwers = [sa.thrower for sa in game.schock_aus.order_by("position")]
    with pytest.raises(BooksError) as info:
        game_update(
            game=game,
            loser=people["Erik Lange"],
            schock_aus_throwers=throwers,
            vorleger=game.vorleger,
        )
    assert info.value.code == "game_entered_by_rounds"
    assert evening.games.get(number=20).loser.name == "Anna Becker"


def test_dropping_a_schock_aus_of_a_game_entered_by_rounds_is_refused(sample_evening):
    evening, people = _evening(sample_evening)
    game = evening.games.get(number=20)
    with pytest.raises(BooksError) as info:
        game_update(
            game=game,
            loser=game.loser,
            schock_aus_throwers=[people["Erik Lange"]],
            vorleger=game.vorleger,
        )
    assert info.value.code == "game_entered_by_rounds"
    assert game.schock_aus.count() == 2


def test_renumbering_a_game_entered_by_rounds_is_allowed(sample_evening):
    evening, _ = _evening(sample_evening)
    game = evening.games.get(number=20)
    game_delete(game=evening.games.get(number=25))
    throwers = [sa.thrower for sa in game.schock_aus.order_by("position")]
    game_update(
        game=game, loser=game.loser, schock_aus_throwers=throwers, vorleger=game.vorleger, number=25
    )
    assert evening.games.get(number=25).rounds.count() == game.rounds.count() > 0
