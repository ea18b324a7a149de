"""Runden owed and given."""

import datetime

import pytest

from games.evenings.models import SchockAus
from games.evenings.services import game_delete, game_update
from league.club.errors import BooksError
from league.runden.models import RundeGiven
from league.runden.selectors import (
    runden_overview,
)
from league.runden.services import (
    runde_mark_given,
    runde_unmark,
)

pytestmark = pytest.mark.django_db

LATER = datetime.date(2026, 10, 16)


def _schock_aus(evening, game_number: int, position: int = 1) -> SchockAus:
    return SchockAus.objects.get(game__evening=evening, game__number=game_number, position=position)


def test_the_open_runden_of_the_sample_are_the_three_owed(sample_entered, sample_evening):
    evening, _ = sample_entered
    got = [(r.ordinal, r.thrower.name, r.reason) for r in runden_overview(club=evening.club)]
    expected = [
        (r["ordinal"], r["thrower"], r["reason"]) for r in sample_evening["expected"]["runden_owed"]
    ]
    assert got == expected


def test_a_runde_marked_as_given_leaves_the_open_list(sample_entered):
    evening, _ = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    assert [r.ordinal for r in runden_overview(club=evening.club)] == [4, 5]


def test_a_runde_given_is_listed_with_its_date(sample_entered):
    evening, _ = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    (given,) = runden_overview(club=evening.club, status="given")
    assert (given.thrower.name, given.given_on) == ("Anna Becker", LATER)


def test_the_overview_can_show_one_member(sample_entered):
    evening, people = sample_entered
    rows = runden_overview(club=evening.club, member=people["Bernd Krause"], status="all")
    assert [(r.ordinal, r.reason) for r in rows] == [(5, "fifth")]


def test_a_schock_aus_that_owes_no_runde_cannot_be_marked(sample_entered):
    evening, _ = sample_entered
    with pytest.raises(BooksError) as exc:
        runde_mark_given(schock_aus=_schock_aus(evening, 7), given_on=LATER)
    assert exc.value.code == "no_runde_owed"


def test_a_runde_cannot_be_marked_twice(sample_entered):
    evening, _ = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    with pytest.raises(BooksError) as exc:
        runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    assert exc.value.code == "runde_already_given"


def test_a_runde_cannot_be_given_before_its_evening(sample_entered):
    evening, _ = sample_entered
    with pytest.raises(BooksError) as exc:
        runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=datetime.date(2026, 10, 1))
    assert exc.value.code == "given_before_evening"


def test_unmarking_a_runde_opens_it_again_and_the_trail_keeps_both(sample_entered):
    evening, _ = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    runde_unmark(schock_aus=_schock_aus(evening, 3))
    assert [r.ordinal for r in runden_overview(club=evening.club)] == [1, 4, 5]
    assert [h.history_type for h in RundeGiven.history.order_by("history_id")] == ["+", "-"]


def test_unmarking_a_runde_that_was_not_given_is_refused(sample_entered):
    evening, _ = sample_entered
    with pytest.raises(BooksError) as exc:
        runde_unmark(schock_aus=_schock_aus(evening, 3))
    assert exc.value.code == "runde_not_given"


def test_a_game_whose_runde_was_given_cannot_be_deleted(sample_entered):
    evening, _ = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    with pytest.raises(BooksError) as exc:
        game_delete(game=evening.games.get(number=3))
    assert exc.value.code == "runde_given"


def test_a_game_whose_runde_was_given_cannot_lose_its_schock_aus(sample_entered):
    evening, people = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 3), given_on=LATER)
    with pytest.raises(BooksError) as exc:
        game_update(game=evening.games.get(number=3), loser=people["Dieter Hahn"])
    assert exc.value.code == "runde_given"


def test_a_runde_given_that_is_no_longer_owed_stays_visible(sample_entered):
    evening, people = sample_entered
    runde_mark_given(schock_aus=_schock_aus(evening, 20, position=1), given_on=LATER)
    # Game 7's Schock-Aus is corrected away: Erik's becomes the 3rd of 4 and owes nothing.
    game_update(
        game=evening.games.get(number=7),
        loser=people["Bernd Krause"],
        vorleger=people["Erik Lange"],
    )
    rows = runden_overview(club=evening.club, status="given")
    assert [(r.thrower.name, r.reason, r.given_on) for r in rows] == [
        ("Erik Lange", "not_owed", LATER)
    ]
