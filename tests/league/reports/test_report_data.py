"""The report's figures, read from the books (league/reports/selectors.py): the points over
the season, paid and open, the chronicle, the all-time records and the roll of honour."""

import datetime
from decimal import Decimal

import pytest

from games.evenings.services import evening_create, game_record
from league.club.services import member_create, season_get_or_create
from league.ledger.services import payment_cancel, payment_record
from league.reports.selectors import (
    club_records,
    season_report_data,
)
from league.standings.selectors import season_standings
from tests.factories import ClubFactory
from tests.sample import enter_sample_evening_copied

pytestmark = pytest.mark.django_db


@pytest.fixture
def duo():
    """A club of two members, Ada and Bert, and a helper to play one evening."""
    club = ClubFactory(name="Zweierrunde")
    ada = member_create(club=club, name="Ada", is_secretary=True)
    bert = member_create(club=club, name="Bert")

    def evening(date: datetime.date, losers, throwers=(), absent=()):
        season_get_or_create(club=club, year=date.year)
        present = [m for m in (ada, bert) if m not in absent]
        ev = evening_create(
            club=club,
            date=date,
            secretary=present[0],
            present_members=present,
            absent_members=list(absent),
        )
        # One Schock-Aus per thrower and game: each thrower gets a game of its own; the
        # losers take turns over as many games as needed.
        for number in range(1, max(len(losers), len(throwers)) + 1):
            game_record(
                evening=ev,
                number=number,
                loser=losers[(number - 1) % len(losers)],
                schock_aus_throwers=[throwers[number - 1]] if number <= len(throwers) else [],
            )
        return ev

    return club, ada, bert, evening


def records_by_key(club, year):
    records, champions, first = club_records(club=club, up_to_year=year)
    return {r.key: r for r in records}, champions, first


def test_points_series_ends_at_each_members_season_points(sample_evening):
    enter_sample_evening_copied(sample_evening)
    evening, _ = enter_sample_evening_copied(sample_evening, date=datetime.date(2026, 10, 16))
    report = season_report_data(season=evening.season)
    points = {r.member.name: r.points for r in season_standings(season=evening.season).rows}
    assert {s.member.name: s.points[-1] for s in report.series} == points


def test_points_series_has_one_value_per_evening(sample_evening):
    enter_sample_evening_copied(sample_evening)
    evening, _ = enter_sample_evening_copied(sample_evening, date=datetime.date(2026, 10, 16))
    report = season_report_data(season=evening.season)
    assert all(len(s.points) == len(report.evening_dates) == 2 for s in report.series)
    anna = next(s for s in report.series if s.member.name == "Anna Becker")
    assert anna.points[1] == 2 * anna.points[0]


def test_paid_and_open_come_from_the_payments(sample_evening):
    evening, people = enter_sample_evening_copied(sample_evening)
    payment_record(member=people["Dieter Hahn"], amount=Decimal("2.00"), paid_on=evening.date)
    report = season_report_data(season=evening.season)
    dieter = next(d for d in report.dues if d.member.name == "Dieter Hahn")
    assert (dieter.money, dieter.paid, dieter.open) == (
        Decimal("2.50"),
        Decimal("2.00"),
        Decimal("0.50"),
    )
    assert report.paid_total == Decimal("2.00")
    assert report.open_total == report.money_total - Decimal("2.00")


def test_chronicle_marks_the_runden_owed(sample_evening):
    evening, _ = enter_sample_evening_copied(sample_evening)
    report = season_report_data(season=evening.season)
    owed = [(c.ordinal, c.thrower.name, c.runde) for c in report.chronicle if c.runde]
    expected = [
        (r["ordinal"], r["thrower"], r["reason"]) for r in sample_evening["expected"]["runden_owed"]
    ]
    assert owed == expected


def test_most_schock_aus_in_a_season_counts_across_seasons(duo):
    club, ada, bert, evening = duo
    evening(datetime.date(2025, 3, 1), [bert], throwers=[ada, ada])
    evening(datetime.date(2026, 3, 1), [bert], throwers=[bert])
    records, _, first = records_by_key(club, 2026)
    assert records["schock_aus_season"].value == 2
    assert records["schock_aus_season"].holders == ["Ada (2025)"]
    assert first == 2025


def test_records_stop_at_the_reports_season(duo):
    club, ada, bert, evening = duo
    evening(datetime.date(2025, 3, 1), [bert], throwers=[ada])
    evening(datetime.date(2026, 3, 1), [bert], throwers=[bert, bert, bert])
    records, _, _ = records_by_key(club, 2025)
    assert records["schock_aus_season"].holders == ["Ada (2025)"]


def test_longest_run_without_a_lost_game_skips_absent_evenings(duo):
    club, ada, bert, evening = duo
    evening(datetime.date(2026, 1, 2), [ada])
    evening(datetime.date(2026, 1, 9), [bert])
    evening(datetime.date(2026, 1, 16), [bert], absent=[ada])
    evening(datetime.date(2026, 1, 23), [bert])
    evening(datetime.date(2026, 1, 30), [ada])
    records, _, _ = records_by_key(club, 2026)
    run = records["run_no_loss"]
    assert run.value == 2
    assert run.holders == ["Ada (09.01.2026 – 23.01.2026)"]


def test_tied_records_name_every_holder(duo):
    club, ada, bert, evening = duo
    evening(datetime.date(2026, 2, 6), [ada, bert])
    records, _, _ = records_by_key(club, 2026)
    assert records["lost_evening"].holders == ["Ada (06.02.2026)", "Bert (06.02.2026)"]


def test_roll_of_honour_names_each_seasons_champion(duo):
    club, ada, bert, evening = duo
    evening(datetime.date(2025, 5, 1), [bert])
    evening(datetime.date(2026, 5, 1), [ada])
    _, champions, _ = records_by_key(club, 2026)
    assert [(c.year, c.names) for c in champions] == [(2026, ["Bert"]), (2025, ["Ada"])]


def test_champion_of_the_roll_of_honour_matches_the_standings(sample_evening):
    evening, _ = enter_sample_evening_copied(sample_evening)
    _, champions, _ = records_by_key(evening.club, 2026)
    leaders = [r.member.name for r in season_standings(season=evening.season).rows if r.place == 1]
    assert champions[0].names == leaders


def test_report_data_takes_as_many_queries_for_three_evenings_as_for_one(sample_evening):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    evening, _ = enter_sample_evening_copied(sample_evening)
    with CaptureQueriesContext(connection) as one:
        season_report_data(season=evening.season)
    enter_sample_evening_copied(sample_evening, date=datetime.date(2026, 10, 16))
    enter_sample_evening_copied(sample_evening, date=datetime.date(2025, 10, 17))
    with CaptureQueriesContext(connection) as three:
        season_report_data(season=evening.season)
    assert len(three) == len(one)


def test_a_cancelled_payment_is_not_counted_as_paid(sample_evening):
    evening, people = enter_sample_evening_copied(sample_evening)
    payment = payment_record(
        member=people["Anna Becker"], amount=Decimal("2.00"), paid_on=evening.date
    )
    payment_cancel(payment=payment)
    report = season_report_data(season=evening.season)
    anna = next(d for d in report.dues if d.member.name == "Anna Becker")
    assert anna.paid == Decimal("0.00")
