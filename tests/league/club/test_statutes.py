"""The club's statutes (league.club.statutes): every figure once, and the books read it."""

import dataclasses
from decimal import Decimal

import pytest

from games.evenings.selectors import evening_books
from league.club import statutes as statutes_module
from league.club.statutes import CLUB_STATUTES, Statutes, season_rules
from league.ledger.services import member_balance
from league.standings.selectors import season_standings
from tests.sample import enter_sample_evening


def test_a_mark_is_one_dm_up_to_2001():
    assert CLUB_STATUTES.mark_value(2001) == (Decimal("1.00"), "DM")


def test_a_mark_is_fifty_cents_from_2002():
    assert CLUB_STATUTES.mark_value(2002) == (Decimal("0.50"), "EUR")


def test_points_are_plus_one_per_schock_aus_and_minus_one_per_lost_game():
    assert CLUB_STATUTES.points(schock_aus=3, games_lost=5) == -2


def test_an_absence_costs_six_marks_and_a_lost_game_one():
    assert CLUB_STATUTES.marks(games_lost=2, evenings_absent=1) == 8


def test_an_evening_has_five_games_per_present_member():
    assert CLUB_STATUTES.games_expected(present_members=5) == 25


def test_the_runden_are_first_every_fifth_and_last():
    reasons = [r.reason for r in CLUB_STATUTES.runden(list("abcdef"))]
    assert reasons == ["first", "fifth", "last"]


def test_an_unknown_preset_name_plays_the_club_rules():
    class Season:
        rule_preset = "no-such-preset"
        rules: dict = {}

    assert season_rules(Season()).name == "club"


@pytest.fixture
def other_statutes(monkeypatch):
    """Statutes of another club: 2 points a Schock-Aus, 3 Marks a lost game, 10 an absence."""
    other = dataclasses.replace(
        Statutes(), points_per_schock_aus=2, marks_per_game_lost=3, marks_per_absence=10
    )
    monkeypatch.setattr(statutes_module, "CLUB_STATUTES", other)
    return other


@pytest.mark.django_db
def test_the_evening_sheet_reads_its_figures_from_the_statutes(sample_evening, other_statutes):
    evening, people = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    absent = next(p for p in books.people if p.absent)
    loser = next(p for p in books.people if p.games_lost)
    assert absent.marks == 10
    assert loser.marks == 3 * loser.games_lost
    assert loser.points == 2 * loser.schock_aus - loser.games_lost


@pytest.mark.django_db
def test_the_ledger_and_the_standings_follow_the_statutes(sample_evening, other_statutes):
    evening, people = enter_sample_evening(sample_evening)
    table = season_standings(season=evening.season)
    row = next(r for r in table.rows if r.games_lost)
    assert row.points == 2 * row.schock_aus - row.games_lost
    absent_name = sample_evening["evening"]["absent_members"][0]
    charged = member_balance(member=people[absent_name], season=evening.season)
    assert charged == 10 * evening.season.mark_value
