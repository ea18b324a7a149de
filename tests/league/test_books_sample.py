"""The sample evening's books, computed by the services, match its `expected` section."""

import datetime
from decimal import Decimal

import pytest

from games.evenings.selectors import evening_books
from league.standings.selectors import season_standings
from tests.sample import enter_sample_evening

pytestmark = pytest.mark.django_db


def test_sample_evening_games_expected_and_entered(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    assert books.games_expected == sample_evening["expected"]["games_expected"]
    assert books.games_entered == sample_evening["expected"]["games_entered"]


def test_sample_evening_schock_aus_have_their_ordinals(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    got = [
        {"ordinal": s.ordinal, "game": s.game, "thrower": s.thrower.name} for s in books.schock_aus
    ]
    assert got == sample_evening["expected"]["schock_aus"]


def test_sample_evening_runden_owed_with_reasons(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    got = [
        {"ordinal": r.ordinal, "thrower": r.thrower.name, "reason": r.reason} for r in books.runden
    ]
    assert got == sample_evening["expected"]["runden_owed"]


def test_sample_evening_figures_per_person(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    for line in books.people:
        expected = sample_evening["expected"]["per_person"][line.member.name]
        assert line.games_lost == expected["games_lost"], line.member.name
        assert line.schock_aus == expected["schock_aus"], line.member.name
        assert line.marks == expected["marks"], line.member.name
        if not expected.get("guest"):
            assert line.points == expected["points"], line.member.name
        assert line.absent == expected.get("absent", False)
        assert line.guest == expected.get("guest", False)


def test_sample_evening_totals(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    books = evening_books(evening=evening)
    assert books.marks_total == sample_evening["expected"]["marks_total"]
    assert books.money_total == Decimal(sample_evening["expected"]["money_total"])
    assert books.currency == sample_evening["expected"]["currency"]
    assert books.warnings == []


def test_sample_season_standings_share_places(sample_evening):
    evening, _ = enter_sample_evening(sample_evening)
    standings = season_standings(season=evening.season)
    got = [{"place": r.place, "member": r.member.name, "points": r.points} for r in standings.rows]
    assert got == sample_evening["expected"]["standings"]
    assert [g.member.name for g in standings.guests] == ["Gustav Meier"]
    assert standings.marks_total == sample_evening["expected"]["marks_total"]
    assert standings.money_total == Decimal(sample_evening["expected"]["money_total"])


def test_a_season_of_two_sample_evenings_doubles_every_figure(sample_evening):
    enter_sample_evening(sample_evening)
    evening, _ = enter_sample_evening(sample_evening, date=datetime.date(2026, 10, 16))
    standings = season_standings(season=evening.season)
    expected = sample_evening["expected"]
    assert standings.marks_total == 2 * expected["marks_total"]
    assert standings.money_total == 2 * Decimal(expected["money_total"])
    assert standings.runden == 2 * len(expected["runden_owed"])
    for row in standings.rows:
        person = expected["per_person"][row.member.name]
        assert row.points == 2 * person["points"]
        assert row.marks == 2 * person["marks"]
    assert [r.place for r in standings.rows] == [s["place"] for s in expected["standings"]]
